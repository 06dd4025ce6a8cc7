// Per-chunk side structures: the page index (ColumnIndex and OffsetIndex,
// https://parquet.apache.org/docs/file-format/pageindex/) and split-block
// bloom filters (https://parquet.apache.org/docs/file-format/bloomfilter/).

package runtime

import (
	"errors"
	"fmt"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
)

// chunkOf returns the column chunk of leaf col in row group rg.
func (r *FileReader) chunkOf(rg, col int) (*meta.ColumnChunk, error) {
	if rg < 0 || rg >= len(r.f.Meta.RowGroups) {
		return nil, fmt.Errorf("%w: row group %d of %d", ErrColumn, rg, len(r.f.Meta.RowGroups))
	}
	if col < 0 || col >= len(r.f.Schema.Leaves) {
		return nil, fmt.Errorf("%w: column %d of a file with %d leaf columns", ErrColumn, col, len(r.f.Schema.Leaves))
	}
	return &r.f.Meta.RowGroups[rg].Columns[col], nil
}

// readRange reads length bytes at off, checked against the file.
func (r *FileReader) readRange(off, length int64, what string) ([]byte, error) {
	f := r.f
	if off < 0 || length < 0 || off > f.Size || length > f.Size-off {
		return nil, fmt.Errorf("%w: %s of %d bytes at offset %d lies outside the %d-byte file", ErrChunk, what, length, off, f.Size)
	}
	if length > f.cfg.MaxFooterSize {
		return nil, fmt.Errorf("%w: %s of %d bytes exceeds the limit of %d bytes", ErrChunk, what, length, f.cfg.MaxFooterSize)
	}
	buf := make([]byte, length)
	if err := readAt(f.r, buf, off); err != nil {
		return nil, fmt.Errorf("reading the %s at offset %d: %w", what, off, err)
	}
	return buf, nil
}

// ColumnIndex returns the ColumnIndex of leaf col in row group rg, or nil
// (and no error) when the file has none for that chunk.
func (r *FileReader) ColumnIndex(rg, col int) (*meta.ColumnIndex, error) {
	cc, err := r.chunkOf(rg, col)
	if err != nil {
		return nil, err
	}
	off, ok1 := cc.ColumnIndexOffset.Get()
	n, ok2 := cc.ColumnIndexLength.Get()
	if !ok1 || !ok2 {
		return nil, nil
	}
	path := r.f.Schema.Leaves[col].PathString()
	buf, err := r.readRange(off, int64(n), "column index of "+path)
	if err != nil {
		return nil, err
	}
	if buf, err = r.f.decryptModule(buf, crypt.ColumnIndex, rg, col); err != nil {
		return nil, err
	}
	ci, _, err := meta.DecodeColumnIndex(buf, &r.cfg.MetaLimits)
	if err != nil {
		return nil, fmt.Errorf("%w: column %q, row group %d: column index: %w", ErrChunk, path, rg, err)
	}
	np := len(ci.NullPages)
	if vp := np - countTrue(ci.NullPages); np > vp && len(ci.MinValues) == vp && len(ci.MaxValues) == vp {
		derr := r.f.deviate(Deviation{Kind: DeviationIndexNullBounds, Writer: "parquet-go", Column: path, RowGroup: rg, Page: -1,
			What: fmt.Sprintf("the column index has min and max values for its %d pages that are not null pages only, of %d pages (empty ones are put in for the null pages)", vp, np)})
		if derr != nil {
			return nil, derr
		}
		ci.MinValues, ci.MaxValues = withNullBounds(ci.MinValues, ci.NullPages), withNullBounds(ci.MaxValues, ci.NullPages)
	}
	if len(ci.MinValues) != np || len(ci.MaxValues) != np || (ci.NullCounts != nil && len(ci.NullCounts) != np) {
		return nil, fmt.Errorf("%w: column %q, row group %d: column index lists of different lengths", ErrChunk, path, rg)
	}
	return ci, nil
}

// countTrue returns the number of true elements of b.
func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// withNullBounds returns the bounds vals of the pages that are not null
// pages (null), with an empty bound put in for each null page.
// Precondition: len(vals) is the number of false elements of null.
func withNullBounds(vals [][]byte, null []bool) [][]byte {
	out := make([][]byte, 0, len(null))
	for _, n := range null {
		if n {
			out = append(out, []byte{})
		} else {
			out = append(out, vals[0])
			vals = vals[1:]
		}
	}
	return out
}

// OffsetIndex returns the OffsetIndex of leaf col in row group rg, or nil
// (and no error) when the file has none for that chunk. Page locations are
// checked to be increasing and to lie within the file.
func (r *FileReader) OffsetIndex(rg, col int) (*meta.OffsetIndex, error) {
	cc, err := r.chunkOf(rg, col)
	if err != nil {
		return nil, err
	}
	off, ok1 := cc.OffsetIndexOffset.Get()
	n, ok2 := cc.OffsetIndexLength.Get()
	if !ok1 || !ok2 {
		return nil, nil
	}
	path := r.f.Schema.Leaves[col].PathString()
	buf, err := r.readRange(off, int64(n), "offset index of "+path)
	if err != nil {
		return nil, err
	}
	if buf, err = r.f.decryptModule(buf, crypt.OffsetIndex, rg, col); err != nil {
		return nil, err
	}
	oi, _, err := meta.DecodeOffsetIndex(buf, &r.cfg.MetaLimits)
	if err != nil {
		return nil, fmt.Errorf("%w: column %q, row group %d: offset index: %w", ErrChunk, path, rg, err)
	}
	prevRow := int64(-1)
	for i, pl := range oi.PageLocations {
		if pl.Offset < 0 || pl.CompressedPageSize < 0 || pl.Offset > r.f.Size || int64(pl.CompressedPageSize) > r.f.Size-pl.Offset {
			return nil, fmt.Errorf("%w: column %q, row group %d: offset index page %d (offset %d, size %d, first row %d) is invalid",
				ErrChunk, path, rg, i, pl.Offset, pl.CompressedPageSize, pl.FirstRowIndex)
		}
		if pl.FirstRowIndex <= prevRow {
			return nil, fmt.Errorf("%w: column %q, row group %d: offset index page %d (offset %d, size %d, first row %d) is invalid: %w",
				ErrChunk, path, rg, i, pl.Offset, pl.CompressedPageSize, pl.FirstRowIndex, errFirstRows)
		}
		prevRow = pl.FirstRowIndex
	}
	return oi, nil
}

// errFirstRows is why OffsetIndex refuses an index whose pages do not
// start at increasing rows.
var errFirstRows = errors.New("its pages' first rows do not increase")

// pageOffsets is OffsetIndex for the reader's own use (page filters,
// filtered reads): an offset index of parquetjs whose pages do not start
// at increasing rows is taken as absent, with the column index beside
// it, and the deviation recorded (or, under WithStrict, returned).
func (r *FileReader) pageOffsets(rg, col int) (*meta.OffsetIndex, error) {
	oi, err := r.OffsetIndex(rg, col)
	if errors.Is(err, errFirstRows) && writtenByParquetjs(r.f) {
		derr := r.f.deviate(Deviation{Kind: DeviationPageIndexRows, Writer: "parquetjs", Column: r.f.Schema.Leaves[col].PathString(), RowGroup: rg, Page: -1,
			What: "the offset index's pages after the first do not start at increasing rows, and the column index's null_pages count the chunk's nulls so far (the page index is not used)"})
		return nil, derr
	}
	return oi, err
}

// BloomFilter returns the bloom filter of leaf col in row group rg, or nil
// (and no error) when the chunk has none. Probe it with the hashes of
// runtime/bloom (bloom.HashInt64, bloom.HashBytes, ...): a false Check
// means no value of the chunk equals the probe.
func (r *FileReader) BloomFilter(rg, col int) (*bloom.Filter, error) {
	cc, err := r.chunkOf(rg, col)
	if err != nil {
		return nil, err
	}
	md := cc.MetaData
	if md == nil {
		return nil, nil
	}
	off, ok := md.BloomFilterOffset.Get()
	if !ok {
		return nil, nil
	}
	length := int64(md.BloomFilterLength.Or(0))
	path := r.f.Schema.Leaves[col].PathString()
	if off < 0 || off >= r.f.Size || length < 0 || length > r.f.Size-off {
		return nil, fmt.Errorf("%w: column %q, row group %d: bloom filter at offset %d (length %d) lies outside the %d-byte file", ErrChunk, path, rg, off, length, r.f.Size)
	}
	if c, err := r.f.columnCipher(col); err != nil {
		return nil, err
	} else if c != nil {
		return r.encryptedBloomFilter(c, off, length, rg, col)
	}
	if length == 0 {
		// bloom_filter_length is optional: without it, the filter still
		// lies within the file, which bounds the bitset allocated.
		length = r.f.Size - off
	}
	bf, err := bloom.ReadAt(r.f.r, off, length, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: column %q, row group %d: bloom filter: %w", ErrChunk, path, rg, err)
	}
	return bf, nil
}
