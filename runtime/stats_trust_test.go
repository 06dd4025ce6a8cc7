package runtime

import (
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// TestStatisticsTrusted applies the rules Arrow C++ applies to old
// writers' statistics to footers built by hand.
func TestStatisticsTrusted(t *testing.T) {
	open := func(createdBy string, min, max string) *File {
		t.Helper()
		s := mustSchema(t, "message m { required binary s (STRING); required int32 i; required int32 u (INT(32,false)); }")
		stats := &meta.Statistics{Min: []byte(min), Max: []byte(max)}
		cc := func() meta.ColumnChunk {
			return meta.ColumnChunk{MetaData: &meta.ColumnMetaData{Statistics: stats}}
		}
		return &File{Schema: s, Meta: &meta.FileMetaData{CreatedBy: meta.Some(createdBy),
			RowGroups: []meta.RowGroup{{Columns: []meta.ColumnChunk{cc(), cc(), cc()}}}}}
	}
	for _, c := range []struct {
		createdBy, min, max string
		want                [3]bool // s, i, u
	}{
		{"parquet-mr version 1.12.3 (build x)", "a", "b", [3]bool{true, true, true}},
		{"parquet-mr version 1.9.0", "a", "b", [3]bool{false, true, false}},
		{"parquet-mr version 1.9.0", "a", "a", [3]bool{true, true, true}},
		{"parquet-mr version 1.7.0", "a", "a", [3]bool{false, true, true}}, // PARQUET-251
		{"parquet-mr", "a", "b", [3]bool{false, true, false}},
		{"parquet-cpp version 1.2.0", "a", "b", [3]bool{false, true, false}},
		{"parquet-cpp version 1.3.0", "a", "b", [3]bool{true, true, true}},
		{"parquet-cpp-arrow version 1.0.0", "a", "b", [3]bool{true, true, true}},
		{"", "a", "b", [3]bool{true, true, true}},
		{"hyparquet", "a", "b", [3]bool{true, true, true}},
	} {
		f := open(c.createdBy, c.min, c.max)
		for col := range 3 {
			got, why := f.StatisticsTrusted(0, col)
			if got != c.want[col] || got == (why != "") {
				t.Errorf("%q, min %q max %q, column %d: %v %q", c.createdBy, c.min, c.max, col, got, why)
			}
		}
	}
	if ok, _ := open("", "a", "b").StatisticsTrusted(1, 0); ok {
		t.Error("row group out of range trusted")
	}
	for cb, want := range map[string][3]int{"parquet-mr version 1.10.1-SNAPSHOT (build abc)": {1, 10, 1}, "x version 2": {2, 0, 0}, "x": {0, 0, 0}, "x version 3.4": {3, 4, 0}} {
		if _, v, ok := writerVersion(cb); !ok || v != want {
			t.Errorf("writerVersion(%q) = %v %v", cb, v, ok)
		}
	}
}

// TestWriterBoundsRules checks the rules by writer of StatisticsTrusted,
// boundsUsable and bloomGarbled on one schema of every kind of leaf they
// tell apart (a string, a GEOMETRY, a list leaf, a FLOAT16, a double),
// dictionary-encoded and LZ4-compressed or not, for arrow-go, parquet-go
// and Arrow C++. arrow-go's empty-string rule keeps the max of its
// strings only: not of its GEOMETRY column, which has no defined order.
func TestWriterBoundsRules(t *testing.T) {
	s := mustSchema(t, `message m { required binary s (STRING); required binary g (GEOMETRY);
		optional group l (LIST) { repeated group list { optional int64 element; } }
		required fixed_len_byte_array(2) h (FLOAT16); required double d; }`)
	open := func(createdBy string, dict bool) *File {
		var ccs []meta.ColumnChunk
		for range s.Leaves {
			md := &meta.ColumnMetaData{Codec: meta.LZ4Raw, Encodings: []meta.Encoding{meta.EncodingPlain},
				Statistics: &meta.Statistics{MinValue: []byte("a"), MaxValue: []byte("b")}}
			if dict {
				md.Encodings = []meta.Encoding{meta.EncodingRLEDictionary, meta.EncodingPlain}
				md.DictionaryPageOffset = meta.Some(int64(4))
			}
			ccs = append(ccs, meta.ColumnChunk{MetaData: md})
		}
		return &File{Schema: s, Meta: &meta.FileMetaData{CreatedBy: meta.Some(createdBy), RowGroups: []meta.RowGroup{{Columns: ccs}}}}
	}
	type want struct{ trusted, usable, emptyMin bool }
	no, yes, emptyMin := want{}, want{true, true, false}, want{false, true, true}
	for _, c := range []struct {
		createdBy string
		dict      bool
		cols      [5]want // s, g, l, h, d
		garbled   bool
	}{
		{"parquet-go version 18.8.0", true, [5]want{emptyMin, no, no, no, yes}, false},
		{"parquet-go version 18.8.0", false, [5]want{yes, no, no, no, yes}, false},
		{"github.com/parquet-go/parquet-go version 0.32.0", true, [5]want{yes, no, yes, yes, no}, true},
		{"github.com/parquet-go/parquet-go version 0.32.0", false, [5]want{yes, no, yes, yes, yes}, true},
		{"parquet-cpp-arrow version 18.0.0", true, [5]want{yes, no, yes, yes, yes}, false},
	} {
		f := open(c.createdBy, c.dict)
		for col, w := range c.cols {
			trusted, why := f.StatisticsTrusted(0, col)
			usable, em := f.boundsUsable(0, col)
			if trusted != w.trusted || trusted == (why != "") || usable != w.usable || em != w.emptyMin {
				t.Errorf("%q, dictionary %v, column %s: trusted %v (%q), usable %v, empty min %v; want %+v",
					c.createdBy, c.dict, s.Leaves[col].PathString(), trusted, why, usable, em, w)
			}
			if got := bloomGarbled(f, f.Meta.RowGroups[0].Columns[col].MetaData); got != c.garbled {
				t.Errorf("%q, column %s: bloomGarbled %v, want %v", c.createdBy, s.Leaves[col].PathString(), got, c.garbled)
			}
		}
	}
}
