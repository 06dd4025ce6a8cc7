// The codec-independent API: levels, sentinels, dispatch and the bounded
// streaming read. Specification of the codecs:
// https://parquet.apache.org/docs/file-format/data-pages/compression/.

package compress

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/pqgen/pqgen/runtime/meta"
)

// Sentinel errors. Errors returned by this package wrap one of them together
// with the codec name (and the library error when there is one).
var (
	// ErrUnsupported reports a codec this package cannot read or write
	// (writing LZO, writing LZ4 through Compress, unknown codec values).
	ErrUnsupported = errors.New("unsupported compression codec")
	// ErrSizeMismatch reports a stream that decodes to a size other than the
	// declared uncompressed size (or a negative declared size).
	ErrSizeMismatch = errors.New("decompressed size differs from the declared size")
	// ErrCorrupt reports a compressed stream that cannot be decoded.
	ErrCorrupt = errors.New("corrupt compressed data")
	// ErrInvalidLevel reports a compression level outside the codec's range.
	ErrInvalidLevel = errors.New("invalid compression level")
)

// Level is a compression level in the codec's own scale. [DefaultLevel] (0)
// selects the codec's default; the accepted ranges are:
//
//	GZIP     1..9   (flate levels; 1 fastest, 9 smallest)
//	BROTLI   1..11  (Brotli quality; quality 0 is not reachable)
//	ZSTD     1..22  (zstd levels, mapped onto the encoder's four speeds:
//	                 1..2 fastest, 3..5 default, 6..9 better, 10..22 best;
//	                 DefaultLevel is the fastest speed, about zstd level 1,
//	                 the default of Arrow C++; 3 is parquet-java's)
//	LZ4_RAW  1..9   (LZ4 HC search depth; DefaultLevel is the fast coder)
//	SNAPPY   1..3   (1 fast, the default; 2 better; 3 best: all plain Snappy)
//	LZ4      (the Hadoop-framed coder has no level)
//
// UNCOMPRESSED accepts DefaultLevel only.
type Level int

// DefaultLevel selects the codec's default compression level.
const DefaultLevel Level = 0

// CanDecompress reports whether [Decompress] supports codec.
func CanDecompress(codec meta.CompressionCodec) bool {
	if codec == meta.Brotli {
		return brotliLinked
	}
	return codec >= meta.Uncompressed && codec <= meta.LZ4Raw
}

// CanCompress reports whether [Compress] supports codec. LZ4 (Hadoop
// framing) is written only by [CompressHadoopLZ4]; LZO is never written.
func CanCompress(codec meta.CompressionCodec) bool {
	return CanDecompress(codec) && codec != meta.LZO && codec != meta.LZ4
}

// ValidLevel reports whether level is accepted by [Compress] for codec;
// the error wraps [ErrInvalidLevel] or [ErrUnsupported].
func ValidLevel(codec meta.CompressionCodec, level Level) error {
	if !CanCompress(codec) {
		return unsupportedWrite(codec)
	}
	if level == DefaultLevel {
		return nil
	}
	lo, hi := Level(1), Level(0)
	switch codec {
	case meta.Gzip, meta.LZ4Raw:
		hi = 9
	case meta.Brotli:
		hi = 11
	case meta.Snappy:
		hi = 3
	case meta.Zstd:
		hi = 22
	}
	if level < lo || level > hi {
		if hi == 0 {
			return fmt.Errorf("compress: %s: %w %d (the codec has no levels)", codec.String(), ErrInvalidLevel, level)
		}
		return fmt.Errorf("compress: %s: %w %d (want %d..%d)", codec.String(), ErrInvalidLevel, level, lo, hi)
	}
	return nil
}

func unsupportedWrite(codec meta.CompressionCodec) error {
	switch codec {
	case meta.LZO:
		return fmt.Errorf("compress: LZO: %w: writing LZO is not supported", ErrUnsupported)
	case meta.LZ4:
		return fmt.Errorf("compress: LZ4: %w: the deprecated Hadoop-framed LZ4 is written only by CompressHadoopLZ4; use LZ4_RAW", ErrUnsupported)
	}
	return unsupportedRead(codec)
}

func unsupportedRead(codec meta.CompressionCodec) error {
	if codec == meta.Brotli && !brotliLinked {
		return fmt.Errorf("compress: BROTLI: %w: this program was built with -tags pqgen_nobrotli", ErrUnsupported)
	}
	return fmt.Errorf("compress: %s: %w", codec.String(), ErrUnsupported)
}

// Compress appends the compressed form of src to dst and returns the
// extended slice. dst and src must not overlap. An empty src produces the
// codec's valid encoding of nothing (for example an empty ZSTD frame), never
// zero bytes, except for UNCOMPRESSED, whose output is a copy of src.
//
// Compress fails with [ErrUnsupported] for LZO and for LZ4 (use
// [CompressHadoopLZ4] to write the deprecated codec on purpose) and with
// [ErrInvalidLevel] for a level outside the codec's range (see [Level]).
func Compress(dst, src []byte, codec meta.CompressionCodec, level Level) ([]byte, error) {
	if level != DefaultLevel {
		if err := ValidLevel(codec, level); err != nil {
			return dst, err
		}
	}
	switch codec {
	case meta.Uncompressed:
		return append(dst, src...), nil
	case meta.Snappy:
		return compressSnappy(dst, src, level)
	case meta.Gzip:
		return compressGzip(dst, src, level)
	case meta.Brotli:
		return compressBrotli(dst, src, level)
	case meta.Zstd:
		return compressZstd(dst, src, level)
	case meta.LZ4Raw:
		return compressLZ4Raw(dst, src, level)
	}
	return dst, unsupportedWrite(codec)
}

// Decompress decodes src, compressed with codec, appends exactly
// uncompressedSize bytes to dst and returns the extended slice. dst and src
// must not overlap.
//
// Preconditions (the caller's): uncompressedSize is the page header's
// uncompressed size, already checked against the caller's maximum; dst is
// grown by at most uncompressedSize bytes (once, when its capacity is short)
// and no decoder writes beyond that window, so a hostile stream cannot make
// Decompress allocate output beyond the declared size.
//
// An empty src with uncompressedSize 0 returns dst without reaching a codec.
// UNCOMPRESSED copies src (callers wanting to alias it can skip the call).
// On error the returned slice is dst with its original length; the bytes
// after it may have been overwritten.
func Decompress(dst, src []byte, codec meta.CompressionCodec, uncompressedSize int) ([]byte, error) {
	if uncompressedSize < 0 {
		return dst, fmt.Errorf("compress: %s: %w: negative declared size %d", codec.String(), ErrSizeMismatch, uncompressedSize)
	}
	if !CanDecompress(codec) {
		return dst, unsupportedRead(codec)
	}
	if len(src) == 0 {
		if uncompressedSize == 0 {
			return dst, nil
		}
		return dst, mismatch(codec, 0, uncompressedSize, "empty input")
	}
	n := len(dst)
	dst = slices.Grow(dst, uncompressedSize)
	out := dst[n : n+uncompressedSize : n+uncompressedSize]
	var err error
	switch codec {
	case meta.Uncompressed:
		if len(src) != uncompressedSize {
			err = mismatch(codec, len(src), uncompressedSize, "")
		} else {
			copy(out, src)
		}
	case meta.Snappy:
		err = decompressSnappy(out, src)
	case meta.Gzip:
		err = decompressGzip(out, src)
	case meta.LZO:
		err = decompressLZO(out, src)
	case meta.Brotli:
		err = decompressBrotli(out, src)
	case meta.LZ4:
		err = decompressLZ4(out, src)
	case meta.Zstd:
		err = decompressZstd(out, src)
	case meta.LZ4Raw:
		err = decompressLZ4Raw(out, src)
	}
	if err != nil {
		return dst[:n], err
	}
	return dst[:n+uncompressedSize], nil
}

func corrupt(codec meta.CompressionCodec, cause error) error {
	if cause == nil {
		return fmt.Errorf("compress: %s: %w", codec.String(), ErrCorrupt)
	}
	return fmt.Errorf("compress: %s: %w: %w", codec.String(), ErrCorrupt, cause)
}

// mismatch reports a decoded size differing from the declared one; got < 0
// means "more than want".
func mismatch(codec meta.CompressionCodec, got, want int, note string) error {
	if note != "" {
		note = " (" + note + ")"
	}
	if got < 0 {
		return fmt.Errorf("compress: %s: %w: more than the declared %d bytes%s", codec.String(), ErrSizeMismatch, want, note)
	}
	return fmt.Errorf("compress: %s: %w: got %d bytes, declared %d%s", codec.String(), ErrSizeMismatch, got, want, note)
}

// readExact fills out from a streaming decoder r and checks that the stream
// ends exactly there. A clean io.EOF before out is full or more output after
// it is a size mismatch; any other error is corruption. probe is a 1-byte
// scratch buffer (held by the caller's pooled state: a local array would
// escape through the interface call).
func readExact(codec meta.CompressionCodec, r io.Reader, out, probe []byte) error {
	got, idle := 0, 0
	for got < len(out) {
		m, err := r.Read(out[got:])
		got += m
		switch {
		case err == io.EOF:
			if got == len(out) {
				return nil
			}
			return mismatch(codec, got, len(out), "")
		case err != nil:
			return corrupt(codec, err)
		case m == 0:
			if idle++; idle > maxIdleReads {
				return corrupt(codec, io.ErrNoProgress)
			}
		default:
			idle = 0
		}
	}
	for range maxIdleReads {
		m, err := r.Read(probe[:1])
		switch {
		case m > 0:
			return mismatch(codec, -1, len(out), "")
		case err == io.EOF:
			return nil
		case err != nil:
			return corrupt(codec, err)
		}
	}
	return corrupt(codec, io.ErrNoProgress)
}

// maxIdleReads bounds the reads in a row that return no byte and no error.
const maxIdleReads = 100
