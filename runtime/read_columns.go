// Typed column readers: one per physical type, each filling the levels and
// dense values of the generated-code contract (docs/DESIGN.md, "Reading").
// Physical types: https://parquet.apache.org/docs/file-format/types/.

package runtime

import (
	"errors"
	"fmt"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
	"github.com/pqgen/pqgen/runtime/schema"
)

// column checks that leaf col exists, is projected and has type t.
func (r *FileReader) column(col int, t meta.Type) error {
	leaves := r.f.Schema.Leaves
	if col < 0 || col >= len(leaves) {
		return fmt.Errorf("%w: column %d of a file with %d leaf columns", ErrColumn, col, len(leaves))
	}
	l := leaves[col]
	if len(r.unresolved) > 0 {
		return fmt.Errorf("%w: WithColumns: no column %q in the file", ErrColumn, r.unresolved[0])
	}
	if r.projected != nil && !r.projected[col] {
		return fmt.Errorf("%w: column %q is not among the columns selected by WithColumns", ErrColumn, l.PathString())
	}
	if a := r.adapt[col]; a != nil && a.conv {
		if a.wantType != t {
			return fmt.Errorf("%w: column %q is bound as %s, not %s", ErrColumn, l.PathString(), schema.TypeName(a.wantType, int32(a.wantSize)), schema.TypeName(t, 0))
		}
	} else if l.Type != t {
		return fmt.Errorf("%w: column %q is %s, not %s", ErrColumn, l.PathString(), schema.TypeName(l.Type, l.TypeLength), schema.TypeName(t, 0))
	}
	return nil
}

// Columns returns the indices of the leaf columns that may be read: the
// projected ones (WithColumns), or all of them.
func (r *FileReader) Columns() []int {
	var out []int
	for i := range r.f.Schema.Leaves {
		if r.Projected(i) {
			out = append(out, i)
		}
	}
	return out
}

// Projected reports whether leaf column col may be read: it is a leaf of
// the file (so -1, Bind's index of a column the file lacks, is not) and
// among the projected ones (WithColumns), or nothing was projected.
//
// For generated code (see "For generated code" in the package doc).
func (r *FileReader) Projected(col int) bool {
	return col >= 0 && col < len(r.f.Schema.Leaves) && (r.projected == nil || r.projected[col])
}

// BoolReader returns a reader of BOOLEAN leaf column col, positioned
// before the first row of the first selected row group.
func (r *FileReader) BoolReader(col int) (*BoolReader, error) {
	if err := r.column(col, meta.Boolean); err != nil {
		return nil, err
	}
	c := &BoolReader{}
	c.c.init(r, col)
	return c, nil
}

// ReadRows replaces Levels and Values with those of the next n whole rows
// (across pages and row groups; a row ends where the next repetition level
// 0 or the end of a column chunk is). It returns fewer than n rows only at
// the end of the data, and 0, io.EOF after the last row. Buffers are
// reused from call to call: Levels and Values are overwritten by the next
// call, so copy what must outlive it (strings from
// (*ByteArrayReader).String stay valid). Errors name the column, row group
// and page, and are sticky.
func (c *BoolReader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *BoolReader) resetValues() { c.Values = c.Values[:0] }
func (c *BoolReader) appendValues(p *page.Page, from, to int) error {
	c.Values = append(c.Values, p.Values.Bool[from:to]...)
	return nil
}

// Int32Reader returns a reader of INT32 leaf column col (see BoolReader).
func (r *FileReader) Int32Reader(col int) (*Int32Reader, error) {
	if err := r.column(col, meta.Int32); err != nil {
		return nil, err
	}
	c := &Int32Reader{}
	c.c.init(r, col)
	return c, nil
}

// ReadRows reads the next n whole rows (see (*BoolReader).ReadRows).
func (c *Int32Reader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *Int32Reader) resetValues() { c.Values = c.Values[:0] }
func (c *Int32Reader) appendValues(p *page.Page, from, to int) error {
	c.Values = append(c.Values, p.Values.Int32[from:to]...)
	return nil
}

// Int64Reader returns a reader of INT64 leaf column col (see BoolReader).
func (r *FileReader) Int64Reader(col int) (*Int64Reader, error) {
	if err := r.column(col, meta.Int64); err != nil {
		return nil, err
	}
	c := &Int64Reader{}
	c.c.init(r, col)
	return c, nil
}

// ReadRows reads the next n whole rows (see (*BoolReader).ReadRows).
func (c *Int64Reader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *Int64Reader) resetValues() { c.Values = c.Values[:0] }
func (c *Int64Reader) appendValues(p *page.Page, from, to int) error {
	c.Values = append(c.Values, p.Values.Int64[from:to]...)
	return nil
}

// Int96Reader returns a reader of INT96 leaf column col (see BoolReader).
func (r *FileReader) Int96Reader(col int) (*Int96Reader, error) {
	if err := r.column(col, meta.Int96); err != nil {
		return nil, err
	}
	c := &Int96Reader{}
	c.c.init(r, col)
	return c, nil
}

// ReadRows reads the next n whole rows (see (*BoolReader).ReadRows).
func (c *Int96Reader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *Int96Reader) resetValues() { c.Values = c.Values[:0] }
func (c *Int96Reader) appendValues(p *page.Page, from, to int) error {
	c.Values = append(c.Values, p.Values.Int96[from:to]...)
	return nil
}

// FloatReader returns a reader of FLOAT leaf column col (see BoolReader).
func (r *FileReader) FloatReader(col int) (*FloatReader, error) {
	if err := r.column(col, meta.Float); err != nil {
		return nil, err
	}
	c := &FloatReader{}
	c.c.init(r, col)
	return c, nil
}

// ReadRows reads the next n whole rows (see (*BoolReader).ReadRows).
func (c *FloatReader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *FloatReader) resetValues() { c.Values = c.Values[:0] }
func (c *FloatReader) appendValues(p *page.Page, from, to int) error {
	c.Values = append(c.Values, p.Values.Float[from:to]...)
	return nil
}

// DoubleReader returns a reader of DOUBLE leaf column col (see
// BoolReader).
func (r *FileReader) DoubleReader(col int) (*DoubleReader, error) {
	if err := r.column(col, meta.Double); err != nil {
		return nil, err
	}
	c := &DoubleReader{}
	c.c.init(r, col)
	return c, nil
}

// ReadRows reads the next n whole rows (see (*BoolReader).ReadRows).
func (c *DoubleReader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *DoubleReader) resetValues() { c.Values = c.Values[:0] }
func (c *DoubleReader) appendValues(p *page.Page, from, to int) error {
	c.Values = append(c.Values, p.Values.Double[from:to]...)
	return nil
}

// ByteArrayReader returns a reader of BYTE_ARRAY leaf column col (see
// BoolReader).
func (r *FileReader) ByteArrayReader(col int) (*ByteArrayReader, error) {
	if err := r.column(col, meta.ByteArray); err != nil {
		return nil, err
	}
	c := &ByteArrayReader{}
	c.c.init(r, col)
	return c, nil
}

// ReadRows reads the next n whole rows (see (*BoolReader).ReadRows).
func (c *ByteArrayReader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *ByteArrayReader) resetValues() {
	if c.strs.hasAll {
		// The strings of the batch share its buffer (batchString): leave
		// its bytes to them.
		c.Values.Data = afterShared(c.Values.Data)
	}
	c.Values.Data = c.Values.Data[:0]
	c.Values.Offsets = append(c.Values.Offsets[:0], 0)
	c.strs.reset()
	c.copied = nil
}

func (c *ByteArrayReader) appendValues(p *page.Page, from, to int) error {
	first := c.Values.Len() // batch position of value from
	if c.lazy && len(c.Values.Data) == 0 {
		if p.DictBytes != nil {
			return c.appendLazy(p, first, from, to)
		}
		if c.canLend(p) {
			return c.appendLent(p, first, from, to)
		}
	}
	c.strs.gather(&c.Values)
	if d := p.DictBytes; d != nil {
		// Resolve the dictionary indices straight into Values.
		if err := c.Values.AppendGathered(d, p.Indices[from:to]); err != nil {
			if errors.Is(err, encode.ErrLength) {
				return c.errBatchBytes()
			}
			return fmt.Errorf("%w: column %q: %w", ErrChunk, c.c.leaf.PathString(), err)
		}
		c.strs.add(p, first, from, to)
		return nil
	}
	src := &p.Values.Bytes
	base := uint32(len(c.Values.Data))
	lo, hi := src.Offsets[from], src.Offsets[to]
	if uint64(len(c.Values.Data))+uint64(hi-lo) > maxBatchBytes {
		return c.errBatchBytes()
	}
	c.Values.Data = append(c.Values.Data, src.Data[lo:hi]...)
	for _, o := range src.Offsets[from+1 : to+1] {
		c.Values.Offsets = append(c.Values.Offsets, o-lo+base)
	}
	c.strs.add(p, first, from, to)
	return nil
}

// appendLazy records dictionary-encoded values [from, to) of p, whose
// bytes the batch does not hold yet (see ByteArrayReader.lazy): their
// offsets, as if it did.
func (c *ByteArrayReader) appendLazy(p *page.Page, first, from, to int) error {
	c.strs.add(p, first, from, to)
	d := &c.strs.dict // p's dictionary, whose entries the decoder has range checked
	offs := c.Values.Offsets
	end := uint64(offs[len(offs)-1])
	for _, e := range p.Indices[from:to] {
		end += uint64(d.offs[e+1] - d.offs[e])
		if end > maxBatchBytes {
			return c.errBatchBytes()
		}
		offs = append(offs, uint32(end))
	}
	c.Values.Offsets = offs
	return nil
}

// canLend reports whether the value bytes of p, a page that was not
// dictionary-encoded, may be shared by the batch's strings (appendLent):
// they are the decoder's (no layout adapter converted the page), and at
// most maxLentPage.
func (c *ByteArrayReader) canLend(p *page.Page) bool {
	return p.BytesID != 0 && !c.c.converts() && len(p.Values.Bytes.Data) <= maxLentPage
}

// maxLentPage is the most value bytes of a page the strings share: a
// kept string keeps its page's bytes alive, and a larger page (writers
// cut pages of 1 MiB by default; some write a row group as one page) is
// copied batch by batch as before, so that a few kept strings do not
// hold it all. It also keeps refs' int32 starts in range.
const maxLentPage = 4 << 20

// appendLent records values [from, to) of p, which was not
// dictionary-encoded, as a lazy batch records dictionary-encoded ones
// (appendLazy): their offsets, and their starts in p's value bytes,
// which the strings share with the page, and the decoder then leaves to
// them (stringRefs.lend), instead of the batch copying them.
func (c *ByteArrayReader) appendLent(p *page.Page, first, from, to int) error {
	src := p.Values.Bytes.Offsets
	offs := c.Values.Offsets
	lo, base := src[from], offs[len(offs)-1]
	if uint64(base)+uint64(src[to]-lo) > maxBatchBytes {
		return c.errBatchBytes()
	}
	for _, o := range src[from+1 : to+1] {
		offs = append(offs, o-lo+base)
	}
	c.Values.Offsets = offs
	c.strs.lend(p, first, from, to)
	return nil
}

// maxBatchBytes is the most BYTE_ARRAY data one ReadRows call returns
// (ByteArrays offsets are 32-bit).
const maxBatchBytes = 1<<32 - 1

// errBatchBytes is the error of a batch whose values would exceed
// maxBatchBytes.
func (c *ByteArrayReader) errBatchBytes() error {
	return fmt.Errorf("%w: column %q: the values of the rows asked for exceed %d bytes; read fewer rows at a time", ErrColumn, c.c.leaf.PathString(), uint64(maxBatchBytes))
}

// String returns non-null value i (0 <= i < Values.Len()) as a string.
// Values that were dictionary-encoded are substrings of one copy of their
// dictionary, made when the reader meets it; other values are substrings
// of the batch's value bytes, which the reader then leaves to them and
// does not write again. So a string keeps its dictionary's copy or its
// batch's buffer alive, and Values.Data must not be modified once String
// has been called.
func (c *ByteArrayReader) String(i int) string {
	return c.strs.get(&c.Values, i)
}

// Bytes returns a copy of non-null value i (0 <= i < Values.Len()), which
// the caller may keep and modify. The copies of one batch are slices of
// one copy of its value bytes, made on first use, so a batch costs one
// allocation, not one per value; each is capped at its own end, so
// appending to one never writes into the next. An empty value is an
// empty, non-nil slice.
func (c *ByteArrayReader) Bytes(i int) []byte {
	if c.copied == nil {
		c.copyBatch()
	}
	lo, hi := c.Values.Offsets[i], c.Values.Offsets[i+1]
	return c.copied[lo:hi:hi]
}

// BytesOrNil is Bytes, but nil for an empty value: for fields where nil
// and empty are one value (a required []byte, written alike), so that
// rows read back as the zero values they were written from.
//
// For generated code (see "For generated code" in the package doc).
func (c *ByteArrayReader) BytesOrNil(i int) []byte {
	if c.Values.Offsets[i] == c.Values.Offsets[i+1] {
		return nil
	}
	return c.Bytes(i)
}

// copyBatch makes copied, the copy of the batch's value bytes that Bytes
// hands out slices of.
func (c *ByteArrayReader) copyBatch() {
	c.strs.gather(&c.Values)
	c.copied = make([]byte, len(c.Values.Data))
	copy(c.copied, c.Values.Data)
}

// FixedReader returns a reader of FIXED_LEN_BYTE_ARRAY leaf column col
// (see BoolReader).
func (r *FileReader) FixedReader(col int) (*FixedReader, error) {
	if err := r.column(col, meta.FixedLenByteArray); err != nil {
		return nil, err
	}
	c := &FixedReader{Size: int(r.f.Schema.Leaves[col].TypeLength)}
	if a := r.adapt[col]; a != nil && a.conv {
		c.Size = a.wantSize
	}
	c.c.init(r, col)
	return c, nil
}

// ReadRows reads the next n whole rows (see (*BoolReader).ReadRows).
func (c *FixedReader) ReadRows(n int) (int, error) { return c.c.readRows(n, &c.Levels, c) }

func (c *FixedReader) resetValues() { c.Values = c.Values[:0] }
func (c *FixedReader) appendValues(p *page.Page, from, to int) error {
	c.Values = append(c.Values, p.Values.Fixed[from*c.Size:to*c.Size]...)
	return nil
}

// The typed readers keep their values in their cursor's colBufs (bufUser),
// taken when they first read and given back by FileReader.Release.

func (c *BoolReader) takeBufs(b *colBufs)   { c.Values = b.bools[:0] }
func (c *BoolReader) giveBufs(b *colBufs)   { b.bools, c.Values = c.Values[:0], nil }
func (c *Int32Reader) takeBufs(b *colBufs)  { c.Values = b.i32[:0] }
func (c *Int32Reader) giveBufs(b *colBufs)  { b.i32, c.Values = c.Values[:0], nil }
func (c *Int64Reader) takeBufs(b *colBufs)  { c.Values = b.i64[:0] }
func (c *Int64Reader) giveBufs(b *colBufs)  { b.i64, c.Values = c.Values[:0], nil }
func (c *Int96Reader) takeBufs(b *colBufs)  { c.Values = b.i96[:0] }
func (c *Int96Reader) giveBufs(b *colBufs)  { b.i96, c.Values = c.Values[:0], nil }
func (c *FloatReader) takeBufs(b *colBufs)  { c.Values = b.f32[:0] }
func (c *FloatReader) giveBufs(b *colBufs)  { b.f32, c.Values = c.Values[:0], nil }
func (c *DoubleReader) takeBufs(b *colBufs) { c.Values = b.f64[:0] }
func (c *DoubleReader) giveBufs(b *colBufs) { b.f64, c.Values = c.Values[:0], nil }
func (c *FixedReader) takeBufs(b *colBufs)  { c.Values = b.fixed[:0] }
func (c *FixedReader) giveBufs(b *colBufs)  { b.fixed, c.Values = c.Values[:0], nil }

func (c *ByteArrayReader) takeBufs(b *colBufs) {
	c.Values.Data, c.Values.Offsets = b.bytes.Data[:0], b.bytes.Offsets[:0]
	c.strs.refs = b.refs[:0]
}

// giveBufs gives back the value bytes only when no string shares them
// (stringRefs.hasAll); Bytes copies and dictionary copies are never given.
func (c *ByteArrayReader) giveBufs(b *colBufs) {
	b.bytes.Offsets, b.refs = c.Values.Offsets[:0], c.strs.refs[:0]
	b.bytes.Data = nil
	if !c.strs.hasAll {
		b.bytes.Data = c.Values.Data[:0]
	}
	c.Values, c.strs.refs = encode.ByteArrays{}, nil
	c.strs.reset()
}
