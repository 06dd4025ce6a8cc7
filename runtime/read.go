// The file reader: column chunks of the selected row groups read page by
// page into the typed buffers of the generated-code contract (levels plus
// dense values, see columns.go and docs/DESIGN.md). File layout:
// https://parquet.apache.org/docs/file-format/; levels:
// https://parquet.apache.org/docs/file-format/nestedencoding/.

package runtime

import (
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
	"github.com/pqgen/pqgen/runtime/schema"
)

// FileReader reads the rows of a Parquet file column by column. It is not
// safe for concurrent use, but the column readers it returns are
// independent of each other (each has its own buffers and position) and
// may be used from different goroutines if the io.ReaderAt allows it.
type FileReader struct {
	f         *File
	cfg       readerConfig
	rowGroups []int  // selected row groups, in file order
	projected []bool // per leaf; nil means every column
	// unresolved are the WithColumns paths that name no column of the
	// file: until Bind finds them in its schema, asking for a column
	// fails with them.
	unresolved []string
	numRows    int64
	// ranges holds, per selected row group, the rows kept by
	// WithColumnPageFilter (nil: every row).
	ranges map[int][]rowRange
	// adapt holds, per file leaf, how the last Bind reads it in another
	// compatible layout (read_adapt.go).
	adapt map[int]*adapter
	// bound is the result of the last Bind (the file column of each leaf
	// of want, or -1), with which filters find their columns.
	bound []int
	// want is the schema of the last Bind (nil before); filter the state
	// of WithFilter (nil without).
	want   *schema.Schema
	filter *filterState
	// active lists the leaves that have column readers, and fetched the
	// row groups whose pages were prefetched (WithReadCoalescing).
	active  []int
	fetched map[int]bool
	// cursors are those of the column readers made from r, which
	// Release releases.
	cursors []*cursor
	// spare are the buffers of a released reader not yet given to a
	// column reader of r, taken (tookSpare) when r makes its first
	// (takeBufs). mu guards them and cursors and active too.
	spare     []*colBufs
	tookSpare bool
	// pipe is the read-ahead of ReadColumns (read_pipe.go), nil before.
	pipe *readPipe
	// mu guards the filter's progress, ranges and fetched, which column
	// readers used from different goroutines update (enterChunk).
	mu sync.Mutex
}

// rowRange is the half-open range of rows [start, end) of a row group.
type rowRange struct{ start, end int64 }

// NewFileReader opens the Parquet file of size bytes behind r (see
// OpenFile) and applies the options: projection (WithColumns), row-group
// selection (WithRowGroupFilter), page bounds and CRC checks.
func NewFileReader(r io.ReaderAt, size int64, opts ...ReaderOption) (*FileReader, error) {
	cfg := newReaderConfig(opts...)
	if cfg.opened != nil && cfg.err == nil {
		return newFileReader(cfg.opened.share(cfg))
	}
	f, err := openFile(r, size, cfg)
	if err != nil {
		return nil, err
	}
	return newFileReader(f)
}

// NewFileReaderOf returns a reader of the already open file f (see
// NewFileReader), with the options f was opened with. Deviations met
// while reading are recorded in f (File.Deviations).
func NewFileReaderOf(f *File) (*FileReader, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: NewFileReaderOf(nil)", ErrConfig)
	}
	return newFileReader(f)
}

func newFileReader(f *File) (*FileReader, error) {
	fr := &FileReader{f: f, cfg: f.cfg}
	if _, inMem := f.r.(page.InMemory); fr.cfg.CoalesceBuffer > 0 && !inMem {
		// The File is this reader's own (NewFileReader opened it). A
		// file in memory has nothing to gain from fewer, larger reads.
		f.r = &coalescer{r: f.r, size: f.Size, gap: fr.cfg.CoalesceGap, max: fr.cfg.CoalesceBuffer}
	}
	if fr.cfg.Columns != nil {
		// A path naming no column of the file selects none here: it may
		// name a column of the type Bind binds (a field renamed by id, one
		// the file lacks, the modern layout of a legacy list); Bind fails
		// for a path that names neither, and without Bind asking for a
		// column does.
		fr.projected = make([]bool, len(f.Schema.Leaves))
		for _, p := range fr.cfg.Columns {
			found := false
			for i, l := range f.Schema.Leaves {
				if underPath(l, p) {
					fr.projected[i], found = true, true
				}
			}
			if !found {
				fr.unresolved = append(fr.unresolved, p)
			}
		}
	}
	filterCol := -1
	if fr.cfg.PageFilter != nil {
		l := f.Schema.Leaf(fr.cfg.PageFilterColumn)
		if l == nil {
			return nil, fmt.Errorf("%w: WithColumnPageFilter: no column %q in the file", ErrColumn, fr.cfg.PageFilterColumn)
		}
		filterCol = l.Column
		fr.ranges = map[int][]rowRange{}
	}
	var only map[int]bool
	if fr.cfg.RowGroups != nil {
		only = map[int]bool{}
		for _, i := range fr.cfg.RowGroups {
			if i >= len(f.Meta.RowGroups) {
				return nil, fmt.Errorf("%w: WithRowGroups: row group %d of a file with %d", ErrConfig, i, len(f.Meta.RowGroups))
			}
			only[i] = true
		}
	}
	if fr.cfg.Filter != nil {
		fr.filter = &filterState{pred: fr.cfg.Filter}
	}
	for i := range f.Meta.RowGroups {
		if only != nil && !only[i] || fr.cfg.RowGroupFilter != nil && !fr.cfg.RowGroupFilter(f, i) {
			continue
		}
		rows := f.Meta.RowGroups[i].NumRows
		if filterCol >= 0 {
			rr, err := fr.pageRanges(i, filterCol)
			if err != nil {
				return nil, err
			}
			if rr != nil {
				if len(rr) == 0 {
					continue
				}
				fr.ranges[i] = rr
				rows = 0
				for _, r := range rr {
					rows += r.end - r.start
				}
			}
		}
		if part := fr.cfg.part; part != nil {
			if i != part.rowGroup {
				continue
			}
			rr, ok := fr.ranges[i]
			if !ok {
				rr = []rowRange{{0, rows}}
			}
			rr = intersectRanges(rr, []rowRange{part.rows})
			if len(rr) == 0 {
				continue
			}
			if fr.ranges == nil {
				fr.ranges = map[int][]rowRange{}
			}
			fr.ranges[i] = rr
			rows = rangeRows(rr)
		}
		fr.rowGroups = append(fr.rowGroups, i)
		fr.numRows += rows
	}
	return fr, nil
}

// pageRanges returns the rows of row group rg kept by the page filter on
// leaf col, or nil when the column has no page index there.
func (r *FileReader) pageRanges(rg, col int) ([]rowRange, error) {
	ci, err := r.ColumnIndex(rg, col)
	if err != nil {
		return nil, err
	}
	oi, err := r.pageOffsets(rg, col)
	if err != nil {
		return nil, err
	}
	if ci == nil || oi == nil {
		return nil, nil
	}
	locs := oi.PageLocations
	if len(ci.NullPages) != len(locs) {
		return nil, fmt.Errorf("%w: column %q, row group %d: the column index lists %d pages, the offset index %d",
			ErrChunk, r.f.Schema.Leaves[col].PathString(), rg, len(ci.NullPages), len(locs))
	}
	total := r.f.Meta.RowGroups[rg].NumRows
	out := []rowRange{}
	for p := range locs {
		start, end := locs[p].FirstRowIndex, total
		if p+1 < len(locs) {
			end = locs[p+1].FirstRowIndex
		}
		if start >= total || end > total {
			return nil, fmt.Errorf("%w: column %q, row group %d: offset index page %d starts at row %d of %d",
				ErrChunk, r.f.Schema.Leaves[col].PathString(), rg, p, start, total)
		}
		if !r.cfg.PageFilter(r.f, rg, ci, p) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].end == start {
			out[n-1].end = end
		} else {
			out = append(out, rowRange{start, end})
		}
	}
	if len(locs) > 0 && locs[0].FirstRowIndex != 0 {
		return nil, fmt.Errorf("%w: column %q, row group %d: the offset index starts at row %d",
			ErrChunk, r.f.Schema.Leaves[col].PathString(), rg, locs[0].FirstRowIndex)
	}
	return out, nil
}

// File returns the open file: footer metadata and schema.
func (r *FileReader) File() *File { return r.f }

// Release ends reading through r's column readers: it hands their
// buffers (the read window, the decompressed pages, their levels and
// values, the dictionaries, and the readers' own Levels and Values) to a
// pool from which the column readers of
// files opened later take theirs, so that reading many files does not
// allocate and clear new buffers for each. The column readers fail with
// ErrClosed from then on, and their Levels and Values are emptied (they
// go to the pool too); the strings and Bytes copies they returned stay
// valid, as none of them points into the pooled buffers. It first waits
// for the goroutines decoding the next batch ahead (WithReadParallelism),
// which stop after their current column. Release must not
// run concurrently with a read; calling it again does nothing.
// Generated readers call it from Close and at the end of the rows.
func (r *FileReader) Release() {
	r.stopPipe() // before the lock, which the readers decoding ahead take
	r.mu.Lock()
	defer r.mu.Unlock()
	set := make([]*colBufs, 0, len(r.cursors)+len(r.spare))
	for _, c := range r.cursors {
		if b := c.release(); b != nil {
			set = append(set, b)
		}
	}
	r.cursors = nil
	// The buffers of a released reader this one took and did not use go
	// back too, after its own, at the positions they had: a reader of
	// fewer columns (or without the second set WithReadParallelism
	// reads ahead into) does not drop those another reader needs.
	set = append(set, r.spare...)
	r.spare = nil
	if len(set) > 0 {
		bufSets.Put(&set)
	}
}

// NumRows returns the number of rows in the selected row groups (all of
// them without WithRowGroupFilter), as the footer states it. With
// WithFilter it counts the rows left by pruning (0 when pruning failed:
// the next read returns the error) and falls to the exact count as
// reading proceeds (see Available).
func (r *FileReader) NumRows() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.prepareFilter() != nil {
		return 0
	}
	return r.numRows
}

// RowGroups returns the indices of the selected row groups, in file
// order. The caller must not modify the slice.
func (r *FileReader) RowGroups() []int { return r.rowGroups }

// Bind matches the leaves of want to the file's leaves: fields match by
// field id when both carry one, else by name, group by group (LIST and
// MAP groups in any layout the file gives them, legacy ones included).
// The result holds, for each leaf of want (want.Leaves order), the index
// of the file's leaf column, or -1 when the file lacks it and it may be
// null (the leaf is optional or below an optional or repeated field). The
// file's columns that want lacks are never read. The schema evolution
// rules decide what else binds (see "Schema evolution" in the package
// doc): a field required in the file reads into an optional one; an
// optional one into a required one only with WithOptionalAsRequired (a
// null is then an error wrapping ErrValue naming column and row); values
// widen exactly (integers, floats, dates, time units, decimals, text and
// bytes), converted by the column's typed reader, which is that of want's
// physical type. A missing required leaf, a narrowing, a changed type or
// a repetition that differs fails with an error wrapping ErrBind that
// names the column and both types.
//
// The leaves below the groups at the paths variants get -1: those
// Variants are matched by their group (VariantColumn), whatever shredding
// the file gives them.
func (r *FileReader) Bind(want *schema.Schema, variants ...string) ([]int, error) {
	return r.BindDefaults(want, nil, variants...)
}

// BindDefaults is Bind for a type some of whose required leaves (the
// dotted paths defaults) have a default value: a file that lacks one of
// them binds it to -1, and the generated reader fills in the default,
// where Bind fails.
//
// For generated code (see "For generated code" in the package doc).
func (r *FileReader) BindDefaults(want *schema.Schema, defaults []string, variants ...string) ([]int, error) {
	opt := bindOptions{optionalAsRequired: r.cfg.OptionalAsRequired, coarserUnits: r.cfg.CoarserTimeUnits, defaults: map[string]bool{}}
	for _, p := range defaults {
		opt.defaults[p] = true
	}
	idx, adapt, err := bindAdapt(r.f.Schema, want, opt, variants...)
	if err != nil {
		return nil, err
	}
	// WithColumns paths name columns of the file or of the bound type:
	// the latter select the file columns bound to them.
	// (newFileReader selected the file's own and kept the others in
	// r.unresolved.)
	for _, p := range r.cfg.Columns {
		inWant := false
		for _, w := range want.Leaves {
			if underPath(w, p) {
				inWant = true
				if h := idx[w.Column]; h >= 0 {
					r.projected[h] = true
				}
			}
		}
		if !inWant && slices.Contains(r.unresolved, p) {
			return nil, fmt.Errorf("%w: WithColumns: no column %q in the file or in the requested schema", ErrColumn, p)
		}
	}
	r.adapt = adapt
	r.want = want
	r.bound = idx
	r.unresolved = nil
	return idx, nil
}

// underPath reports whether leaf l is at the dotted path p or below the
// group at p (a column named "a.b" is not below a group a).
func underPath(l *schema.Node, p string) bool {
	return l.PathString() == p || under(l, []string{p})
}

// under reports whether n lies below one of the groups at paths.
func under(n *schema.Node, paths []string) bool {
	for p := n.Parent; p != nil && len(paths) > 0; p = p.Parent {
		for _, path := range paths {
			if p.Parent != nil && p.PathString() == path {
				return true
			}
		}
	}
	return false
}

func mayBeNull(n *schema.Node) bool {
	for ; n != nil && n.Parent != nil; n = n.Parent {
		if n.Repetition != meta.Required {
			return true
		}
	}
	return false
}

// BoolReader reads a BOOLEAN column: ReadRows replaces Levels and Values
// (the non-null values) with those of the next rows.
type BoolReader struct {
	Levels
	Values []bool
	c      cursor
}

// Int32Reader reads an INT32 column (see BoolReader).
type Int32Reader struct {
	Levels
	Values []int32
	c      cursor
}

// Int64Reader reads an INT64 column (see BoolReader).
type Int64Reader struct {
	Levels
	Values []int64
	c      cursor
}

// Int96Reader reads an INT96 column (see BoolReader).
type Int96Reader struct {
	Levels
	Values []encode.Int96
	c      cursor
}

// FloatReader reads a FLOAT column (see BoolReader).
type FloatReader struct {
	Levels
	Values []float32
	c      cursor
}

// DoubleReader reads a DOUBLE column (see BoolReader).
type DoubleReader struct {
	Levels
	Values []float64
	c      cursor
}

// ByteArrayReader reads a BYTE_ARRAY column (see BoolReader). Values
// holds the bytes of the non-null values in one buffer; String returns
// one as a string, Bytes as a copy.
type ByteArrayReader struct {
	Levels
	Values encode.ByteArrays
	c      cursor
	strs   stringRefs
	copied []byte // the batch's value bytes, copied on the first Bytes call; nil before
	// lazy (readers opened for generated code, see Leaf): the bytes of
	// the values are not gathered into Values.Data while the batch holds
	// no other bytes, as String takes them from its copy of the
	// dictionary (dictionary-encoded values) or from the page's value
	// bytes, which the strings share (other values, appendLent);
	// Values.Offsets are kept, and Bytes and a page whose bytes cannot be
	// taken over (a layout adapter's) gather them (stringRefs.gather).
	lazy bool
}

// FixedReader reads a FIXED_LEN_BYTE_ARRAY column of Size-byte values
// stored back to back in Values (see BoolReader).
type FixedReader struct {
	Levels
	Size   int
	Values []byte
	c      cursor
}
