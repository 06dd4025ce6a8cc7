// The decoded form of a page and the description of the column it belongs
// to (https://parquet.apache.org/docs/file-format/data-pages/).

package page

import (
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// Column describes the column chunk being read: what the page layer needs
// to decode its pages and to name it in errors.
type Column struct {
	// Path is the dotted path of the leaf column.
	Path string
	// Type is the physical type; TypeLength the byte width of a
	// FIXED_LEN_BYTE_ARRAY.
	Type       meta.Type
	TypeLength int
	// MaxDef and MaxRep are the column's maximum levels.
	MaxDef, MaxRep uint8
	// Codec is the chunk's compression codec.
	Codec meta.CompressionCodec
	// RowGroup and Index are the row group ordinal and the leaf index.
	RowGroup, Index int
	// V2AlwaysCompressed: the chunk's writer compressed the values of
	// DATA_PAGE_V2 pages even where it set is_compressed to false
	// (parquet-cpp before Arrow 3.0, ARROW-10353), so they are
	// decompressed with Codec whatever is_compressed says (Page.V2Compressed
	// reports it).
	V2AlwaysCompressed bool
	// RLEBitWidth, from 1 to 32, is the bit width at which the INT32 or
	// INT64 values of pages in the RLE encoding are read: parquetjs
	// writes such pages (a 4-byte length, then the RLE/bit-packed hybrid,
	// as for BOOLEAN values) with the width stored as the column's
	// type_length. Values are read as parquetjs's reader reads them: the
	// width's bits, those of width 32 as a signed 32-bit integer (widened
	// with their sign for INT64). 0 refuses such pages (ErrUnsupported),
	// as any other width must be: parquetjs's encoder packs at most 32
	// bits.
	RLEBitWidth int
}

// Limits bound what a page reader accepts. Zero fields take the defaults
// of DefaultLimits.
type Limits struct {
	// MaxHeaderSize bounds the encoded size of a page header.
	MaxHeaderSize int
	// MaxPageSize bounds a page's compressed and uncompressed sizes.
	MaxPageSize int
	// MaxValues bounds the value slots (num_values) of a page.
	MaxValues int
}

// DefaultLimits are the bounds used for zero Limits fields: 16 MiB
// headers, 256 MiB pages, 2^25 value slots per page.
var DefaultLimits = Limits{MaxHeaderSize: DefaultMaxHeaderSize, MaxPageSize: DefaultMaxPageSize, MaxValues: DefaultMaxValues}

// The fields of DefaultLimits.
const (
	DefaultMaxHeaderSize = 16 << 20
	DefaultMaxPageSize   = 256 << 20
	DefaultMaxValues     = 1 << 25
)

func (l Limits) norm() Limits {
	if l.MaxHeaderSize <= 0 {
		l.MaxHeaderSize = DefaultLimits.MaxHeaderSize
	}
	if l.MaxPageSize <= 0 {
		l.MaxPageSize = DefaultLimits.MaxPageSize
	}
	if l.MaxValues <= 0 {
		l.MaxValues = DefaultLimits.MaxValues
	}
	return l
}

// Values holds the decoded non-null values of a page (or a dictionary):
// only the field of the column's physical type is used.
type Values struct {
	Bool   []bool
	Int32  []int32
	Int64  []int64
	Int96  []encode.Int96
	Float  []float32
	Double []float64
	// Bytes holds BYTE_ARRAY values.
	Bytes encode.ByteArrays
	// Fixed holds FIXED_LEN_BYTE_ARRAY values back to back.
	Fixed []byte
}

// Len returns the number of values of physical type t (size is the byte
// width of a FIXED_LEN_BYTE_ARRAY).
func (v *Values) Len(t meta.Type, size int) int {
	switch t {
	case meta.Boolean:
		return len(v.Bool)
	case meta.Int32:
		return len(v.Int32)
	case meta.Int64:
		return len(v.Int64)
	case meta.Int96:
		return len(v.Int96)
	case meta.Float:
		return len(v.Float)
	case meta.Double:
		return len(v.Double)
	case meta.ByteArray:
		return v.Bytes.Len()
	case meta.FixedLenByteArray:
		if size <= 0 {
			return 0
		}
		return len(v.Fixed) / size
	}
	return 0
}

// Page is a decoded data page.
type Page struct {
	// Ordinal is the data page's ordinal in its chunk, from 0.
	Ordinal int
	// Offset is the file offset of its header (-1 when unknown).
	Offset int64
	// Header is the decoded page header (reused for the next page).
	Header *meta.PageHeader
	// NumValues is the number of value slots (num_values).
	NumValues int
	// Def and Rep hold one level per slot; each is empty when the
	// column's maximum level of that kind is 0.
	Def, Rep []uint8
	// Values holds the non-null values (slots whose definition level is
	// the maximum).
	Values Values
	// Dict reports that the values were dictionary-encoded; Indices then
	// holds each value's dictionary index (Values holds the resolved
	// values too).
	Dict    bool
	Indices []int32
	// DictID identifies the dictionary the indices refer to: it changes
	// whenever a dictionary page is decoded. DictLen is its entry count.
	DictID  uint64
	DictLen int
	// DictBytes, when not nil, is the dictionary of a dictionary-encoded
	// BYTE_ARRAY page read with ChunkOptions.LazyDictBytes: Values.Bytes
	// is then left empty and value i is DictBytes.At(Indices[i]) (the
	// indices are range checked). It is valid until the next dictionary
	// page.
	DictBytes *encode.ByteArrays
	// BytesID identifies the values of a BYTE_ARRAY page that was not
	// dictionary-encoded (0 for other pages): it changes with every such
	// page decoded, so that a reader whose strings share Values.Bytes.Data
	// (see KeepBytes) can tell, when it reads more of the page's values,
	// that they are in the bytes they share.
	BytesID uint64
	// KeepBytes, set by a reader whose strings share Values.Bytes.Data,
	// leaves that buffer to them: the decoder decodes the next page into
	// a new one instead of writing over it.
	KeepBytes bool
	// WideDeltas reports that the page's DELTA_BINARY_PACKED INT32
	// values had miniblocks wider than 32 bits (deltas computed in 64
	// bits, as DuckDB 1.5 writes them): the values were decoded with the
	// deltas wrapped to 32 bits, which gives the values meant, but the
	// page deviates from the specification. Readers record or refuse it.
	WideDeltas bool
	// V2Compressed reports that the DATA_PAGE_V2 page said is_compressed
	// false and was decompressed all the same (Column.V2AlwaysCompressed).
	V2Compressed bool
	// RLEIntegers reports that the page's INT32 or INT64 values were in
	// the RLE encoding, which the format has for BOOLEAN values only, and
	// were read at Column.RLEBitWidth (parquetjs). Readers record or
	// refuse it.
	RLEIntegers bool
	// EmptyValues reports that the page holds no non-null value and its
	// values section is empty, where its encoding starts with a header
	// (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
	// RLE), as the DELTA_BINARY_PACKED encoders of Parquet.Net and
	// QuestDB wrote pages of nulls only (aloneguid/parquet-dotnet#388,
	// questdb/questdb#7212). The page was read as the encoding of no
	// values; readers record or refuse it.
	EmptyValues bool
}

// ModuleKind names an encryption module of a column chunk, as in the
// module types of Parquet modular encryption.
type ModuleKind int8

// Module kinds a ChunkReader hands to a Decryptor.
const (
	ModuleDataPage             ModuleKind = 2
	ModuleDictionaryPage       ModuleKind = 3
	ModuleDataPageHeader       ModuleKind = 4
	ModuleDictionaryPageHeader ModuleKind = 5
)

// Module identifies one encryption module: its kind and the row group,
// column and page ordinals that enter its additional authenticated data.
type Module struct {
	Kind     ModuleKind
	RowGroup int
	Column   int
	Page     int
}

// Encryptor encrypts the modules of the pages a Builder builds: the
// write-side twin of Decryptor. It knows the row group and column of the
// chunk; the Builder gives each module's kind and page ordinal.
type Encryptor interface {
	// Encrypt appends module m, the encryption of plain, to dst.
	Encrypt(dst, plain []byte, m Module) ([]byte, error)
}

// Decryptor decrypts the modules of a column chunk. It is the hook through
// which modular encryption plugs into a ChunkReader; without one, pages
// are read as plaintext.
type Decryptor interface {
	// Header returns the plaintext of the page header module stored at
	// the start of src and the number of stored bytes it occupies. The
	// kind of the module (data or dictionary page header) is not known
	// before decryption: m.Kind is ModuleDataPageHeader, and an
	// implementation that needs the exact kind may try both.
	Header(src []byte, m Module) (plain []byte, n int, err error)
	// Body returns the plaintext of a page body module (src is the
	// page's compressed_page_size stored bytes), appended to dst[:0].
	Body(dst, src []byte, m Module) ([]byte, error)
}
