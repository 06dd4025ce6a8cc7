// The file writer: "PAR1", the column chunks of every row group (each
// chunk's dictionary page, data pages, then the row group's bloom
// filters), the column indexes and offset indexes of all row groups, the
// Thrift-encoded FileMetaData, its length and "PAR1". See
// https://parquet.apache.org/docs/file-format/ and, for the page index,
// https://parquet.apache.org/docs/file-format/pageindex/.

package runtime

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// FileWriter writes one Parquet file. Generated shredders append levels
// and values to the typed column buffers (Int64Buffer, ...) and call
// EndRows after whole rows; Flush ends a row group, Close writes the
// footer. A FileWriter is not safe for concurrent use.
//
// Once a write fails, the writer is poisoned: every later call returns
// the first error and no footer is ever written.
type FileWriter struct {
	w      countingWriter
	schema *schema.Schema
	cfg    writerConfig
	cols   []*leafWriter
	// fileChecks are the FILE groups whose values EndRows validates.
	fileChecks []fileGroupCheck

	rowGroups []meta.RowGroup
	rgRows    int64 // rows of the open row group
	numRows   int64
	indexes   []chunkIndex // page indexes of every closed chunk, in order
	idxBuf    []byte       // their Thrift encodings, back to back
	scratch   []byte
	free      [][]byte      // page store blocks for reuse
	pageSc    []pageScratch // [0] for the caller, one more per parallel worker
	freeMu    sync.Mutex    // guards free while columns work in parallel
	colErrs   []error       // per column, for forColumns
	pipe      pipeline      // the batch the workers consume (WithParallelism)
	pages     pageQueue     // pages compressing apart (write_defer.go)
	shred     *ShredParts   // the generated writer's shredding, shared with the workers (write_shred.go)
	crypto    *writeCrypto  // nil for plaintext files
	err       error
	closed    bool
}

// countingWriter counts the bytes written to w; a failed write sticks.
type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

// Write writes p to the underlying writer unless a write failed before.
func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// NewFileWriter starts a Parquet file of schema s on w, writing the
// leading magic at once. Options are checked here: an invalid one, or one
// that names a column s lacks or sets what the column's type cannot take,
// is an error wrapping ErrConfig, as is a schema whose annotation does not
// fit its type (schema.CheckAnnotations: a STRING int32, an INT64 DECIMAL
// of 20 digits), which other readers refuse or misread.
func NewFileWriter(w io.Writer, s *schema.Schema, opts ...WriterOption) (*FileWriter, error) {
	if s == nil || s.Root == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrConfig)
	}
	if err := schema.CheckAnnotations(s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	cfg := newWriterConfig(opts...)
	if cfg.err != nil {
		return nil, cfg.err
	}
	for path := range cfg.Columns {
		if s.Leaf(path) == nil {
			return nil, fmt.Errorf("%w: option names column %q, which the schema lacks", ErrConfig, path)
		}
	}
	for _, sc := range cfg.SortingColumns {
		if sc.ColumnIdx < 0 || int(sc.ColumnIdx) >= len(s.Leaves) {
			return nil, fmt.Errorf("%w: sorting column %d out of range (%d leaf columns)", ErrConfig, sc.ColumnIdx, len(s.Leaves))
		}
	}
	fw := &FileWriter{w: countingWriter{w: w}, schema: s, cfg: cfg}
	fw.cols = make([]*leafWriter, len(s.Leaves))
	for i, leaf := range s.Leaves {
		c, err := newLeafWriter(fw, leaf, cfg.Columns[leaf.PathString()])
		if err != nil {
			return nil, err
		}
		fw.cols[i] = c
	}
	fw.fileChecks = fileGroupChecks(s.Root, nil)
	if err := fw.setupEncryption(s); err != nil {
		return nil, err
	}
	fw.setupPipeline()
	magic := Magic
	if fw.crypto != nil && !fw.crypto.cfg.PlaintextFooter {
		magic = MagicEncrypted
	}
	if _, err := io.WriteString(&fw.w, magic); err != nil {
		fw.err = fmt.Errorf("writing the leading magic: %w", err)
		return nil, fw.err
	}
	return fw, nil
}

// Schema returns the schema the writer was created with.
func (fw *FileWriter) Schema() *schema.Schema { return fw.schema }

// SortedMaps reports whether map entries are written in ascending key
// order (WithSortedMaps). For generated code.
func (fw *FileWriter) SortedMaps() bool { return !fw.cfg.MapIterationOrder }

// NumRows returns the number of rows ended so far (EndRows).
func (fw *FileWriter) NumRows() int64 { return fw.numRows }

func (fw *FileWriter) leaf(col int, t meta.Type, name string) (*leafWriter, error) {
	if col < 0 || col >= len(fw.cols) {
		return nil, fmt.Errorf("%w: %s(%d): the schema has %d leaf columns", ErrColumnType, name, col, len(fw.cols))
	}
	c := fw.cols[col]
	if c.node.Type != t {
		return nil, fmt.Errorf("%w: %s(%d): column %q is %s", ErrColumnType, name, col, c.node.PathString(),
			schema.TypeName(c.node.Type, c.node.TypeLength))
	}
	return c, nil
}

// BoolBuffer returns the buffer of BOOLEAN leaf column col. The pointer
// stays valid for the writer's life; Close empties the buffers (their
// slices nil) and gives their memory to pools that the buffers of writers
// opened later start from, so slices taken from a buffer must not be used
// after Close.
func (fw *FileWriter) BoolBuffer(col int) (*BoolBuffer, error) {
	c, err := fw.leaf(col, meta.Boolean, "BoolBuffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*BoolBuffer), nil
}

// Int32Buffer returns the buffer of INT32 leaf column col.
func (fw *FileWriter) Int32Buffer(col int) (*Int32Buffer, error) {
	c, err := fw.leaf(col, meta.Int32, "Int32Buffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*Int32Buffer), nil
}

// Int64Buffer returns the buffer of INT64 leaf column col.
func (fw *FileWriter) Int64Buffer(col int) (*Int64Buffer, error) {
	c, err := fw.leaf(col, meta.Int64, "Int64Buffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*Int64Buffer), nil
}

// Int96Buffer returns the buffer of INT96 leaf column col.
func (fw *FileWriter) Int96Buffer(col int) (*Int96Buffer, error) {
	c, err := fw.leaf(col, meta.Int96, "Int96Buffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*Int96Buffer), nil
}

// FloatBuffer returns the buffer of FLOAT leaf column col.
func (fw *FileWriter) FloatBuffer(col int) (*FloatBuffer, error) {
	c, err := fw.leaf(col, meta.Float, "FloatBuffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*FloatBuffer), nil
}

// DoubleBuffer returns the buffer of DOUBLE leaf column col.
func (fw *FileWriter) DoubleBuffer(col int) (*DoubleBuffer, error) {
	c, err := fw.leaf(col, meta.Double, "DoubleBuffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*DoubleBuffer), nil
}

// ByteArrayBuffer returns the buffer of BYTE_ARRAY leaf column col.
func (fw *FileWriter) ByteArrayBuffer(col int) (*ByteArrayBuffer, error) {
	c, err := fw.leaf(col, meta.ByteArray, "ByteArrayBuffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*ByteArrayBuffer), nil
}

// FixedBuffer returns the buffer of FIXED_LEN_BYTE_ARRAY leaf column col;
// its Size is the column's type length.
func (fw *FileWriter) FixedBuffer(col int) (*FixedBuffer, error) {
	c, err := fw.leaf(col, meta.FixedLenByteArray, "FixedBuffer")
	if err != nil {
		return nil, err
	}
	return c.front.(*FixedBuffer), nil
}

func (fw *FileWriter) check() error {
	if fw.err != nil {
		return fw.err
	}
	if fw.closed {
		return errWriterClosed
	}
	return nil
}

// errWriterClosed is what the calls of a closed writer fail with.
var errWriterClosed = fmt.Errorf("%w: the writer was closed", ErrClosed)

// Err returns the error every later call of the writer fails with: the
// first error the writer failed with, or an error wrapping ErrClosed once
// Close succeeded; nil while the writer takes rows. It does not wait for
// the work WithParallelism has in flight (its error is returned by the
// next EndRows, Flush or Close). Generated writers check it at the start
// of Write, so that a failed or closed writer refuses rows at once
// instead of holding them until their group ends.
func (fw *FileWriter) Err() error { return fw.check() }

// Fail marks the writer failed with err (unless it failed already) and
// returns the error it holds: later calls fail and Close writes no footer.
// For generated code: generated writers call it when a batch was half
// shredded.
func (fw *FileWriter) Fail(err error) error { return fw.poison(err) }

// poison records err as the writer's first error and returns it.
func (fw *FileWriter) poison(err error) error {
	fw.join() // a batch in flight ends unheeded
	fw.stopWorkers()
	if fw.err == nil {
		fw.err = err
	}
	return fw.err
}

// EndRows declares that n whole rows were appended to every column buffer
// since the last call. The buffers' content moves into the open pages
// (the buffers are empty again afterwards); pages are cut at row
// boundaries and row groups flushed as their sizes require. Values the
// column's logical type does not admit fail EndRows, with an error
// wrapping ErrValue that names the column and the row, since other
// readers refuse or misread them: STRING, ENUM and JSON values must be
// valid UTF-8, JSON values one JSON document each (RFC 8259; an empty
// string is not), GEOMETRY and GEOGRAPHY values one WKB geometry each,
// FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY DECIMAL values within their
// precision's digits, TIME values from 0 to 24 hours (write_check.go).
// Under WithRowGroupRowLimit, n must be at most RowGroupRowsLeft(): a row
// group that reaches the limit ends there, and more rows fail EndRows
// with ErrRows.
//
// With WithParallelism above 1 (and no encryption), the rows are checked
// at once but moved into pages on other goroutines while the caller fills
// the buffers again; an error of that work, or of the row group it
// completes, is returned by the next EndRows, Flush or Close.
func (fw *FileWriter) EndRows(n int) error {
	if err := fw.check(); err != nil {
		return err
	}
	if n < 0 {
		return fw.poison(fmt.Errorf("%w: EndRows(%d)", ErrRows, n))
	}
	if fw.pipe.on {
		if err := fw.settle(); err != nil {
			return err
		}
		fw.passBatches()
	}
	for _, c := range fw.cols {
		if err := c.checkRows(n); err != nil {
			return fw.poison(err)
		}
		if err := c.checkValues(fw.numRows); err != nil {
			return fw.poison(err)
		}
	}
	if err := fw.checkFileRefs(); err != nil {
		return fw.poison(err)
	}
	if n == 0 {
		return nil
	}
	if left := fw.RowGroupRowsLeft(); n > left {
		return fw.poison(fmt.Errorf("%w: EndRows(%d): the row group takes %d more rows (WithRowGroupRowLimit(%d)); code generated before version 15 does not end its batches there: regenerate it", ErrRows, n, left, fw.cfg.RowGroupRowLimit))
	}
	if fw.pipe.on {
		fw.startConsume(n)
		fw.rgRows += int64(n)
		fw.numRows += int64(n)
		return nil
	}
	if err := fw.forColumns(opConsume, n); err != nil {
		return fw.poison(err)
	}
	fw.rgRows += int64(n)
	fw.numRows += int64(n)
	if full, err := fw.rowGroupFull(); err != nil {
		return fw.poison(err)
	} else if full {
		return fw.Flush()
	}
	return nil
}

// RowGroupRowsLeft returns how many more rows EndRows takes into the open
// row group before its row limit (WithRowGroupRowLimit) ends it, at least
// 1: the whole limit once the group is full, since the rows of the next
// EndRows go to a new group. Without a limit it is math.MaxInt. Generated
// writers end their batches there.
func (fw *FileWriter) RowGroupRowsLeft() int {
	lim := int64(fw.cfg.RowGroupRowLimit)
	switch {
	case lim <= 0:
		return math.MaxInt
	case fw.rgRows >= lim:
		return int(lim)
	}
	return int(lim - fw.rgRows)
}

// Flush ends the open row group: the open pages are cut, and every column
// chunk, then the row group's bloom filters, are written. A row group
// without rows is not written. Values appended since the last EndRows
// stay in the buffers.
func (fw *FileWriter) Flush() error {
	if err := fw.check(); err != nil {
		return err
	}
	if err := fw.settle(); err != nil {
		return err
	}
	if fw.rgRows == 0 {
		return nil
	}
	if err := fw.flushRowGroup(); err != nil {
		return fw.poison(err)
	}
	return nil
}

// Close flushes the open row group, writes the page indexes and the
// footer, and makes every later call fail with ErrClosed. It does not
// close the underlying writer. Rows appended to the buffers without
// EndRows are an error. A closed writer empties its column buffers and
// gives its memory (page buffers, dictionaries, the buffers' slices) to
// pools shared by the writers of the process.
func (fw *FileWriter) Close() error {
	if err := fw.check(); err != nil {
		return err
	}
	if err := fw.settle(); err != nil {
		return err
	}
	fw.stopWorkers()
	fw.passBatches()
	for _, c := range fw.cols {
		if c.pendingSlots() != 0 {
			return fw.poison(fmt.Errorf("%w: Close: column %q holds values appended after the last EndRows", ErrRows, c.node.PathString()))
		}
	}
	if err := fw.Flush(); err != nil {
		return err
	}
	if err := fw.writeFooter(); err != nil {
		return fw.poison(err)
	}
	fw.closed = true
	fw.releaseBuffers()
	return nil
}

// WriteFileAtomic creates the file at path through write: the content goes
// to a temporary file in the same directory, which is synced and then
// renamed over path, so that path never holds a partial file. On error
// the temporary file is removed and path is untouched.
func WriteFileAtomic(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp, 0o644); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	// Make the rename durable; a failure here leaves a complete file.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// WriteFile writes a Parquet file of schema s at path atomically (see
// WriteFileAtomic): fill is called with a FileWriter on the temporary file
// and the writer is closed after it returns without error.
func WriteFile(path string, s *schema.Schema, fill func(*FileWriter) error, opts ...WriterOption) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		fw, err := NewFileWriter(w, s, opts...)
		if err != nil {
			return err
		}
		if err := fill(fw); err != nil {
			return err
		}
		return fw.Close()
	})
}
