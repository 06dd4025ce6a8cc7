package runtime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestWriterRoundTrip writes a file with the runtime's FileWriter (page
// index, CRCs, bloom filter, both page versions, several codecs) and reads
// it back: values, CRC checks, page filter and bloom filter.
func TestWriterRoundTrip(t *testing.T) {
	s, err := schema.Parse(`message m {
  required int64 id;
  optional binary name (STRING);
  optional group tags (LIST) { repeated group list { required int32 element; } }
}`)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 5000
	for _, v := range []int{1, 2} {
		for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Zstd} {
			var buf bytes.Buffer
			w, err := NewFileWriter(&buf, s, WithDataPageVersion(v), WithCompression(codec, 0), WithPageRowLimit(300),
				WithPageIndex(true), WithCRC(true), WithColumnBloomFilter("name", 1000, 0.01), WithRowGroupSize(64<<10))
			if err != nil {
				t.Fatal(err)
			}
			ids, _ := w.Int64Buffer(0)
			names, _ := w.ByteArrayBuffer(1)
			tags, _ := w.Int32Buffer(2)
			var want struct {
				ids, names, tags []any
				nameDef          []uint8
				tagDef, tagRep   []uint8
			}
			for i := range rows {
				ids.Values = append(ids.Values, int64(i))
				want.ids = append(want.ids, int64(i))
				if i%7 == 0 {
					names.Def = append(names.Def, 0)
					want.nameDef = append(want.nameDef, 0)
				} else {
					names.Def = append(names.Def, 1)
					names.Values.AppendString(fmt.Sprintf("name-%d", i%50))
					want.nameDef = append(want.nameDef, 1)
					want.names = append(want.names, fmt.Sprintf("name-%d", i%50))
				}
				switch i % 3 {
				case 0: // null list
					tags.Def, tags.Rep = append(tags.Def, 0), append(tags.Rep, 0)
					want.tagDef, want.tagRep = append(want.tagDef, 0), append(want.tagRep, 0)
				case 1: // empty list
					tags.Def, tags.Rep = append(tags.Def, 1), append(tags.Rep, 0)
					want.tagDef, want.tagRep = append(want.tagDef, 1), append(want.tagRep, 0)
				default: // [i, i+1]
					tags.Def, tags.Rep = append(tags.Def, 2, 2), append(tags.Rep, 0, 1)
					tags.Values = append(tags.Values, int32(i), int32(i+1))
					want.tagDef, want.tagRep = append(want.tagDef, 2, 2), append(want.tagRep, 0, 1)
					want.tags = append(want.tags, int32(i), int32(i+1))
				}
				if i%100 == 99 {
					if err := w.EndRows(100); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			file := buf.Bytes()
			name := fmt.Sprintf("v%d/%d", v, codec)
			fr := readerOf(t, file, WithCRCCheck(true))
			if fr.NumRows() != rows {
				t.Fatalf("%s: NumRows %d", name, fr.NumRows())
			}
			idc, err := readColumn(fr, 0, 777)
			if err != nil || idc.Rows != rows || !slices.Equal(idc.Values, want.ids) {
				t.Fatalf("%s id: %v (%d rows)", name, err, idc.Rows)
			}
			nc, err := readColumn(fr, 1, 333)
			if err != nil || nc.Rows != rows || !slices.Equal(nc.Def, want.nameDef) || !slices.Equal(nc.Values, want.names) {
				t.Fatalf("%s name: %v (%d rows, %d values)", name, err, nc.Rows, len(nc.Values))
			}
			tc, err := readColumn(fr, 2, 51)
			if err != nil || tc.Rows != rows || !slices.Equal(tc.Def, want.tagDef) || !slices.Equal(tc.Rep, want.tagRep) || !slices.Equal(tc.Values, want.tags) {
				t.Fatalf("%s tags: %v (%d rows, %d values)", name, err, tc.Rows, len(tc.Values))
			}
			// Bloom filter of every row group holds its names.
			for rg := range fr.File().Meta.RowGroups {
				bf, err := fr.BloomFilter(rg, 1)
				if err != nil || bf == nil {
					t.Fatalf("%s: bloom filter of row group %d: %v %v", name, rg, bf, err)
				}
				if !bf.Check(bloom.HashString("name-3")) {
					t.Errorf("%s: row group %d: name-3 not in the bloom filter", name, rg)
				}
			}
			// Page filter on id: keep pages whose range meets [1000, 1010].
			keep := func(_ *File, _ int, ci *meta.ColumnIndex, p int) bool {
				lo := int64(binary.LittleEndian.Uint64(ci.MinValues[p]))
				hi := int64(binary.LittleEndian.Uint64(ci.MaxValues[p]))
				return lo <= 1010 && hi >= 1000
			}
			ff := readerOf(t, file, WithCRCCheck(true), WithColumnPageFilter("id", keep))
			if ff.NumRows() == 0 || ff.NumRows() >= rows/2 {
				t.Fatalf("%s: filter keeps %d rows", name, ff.NumRows())
			}
			fid, err := readColumn(ff, 0, 64)
			if err != nil || !slices.Contains(fid.Values, any(int64(1005))) {
				t.Fatalf("%s: filtered ids %v", name, err)
			}
			// The ids are sorted: the kept rows are one run of ids, whole
			// pages around [1000, 1010].
			first := fid.Values[0].(int64)
			if int64(fid.Rows) != ff.NumRows() || first > 1000 || first+int64(fid.Rows)-1 < 1010 || !slices.Equal(fid.Values, want.ids[first:first+int64(fid.Rows)]) {
				t.Fatalf("%s: filtered ids %v..%v, %d rows of %d", name, fid.Values[0], fid.Values[len(fid.Values)-1], fid.Rows, ff.NumRows())
			}
			ftags, err := readColumn(ff, 2, 64)
			if err != nil || ftags.Rows != fid.Rows {
				t.Fatalf("%s: filtered tags: %v, %d rows vs %d", name, err, ftags.Rows, fid.Rows)
			}
			// Row alignment: the kept rows' tags are those of their ids.
			var wantTags []any
			for _, id := range fid.Values {
				if i := id.(int64); i%3 == 2 {
					wantTags = append(wantTags, int32(i), int32(i+1))
				}
			}
			if !slices.Equal(ftags.Values, wantTags) {
				t.Fatalf("%s: filtered tags %v, want %v", name, ftags.Values, wantTags)
			}
		}
	}
}
