package bloom

import (
	"testing"
)

// benchHashes returns n hashes of distinct INT64 values.
func benchHashes(n int) []uint64 {
	h := make([]uint64, n)
	for i := range h {
		h[i] = HashInt64(int64(i))
	}
	return h
}

// A 1 MiB filter (about 870k values at 1%), larger than L2 caches.
const benchBytes = 1 << 20

func BenchmarkInsert(b *testing.B) {
	f := New(benchBytes)
	hs := benchHashes(1 << 16)
	b.SetBytes(8)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f.Insert(hs[i&(len(hs)-1)])
		i++
	}
}

func BenchmarkInsertMany(b *testing.B) {
	f := New(benchBytes)
	hs := benchHashes(1 << 12)
	b.SetBytes(int64(8 * len(hs)))
	b.ReportAllocs()
	for b.Loop() {
		f.InsertMany(hs)
	}
}

func BenchmarkCheck(b *testing.B) {
	f := New(benchBytes)
	hs := benchHashes(1 << 16)
	f.InsertMany(hs[:len(hs)/2]) // half present, half (mostly) absent
	b.SetBytes(8)
	b.ReportAllocs()
	i, hits := 0, 0
	for b.Loop() {
		if f.Check(hs[i&(len(hs)-1)]) {
			hits++
		}
		i++
	}
	_ = hits
}

func BenchmarkHashInt64(b *testing.B) {
	b.SetBytes(8)
	b.ReportAllocs()
	var s uint64
	i := int64(0)
	for b.Loop() {
		s += HashInt64(i)
		i++
	}
	_ = s
}

func BenchmarkHashBytes16(b *testing.B) {
	v := []byte("0123456789abcdef")
	b.SetBytes(int64(len(v)))
	b.ReportAllocs()
	var s uint64
	for b.Loop() {
		s += HashBytes(v)
	}
	_ = s
}

func BenchmarkParse(b *testing.B) {
	f := New(benchBytes)
	f.InsertMany(benchHashes(1000))
	enc := f.AppendTo(nil)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(enc, 0); err != nil {
			b.Fatal(err)
		}
	}
}
