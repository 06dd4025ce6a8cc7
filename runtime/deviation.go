// Deviations: departures from the Parquet specification that widely used
// writers make and whose meaning is unambiguous. Readers accept them by
// default and record each (File.Deviations); WithStrict(true) refuses
// them with an error wrapping ErrDeviation. docs/DEVIATIONS.md lists
// them with the writers that make them.

package runtime

import (
	"fmt"
	"strings"
	"sync"
)

// DeviationKind names one kind of tolerated deviation.
type DeviationKind string

// The deviations readers tolerate.
const (
	// DeviationWideDelta: INT32 DELTA_BINARY_PACKED miniblocks of bit
	// width 33 to 64 (deltas computed in 64 bits; DuckDB 1.5). The deltas
	// are wrapped to 32 bits, which gives the values written.
	DeviationWideDelta DeviationKind = "int32-delta-wider-than-32-bits"
	// DeviationThriftIntWidth: an integer metadata field (of the footer
	// or of a page header) written with another Thrift integer type than
	// its own, with a value that fits (IntType.bitWidth as an i32;
	// hyparquet-writer 0.17).
	DeviationThriftIntWidth DeviationKind = "thrift-integer-width"
	// DeviationVariantUnsorted: a Variant object whose field ids are not
	// in the lexicographic order of their keys (DuckDB 1.5). Its fields
	// are looked up by a linear scan.
	DeviationVariantUnsorted DeviationKind = "variant-object-unsorted"
	// DeviationVariantOptionalField: the group of a shredded Variant
	// object field is optional where the specification requires it
	// (hyparquet-writer 0.17). A null group reads as a missing field.
	DeviationVariantOptionalField DeviationKind = "variant-shredded-field-optional"
	// DeviationDictionaryOffsetZero: a column chunk's
	// dictionary_page_offset is 0 (the magic); it is taken as "no
	// dictionary page offset" and the chunk is read from its first data
	// page (parquet-mr 1.12.0 builds, old parquet-cpp).
	DeviationDictionaryOffsetZero DeviationKind = "dictionary-page-offset-0"
	// DeviationEncryptionNoAAD: an encrypted-footer file whose modules
	// are AES-GCM encrypted without any AAD (no module type or ordinals),
	// and whose columns are encrypted with the footer key without
	// crypto_metadata (DuckDB 1.5). It is read so when the footer
	// authenticates only without AAD, which makes the module AADs'
	// protection against swapped or misplaced modules void.
	DeviationEncryptionNoAAD DeviationKind = "encryption-without-aad"
	// DeviationV2Compressed: a DATA_PAGE_V2 page says is_compressed false
	// but its values are compressed with the chunk's codec (parquet-cpp
	// before Arrow 3.0, created_by "parquet-cpp version 1.x";
	// ARROW-10353). They are decompressed, as Arrow C++ does.
	DeviationV2Compressed DeviationKind = "v2-page-compressed-anyway"
	// DeviationRLEIntegers: INT32 or INT64 values in the RLE encoding,
	// which the format has for BOOLEAN values only (parquetjs, a column
	// with encoding 'RLE'): a 4-byte length, then the RLE/bit-packed
	// hybrid at the bit width the column's type_length stores (from 1 to
	// 32). They are read as parquetjs reads them back (page.Column.RLEBitWidth).
	DeviationRLEIntegers DeviationKind = "rle-integer-values"
	// DeviationEmptyValues: a page of nulls only whose values section is
	// empty where its encoding starts with a header (DELTA_BINARY_PACKED,
	// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, RLE): the
	// DELTA_BINARY_PACKED encoders of Parquet.Net before
	// aloneguid/parquet-dotnet#388 (2023) and of QuestDB before
	// questdb/questdb#7212 (2026) wrote no header for no values. It is
	// read as the encoding of no values.
	DeviationEmptyValues DeviationKind = "empty-values-section"
	// DeviationListPadding: level slots that continue a null or empty
	// list with the same null or empty marker (a repetition level r > 0
	// where the list at level r holds no element, with the definition
	// level of the slot before): DuckDB 1.5 writes a NULL fixed-size
	// ARRAY (INTEGER[3]) as one slot per element. The slots hold no
	// value; they are dropped, and the list read as the one null or
	// empty list the first slot says, as arrow-rs, Polars and DuckDB do.
	DeviationListPadding DeviationKind = "list-padding-slots"
	// DeviationBloomUnset: a bloom filter header whose algorithm, hash
	// and compression unions have no member set (empty structs;
	// parquetjs). The filter names no hashing, so filtered reads do not
	// use it (nor any filter of an algorithm, hash or compression other
	// than BLOCK, XXHASH and UNCOMPRESSED, which is no deviation).
	DeviationBloomUnset DeviationKind = "bloom-filter-union-unset"
	// DeviationNullPageValues: a column index entry says a page holds
	// only nulls (null_pages) while its definition level histogram
	// counts values, or its null count is below the page's rows: the
	// page holds values, and the index has no bounds for them (Polars
	// marks so the pages of floating-point columns holding NaN, arrow-rs
	// those of repeated columns). Filtered reads take the page's values
	// as unbounded (the null page's placeholder min and max are no
	// bounds).
	DeviationNullPageValues DeviationKind = "null-page-with-values"
	// DeviationNullCountAll: chunk statistics or a column index entry
	// that count more nulls than values, or as many while giving a min
	// and max or a distinct count, which only values give (DuckDB 1.5,
	// and Polars, overcount so the nulls of the fields of structs in
	// lists).
	// Filtered reads do not use the null count.
	DeviationNullCountAll DeviationKind = "null-count-covers-values"
	// DeviationChunkBoundsNarrow: chunk statistics whose min and max
	// leave out values of the chunk's pages, by the column index: a page
	// bound beyond them, or a page of values the index gives no bounds
	// for (Polars merges page statistics into the chunk's without the
	// pages of floats holding NaN, and gives decimals bounds that leave
	// out other pages' values). Filtered reads check the bounds of Polars' chunks that
	// would decide against the column index; these they do not use, and
	// prune by the pages'.
	DeviationChunkBoundsNarrow DeviationKind = "chunk-bounds-exclude-pages"
	// DeviationPageIndexRows: an offset index whose pages after the
	// first do not start at increasing rows (parquetjs 1.8 writes them
	// all at row 0), beside a column index whose null_pages compare each
	// page's values with the chunk's nulls so far. Filtered reads and
	// page filters take the chunk as having no page index; OffsetIndex
	// still refuses the offset index.
	DeviationPageIndexRows DeviationKind = "page-index-first-rows"
	// DeviationIndexNullBounds: a column index whose min_values and
	// max_values hold entries for the pages that are not null pages
	// only (parquet-go 0.32 leaves out those of null pages), where every
	// page should have one (an empty one for a null page). ColumnIndex
	// returns the lists with empty entries put in for the null pages.
	DeviationIndexNullBounds DeviationKind = "column-index-null-page-bounds"
)

// Deviation is one tolerated deviation of an open file. Column is the
// dotted path of the leaf column ("" for the file as a whole); RowGroup
// and Page are -1 when they do not apply or are unknown (Page is the
// ordinal of the data page in its chunk).
type Deviation struct {
	Kind DeviationKind
	// Writer names the writer known to make it (a hint, not a check of
	// the file's created_by).
	Writer string
	// What says what was found and how it was read.
	What     string
	Column   string
	RowGroup int
	Page     int
}

// String gives the deviation in the form of the runtime's errors: where,
// kind, writer and what.
func (d Deviation) String() string {
	var sb strings.Builder
	if d.Column != "" {
		fmt.Fprintf(&sb, "column %q, ", d.Column)
	}
	if d.RowGroup >= 0 {
		fmt.Fprintf(&sb, "row group %d, ", d.RowGroup)
	}
	if d.Page >= 0 {
		fmt.Fprintf(&sb, "page %d, ", d.Page)
	}
	fmt.Fprintf(&sb, "%s (%s): %s", d.Kind, d.Writer, d.What)
	return sb.String()
}

// maxDeviations bounds the deviations recorded per file: each kind is
// recorded once per column and row group, and past this count no more.
const maxDeviations = 1024

// deviationLog holds the deviations of a file; column readers on several
// goroutines record into it.
type deviationLog struct {
	mu   sync.Mutex
	list []Deviation
}

// deviate accepts the deviation d (recorded once per kind, column and row
// group) or, under WithStrict, returns an error wrapping ErrDeviation that
// names it.
func (f *File) deviate(d Deviation) error {
	if f.cfg.Strict {
		return fmt.Errorf("%w: %s (WithStrict)", ErrDeviation, d)
	}
	l := f.devs
	if l == nil {
		return nil // a File made by hand, not by OpenFile
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.list) >= maxDeviations {
		return nil
	}
	for _, o := range l.list {
		if o.Kind == d.Kind && o.Column == d.Column && o.RowGroup == d.RowGroup {
			return nil
		}
	}
	l.list = append(l.list, d)
	return nil
}

// Deviations returns the deviations from the specification that reading
// the file has met so far and accepted: those of the footer once OpenFile
// returns, those of the pages and Variant values as they are read. Each
// kind is listed once per column and row group (the first page met), in
// the order met. With WithStrict, a deviation fails the read instead and
// this list stays empty. It is safe to call while columns are read.
func (f *File) Deviations() []Deviation {
	if f.devs == nil {
		return nil // a File made by hand, not by OpenFile
	}
	f.devs.mu.Lock()
	defer f.devs.mu.Unlock()
	return append([]Deviation(nil), f.devs.list...)
}

// WithStrict makes a reader refuse the deviations from the specification
// it otherwise accepts and records (File.Deviations, docs/DEVIATIONS.md):
// the read meeting one fails with an error wrapping ErrDeviation that
// names it, with the column, row group and page where they apply.
func WithStrict(on bool) ReaderOption {
	return func(c *readerConfig) { c.Strict = on }
}
