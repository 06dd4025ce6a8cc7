package runtime

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestDictionaryJudgedOnFirstPage: a chunk whose first page holds enough
// values (judged when the page is cut or after dictJudgeValues values)
// drops a dictionary that does not pay (no dictionary page at all)
// and, with no encoding configured, picks DELTA_BINARY_PACKED for
// non-decreasing integers, BYTE_STREAM_SPLIT for noisy doubles under ZSTD
// (but PLAIN for doubles of few digits, which ZSTD compresses better so)
// and PLAIN otherwise; low-cardinality columns keep their dictionary, and a
// configured encoding is kept. Every value reads back.
func TestDictionaryJudgedOnFirstPage(t *testing.T) {
	const n = 20000
	s := mustSchema(t, `message m {
  required int64 id;
  required int64 noise;
  required double d;
  required binary low (STRING);
  required binary high (STRING);
  required int64 plainid;
  required double cents;
}`)
	// Pages of 2,000 rows are judged when the first one is cut; pages of
	// 20,000 rows after dictJudgeValues values, in the middle of the page.
	for _, tc := range []struct {
		codec meta.CompressionCodec
		limit int
	}{{meta.Snappy, 2000}, {meta.Zstd, 2000}, {meta.Snappy, 20000}, {meta.Zstd, 20000}} {
		codec := tc.codec
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, WithCompression(codec, 0), WithPageRowLimit(tc.limit),
			WithColumnEncoding("plainid", meta.EncodingPlain))
		if err != nil {
			t.Fatal(err)
		}
		ids, _ := w.Int64Buffer(0)
		noise, _ := w.Int64Buffer(1)
		ds, _ := w.DoubleBuffer(2)
		low, _ := w.ByteArrayBuffer(3)
		high, _ := w.ByteArrayBuffer(4)
		pid, _ := w.Int64Buffer(5)
		cents, _ := w.DoubleBuffer(6)
		rnd := newRand(7)
		noisy := make([]float64, n)
		for i := range n {
			noisy[i] = rnd.NormFloat64()
			ds.Values = append(ds.Values, noisy[i])
			cents.Values = append(cents.Values, float64(rnd.IntN(1_000_000))/100)
			ids.Values = append(ids.Values, int64(i))
			noise.Values = append(noise.Values, int64(i*7919%n))
			low.Values.AppendString("v" + strconv.Itoa(i%10))
			high.Values.AppendString("value-" + strconv.Itoa(i))
			pid.Values = append(pid.Values, int64(i))
		}
		if err := w.EndRows(n); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, buf.Bytes())
		bss := meta.EncodingPlain
		if codec == meta.Zstd {
			bss = meta.EncodingByteStreamSplit
		}
		want := []struct {
			dict bool
			enc  meta.Encoding
		}{
			{false, meta.EncodingDeltaBinaryPacked},
			{false, meta.EncodingPlain},
			{false, bss},
			{true, meta.EncodingRLEDictionary},
			{false, meta.EncodingPlain},
			{false, meta.EncodingPlain},
			{false, meta.EncodingPlain},
		}
		if md := f.Meta.RowGroups[0].Columns[2].MetaData; codec == meta.Zstd && md.TotalCompressedSize >= md.TotalUncompressedSize {
			// pageLevel: split pages are compressed at level 3, not stored
			// raw by the default (fastest) speed.
			t.Errorf("ZSTD column 2 (split): %d bytes compressed from %d", md.TotalCompressedSize, md.TotalUncompressedSize)
		}
		for col, w := range want {
			md := f.Meta.RowGroups[0].Columns[col].MetaData
			if got := md.DictionaryPageOffset.Set; got != w.dict {
				t.Errorf("%v column %d: dictionary page %v, want %v", codec, col, got, w.dict)
			}
			for _, e := range md.EncodingStats {
				if e.PageType != meta.DictionaryPage && e.Encoding != w.enc && !(w.enc == meta.EncodingRLEDictionary && e.Encoding == meta.EncodingPlainDictionary) {
					t.Errorf("%v column %d: data page encoding %v, want %v", codec, col, e.Encoding, w.enc)
				}
			}
		}
		r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		for col := range 2 {
			c, _ := r.Int64Reader(col)
			if k, err := c.ReadRows(n); k != n || err != nil {
				t.Fatalf("column %d: read %d, %v", col, k, err)
			}
			for i, v := range c.Values {
				want := int64(i)
				if col == 1 {
					want = int64(i * 7919 % n)
				}
				if v != want {
					t.Fatalf("%v column %d value %d = %d, want %d", codec, col, i, v, want)
				}
			}
		}
		dc, _ := r.DoubleReader(2)
		if k, err := dc.ReadRows(n); k != n || err != nil {
			t.Fatalf("doubles: read %d, %v", k, err)
		}
		for i, v := range dc.Values {
			if v != noisy[i] {
				t.Fatalf("double %d = %v", i, v)
			}
		}
		hc, _ := r.ByteArrayReader(4)
		if k, err := hc.ReadRows(n); k != n || err != nil {
			t.Fatalf("strings: read %d, %v", k, err)
		}
		got := make([]string, n)
		for i := range got {
			got[i] = hc.String(i)
		}
		if !slices.Equal(got[:3], []string{"value-0", "value-1", "value-2"}) || got[n-1] != "value-"+strconv.Itoa(n-1) {
			t.Fatalf("strings %q ... %q", got[:3], got[n-1])
		}
	}
}

// TestFixedBloomFilterDictionary: the bloom filter of a dictionary-encoded
// FIXED_LEN_BYTE_ARRAY column that falls back to PLAIN mid-chunk is bit
// for bit the filter of every value inserted.
func TestFixedBloomFilterDictionary(t *testing.T) {
	s := mustSchema(t, "message m { required fixed_len_byte_array(5) f; }")
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, WithMaxDictionarySize(300), WithPageRowLimit(40), WithBloomFilter("f", 500, 0.01))
	if err != nil {
		t.Fatal(err)
	}
	fb, _ := w.FixedBuffer(0)
	want := bloom.New(bloom.OptimalNumBytes(500, 0.01))
	for i := range 400 {
		k := i % 30 // repeats, then distinct values past the dictionary's size
		if i >= 200 {
			k = i
		}
		v := [5]byte{byte(k), byte(k >> 8), 7, 7, 7}
		fb.Values = append(fb.Values, v[:]...)
		want.Insert(bloom.HashBytes(v[:]))
		if i%50 == 49 {
			if err := w.EndRows(50); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	md := r.File().Meta.RowGroups[0].Columns[0].MetaData
	var dict, plain bool
	for _, e := range md.EncodingStats {
		if e.PageType == meta.DictionaryPage {
			continue
		}
		dict = dict || e.Encoding == meta.EncodingRLEDictionary || e.Encoding == meta.EncodingPlainDictionary
		plain = plain || e.Encoding == meta.EncodingPlain
	}
	if !dict || !plain {
		t.Fatalf("encoding stats %+v: want dictionary pages, then plain", md.EncodingStats)
	}
	bf, err := r.BloomFilter(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bf.Bytes(), want.Bytes()) {
		t.Fatal("the filter differs from the filter of every value")
	}
}
