// Statistics that old writers computed wrongly: Arrow C++ and
// parquet-java ignore the min/max of these writers (PARQUET-251,
// PARQUET-686/1025: bounds of unsigned columns compared as signed), and
// so should anything that prunes with them.

package runtime

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/pqgen/pqgen/runtime/meta"
)

// StatisticsTrusted reports whether the min/max statistics of leaf col's
// chunk in row group rg can be trusted, with the reason when they cannot.
// They cannot, as Arrow C++ decides it from created_by:
//
//   - parquet-mr before 1.10.0 and parquet-cpp before 1.3.0 compared the
//     values of unsigned-order columns (strings and binary, unsigned
//     integers) as signed: their bounds are wrong unless min equals max;
//   - parquet-mr before 1.8.0 wrote wrong bounds for binary columns
//     (PARQUET-251);
//   - columns without a defined order (INTERVAL, geospatial; INT96
//     without INT96_TIMESTAMP_ORDER) have no meaningful bounds.
//
// Beyond Arrow C++'s rules, files of arrow-go (created_by "parquet-go
// version", Apache Arrow's Go implementation; 18.8, the newest checked,
// and every version before it) have three faults, found by
// TestArrowGoFuzz (peers/genconf), in their chunk statistics and column
// index alike:
//
//   - the bounds of a leaf in a list or map leave out the values of each
//     batch it writes (1,024 rows by default) that holds no more values
//     than null or empty lists, and a page of only such batches is a null
//     page (its UpdateSpaced subtracts the null count, which counts the
//     null and empty lists, from the element count): not trusted;
//   - the bounds of a FLOAT16 column leave out the values before a NaN in
//     each batch holding a null (its min and max restart at the value
//     after the NaN; a NaN last drops the batch's bounds): not trusted;
//   - the min of a dictionary-encoded BYTE_ARRAY chunk of an Arrow
//     dictionary array leaves out the empty string: not trusted, though
//     filtered reads still use the max and take the min as "".
//
// So are those of parquet-go's (created_by
// "github.com/parquet-go/parquet-go"; 0.32, the newest checked)
// dictionary-encoded FLOAT and DOUBLE chunks: their min and max restart
// after a NaN among the dictionary's values (-50, 1, NaN, 3, 4 give [3,
// 4]), or are NaN. Found by TestParquetGoFuzz.
//
// Files without created_by are trusted (parquet-mr around PARQUET-251
// left it out, PARQUET-297); a writer named without a version counts as
// version 0.0.0. The chunk's statistics are not looked at beyond
// comparing min and max.
func (f *File) StatisticsTrusted(rg, col int) (bool, string) {
	if rg < 0 || rg >= len(f.Meta.RowGroups) || col < 0 || col >= len(f.Schema.Leaves) {
		return false, "no such chunk"
	}
	leaf := f.Schema.Leaves[col]
	order := columnOrderKind(leaf)
	var unsigned bool
	switch order {
	case orderNone:
		return false, "the column's type has no defined sort order"
	case orderInt96Time:
		if f.ColumnOrder(col) != meta.Int96TimestampOrder {
			return false, "INT96 bounds are meaningful only with INT96_TIMESTAMP_ORDER"
		}
	case orderUint32, orderUint64, orderBytes:
		unsigned = true
	}
	app, v, ok := writerVersion(f.Meta.CreatedBy.Val)
	if !ok {
		return true, ""
	}
	less := func(maj, mnr, pat int) bool {
		return v[0] < maj || v[0] == maj && (v[1] < mnr || v[1] == mnr && v[2] < pat)
	}
	binary := leaf.Type == meta.ByteArray || leaf.Type == meta.FixedLenByteArray
	writer := fmt.Sprintf("%s %d.%d.%d", app, v[0], v[1], v[2])
	if (app == "parquet-mr" && less(1, 10, 0)) || (app == "parquet-cpp" && less(1, 3, 0)) {
		if unsigned && !minEqualsMax(f.Meta.RowGroups[rg].Columns[col].MetaData) {
			return false, writer + " compared the values of this unsigned-order column as signed"
		}
		if !binary {
			return true, ""
		}
	}
	if app == "parquet-mr" && less(1, 8, 0) && binary {
		return false, writer + " wrote wrong bounds for binary columns (PARQUET-251)"
	}
	if why := arrowGoBoundsFault(f, rg, col, app); why != "" {
		return false, writer + " (arrow-go) " + why
	}
	if (leaf.Type == meta.Float || leaf.Type == meta.Double) && app == "github.com/parquet-go/parquet-go" && dictEncoded(f.Meta.RowGroups[rg].Columns[col].MetaData) {
		return false, writer + " left values before a NaN out of the bounds of dictionary-encoded floats"
	}
	return true, ""
}

// arrowGoBoundsFault tells how arrow-go's bounds of leaf col's chunk in
// row group rg leave out values, when app, the file's writer, is arrow-go
// ("parquet-go"; see StatisticsTrusted), or returns "".
func arrowGoBoundsFault(f *File, rg, col int, app string) string {
	if app != "parquet-go" {
		return ""
	}
	leaf := f.Schema.Leaves[col]
	switch {
	case leaf.MaxRep > 0:
		return "left values out of the bounds of leaves in lists"
	case leaf.Logical.Kind == meta.LogicalFloat16:
		return "left values out of the bounds of FLOAT16 columns"
	case arrowGoEmptyMin(f, rg, col, app):
		return "left the empty string out of the min of dictionary-encoded chunks"
	}
	return ""
}

// arrowGoEmptyMin reports whether the min of leaf col's chunk in row group
// rg, and of its pages, may leave out the empty string: app is arrow-go
// and the chunk a dictionary-encoded BYTE_ARRAY chunk (see
// StatisticsTrusted).
func arrowGoEmptyMin(f *File, rg, col int, app string) bool {
	if app != "parquet-go" || f.Schema.Leaves[col].Type != meta.ByteArray {
		return false
	}
	return dictEncoded(f.Meta.RowGroups[rg].Columns[col].MetaData)
}

// dictEncoded reports whether chunk md (nil: none) has a dictionary page
// or dictionary-encoded data pages, as its metadata says.
func dictEncoded(md *meta.ColumnMetaData) bool {
	return md != nil && (md.DictionaryPageOffset.Set || slices.ContainsFunc(md.Encodings, func(e meta.Encoding) bool {
		return e == meta.EncodingPlainDictionary || e == meta.EncodingRLEDictionary
	}))
}

// bloomGarbled reports whether the bloom filter of chunk md of f holds
// hashes of other bytes than its values: parquet-go (0.32, the newest
// checked) fills a column's filter from each page's data after
// compressing the page, and its LZ4 codec leaves other bytes there
// (found by TestParquetGoFuzz: of 600 values written a row at a time,
// none was in the filter). Filtered reads do not use such filters,
// without a record: the file cannot show it.
func bloomGarbled(f *File, md *meta.ColumnMetaData) bool {
	app, _, _ := writerVersion(f.Meta.CreatedBy.Val)
	return app == "github.com/parquet-go/parquet-go" && (md.Codec == meta.LZ4Raw || md.Codec == meta.LZ4)
}

// boundsUsable reports whether filtered reads may use the bounds of leaf
// col's chunk in row group rg, and of its pages: all but those
// StatisticsTrusted rejects, except arrow-go's dictionary-encoded
// BYTE_ARRAY chunks, whose max is right and whose min is taken as the
// empty string (emptyMin).
func (f *File) boundsUsable(rg, col int) (ok, emptyMin bool) {
	if ok, _ = f.StatisticsTrusted(rg, col); ok {
		return true, false
	}
	// Rejected for the empty string alone (a STRING column in no list,
	// of a defined order), the max holds.
	leaf := f.Schema.Leaves[col]
	app, _, _ := writerVersion(f.Meta.CreatedBy.Val)
	if leaf.MaxRep == 0 && columnOrderKind(leaf) != orderNone && arrowGoEmptyMin(f, rg, col, app) {
		return true, true
	}
	return false, false
}

// minEqualsMax reports whether a chunk's bounds (either pair) are equal,
// when the order they were computed in does not matter.
func minEqualsMax(md *meta.ColumnMetaData) bool {
	if md == nil || md.Statistics == nil {
		return false
	}
	s := md.Statistics
	return (s.MinValue != nil && s.MaxValue != nil && bytes.Equal(s.MinValue, s.MaxValue)) ||
		(s.Min != nil && s.Max != nil && bytes.Equal(s.Min, s.Max))
}

// writerVersion parses created_by ("app version X.Y.Z[...] (build B)") into
// the application name and its major, minor and patch numbers (missing
// ones are 0, as for a bare application name); ok is false for an empty
// created_by.
func writerVersion(createdBy string) (app string, v [3]int, ok bool) {
	app, rest, found := strings.Cut(createdBy, " version ")
	app = strings.TrimSpace(app)
	if app == "" {
		return app, v, false
	}
	if !found {
		return app, v, true
	}
	rest = strings.TrimSpace(rest)
	for i := range v {
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' && j < 9 {
			v[i] = v[i]*10 + int(rest[j]-'0')
			j++
		}
		if j == 0 {
			return app, v, true
		}
		rest = rest[j:]
		if i < 2 {
			if !strings.HasPrefix(rest, ".") {
				return app, v, true
			}
			rest = rest[1:]
		}
	}
	return app, v, true
}
