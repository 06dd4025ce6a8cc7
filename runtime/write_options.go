// Writer settings: compression, page and row group sizing, data page
// version, encodings, dictionaries, statistics, page index, bloom filters,
// checksums and footer metadata. The format rules they follow are those of
// https://parquet.apache.org/docs/file-format/ (pages, column chunks,
// page index, bloom filters, metadata).

package runtime

import (
	"fmt"
	"math"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// Writer defaults.
const (
	// DefaultCodec is the file codec unless WithCompression says otherwise:
	// SNAPPY, which every Parquet reader supports and which costs little CPU.
	DefaultCodec = meta.Snappy
	// DefaultPageSize is the target size in bytes of a data page, before
	// compression (1 MiB, as parquet-java).
	DefaultPageSize = 1 << 20
	// DefaultPageRowLimit caps the rows of a data page (20,000, as
	// parquet-java), so that the page index stays selective for small values.
	DefaultPageRowLimit = 20000
	// DefaultRowGroupSize is the target size in bytes of a row group
	// (128 MiB, as parquet-java).
	DefaultRowGroupSize = 128 << 20
	// DefaultMaxDictSize is the dictionary size, in bytes of its PLAIN
	// encoding, past which a column chunk falls back to its non-dictionary
	// encoding (1 MiB).
	DefaultMaxDictSize = encode.DefaultMaxDictBytes
	// DefaultStatsTruncateLength is the length to which byte-array bounds
	// longer than it are truncated in statistics and the column index.
	DefaultStatsTruncateLength = 64
	// DefaultBloomFPP is the false-positive probability of a bloom filter
	// whose option leaves it 0.
	DefaultBloomFPP = 0.01
)

// writerConfig holds the settings of a FileWriter. Build it with
// newWriterConfig; the zero value is not meant to be used directly.
type writerConfig struct {
	// Codec and CodecLevel compress every column not configured otherwise.
	Codec      meta.CompressionCodec
	CodecLevel compress.Level
	// PageSize is the target uncompressed size of a data page in bytes;
	// PageRowLimit caps its rows. Pages are always cut at row boundaries.
	PageSize     int
	PageRowLimit int
	// RowGroupSize is the target size of a row group in bytes (buffered
	// compressed pages plus open pages); a row group also ends on Flush.
	// RowGroupRowLimit, when above 0, caps its rows (WithRowGroupRowLimit).
	RowGroupSize     int64
	RowGroupRowLimit int
	// DataPageVersion is 1 (DataPage) or 2 (DataPageV2).
	DataPageVersion int
	// ALPTrial lets the automatic encoding choice of FLOAT and DOUBLE
	// columns try ALP (WithALPTrial).
	ALPTrial bool
	// Dictionary enables dictionary encoding for every column whose type
	// allows it (all but BOOLEAN) unless a column says otherwise.
	Dictionary bool
	// MaxDictSize bounds a column chunk's dictionary (bytes of its PLAIN
	// encoding); past it the chunk falls back to the column's encoding.
	MaxDictSize int
	// Statistics writes column chunk statistics; PageStatistics also writes
	// them in data page headers; PageIndex writes the column index and the
	// offset index (the offset index is written whenever PageIndex is set,
	// the column index when the column has an order).
	Statistics     bool
	PageStatistics bool
	PageIndex      bool
	// SizeStatistics writes SizeStatistics in column chunks and the level
	// histograms and unencoded sizes in the page index.
	SizeStatistics bool
	// StatsTruncateLength is the length past which BYTE_ARRAY bounds are
	// truncated (0 disables truncation).
	StatsTruncateLength int
	// CRC writes a CRC-32 of every page.
	CRC bool
	// KeyValueMetadata is stored in the footer.
	KeyValueMetadata []meta.KeyValue
	// SortingColumns is stored in every row group.
	SortingColumns []meta.SortingColumn
	// CreatedBy overrides the created_by string (default CreatedBy()).
	CreatedBy string
	// Columns holds per-column settings by dotted column path.
	Columns map[string]*columnConfig
	// Encryption, when not nil, encrypts the file (WithEncryption).
	Encryption *FileEncryption
	// Parallelism is the number of goroutines, the caller's included,
	// that move rows into pages, encode and compress the columns of a row
	// group (WithParallelism); 0 or 1 means the calling goroutine alone.
	Parallelism int
	// MapIterationOrder writes map entries in Go's map iteration order
	// instead of ascending key order (WithSortedMaps(false)).
	MapIterationOrder bool

	err error // the first invalid option
}

// columnConfig holds the per-column settings; unset fields inherit the
// file's settings.
type columnConfig struct {
	// Codec and CodecLevel override the file's compression.
	Codec      meta.Opt[meta.CompressionCodec]
	CodecLevel meta.Opt[compress.Level]
	// Dictionary overrides the file's dictionary setting.
	Dictionary meta.Opt[bool]
	// Encoding is the non-dictionary encoding of the values (default
	// PLAIN), also the fallback when the dictionary grows too large.
	Encoding meta.Opt[meta.Encoding]
	// Statistics overrides the file's statistics setting for this column.
	Statistics meta.Opt[bool]
	// Order is the column order written in the footer: TypeDefinedOrder
	// (default), IEEE754TotalOrder (FLOAT, DOUBLE, FLOAT16) or
	// Int96TimestampOrder (INT96; without it INT96 columns get no bounds).
	Order meta.Opt[meta.ColumnOrderKind]
	// BloomNDV and BloomFPP size the column's bloom filter; BloomNDV 0
	// means no filter.
	BloomNDV uint64
	BloomFPP float64
	// KeyValueMetadata is stored in the column chunk metadata.
	KeyValueMetadata []meta.KeyValue
}

// WriterOption configures a FileWriter (NewFileWriter, generated NewTWriter
// and WriteTFile).
type WriterOption func(*writerConfig)

// newWriterConfig returns the defaults with opts applied in order: SNAPPY,
// 1 MiB pages of at most 20,000 rows, 128 MiB row groups, data page v1,
// dictionaries of up to 1 MiB, chunk statistics, page index and size
// statistics on, page header statistics off, 64-byte bound truncation, no
// CRC, no bloom filters. An invalid option is reported by NewFileWriter.
func newWriterConfig(opts ...WriterOption) writerConfig {
	c := writerConfig{
		Codec:               DefaultCodec,
		PageSize:            DefaultPageSize,
		PageRowLimit:        DefaultPageRowLimit,
		RowGroupSize:        DefaultRowGroupSize,
		DataPageVersion:     1,
		Dictionary:          true,
		MaxDictSize:         DefaultMaxDictSize,
		Statistics:          true,
		PageIndex:           true,
		SizeStatistics:      true,
		StatsTruncateLength: DefaultStatsTruncateLength,
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// Err returns the first invalid option seen, or nil.
func (c *writerConfig) Err() error { return c.err }

func (c *writerConfig) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
}

func (c *writerConfig) column(path string) *columnConfig {
	if c.Columns == nil {
		c.Columns = map[string]*columnConfig{}
	}
	cc := c.Columns[path]
	if cc == nil {
		cc = &columnConfig{}
		c.Columns[path] = cc
	}
	return cc
}

// WithCompression sets the codec and level of every column (default
// SNAPPY at its default level). LZO and the deprecated LZ4 cannot be
// written; use LZ4_RAW. Levels follow compress.Level.
func WithCompression(codec meta.CompressionCodec, level compress.Level) WriterOption {
	return func(c *writerConfig) {
		if err := checkCodec(codec, level); err != nil {
			c.fail("WithCompression: %w", err)
			return
		}
		c.Codec, c.CodecLevel = codec, level
	}
}

// WithColumnCompression sets the codec and level of the column at the
// dotted path.
func WithColumnCompression(path string, codec meta.CompressionCodec, level compress.Level) WriterOption {
	return func(c *writerConfig) {
		if err := checkCodec(codec, level); err != nil {
			c.fail("WithColumnCompression(%q): %w", path, err)
			return
		}
		cc := c.column(path)
		cc.Codec, cc.CodecLevel = meta.Some(codec), meta.Some(level)
	}
}

func checkCodec(codec meta.CompressionCodec, level compress.Level) error {
	if !compress.CanCompress(codec) {
		return fmt.Errorf("%w: codec %s cannot be written", compress.ErrUnsupported, codec.String())
	}
	return compress.ValidLevel(codec, level)
}

// WithPageSize sets the target uncompressed size of a data page in bytes
// (default 1 MiB). The size is checked adaptively, as parquet-java does:
// after 100 rows, then at an estimate of when the page will be full.
func WithPageSize(bytes int) WriterOption {
	return func(c *writerConfig) {
		if bytes <= 0 {
			c.fail("WithPageSize(%d): must be positive", bytes)
			return
		}
		c.PageSize = bytes
	}
}

// WithPageRowLimit caps the number of rows of a data page (default
// 20,000).
func WithPageRowLimit(rows int) WriterOption {
	return func(c *writerConfig) {
		if rows <= 0 {
			c.fail("WithPageRowLimit(%d): must be positive", rows)
			return
		}
		c.PageRowLimit = rows
	}
}

// WithRowGroupSize sets the target size of a row group in bytes (default
// 128 MiB): the compressed pages a row group buffers plus its open pages.
func WithRowGroupSize(bytes int64) WriterOption {
	return func(c *writerConfig) {
		if bytes <= 0 {
			c.fail("WithRowGroupSize(%d): must be positive", bytes)
			return
		}
		c.RowGroupSize = bytes
	}
}

// WithRowGroupRowLimit caps the number of rows of a row group (default:
// no cap, WithRowGroupSize alone ends row groups): a row group ends when
// it holds rows rows, or earlier when it reaches the row group size or on
// Flush. Generated writers (generated-code version 15 or later) end their
// batches there; callers of EndRows keep each call within
// FileWriter.RowGroupRowsLeft, since EndRows fails rows past the cap with
// ErrRows.
func WithRowGroupRowLimit(rows int) WriterOption {
	return func(c *writerConfig) {
		if rows <= 0 {
			c.fail("WithRowGroupRowLimit(%d): must be positive", rows)
			return
		}
		c.RowGroupRowLimit = rows
	}
}

// WithParallelism lets the writer work on up to n columns at once, each
// on its own goroutine: moving buffered rows into pages, dictionary and
// value encoding, statistics and compression. The file is the same byte
// for byte as with n = 1 (the default, no goroutines).
//
// With n above 1, EndRows checks the rows and hands them to up to n-1
// worker goroutines, then returns: the columns are worked on while the
// caller fills the buffers with the next rows, and the next EndRows (or
// Flush, or Close) takes the columns still left itself and waits for the
// rest. So an error of that work (a row group that cannot be written, for
// instance) is returned by the next call instead of this one, and the
// writer then fails as usual. A large page cut in a batch (64 KiB or
// more) is compressed apart, by a worker once idle or by the next cut of
// its column, at most one page per worker at a time, so that its
// compression does not hold up the batch. A worker with no columns left
// takes top-level fields of the rows a generated writer is shredding
// (ShredParts), within its Write call. Workers wait for the next rows
// spinning for up to twice the time between the last two batches (from
// 0.1 to 1 ms), then exit; Close and errors stop them. The
// gain needs idle cores: while the workers take part in nearly every
// batch, the writer keeps them; when they do not (the machine's cores
// are busy), and once every 4,096 batches, it times stretches of rows
// with and without workers, and when the workers do not make it faster
// the caller works alone for longer and longer stretches before trying
// them again. Those stretches follow a busy machine; they are too short
// to judge rows whose work is mostly one column, which can write slower
// with workers on a machine of few cores (see the README's measurements).
// Encrypted files are written by the caller alone.
func WithParallelism(n int) WriterOption {
	return func(c *writerConfig) {
		if n < 0 {
			c.fail("WithParallelism(%d): must not be negative", n)
			return
		}
		c.Parallelism = n
	}
}

// WithDataPageVersion selects data page v1 (default) or v2.
func WithDataPageVersion(v int) WriterOption {
	return func(c *writerConfig) {
		if v != 1 && v != 2 {
			c.fail("WithDataPageVersion(%d): must be 1 or 2", v)
			return
		}
		c.DataPageVersion = v
	}
}

// WithDictionary turns dictionary encoding on (default) or off for every
// column; BOOLEAN columns are never dictionary-encoded.
func WithDictionary(on bool) WriterOption {
	return func(c *writerConfig) { c.Dictionary = on }
}

// WithColumnDictionary turns dictionary encoding on or off for the column
// at the dotted path.
func WithColumnDictionary(path string, on bool) WriterOption {
	return func(c *writerConfig) { c.column(path).Dictionary = meta.Some(on) }
}

// WithMaxDictionarySize sets the dictionary size (bytes of its PLAIN
// encoding) past which a column chunk falls back to its non-dictionary
// encoding (default 1 MiB).
func WithMaxDictionarySize(bytes int) WriterOption {
	return func(c *writerConfig) {
		if bytes <= 0 {
			c.fail("WithMaxDictionarySize(%d): must be positive", bytes)
			return
		}
		c.MaxDictSize = bytes
	}
}

// WithColumnEncoding sets the non-dictionary value encoding of the column
// at the dotted path: PLAIN (default), RLE (BOOLEAN), DELTA_BINARY_PACKED
// (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY), DELTA_BYTE_ARRAY
// (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), BYTE_STREAM_SPLIT (INT32, INT64,
// FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY) or ALP (FLOAT, DOUBLE; in preview
// on the format's development head, so only on request: readers that
// predate it cannot read such pages). An ALP page that would be larger
// than PLAIN is written PLAIN. Dictionary encoding still comes first
// unless turned off; this encoding is then the fallback. PLAIN_DICTIONARY
// and RLE_DICTIONARY turn the dictionary on instead.
//
// Without it, a column falling back from its dictionary (or written
// without one) takes PLAIN or, by a trial of a page's values, DELTA_* or
// BYTE_STREAM_SPLIT; except a required leaf below optional groups and no
// list, which stays PLAIN: Polars (polars-parquet 0.55) fails to read
// such a column's DELTA and BYTE_STREAM_SPLIT pages once its groups are
// null in some rows of a page after one where they are not. Given here
// (or by a tag), those encodings are written all the same.
func WithColumnEncoding(path string, enc meta.Encoding) WriterOption {
	return func(c *writerConfig) {
		switch enc {
		case meta.EncodingPlainDictionary, meta.EncodingRLEDictionary:
			c.column(path).Dictionary = meta.Some(true)
		case meta.EncodingPlain, meta.EncodingRLE, meta.EncodingDeltaBinaryPacked,
			meta.EncodingDeltaLengthByteArray, meta.EncodingDeltaByteArray, meta.EncodingByteStreamSplit,
			meta.EncodingALP:
			c.column(path).Encoding = meta.Some(enc)
		default:
			c.fail("WithColumnEncoding(%q): encoding %d cannot be written", path, enc)
		}
	}
}

// WithSortedMaps chooses the order generated writers write map entries
// in. On (the default), entries are written in ascending key order:
// numbers by value, strings and byte arrays by their bytes, booleans false
// first, times by instant; the same rows and options then give the same
// bytes. Off, entries are written in Go's map iteration order, which
// changes from run to run: faster for large maps (a 64-entry map of
// strings costs about 8 times as much to list sorted as to range over),
// but the output is no longer reproducible.
func WithSortedMaps(on bool) WriterOption {
	return func(c *writerConfig) { c.MapIterationOrder = !on }
}

// WithALPTrial lets the automatic choice of a FLOAT or DOUBLE column's
// encoding (made when no encoding is configured and the chunk has no
// dictionary or falls back from it) try ALP beside PLAIN and
// BYTE_STREAM_SPLIT, with or without a codec. Off by default: ALP is in
// preview on the format's development head, and readers that predate it
// cannot read its pages.
func WithALPTrial(on bool) WriterOption {
	return func(c *writerConfig) { c.ALPTrial = on }
}

// WithStatistics turns column chunk statistics on (default) or off.
func WithStatistics(on bool) WriterOption {
	return func(c *writerConfig) { c.Statistics = on }
}

// WithColumnStatistics turns statistics on or off for the column at the
// dotted path (chunk and page statistics and the column index).
func WithColumnStatistics(path string, on bool) WriterOption {
	return func(c *writerConfig) { c.column(path).Statistics = meta.Some(on) }
}

// WithPageStatistics turns statistics in data page headers on or off
// (default off: the column index carries the page bounds).
func WithPageStatistics(on bool) WriterOption {
	return func(c *writerConfig) { c.PageStatistics = on }
}

// WithPageIndex turns the column index and offset index on (default) or
// off.
func WithPageIndex(on bool) WriterOption {
	return func(c *writerConfig) { c.PageIndex = on }
}

// WithSizeStatistics turns SizeStatistics (unencoded byte-array sizes and
// level histograms, in chunks and in the page index) on (default) or off.
func WithSizeStatistics(on bool) WriterOption {
	return func(c *writerConfig) { c.SizeStatistics = on }
}

// WithStatsTruncateLength sets the length past which BYTE_ARRAY bounds are
// truncated in statistics and the column index (default 64; 0 never
// truncates). A truncated minimum is a prefix, a truncated maximum a
// prefix incremented; is_min/max_value_exact say so.
func WithStatsTruncateLength(n int) WriterOption {
	return func(c *writerConfig) {
		if n < 0 {
			c.fail("WithStatsTruncateLength(%d): must not be negative", n)
			return
		}
		c.StatsTruncateLength = n
	}
}

// WithColumnOrder sets the column order of the column at the dotted path:
// meta.TypeDefinedOrder (default), meta.IEEE754TotalOrder (FLOAT, DOUBLE,
// FLOAT16: bounds by IEEE 754 totalOrder, NaNs included) or
// meta.Int96TimestampOrder (INT96: bounds compare days, then nanoseconds).
func WithColumnOrder(path string, order meta.ColumnOrderKind) WriterOption {
	return func(c *writerConfig) {
		switch order {
		case meta.TypeDefinedOrder, meta.IEEE754TotalOrder, meta.Int96TimestampOrder:
			c.column(path).Order = meta.Some(order)
		default:
			c.fail("WithColumnOrder(%q): unknown order %d", path, order)
		}
	}
}

// WithColumnBloomFilter writes a split-block bloom filter for the column at the
// dotted path, sized for ndv distinct values at false-positive probability
// fpp (0 means DefaultBloomFPP), in every row group.
func WithColumnBloomFilter(path string, ndv uint64, fpp float64) WriterOption {
	return func(c *writerConfig) {
		if fpp == 0 {
			fpp = DefaultBloomFPP
		}
		if ndv == 0 || !(fpp > 0 && fpp < 1) || math.IsNaN(fpp) {
			c.fail("WithColumnBloomFilter(%q, %d, %v): need ndv > 0 and 0 < fpp < 1", path, ndv, fpp)
			return
		}
		cc := c.column(path)
		cc.BloomNDV, cc.BloomFPP = ndv, fpp
	}
}

// WithCRC turns page CRC-32 checksums on or off (default off).
func WithCRC(on bool) WriterOption {
	return func(c *writerConfig) { c.CRC = on }
}

// WithKeyValueMetadata adds a key-value pair to the footer.
func WithKeyValueMetadata(key, value string) WriterOption {
	return func(c *writerConfig) {
		c.KeyValueMetadata = append(c.KeyValueMetadata, meta.KeyValue{Key: key, Value: meta.Some(value)})
	}
}

// WithColumnKeyValueMetadata adds a key-value pair to the chunk metadata
// of the column at the dotted path, in every row group.
func WithColumnKeyValueMetadata(path, key, value string) WriterOption {
	return func(c *writerConfig) {
		cc := c.column(path)
		cc.KeyValueMetadata = append(cc.KeyValueMetadata, meta.KeyValue{Key: key, Value: meta.Some(value)})
	}
}

// WithSortingColumns records, in every row group, that the rows are sorted
// by these columns (ColumnIdx is the leaf index). The writer does not
// check it.
func WithSortingColumns(cols ...meta.SortingColumn) WriterOption {
	return func(c *writerConfig) { c.SortingColumns = append([]meta.SortingColumn(nil), cols...) }
}

// WithCreatedBy overrides the footer's created_by (default CreatedBy()).
func WithCreatedBy(s string) WriterOption {
	return func(c *writerConfig) { c.CreatedBy = s }
}
