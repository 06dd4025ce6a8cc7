package compress

import (
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// benchPage is a 256 KiB text-like page, the size of a typical data page.
func benchPage() []byte {
	for _, in := range inputs() {
		if in.name == "text1M" {
			return in.data[:256<<10]
		}
	}
	panic("no text input")
}

var benchCodecs = []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Gzip, meta.Brotli, meta.Zstd, meta.LZ4Raw, meta.LZ4}

func compressAny(dst, src []byte, codec meta.CompressionCodec) ([]byte, error) {
	if codec == meta.LZ4 {
		return CompressHadoopLZ4(dst, src)
	}
	return Compress(dst, src, codec, DefaultLevel)
}

// BenchmarkCompress compresses a 256 KiB page per codec at the default
// level into a reused dst.
func BenchmarkCompress(b *testing.B) {
	src := benchPage()
	for _, codec := range benchCodecs {
		b.Run(CodecName(codec), func(b *testing.B) {
			dst, err := compressAny(nil, src, codec)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				dst, _ = compressAny(dst[:0], src, codec)
			}
			b.ReportMetric(float64(len(src))/float64(len(dst)), "ratio")
		})
	}
}

// BenchmarkDecompress decompresses a 256 KiB page per codec into a reused
// dst.
func BenchmarkDecompress(b *testing.B) {
	src := benchPage()
	for _, codec := range append(benchCodecs, meta.LZO) {
		b.Run(CodecName(codec), func(b *testing.B) {
			var enc []byte
			var err error
			if codec == meta.LZO {
				// No LZO encoder: a Hadoop-framed stream of literal runs.
				enc = lzoLiterals(src)
			} else if enc, err = compressAny(nil, src, codec); err != nil {
				b.Fatal(err)
			}
			dst, err := Decompress(nil, enc, codec, len(src))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if dst, err = Decompress(dst[:0], enc, codec, len(src)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
