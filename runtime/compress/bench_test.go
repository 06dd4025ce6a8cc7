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
		b.Run(codec.String(), func(b *testing.B) {
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
		b.Run(codec.String(), func(b *testing.B) {
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

// BenchmarkIncompressible compresses and stores (AppendStored) a 256 KiB
// page of dictionary indices (random values below 1,000 packed in 10
// bits), the kind of page the writer stores after a compressed one failed
// to shrink, and decompresses each form.
func BenchmarkIncompressible(b *testing.B) {
	src := make([]byte, 0, 256<<10)
	x := uint64(1)
	var acc uint64
	var bits uint
	for len(src) < cap(src) {
		x = x*6364136223846793005 + 1442695040888963407
		acc |= (x >> 33 % 1000) << bits
		for bits += 10; bits >= 8 && len(src) < cap(src); bits -= 8 {
			src = append(src, byte(acc))
			acc >>= 8
		}
	}
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd} {
		forms := map[string]func(dst []byte) []byte{
			"compress": func(dst []byte) []byte { d, _ := Compress(dst, src, codec, DefaultLevel); return d },
			"store":    func(dst []byte) []byte { d, _ := AppendStored(dst, src, codec); return d },
		}
		for _, form := range []string{"compress", "store"} {
			enc := forms[form](nil)
			b.Run(codec.String()+"/"+form, func(b *testing.B) {
				dst := enc
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					dst = forms[form](dst[:0])
				}
			})
			b.Run(codec.String()+"/"+form+"/decompress", func(b *testing.B) {
				dst := make([]byte, len(src))
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = Decompress(dst[:0], enc, codec, len(src))
				}
			})
		}
	}
}
