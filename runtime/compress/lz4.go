package compress

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/pierrec/lz4/v4"

	"github.com/pqgen/pqgen/runtime/meta"
)

// LZ4 magic numbers of the frame format (current and legacy).
const (
	lz4FrameMagic       = 0x184D2204
	lz4LegacyFrameMagic = 0x184C2102
)

// HadoopLZ4BlockSize is the largest input chunk CompressHadoopLZ4 puts in one
// Hadoop frame. Hadoop's LZ4 codec works with 256 KiB buffers by default
// (io.compression.codec.lz4.buffersize); 128 KiB of input and its
// compressed form both fit.
const HadoopLZ4BlockSize = 128 << 10

var lz4Compressors = sync.Pool{New: func() any { return new(lz4.Compressor) }}

var lz4HCCompressors = sync.Pool{New: func() any { return new(lz4.CompressorHC) }}

// lz4Block appends the LZ4 block encoding of src to dst (level 0: the fast
// coder, 1..9: HC with depth 1<<(8+level)).
func lz4Block(dst, src []byte, level Level) ([]byte, error) {
	bound := lz4.CompressBlockBound(len(src))
	n := len(dst)
	dst = slices.Grow(dst, bound)
	win := dst[n : n+bound]
	var m int
	var err error
	if level == DefaultLevel {
		c := lz4Compressors.Get().(*lz4.Compressor)
		m, err = c.CompressBlock(src, win)
		lz4Compressors.Put(c)
	} else {
		c := lz4HCCompressors.Get().(*lz4.CompressorHC)
		c.Level = lz4.CompressionLevel(1 << (8 + uint(level)))
		m, err = c.CompressBlock(src, win)
		lz4HCCompressors.Put(c)
	}
	if err != nil {
		return dst[:n], err
	}
	if m == 0 {
		if len(src) != 0 {
			return dst[:n], errors.New("lz4: block compressor returned nothing")
		}
		// The LZ4 block holding nothing: one token with no literal.
		win[0] = 0
		m = 1
	}
	return dst[:n+m], nil
}

// compressLZ4Raw appends the LZ4 block (LZ4_RAW) encoding of src to dst.
func compressLZ4Raw(dst, src []byte, level Level) ([]byte, error) {
	if len(src) > lz4MaxInput {
		return dst, fmt.Errorf("compress: LZ4_RAW: %w: input of %d bytes exceeds the LZ4 block limit", ErrUnsupported, len(src))
	}
	out, err := lz4Block(dst, src, level)
	if err != nil {
		return dst, fmt.Errorf("compress: LZ4_RAW: %w", err)
	}
	return out, nil
}

// lz4MaxInput is LZ4_MAX_INPUT_SIZE of the reference library.
const lz4MaxInput = 0x7E000000

// CompressHadoopLZ4 appends src compressed with the deprecated LZ4 codec
// (CompressionCodec LZ4 = 5) in the Hadoop framing to dst: a sequence of
// frames, each a big-endian uint32 decompressed size, a big-endian uint32
// compressed size and that many bytes of one LZ4 block, every frame holding
// at most [HadoopLZ4BlockSize] input bytes. An empty src is one frame of
// sizes 0 and 1 holding the empty block.
//
// This is the explicit opt-in for writing the deprecated codec, for
// consumers that cannot read LZ4_RAW; new files should use LZ4_RAW.
func CompressHadoopLZ4(dst, src []byte) ([]byte, error) {
	n0 := len(dst)
	for first := true; first || len(src) > 0; first = false {
		chunk := src[:min(len(src), HadoopLZ4BlockSize)]
		src = src[len(chunk):]
		hdr := len(dst)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(chunk)))
		dst = append(dst, 0, 0, 0, 0)
		var err error
		dst, err = lz4Block(dst, chunk, DefaultLevel)
		if err != nil {
			return dst[:n0], fmt.Errorf("compress: LZ4: %w", err)
		}
		binary.BigEndian.PutUint32(dst[hdr+4:], uint32(len(dst)-hdr-8))
	}
	return dst, nil
}

// decompressLZ4Raw decodes one LZ4 block into out.
func decompressLZ4Raw(out, src []byte) error {
	m, err := lz4Decode(out, src)
	if err != nil {
		// The decoder cannot tell a corrupt block from one that decodes to
		// more than len(out) bytes.
		return corrupt(meta.LZ4Raw, fmt.Errorf("%w (or more than the declared %d bytes)", err, len(out)))
	}
	if m != len(out) {
		return mismatch(meta.LZ4Raw, m, len(out), "")
	}
	return nil
}

// decompressLZ4 decodes the deprecated LZ4 codec: the Hadoop framing first,
// then, when that does not parse to exactly len(out) bytes, the LZ4 frame
// format (when src starts with its magic) and last a bare LZ4 block.
func decompressLZ4(out, src []byte) error {
	if decodeHadoop(out, src, lz4Chunk) {
		return nil
	}
	if len(src) >= 4 {
		if magic := binary.LittleEndian.Uint32(src); magic == lz4FrameMagic || magic == lz4LegacyFrameMagic {
			return decompressLZ4Frame(out, src)
		}
	}
	m, err := lz4Decode(out, src)
	if err == nil && m == len(out) {
		return nil
	}
	if total, ok := hadoopFramedSize(src); ok && total != len(out) {
		return mismatch(meta.LZ4, total, len(out), "per the Hadoop framing")
	}
	if err != nil {
		return corrupt(meta.LZ4, fmt.Errorf("neither Hadoop framing, LZ4 frame nor LZ4 block: %w", err))
	}
	return mismatch(meta.LZ4, m, len(out), "as a bare LZ4 block")
}

func lz4Chunk(dst, src []byte) (int, error) { return lz4Decode(dst, src) }

// errLZ4NotEmpty reports a block that does not decode to nothing.
var errLZ4NotEmpty = errors.New("lz4: block is not the empty block")

// lz4Decode decodes one LZ4 block into dst (bounded by len(dst)).
// lz4.UncompressBlock (v4.1.33, amd64 assembly) dereferences a nil dst
// when len(dst) == 0 (found by FuzzDecompressLZ4), so an empty dst is
// handled here: the only block that decodes to nothing is the single token
// 0x00.
func lz4Decode(dst, src []byte) (int, error) {
	if len(dst) == 0 {
		if len(src) == 1 && src[0] == 0 {
			return 0, nil
		}
		return 0, errLZ4NotEmpty
	}
	return lz4.UncompressBlock(src, dst)
}

type lz4ReaderState struct {
	r     *lz4.Reader
	src   bytes.Reader
	probe [1]byte
}

var lz4Readers = sync.Pool{New: func() any { return &lz4ReaderState{r: lz4.NewReader(nil)} }}

func decompressLZ4Frame(out, src []byte) error {
	st := lz4Readers.Get().(*lz4ReaderState)
	defer lz4Readers.Put(st)
	st.src.Reset(src)
	st.r.Reset(&st.src)
	err := readExact(meta.LZ4, st.r, out, st.probe[:])
	st.src.Reset(nil)
	return err
}

// hadoopFramedSize parses src as Hadoop frames of one chunk each (the
// layout every known writer produces: big-endian uint32 decompressed size,
// big-endian uint32 compressed size, compressed bytes) without decoding, and
// returns the sum of the declared decompressed sizes. It is used only to
// explain a failed decode as a size mismatch.
func hadoopFramedSize(src []byte) (total int, ok bool) {
	for len(src) > 0 {
		if len(src) < 8 {
			return 0, false
		}
		raw, c := binary.BigEndian.Uint32(src), binary.BigEndian.Uint32(src[4:])
		if uint64(c) > uint64(len(src)-8) {
			return 0, false
		}
		total = int(min(uint64(total)+uint64(raw), math.MaxInt32))
		src = src[8+c:]
	}
	return total, true
}

// decodeHadoop decodes the Hadoop block framing (BlockCompressorStream) used
// by the deprecated LZ4 codec and by LZO: a sequence of blocks, each a
// big-endian uint32 decompressed length followed by chunks (a big-endian
// uint32 compressed length and that many bytes) until the block's
// decompressed length is reached. It reports whether src parsed completely
// and decoded to exactly len(out) bytes; out may be clobbered either way.
func decodeHadoop(out, src []byte, chunk func(dst, src []byte) (int, error)) bool {
	pos := 0
	for len(src) > 0 {
		if len(src) < 8 {
			return false
		}
		raw := binary.BigEndian.Uint32(src)
		src = src[4:]
		if uint64(raw) > uint64(len(out)-pos) {
			return false
		}
		end := pos + int(raw)
		if raw == 0 {
			src = skipEmptyChunk(src, chunk)
			continue
		}
		for pos < end {
			if len(src) < 4 {
				return false
			}
			c := binary.BigEndian.Uint32(src)
			src = src[4:]
			if c == 0 || uint64(c) > uint64(len(src)) {
				return false
			}
			m, err := chunk(out[pos:end], src[:c])
			if err != nil || m == 0 {
				return false
			}
			pos += m
			src = src[c:]
		}
	}
	return pos == len(out)
}

// skipEmptyChunk skips the chunk after a block of decompressed length 0 when
// there is one that decodes to nothing (Arrow writes an empty input as
// sizes 0 and 1 and the empty LZ4 block).
func skipEmptyChunk(src []byte, chunk func(dst, src []byte) (int, error)) []byte {
	if len(src) < 4 {
		return src
	}
	c := binary.BigEndian.Uint32(src)
	if c == 0 || uint64(c) > uint64(len(src)-4) {
		return src
	}
	if m, err := chunk(nil, src[4:4+c]); err == nil && m == 0 {
		return src[4+c:]
	}
	return src
}
