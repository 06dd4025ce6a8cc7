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
