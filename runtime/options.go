// Reader settings: footer and metadata bounds, page bounds, projection,
// row-group selection and checksum verification. See
// https://parquet.apache.org/docs/file-format/ for the structures they
// bound.

package runtime

import (
	"fmt"

	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

// DefaultMaxFooterSize is the largest footer OpenFile reads unless told
// otherwise (WithMaxFooterSize): 256 MiB, enough for files with a hundred
// thousand columns in hundreds of row groups.
const DefaultMaxFooterSize = 256 << 20

// Page bounds applied by readers unless told otherwise.
const (
	// DefaultMaxPageSize bounds the uncompressed size of one page (and the
	// compressed size, which never exceeds the column chunk either):
	// 256 MiB (WithMaxPageSize).
	DefaultMaxPageSize = page.DefaultMaxPageSize
	// DefaultMaxPageHeaderSize bounds the Thrift page header: 16 MiB
	// (WithMaxPageHeaderSize).
	DefaultMaxPageHeaderSize = page.DefaultMaxHeaderSize
	// DefaultMaxPageValues bounds the value slots (num_values) of one page:
	// 2^25 (WithMaxPageValues). Levels and values are allocated per slot,
	// and run-length encoding lets a few bytes claim billions of slots.
	DefaultMaxPageValues = page.DefaultMaxValues
)

// readerConfig holds the settings of a reader. Generated readers and the
// runtime's readers build it from ReaderOptions; its zero value is not
// meant to be used directly (see newReaderConfig).
type readerConfig struct {
	// MaxFooterSize bounds the footer length a file may claim.
	MaxFooterSize int64
	// MetaLimits bound strings, containers and nesting while decoding
	// Thrift metadata.
	MetaLimits meta.Limits

	// MaxPageSize bounds the compressed and uncompressed size of a page.
	MaxPageSize int
	// MaxPageHeaderSize bounds the encoded size of a page header.
	MaxPageHeaderSize int
	// MaxPageValues bounds num_values of a page.
	MaxPageValues int
	// CRCCheck verifies the CRC32 of every page that carries one.
	CRCCheck bool
	// Columns, when not nil, lists the dotted paths of the leaf columns to
	// read (WithColumns); the chunks of other columns are never read. A
	// path naming a group selects every leaf below it.
	Columns []string
	// RowGroupFilter, when not nil, selects the row groups to read
	// (WithRowGroupFilter).
	RowGroupFilter func(f *File, rowGroup int) bool
	// PageFilterColumn and PageFilter, when set, select rows by the page
	// index of one column (WithColumnPageFilter).
	PageFilterColumn string
	PageFilter       func(f *File, rowGroup int, ci *meta.ColumnIndex, page int) bool
	// Filter, when not nil, selects the rows to return (WithFilter).
	Filter Predicate
	// RowGroups, when not nil, lists the row groups to read (WithRowGroups).
	RowGroups []int
	// CoalesceGap and CoalesceBuffer, when the buffer is positive, turn
	// on read coalescing (WithReadCoalescing).
	CoalesceGap, CoalesceBuffer int64
	// ReadParallelism is how many columns a Read decodes at once
	// (WithReadParallelism; 0 or 1: one at a time).
	ReadParallelism int
	// opened, when not nil, is the open File NewFileReader reads instead
	// of opening its io.ReaderAt again (withOpened: the readers of one
	// file in ReadFileWith).
	opened *File
	// part, when not nil, restricts reading to rows of one row group
	// (withPart: ReadFileWith's share of a row group).
	part *rowGroupPart

	// Decryption (Parquet modular encryption): the footer key, column
	// keys by dotted path, the AAD prefix of files that do not store it,
	// and a callback from key metadata to key for keys not given.
	FooterKey    []byte
	ColumnKeys   map[string][]byte
	AADPrefix    []byte
	KeyRetriever func(keyMetadata []byte) ([]byte, error)

	// Strict refuses the deviations otherwise accepted (WithStrict).
	Strict bool
	// OptionalAsRequired lets Bind read optional file fields into
	// required ones (WithOptionalAsRequired).
	OptionalAsRequired bool
	// CoarserTimeUnits lets Bind read TIMESTAMP and TIME columns into
	// coarser units (WithCoarserTimeUnits).
	CoarserTimeUnits bool

	err error // the first invalid option
}

// ReaderOption configures a reader (OpenFile, NewFileReader, generated
// NewTReader).
type ReaderOption func(*readerConfig)

// newReaderConfig returns the defaults with opts applied in order.
func newReaderConfig(opts ...ReaderOption) readerConfig {
	c := readerConfig{
		MaxFooterSize:     DefaultMaxFooterSize,
		MetaLimits:        meta.DefaultLimits,
		MaxPageSize:       DefaultMaxPageSize,
		MaxPageHeaderSize: DefaultMaxPageHeaderSize,
		MaxPageValues:     DefaultMaxPageValues,
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// fail records the first invalid option; OpenFile and NewFileReader
// return it before reading anything.
func (c *readerConfig) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
}

// WithMaxFooterSize sets the largest footer, in bytes, that a reader
// accepts (default DefaultMaxFooterSize).
func WithMaxFooterSize(n int64) ReaderOption {
	return func(c *readerConfig) {
		if n <= 0 {
			c.fail("WithMaxFooterSize(%d): must be positive", n)
			return
		}
		c.MaxFooterSize = n
	}
}

// WithMetaLimits sets the bounds applied while decoding Thrift metadata
// (string length, container length, nesting depth); the defaults are
// meta.DefaultLimits.
func WithMetaLimits(l meta.Limits) ReaderOption {
	return func(c *readerConfig) {
		if l.MaxStringLen <= 0 || l.MaxContainerLen <= 0 || l.MaxDepth <= 0 {
			c.fail("WithMetaLimits(%+v): every limit must be positive", l)
			return
		}
		c.MetaLimits = l
	}
}

// WithMaxPageSize sets the largest page, compressed or uncompressed, in
// bytes, that a reader decodes (default DefaultMaxPageSize). A larger page
// fails with an error wrapping page.ErrTooLarge instead of being
// allocated.
func WithMaxPageSize(n int) ReaderOption {
	return func(c *readerConfig) {
		if n <= 0 {
			c.fail("WithMaxPageSize(%d): must be positive", n)
			return
		}
		c.MaxPageSize = n
	}
}

// WithMaxPageHeaderSize sets the largest encoded page header a reader
// accepts (default DefaultMaxPageHeaderSize).
func WithMaxPageHeaderSize(n int) ReaderOption {
	return func(c *readerConfig) {
		if n <= 0 {
			c.fail("WithMaxPageHeaderSize(%d): must be positive", n)
			return
		}
		c.MaxPageHeaderSize = n
	}
}

// WithMaxPageValues sets the largest num_values a page may claim (default
// DefaultMaxPageValues).
func WithMaxPageValues(n int) ReaderOption {
	return func(c *readerConfig) {
		if n <= 0 {
			c.fail("WithMaxPageValues(%d): must be positive", n)
			return
		}
		c.MaxPageValues = n
	}
}

// WithCRCCheck turns verification of page checksums on or off (default
// off). With it on, a page whose crc field does not match the CRC32 of its
// stored bytes fails with an error wrapping page.ErrCRC that names the
// column, row group and page; pages without a crc are not checked.
func WithCRCCheck(on bool) ReaderOption {
	return func(c *readerConfig) { c.CRCCheck = on }
}

// WithColumns restricts reading to the leaf columns at the given dotted
// paths ("a.b.c"); a path naming a group selects all leaves below it. The
// column chunks of other columns are never read, and asking a FileReader
// for one of them fails. A reader bound to a schema (Bind: generated
// readers) also takes paths of that schema, which select the file columns
// bound to them (a field renamed under its field id, the modern path of a
// legacy list's elements), and a field the file lacks reads as the file
// lacking it; Bind fails for a path that names no column of the file or
// of the schema. Without Bind, such a path makes every request for a
// column reader fail.
func WithColumns(paths ...string) ReaderOption {
	return func(c *readerConfig) {
		for _, p := range paths {
			if p == "" {
				c.fail("WithColumns: an empty column path")
				return
			}
		}
		c.Columns = append([]string{}, paths...)
	}
}

// WithRowGroupFilter selects the row groups to read: keep is called once
// per row group by NewFileReader (it may inspect the footer's statistics,
// f.Meta.RowGroups[rowGroup]) and the row groups for which it returns
// false are skipped by every column reader and excluded from NumRows.
func WithRowGroupFilter(keep func(f *File, rowGroup int) bool) ReaderOption {
	return func(c *readerConfig) {
		if keep == nil {
			c.fail("WithRowGroupFilter(nil)")
			return
		}
		c.RowGroupFilter = keep
	}
}

// WithColumnPageFilter selects rows by the page index of the leaf column
// at the dotted path: for each selected row group that has a
// ColumnIndex and an OffsetIndex for that column, keep is called once per
// page of the column (ci is its ColumnIndex: min/max values, null pages
// and counts of page number page) and the rows of the pages for which it
// returns false are skipped by every column reader of the FileReader, so
// that all columns stay aligned row for row. Row groups without a page
// index for the column are read whole; row groups left without rows are
// skipped entirely. NumRows counts the rows kept. Pages of other columns
// that hold only skipped rows are passed over without being read when
// those columns have an OffsetIndex too.
func WithColumnPageFilter(path string, keep func(f *File, rowGroup int, ci *meta.ColumnIndex, page int) bool) ReaderOption {
	return func(c *readerConfig) {
		if path == "" || keep == nil {
			c.fail("WithColumnPageFilter(%q): needs a column path and a callback", path)
			return
		}
		c.PageFilterColumn = path
		c.PageFilter = keep
	}
}

// WithFooterKey sets the footer key (16, 24 or 32 bytes) of an encrypted
// file: it decrypts an encrypted footer ("PARE" files), verifies the
// signature of a plaintext footer, and decrypts the columns encrypted
// with the footer key.
func WithFooterKey(key []byte) ReaderOption {
	return func(c *readerConfig) {
		if !validKeyLen(key) {
			c.fail("WithFooterKey: %w: %d bytes (AES keys are 16, 24 or 32 bytes)", crypt.ErrKey, len(key))
			return
		}
		c.FooterKey = append([]byte{}, key...)
	}
}

func validKeyLen(key []byte) bool { return len(key) == 16 || len(key) == 24 || len(key) == 32 }

// WithColumnKey sets the key of the column at the dotted path,
// encrypted with its own key. Columns whose key is neither
// given nor retrieved (WithKeyRetriever) cannot be read, but the other
// columns of the file can.
func WithColumnKey(path string, key []byte) ReaderOption {
	return func(c *readerConfig) {
		if path == "" || !validKeyLen(key) {
			c.fail("WithColumnKey(%q): %w: %d bytes (AES keys are 16, 24 or 32 bytes)", path, crypt.ErrKey, len(key))
			return
		}
		m := make(map[string][]byte, len(c.ColumnKeys)+1)
		for k, v := range c.ColumnKeys {
			m[k] = v
		}
		m[path] = append([]byte{}, key...)
		c.ColumnKeys = m
	}
}

// WithAADPrefix supplies the AAD prefix of an encrypted file written
// without storing it (supply_aad_prefix). For a file that stores its
// prefix, a different prefix given here fails OpenFile: the file is not
// the one expected.
func WithAADPrefix(prefix []byte) ReaderOption {
	return func(c *readerConfig) { c.AADPrefix = append([]byte{}, prefix...) }
}

// WithKeyRetriever sets the callback that turns the key metadata stored
// in an encrypted file (for the footer key and for each column key) into
// the key, for the keys not given by WithFooterKey and WithColumnKey:
// the place to plug in a key management service. An error it returns
// fails OpenFile for the footer key, and makes the column unreadable for
// a column key.
func WithKeyRetriever(retrieve func(keyMetadata []byte) ([]byte, error)) ReaderOption {
	return func(c *readerConfig) { c.KeyRetriever = retrieve }
}

// WithOptionalAsRequired lets a generated reader (or Bind) read a field
// that is optional in the file into a required field of the type (a
// non-pointer field), as files from writers that make every column
// nullable (DuckDB, Spark) need: the values read as long as there is no
// null, and a null is an error wrapping ErrValue that names the column
// and the row. Without it, such a field fails at open with an error
// wrapping ErrBind. Default off.
func WithOptionalAsRequired(on bool) ReaderOption {
	return func(c *readerConfig) { c.OptionalAsRequired = on }
}

// WithCoarserTimeUnits lets a generated reader (or Bind) read TIMESTAMP
// and TIME columns into fields of a coarser unit (microseconds into
// milliseconds), as files from writers that store every timestamp in
// one unit (DuckDB: microseconds) need, and INT96 timestamps (in
// nanoseconds) into microsecond or millisecond ones, which span years
// past 2262 (Spark's INT96 files): every value must be a whole
// number of the field's unit, else reading fails with an error wrapping
// ErrValue. Without it, a coarser unit fails at open with an error
// wrapping ErrBind. Default off.
func WithCoarserTimeUnits(on bool) ReaderOption {
	return func(c *readerConfig) { c.CoarserTimeUnits = on }
}
