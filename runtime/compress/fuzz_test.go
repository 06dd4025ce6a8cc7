package compress

import (
	"bytes"
	"errors"
	"runtime/metrics"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/pqgen/pqgen/runtime/meta"
)

// Fuzz targets, one per decoder: arbitrary bytes and an arbitrary declared
// size (0..65535) must never panic, must decode to exactly the declared
// size when they decode, and must not allocate much beyond that size.
//
//	go test -run='^$' -fuzz='^FuzzDecompressZstd$' -fuzztime=30s ./runtime/compress

func FuzzDecompressSnappy(f *testing.F) { fuzzDecompress(f, meta.Snappy, 1<<20) }
func FuzzDecompressGzip(f *testing.F)   { fuzzDecompress(f, meta.Gzip, 1<<20) }
func FuzzDecompressLZO(f *testing.F)    { fuzzDecompress(f, meta.LZO, 1<<20) }

// Brotli's window (ring buffer) is up to 16 MiB: a pooled reader may grow
// it once to the window a stream declares.
func FuzzDecompressBrotli(f *testing.F) { fuzzDecompress(f, meta.Brotli, 18<<20) }

// The LZ4 frame fallback allocates block buffers of up to 4 MiB.
func FuzzDecompressLZ4(f *testing.F)    { fuzzDecompress(f, meta.LZ4, 10<<20) }
func FuzzDecompressZstd(f *testing.F)   { fuzzDecompress(f, meta.Zstd, 2<<20) }
func FuzzDecompressLZ4Raw(f *testing.F) { fuzzDecompress(f, meta.LZ4Raw, 1<<20) }

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

func heapAllocs() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

func fuzzDecompress(f *testing.F, codec meta.CompressionCodec, slack uint64) {
	seeds := [][]byte{
		nil, {0}, []byte("hello, parquet"), make([]byte, 300),
		[]byte("abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc"),
	}
	for _, s := range seeds {
		var enc []byte
		var err error
		if codec == meta.LZ4 {
			enc, err = CompressHadoopLZ4(nil, s)
		} else if codec == meta.LZO {
			enc = []byte{17 + 5, 'h', 'e', 'l', 'l', 'o', 0x11, 0, 0}
			s = []byte("hello")
		} else {
			enc, err = Compress(nil, s, codec, DefaultLevel)
		}
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc, uint16(len(s)))
		Decompress(nil, enc, codec, len(s)) // warm the pools
	}
	if codec == meta.LZ4 {
		// A bare block and an LZ4 frame.
		f.Add([]byte{0x50, 'h', 'e', 'l', 'l', 'o'}, uint16(5))
		var buf bytes.Buffer
		w := lz4.NewWriter(&buf)
		w.Write([]byte("hello, lz4 frame"))
		w.Close()
		f.Add(buf.Bytes(), uint16(16))
	}
	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		limit := uint64(size) + uint64(len(src)) + slack
		// The allocation counter is process-wide and a first call may
		// rebuild pooled state: only an input that exceeds the limit on
		// three calls in a row fails.
		var grew uint64
		for range 3 {
			before := heapAllocs()
			out, err := Decompress(nil, src, codec, int(size))
			grew = heapAllocs() - before
			if err == nil && len(out) != int(size) {
				t.Fatalf("decoded %d bytes, declared %d", len(out), size)
			}
			if grew <= limit {
				return
			}
		}
		t.Fatalf("allocated %d bytes for declared size %d (limit %d)", grew, size, limit)
	})
}

// FuzzCompressRoundTrip compresses arbitrary bytes with every writable codec
// (and the Hadoop LZ4 opt-in) at an arbitrary level and checks that they
// decompress to the same bytes.
func FuzzCompressRoundTrip(f *testing.F) {
	f.Add([]byte("hello, parquet"), uint8(1), int8(0))
	f.Add(make([]byte, 1000), uint8(6), int8(19))
	f.Add([]byte{}, uint8(5), int8(0))
	f.Fuzz(func(t *testing.T, src []byte, sel uint8, lv int8) {
		codec := meta.CompressionCodec(sel % 8)
		level := Level(lv)
		if codec == meta.Brotli && level >= 10 {
			level = 9 // qualities 10 and 11 take milliseconds per call
		}
		var enc []byte
		var err error
		if codec == meta.LZ4 {
			enc, err = CompressHadoopLZ4(nil, src)
		} else {
			enc, err = Compress(nil, src, codec, level)
		}
		if err != nil {
			if codec == meta.LZO || errors.Is(err, ErrInvalidLevel) {
				return
			}
			t.Fatal(err)
		}
		if verr := ValidLevel(codec, level); verr != nil && codec != meta.LZ4 {
			t.Fatalf("Compress accepted level %d: %v", level, verr)
		}
		out, err := Decompress(nil, enc, codec, len(src))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, src) {
			t.Fatal("round trip differs")
		}
	})
}
