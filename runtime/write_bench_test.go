package runtime

import (
	"github.com/pqgen/pqgen/runtime/variant"
	"io"
	"math/rand/v2"
	goruntime "runtime"
	"strconv"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

const benchBatch = 256 // rows per EndRows, as generated writers do

// benchWrite runs b.N batches of benchBatch rows through fill and EndRows
// and reports bytes of input per second and heap allocations per row.
func benchWrite(b *testing.B, text string, bytesPerRow int, fill func(w *FileWriter, batch int), opts ...WriterOption) {
	s := mustSchema(b, text)
	w, err := NewFileWriter(io.Discard, s, opts...)
	if err != nil {
		b.Fatal(err)
	}
	// Warm up: one row group's worth of buffers.
	for i := 0; i < 64; i++ {
		fill(w, i)
		if err := w.EndRows(benchBatch); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(bytesPerRow * benchBatch))
	b.ReportAllocs()
	var m0, m1 goruntime.MemStats
	goruntime.ReadMemStats(&m0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fill(w, i)
		if err := w.EndRows(benchBatch); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	goruntime.ReadMemStats(&m1)
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N*benchBatch), "allocs/row")
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkWriteInt64(b *testing.B) {
	for _, c := range []struct {
		name string
		opts []WriterOption
	}{
		{"plain-snappy", []WriterOption{WithDictionary(false)}},
		{"dict-snappy", nil},
		{"delta-zstd", []WriterOption{WithDictionary(false), WithCompression(meta.Zstd, 0), WithColumnEncoding("v", meta.EncodingDeltaBinaryPacked)}},
		{"plain-none-v2", []WriterOption{WithDictionary(false), WithCompression(meta.Uncompressed, 0), WithDataPageVersion(2)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var x int64
			benchWrite(b, "message m { required int64 v; }", 8, func(w *FileWriter, _ int) {
				buf, _ := w.Int64Buffer(0)
				for j := 0; j < benchBatch; j++ {
					x++
					buf.Values = append(buf.Values, x*7%100003)
				}
			}, c.opts...)
		})
	}
}

func BenchmarkWriteString(b *testing.B) {
	words := make([]string, 1000)
	for i := range words {
		words[i] = "word-" + strconv.Itoa(i*7919)
	}
	for _, c := range []struct {
		name string
		opts []WriterOption
	}{
		{"dict", nil},
		{"plain", []WriterOption{WithDictionary(false)}},
		{"delta-bloom", []WriterOption{WithDictionary(false), WithColumnEncoding("v", meta.EncodingDeltaByteArray), WithColumnBloomFilter("v", 1000, 0.01)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			k := 0
			benchWrite(b, "message m { required binary v (STRING); }", 12, func(w *FileWriter, _ int) {
				buf, _ := w.ByteArrayBuffer(0)
				for j := 0; j < benchBatch; j++ {
					k++
					buf.Values.AppendString(words[k%len(words)])
				}
			}, c.opts...)
		})
	}
}

func BenchmarkWriteOptional(b *testing.B) {
	k := 0
	benchWrite(b, "message m { optional int64 a; optional binary s (STRING); optional group l (LIST) { repeated group list { optional int32 element; } } }", 24,
		func(w *FileWriter, _ int) {
			a, _ := w.Int64Buffer(0)
			s, _ := w.ByteArrayBuffer(1)
			l, _ := w.Int32Buffer(2)
			for j := 0; j < benchBatch; j++ {
				k++
				if k%5 == 0 {
					a.Def = append(a.Def, 0)
					s.Def = append(s.Def, 0)
				} else {
					a.Def = append(a.Def, 1)
					a.Values = append(a.Values, int64(k))
					s.Def = append(s.Def, 1)
					s.Values.AppendString("abcdefgh")
				}
				for e := 0; e < 2; e++ {
					l.Rep = append(l.Rep, uint8(e))
					l.Def = append(l.Def, 3)
					l.Values = append(l.Values, int32(k+e))
				}
			}
		})
}

// BenchmarkWriteEncrypted compares plain writing with AES_GCM_V1 and
// AES_GCM_CTR_V1 (every column encrypted with the footer key) on the
// int64 and string workloads above; the overhead is the throughput ratio.
func BenchmarkWriteEncrypted(b *testing.B) {
	key := []byte("0123456789abcdef")
	modes := []struct {
		name string
		opts []WriterOption
	}{
		{"plain", nil},
		{"gcm", []WriterOption{WithEncryption(FileEncryption{FooterKey: key})}},
		{"ctr", []WriterOption{WithEncryption(FileEncryption{FooterKey: key, Algorithm: meta.AesGcmCtrV1})}},
	}
	for _, m := range modes {
		b.Run("int64-plain-snappy/"+m.name, func(b *testing.B) {
			var x int64
			benchWrite(b, "message m { required int64 v; }", 8, func(w *FileWriter, _ int) {
				buf, _ := w.Int64Buffer(0)
				for j := 0; j < benchBatch; j++ {
					x++
					buf.Values = append(buf.Values, x*7%100003)
				}
			}, append([]WriterOption{WithDictionary(false)}, m.opts...)...)
		})
		b.Run("string-plain/"+m.name, func(b *testing.B) {
			k := 0
			benchWrite(b, "message m { required binary v (STRING); }", 12, func(w *FileWriter, _ int) {
				buf, _ := w.ByteArrayBuffer(0)
				for j := 0; j < benchBatch; j++ {
					k++
					buf.Values.AppendString(strconv.Itoa(k * 7919))
				}
			}, append([]WriterOption{WithDictionary(false)}, m.opts...)...)
		})
	}
}

// BenchmarkWriteVariant shreds random Variants into variantSchema's v as
// a generated writer does: the batch checked first, then appended.
func BenchmarkWriteVariant(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	in := make([]variant.Encoded, 1024)
	size := 0
	for i := range in {
		var vb variant.Builder
		randVariant(r, &vb, 0)
		m, v, err := vb.Finish()
		if err != nil {
			b.Fatal(err)
		}
		in[i] = variant.Encoded{Metadata: m, Value: v}
		size += len(m) + len(v)
	}
	var (
		vw         *VariantWriter
		ids, l     *Int32Buffer
		ww, wv     *ByteArrayBuffer
		lm, lv     *ByteArrayBuffer
		empty      = variant.EmptyMetadata()
		leafColumn = func(w *FileWriter, path string) int { return w.Schema().Leaf(path).Column }
	)
	benchWrite(b, variantSchema, size/len(in), func(w *FileWriter, batch int) {
		if vw == nil {
			var err error
			if vw, err = w.VariantWriter("v"); err != nil {
				b.Fatal(err)
			}
			ids, _ = w.Int32Buffer(0)
			ww, _ = w.ByteArrayBuffer(leafColumn(w, "w.metadata"))
			wv, _ = w.ByteArrayBuffer(leafColumn(w, "w.value"))
			l, _ = w.Int32Buffer(leafColumn(w, "l.list.element.typed_value"))
			lm, _ = w.ByteArrayBuffer(leafColumn(w, "l.list.element.metadata"))
			lv, _ = w.ByteArrayBuffer(leafColumn(w, "l.list.element.value"))
		}
		rows := in[batch*benchBatch%len(in):][:benchBatch]
		for _, e := range rows {
			if err := vw.Check(e); err != nil {
				b.Fatal(err)
			}
		}
		for i, e := range rows {
			ids.Values = append(ids.Values, int32(i))
			if err := vw.Append(e, 0); err != nil {
				b.Fatal(err)
			}
			ww.Values.Append(empty)
			wv.Values.Append([]byte{0})
			for _, c := range []*Levels{&l.Levels, &lm.Levels, &lv.Levels} {
				c.Def = append(c.Def, 0)
				c.Rep = append(c.Rep, 0)
			}
		}
	})
}
