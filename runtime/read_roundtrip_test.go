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
				WithPageIndex(true), WithCRC(true), WithBloomFilter("name", 1000, 0.01), WithRowGroupSize(64<<10))
			if err != nil {
				t.Fatal(err)
			}
			ids, _ := w.Int64Buffer(0)
			names, _ := w.ByteArrayBuffer(1)
			tags, _ := w.Int32Buffer(2)
			for i := range rows {
				ids.Values = append(ids.Values, int64(i))
				if i%7 == 0 {
					names.Def = append(names.Def, 0)
				} else {
					names.Def = append(names.Def, 1)
					names.Values.AppendString(fmt.Sprintf("name-%d", i%50))
				}
				switch i % 3 {
				case 0: // null list
					tags.Def, tags.Rep = append(tags.Def, 0), append(tags.Rep, 0)
				case 1: // empty list
					tags.Def, tags.Rep = append(tags.Def, 1), append(tags.Rep, 0)
				default: // [i, i+1]
					tags.Def, tags.Rep = append(tags.Def, 2, 2), append(tags.Rep, 0, 1)
					tags.Values = append(tags.Values, int32(i), int32(i+1))
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
			if err != nil || idc.Rows != rows || idc.Values[rows-1] != int64(rows-1) {
				t.Fatalf("%s id: %v", name, err)
			}
			nc, err := readColumn(fr, 1, 333)
			if err != nil || nc.Rows != rows || nc.Values[0] != "name-1" || len(nc.Values) != rows-(rows+6)/7 {
				t.Fatalf("%s name: %v %d", name, err, len(nc.Values))
			}
			tc, err := readColumn(fr, 2, 51)
			if err != nil || tc.Rows != rows || len(tc.Values) != 2*(rows/3) || tc.Values[0] != int32(2) || tc.Values[1] != int32(3) {
				t.Fatalf("%s tags: %v", name, err)
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
			ff := readerOf(t, file, WithCRCCheck(true), WithPageFilter("id", keep))
			if ff.NumRows() == 0 || ff.NumRows() >= rows/2 {
				t.Fatalf("%s: filter keeps %d rows", name, ff.NumRows())
			}
			fid, err := readColumn(ff, 0, 64)
			if err != nil || !slices.Contains(fid.Values, any(int64(1005))) {
				t.Fatalf("%s: filtered ids %v", name, err)
			}
			first := fid.Values[0].(int64)
			ftags, err := readColumn(ff, 2, 64)
			if err != nil || ftags.Rows != fid.Rows {
				t.Fatalf("%s: filtered tags: %v, %d rows vs %d", name, err, ftags.Rows, fid.Rows)
			}
			// Row alignment: the first kept row's tags match its id.
			if first%3 == 2 && ftags.Values[0] != int32(first) {
				t.Fatalf("%s: first kept row %d has tag %v", name, first, ftags.Values[0])
			}
		}
	}
}
