package compress

import (
	"errors"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/pqgen/pqgen/runtime/meta"
)

// zstdWindow is the encoder window. Each pooled encoding state keeps a
// history of twice the window, and there are GOMAXPROCS states per level in
// use: the library default (8 MiB, 16 MiB of history per state) would cost
// gigabytes on large machines, and pages are about 1 MiB.
const zstdWindow = 1 << 20

// zstdEncoders holds one shared encoder per encoder speed, created on first
// use. A zstd.Encoder is safe for concurrent EncodeAll calls and keeps a
// pool of GOMAXPROCS encoding states inside.
var zstdEncoders [zstd.SpeedBestCompression + 1]struct {
	once sync.Once
	enc  *zstd.Encoder
	err  error
}

// zstdDefaultSpeed is the speed of DefaultLevel: the fastest, about zstd
// level 1, as Arrow C++ (pyarrow) writes by default. Page bodies are
// already encoded (dictionaries, deltas, byte stream split), so the
// slower searches buy little size for much CPU time. Its fastest speed
// leaves BYTE_STREAM_SPLIT pages of noisy doubles uncompressed, so the
// writer compresses those at level 3.
//
// Every encoder entropy-codes blocks without matches too
// (WithAllLitEntropyCompression; by default only the levels above 3 do):
// the suffixes of DELTA_BYTE_ARRAY pages and the digits of numbers in
// text rarely repeat four bytes but have skewed bytes, and halve under
// entropy coding. The attempt costs time on incompressible pages, little
// beside the text columns.
const zstdDefaultSpeed = zstd.SpeedFastest

// zstdEncoder returns the shared encoder of level. Its frames carry no
// content checksum, as libzstd writes by default (Arrow C++,
// parquet-java): a page is checked by its CRC where the writer adds one,
// and the 32-bit hash of every page's bytes cost 1-2% of a ZSTD write,
// and as much again in each read that verifies it.
func zstdEncoder(level Level) (*zstd.Encoder, error) {
	speed := zstdDefaultSpeed
	if level != DefaultLevel {
		speed = zstd.EncoderLevelFromZstd(int(level))
	}
	e := &zstdEncoders[speed]
	e.once.Do(func() {
		e.enc, e.err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(speed),
			zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)),
			zstd.WithZeroFrames(true), // an empty page is a full, empty frame
			zstd.WithWindowSize(zstdWindow),
			zstd.WithAllLitEntropyCompression(true), // see zstdDefaultSpeed
			zstd.WithEncoderCRC(false),              // no content checksum
		)
	})
	return e.enc, e.err
}

// compressZstd appends one ZSTD frame holding src to dst.
func compressZstd(dst, src []byte, level Level) ([]byte, error) {
	enc, err := zstdEncoder(level)
	if err != nil {
		return dst, err
	}
	return enc.EncodeAll(src, dst), nil
}

var zstdDec struct {
	once sync.Once
	dec  *zstd.Decoder
	err  error
}

func zstdDecoder() (*zstd.Decoder, error) {
	zstdDec.once.Do(func() {
		zstdDec.dec, zstdDec.err = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)),
			// DecodeAll never decodes beyond cap(dst)-len(dst): the declared
			// size bounds the output of a hostile stream.
			zstd.WithDecodeAllCapLimit(true),
		)
	})
	return zstdDec.dec, zstdDec.err
}

// decompressZstd decodes every frame of src into out (cap(out) == len(out)).
func decompressZstd(out, src []byte) error {
	dec, err := zstdDecoder()
	if err != nil {
		return corrupt(meta.Zstd, err)
	}
	res, err := dec.DecodeAll(src, out[:0])
	if err != nil {
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
			return mismatch(meta.Zstd, -1, len(out), "")
		}
		return corrupt(meta.Zstd, err)
	}
	if len(res) != len(out) {
		return mismatch(meta.Zstd, len(res), len(out), "")
	}
	if len(out) > 0 && &res[0] != &out[0] {
		return corrupt(meta.Zstd, errors.New("decoder did not decode in place"))
	}
	return nil
}
