package page

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// prefetchChunk returns a chunk of five data pages of column col (every
// third slot null) of distinct values, behind a dictionary page when dict
// is set, each page in version v1 or v2 by turn.
func prefetchChunk(t testing.TB, col Column, dict bool) []byte {
	t.Helper()
	var chunk []byte
	if dict {
		var d []byte
		switch col.Type {
		case meta.Int64:
			d = encode.AppendPlainInt64(nil, []int64{-5, 7, 1 << 50, 0})
		case meta.ByteArray:
			var ba encode.ByteArrays
			for _, s := range []string{"kiwi", "", "fig", "quince"} {
				ba.AppendString(s)
			}
			d = encode.AppendPlainByteArray(nil, ba)
		}
		chunk = dictPage(t, col.Codec, 4, d)
	}
	for pg := range 5 {
		n := 40 + 13*pg
		def := make([]uint8, n)
		nn := 0
		for i := range def {
			if i%3 != 1 {
				def[i] = 1
				nn++
			}
		}
		var vals []byte
		enc := meta.EncodingPlain
		switch {
		case dict:
			idx := make([]int32, nn)
			for i := range idx {
				idx[i] = int32((i*7 + pg) % 4)
			}
			vals, enc = encode.AppendDictIndices(nil, idx, 2), meta.EncodingRLEDictionary
		case col.Type == meta.Int64:
			v := make([]int64, nn)
			for i := range v {
				v[i] = int64(pg)<<40 + int64(i*i) - 99
			}
			vals, enc = encode.AppendDeltaInt64(nil, v), meta.EncodingDeltaBinaryPacked
		case col.Type == meta.Double:
			v := make([]float64, nn)
			for i := range v {
				v[i] = float64(pg*1000+i) / 8
			}
			vals, enc = encode.AppendByteStreamSplitDouble(nil, v), meta.EncodingByteStreamSplit
		case col.Type == meta.ByteArray:
			var ba encode.ByteArrays
			for i := range nn {
				ba.AppendString(fmt.Sprintf("p%d-v%d", pg, i))
			}
			vals = encode.AppendPlainByteArray(nil, ba)
		}
		if pg%2 == 0 {
			chunk = append(chunk, v1(t, col.Codec, col, def, nil, enc, vals)...)
		} else {
			chunk = append(chunk, v2(t, col.Codec, col, def, nil, enc, vals, true)...)
		}
	}
	return chunk
}

// forPrefetchChunks calls f with the prefetchChunk of an optional column
// of every type it makes (INT64, DOUBLE, BYTE_ARRAY), with and without a
// dictionary (but DOUBLE), under every codec, and the case's name.
func forPrefetchChunks(t *testing.T, f func(name string, col Column, chunk []byte)) {
	for _, typ := range []meta.Type{meta.Int64, meta.Double, meta.ByteArray} {
		for _, dict := range []bool{false, true} {
			if dict && typ == meta.Double {
				continue
			}
			for _, codec := range codecs {
				col := Column{Path: "c", MaxDef: 1, Type: typ, Codec: codec}
				f(fmt.Sprintf("%s dict=%v %s", typ.String(), dict, codec.String()), col, prefetchChunk(t, col, dict))
			}
		}
	}
}

// pageRecord is what a test keeps of a page: its ordinal, offset, levels
// and values.
func pageRecord(p *Page, t meta.Type) string {
	return fmt.Sprintf("#%d@%d %v %s", p.Ordinal, p.Offset, p.Def, valuesString(p, t))
}

// readPrefetching reads every page of chunk with Next, calling Prefetch
// after each page when prefetch is set and checking that the page Next
// returned is unchanged by it.
func readPrefetching(t *testing.T, chunk []byte, col Column, opts ChunkOptions, prefetch bool) ([]string, error) {
	t.Helper()
	var cr ChunkReader
	cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, opts)
	var got []string
	for {
		if prefetch {
			cr.Prefetch() // before the chunk's first page: does nothing
		}
		p, err := cr.Next()
		if err != nil {
			return got, err
		}
		rec := pageRecord(p, col.Type)
		if prefetch {
			pos := cr.Pos()
			cr.Prefetch()
			cr.Prefetch() // a second call does nothing
			if again := pageRecord(p, col.Type); again != rec {
				t.Fatalf("the prefetch changed page %d: %s, was %s", p.Ordinal, again, rec)
			}
			if cr.Pos() != pos {
				t.Fatalf("Pos moved from %d to %d by the prefetch", pos, cr.Pos())
			}
		}
		got = append(got, rec)
	}
}

// TestPrefetch: a chunk read with a Prefetch after every Next returns the
// same pages as one read without, under every codec, in v1 and v2 pages,
// with and without a dictionary, through a decryptor (with the same
// modules, in the same order), and the page Next returned last keeps its
// values while the next is decoded.
func TestPrefetch(t *testing.T) {
	forPrefetchChunks(t, func(name string, col Column, chunk []byte) {
		want, err := readPrefetching(t, chunk, col, ChunkOptions{VerifyCRC: true}, false)
		if err != io.EOF || len(want) != 5 {
			t.Fatalf("%s: %d pages, %v", name, len(want), err)
		}
		got, err := readPrefetching(t, chunk, col, ChunkOptions{VerifyCRC: true}, true)
		if err != io.EOF || !slices.Equal(got, want) {
			t.Errorf("%s: prefetching read\n%q (%v), want\n%q", name, got, err, want)
		}
	})

	// Through a decryptor (bodies and headers XORed): the same modules.
	col := Column{Path: "x", Type: meta.Int32, RowGroup: 1, Index: 4}
	body := encode.AppendPlainInt32(nil, []int32{9, 8})
	var chunk []byte
	for i := range 4 {
		h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 8, CompressedPageSize: 8,
			DataPageHeader: &meta.DataPageHeader{NumValues: 2, Encoding: meta.EncodingPlain}}
		hb := h.AppendThrift(nil)
		chunk = append(chunk, byte(len(hb)), 0, 0, 0)
		for _, b := range hb {
			chunk = append(chunk, b^0x55)
		}
		for _, b := range encode.AppendPlainInt32(slices.Clone(body[:0]), []int32{int32(i), 8}) {
			chunk = append(chunk, b^0x55)
		}
	}
	plain, pre := &decryptor{}, &decryptor{}
	want, err1 := readPrefetching(t, chunk, col, ChunkOptions{Decryptor: plain}, false)
	got, err2 := readPrefetching(t, chunk, col, ChunkOptions{Decryptor: pre}, true)
	if err1 != io.EOF || err2 != io.EOF || len(want) != 4 || !slices.Equal(got, want) {
		t.Errorf("encrypted: %q (%v), want %q (%v)", got, err2, want, err1)
	}
	if fmt.Sprint(pre.mods) != fmt.Sprint(plain.mods) {
		t.Errorf("encrypted: modules %v, want %v", pre.mods, plain.mods)
	}
}

// TestPrefetchError: a corrupt page met by Prefetch fails the Next that
// would have read it, with the error Next alone gives, and not before:
// the page before stays readable.
func TestPrefetchError(t *testing.T) {
	col := Column{Path: "x", Type: meta.Int32, Codec: meta.Snappy, MaxDef: 1}
	def := []uint8{1, 1, 1}
	good := v1(t, meta.Snappy, col, def, nil, meta.EncodingPlain, encode.AppendPlainInt32(nil, []int32{1, 2, 3}))
	bad := v1(t, meta.Snappy, col, def, nil, meta.EncodingPlain, encode.AppendPlainInt32(nil, []int32{4, 5, 6}))
	_, n, err := meta.DecodePageHeader(bad, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := n; i < len(bad); i++ {
		bad[i] = 0xff // no snappy body
	}
	chunk := slices.Concat(good, good, bad, good)
	want, errNext := readPrefetching(t, chunk, col, ChunkOptions{}, false)
	got, errPre := readPrefetching(t, chunk, col, ChunkOptions{}, true)
	if errNext == nil || errNext == io.EOF || len(want) != 2 {
		t.Fatalf("without prefetching: %q, %v", want, errNext)
	}
	var pe *Error
	if !slices.Equal(got, want) || errPre == nil || errPre.Error() != errNext.Error() || !errors.As(errPre, &pe) || pe.Page != 2 {
		t.Errorf("prefetching: %q, %v; want %q, %v", got, errPre, want, errNext)
	}
}

// TestPrefetchThenSkip: SkipPage and SkipTo after a Prefetch forget the
// prefetched page and skip from where Next would have read: the pages
// returned and their ordinals are those of a reader that never
// prefetched.
func TestPrefetchThenSkip(t *testing.T) {
	col := Column{Path: "c", MaxDef: 1, Type: meta.Int64, Codec: meta.Zstd}
	chunk := prefetchChunk(t, col, false)
	var offs []int64
	var cr ChunkReader
	cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, ChunkOptions{})
	for {
		offs = append(offs, cr.Pos())
		if _, err := cr.Next(); err != nil {
			break
		}
	}
	read := func(prefetch bool, skip func(*ChunkReader)) []string {
		var cr ChunkReader
		cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, ChunkOptions{})
		p, err := cr.Next()
		if err != nil {
			t.Fatal(err)
		}
		out := []string{pageRecord(p, col.Type)}
		if prefetch {
			cr.Prefetch()
		}
		skip(&cr)
		for {
			p, err := cr.Next()
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, pageRecord(p, col.Type))
		}
	}
	for name, skip := range map[string]func(*ChunkReader){
		"SkipPage": func(cr *ChunkReader) {
			if h, err := cr.SkipPage(); err != nil || h.DataPageHeaderV2 == nil {
				t.Fatalf("SkipPage: %v, %v", h, err)
			}
		},
		"SkipTo": func(cr *ChunkReader) {
			if !cr.SkipTo(offs[3], 2) {
				t.Fatal("SkipTo refused")
			}
		},
		"SkipTo behind": func(cr *ChunkReader) {
			if cr.SkipTo(offs[1], 0) {
				t.Fatal("SkipTo to the position moved")
			}
		},
	} {
		want, got := read(false, skip), read(true, skip)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// FuzzPrefetch: a chunk of arbitrary bytes read with a Prefetch after
// every page (and, by the bits of skips, a SkipPage after some of them)
// returns the pages and the error, with the same text, of the same chunk
// read without prefetching, and never panics. Seeds are the chunks of
// TestPrefetch.
func FuzzPrefetch(f *testing.F) {
	for _, typ := range []meta.Type{meta.Int64, meta.Double, meta.ByteArray} {
		for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Zstd} {
			col := Column{Path: "c", MaxDef: 1, Type: typ, Codec: codec}
			f.Add(prefetchChunk(f, col, false), uint8(typ), uint8(codec), uint64(0))
			if typ != meta.Double {
				f.Add(prefetchChunk(f, col, true), uint8(typ), uint8(codec), uint64(0b10100))
			}
		}
	}
	f.Fuzz(func(t *testing.T, chunk []byte, typ, codec uint8, skips uint64) {
		col := Column{Path: "fuzz", Type: meta.Type(typ % 8), TypeLength: 3, MaxDef: 1, Codec: meta.CompressionCodec(codec % 8)}
		opts := ChunkOptions{Limits: Limits{MaxPageSize: 1 << 20, MaxValues: 1 << 16, MaxHeaderSize: 1 << 16}, VerifyCRC: typ&0x80 != 0}
		read := func(prefetch bool) (out []string) {
			var cr ChunkReader
			cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, opts)
			for i := range 64 {
				p, err := cr.Next()
				if err != nil {
					return append(out, err.Error())
				}
				rec := pageRecord(p, col.Type)
				if prefetch {
					cr.Prefetch()
					if again := pageRecord(p, col.Type); again != rec {
						t.Fatalf("the prefetch changed page %d: %s, was %s", p.Ordinal, again, rec)
					}
				}
				out = append(out, rec)
				if skips>>(i%64)&1 == 1 {
					h, err := cr.SkipPage()
					if err != nil {
						return append(out, err.Error())
					}
					out = append(out, fmt.Sprint("skipped ", h.Type))
				}
			}
			return out
		}
		if want, got := read(false), read(true); !slices.Equal(got, want) {
			t.Fatalf("prefetching read\n%q\nwant\n%q", got, want)
		}
	})
}
