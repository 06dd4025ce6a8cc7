// Parquet file metadata structures, as defined by parquet.thrift of the
// current format revision (parquet-format 2.13 plus the development head's
// ALP and FILE drafts,
// https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift).
// Field ids and requiredness are in the comments; the format description is
// https://parquet.apache.org/docs/file-format/metadata/.
//
// Representation choices, decided once for the whole runtime:
//   - a required field is a plain value;
//   - an optional scalar or string is an Opt[T] (Set reports presence);
//   - an optional binary is a []byte that is nil when absent (a present empty
//     value decodes as a non-nil empty slice);
//   - an optional list is a slice that is nil when absent (a present empty
//     list decodes as a non-nil empty slice);
//   - an optional struct is a pointer, nil when absent;
//   - a union is a struct whose Kind names the member that is set (the Thrift
//     field id); members with parameters keep them in value fields. Kind 0
//     means that no member this package knows was set.

package meta

// Opt is an optional scalar or string field: Set reports whether the field
// was present, Val holds its value when it was.
type Opt[T any] struct {
	Val T
	Set bool
}

// Some returns a present Opt holding v.
func Some[T any](v T) Opt[T] { return Opt[T]{Val: v, Set: true} }

// Get returns the value and whether it is present.
func (o Opt[T]) Get() (T, bool) { return o.Val, o.Set }

// Or returns the value when present and def otherwise.
func (o Opt[T]) Or(def T) T {
	if o.Set {
		return o.Val
	}
	return def
}

// Type is the physical type of a column (parquet.thrift Type).
type Type int32

// Physical types.
const (
	Boolean           Type = 0
	Int32             Type = 1
	Int64             Type = 2
	Int96             Type = 3
	Float             Type = 4
	Double            Type = 5
	ByteArray         Type = 6
	FixedLenByteArray Type = 7
)

// ConvertedType is the legacy logical annotation (parquet.thrift
// ConvertedType), superseded by LogicalType but still written for
// compatibility.
type ConvertedType int32

// Converted types.
const (
	ConvertedUTF8            ConvertedType = 0
	ConvertedMap             ConvertedType = 1
	ConvertedMapKeyValue     ConvertedType = 2
	ConvertedList            ConvertedType = 3
	ConvertedEnum            ConvertedType = 4
	ConvertedDecimal         ConvertedType = 5
	ConvertedDate            ConvertedType = 6
	ConvertedTimeMillis      ConvertedType = 7
	ConvertedTimeMicros      ConvertedType = 8
	ConvertedTimestampMillis ConvertedType = 9
	ConvertedTimestampMicros ConvertedType = 10
	ConvertedUint8           ConvertedType = 11
	ConvertedUint16          ConvertedType = 12
	ConvertedUint32          ConvertedType = 13
	ConvertedUint64          ConvertedType = 14
	ConvertedInt8            ConvertedType = 15
	ConvertedInt16           ConvertedType = 16
	ConvertedInt32           ConvertedType = 17
	ConvertedInt64           ConvertedType = 18
	ConvertedJSON            ConvertedType = 19
	ConvertedBSON            ConvertedType = 20
	ConvertedInterval        ConvertedType = 21
)

// FieldRepetitionType says how often a field occurs in its parent.
type FieldRepetitionType int32

// Repetitions.
const (
	Required FieldRepetitionType = 0
	Optional FieldRepetitionType = 1
	Repeated FieldRepetitionType = 2
)

// Encoding is a value or level encoding (parquet.thrift Encoding).
type Encoding int32

// Encodings. Value 1 is unused (it was GROUP_VAR_INT).
const (
	EncodingPlain                Encoding = 0
	EncodingPlainDictionary      Encoding = 2
	EncodingRLE                  Encoding = 3
	EncodingBitPacked            Encoding = 4
	EncodingDeltaBinaryPacked    Encoding = 5
	EncodingDeltaLengthByteArray Encoding = 6
	EncodingDeltaByteArray       Encoding = 7
	EncodingRLEDictionary        Encoding = 8
	EncodingByteStreamSplit      Encoding = 9
	// EncodingALP is the adaptive lossless floating point encoding of the
	// development head ("in preview"): recognised, not yet decoded.
	EncodingALP Encoding = 10
)

// CompressionCodec names the codec of a column chunk's pages.
type CompressionCodec int32

// Codecs.
const (
	Uncompressed CompressionCodec = 0
	Snappy       CompressionCodec = 1
	Gzip         CompressionCodec = 2
	LZO          CompressionCodec = 3
	Brotli       CompressionCodec = 4
	// LZ4 is the deprecated codec with the Hadoop framing.
	LZ4    CompressionCodec = 5
	Zstd   CompressionCodec = 6
	LZ4Raw CompressionCodec = 7
)

// PageType is the kind of a page.
type PageType int32

// Page types.
const (
	DataPage       PageType = 0
	IndexPage      PageType = 1
	DictionaryPage PageType = 2
	DataPageV2     PageType = 3
)

// BoundaryOrder says how the page bounds of a ColumnIndex are ordered.
type BoundaryOrder int32

// Boundary orders.
const (
	Unordered  BoundaryOrder = 0
	Ascending  BoundaryOrder = 1
	Descending BoundaryOrder = 2
)

// EdgeInterpolationAlgorithm is how a GEOGRAPHY column interpolates edges.
type EdgeInterpolationAlgorithm int32

// Edge interpolation algorithms.
const (
	Spherical EdgeInterpolationAlgorithm = 0
	Vincenty  EdgeInterpolationAlgorithm = 1
	Thomas    EdgeInterpolationAlgorithm = 2
	Andoyer   EdgeInterpolationAlgorithm = 3
	Karney    EdgeInterpolationAlgorithm = 4
)

// LogicalKind names the member set in a LogicalType union; its value is the
// member's Thrift field id.
type LogicalKind int16

// Logical type kinds. Field id 9 is reserved (it was INTERVAL).
const (
	LogicalNone      LogicalKind = 0 // absent, or only unrecognised members
	LogicalString    LogicalKind = 1
	LogicalMap       LogicalKind = 2
	LogicalList      LogicalKind = 3
	LogicalEnum      LogicalKind = 4
	LogicalDecimal   LogicalKind = 5
	LogicalDate      LogicalKind = 6
	LogicalTime      LogicalKind = 7
	LogicalTimestamp LogicalKind = 8
	LogicalInteger   LogicalKind = 10
	LogicalUnknown   LogicalKind = 11 // the UNKNOWN (always null) type, NullType
	LogicalJSON      LogicalKind = 12
	LogicalBSON      LogicalKind = 13
	LogicalUUID      LogicalKind = 14
	LogicalFloat16   LogicalKind = 15
	LogicalVariant   LogicalKind = 16
	LogicalGeometry  LogicalKind = 17
	LogicalGeography LogicalKind = 18
	LogicalFile      LogicalKind = 19 // development-head draft
)

// TimeUnit is the unit of a TIME or TIMESTAMP logical type (a union of empty
// structs; the value is the member's field id, 0 when unrecognised).
type TimeUnit int8

// Time units.
const (
	Millis TimeUnit = 1
	Micros TimeUnit = 2
	Nanos  TimeUnit = 3
)

// DecimalType holds the parameters of a DECIMAL logical type.
type DecimalType struct {
	Scale     int32 // 1 required
	Precision int32 // 2 required
}

// TimeType holds the parameters of a TIME or TIMESTAMP logical type
// (TimeType and TimestampType have the same fields).
type TimeType struct {
	IsAdjustedToUTC bool     // 1 required
	Unit            TimeUnit // 2 required
}

// IntType holds the parameters of an INTEGER logical type.
type IntType struct {
	BitWidth int8 // 1 required
	IsSigned bool // 2 required
}

// VariantType holds the parameters of a VARIANT logical type.
type VariantType struct {
	SpecificationVersion Opt[int8] // 1 optional
}

// GeometryType holds the parameters of a GEOMETRY logical type.
type GeometryType struct {
	CRS Opt[string] // 1 optional
}

// GeographyType holds the parameters of a GEOGRAPHY logical type.
type GeographyType struct {
	CRS       Opt[string]                     // 1 optional
	Algorithm Opt[EdgeInterpolationAlgorithm] // 2 optional
}

// LogicalType is the LogicalType union. Kind says which member is set; the
// parameter field of that member (Decimal, Time, Integer, Variant, Geometry,
// Geography) holds its fields. Kind is LogicalNone when the annotation is
// absent or carries only members this package does not know; Unrecognized
// then holds the field id of the last unknown member seen (0 if none), for
// diagnostics. Unrecognized members are never re-encoded.
type LogicalType struct {
	Kind         LogicalKind
	Unrecognized int16
	Decimal      DecimalType   // Kind == LogicalDecimal
	Time         TimeType      // Kind == LogicalTime or LogicalTimestamp
	Integer      IntType       // Kind == LogicalInteger
	Variant      VariantType   // Kind == LogicalVariant
	Geometry     GeometryType  // Kind == LogicalGeometry
	Geography    GeographyType // Kind == LogicalGeography
}

// SchemaElement is one node of the depth-first schema list.
type SchemaElement struct {
	Type           Opt[Type]                // 1 optional (absent for groups)
	TypeLength     Opt[int32]               // 2 optional
	RepetitionType Opt[FieldRepetitionType] // 3 optional (absent for the root)
	Name           string                   // 4 required
	NumChildren    Opt[int32]               // 5 optional
	ConvertedType  Opt[ConvertedType]       // 6 optional
	Scale          Opt[int32]               // 7 optional
	Precision      Opt[int32]               // 8 optional
	FieldID        Opt[int32]               // 9 optional
	LogicalType    *LogicalType             // 10 optional
}

// Statistics of a page or column chunk. Min and Max are the deprecated
// signed-order bounds; MinValue and MaxValue are the bounds in the column's
// order.
type Statistics struct {
	Max             []byte     // 1 optional (deprecated)
	Min             []byte     // 2 optional (deprecated)
	NullCount       Opt[int64] // 3 optional
	DistinctCount   Opt[int64] // 4 optional
	MaxValue        []byte     // 5 optional
	MinValue        []byte     // 6 optional
	IsMaxValueExact Opt[bool]  // 7 optional
	IsMinValueExact Opt[bool]  // 8 optional
	NanCount        Opt[int64] // 9 optional (FLOAT, DOUBLE, FLOAT16)
}

// SizeStatistics describes the unencoded size and the level distribution of
// a page or column chunk.
type SizeStatistics struct {
	UnencodedByteArrayDataBytes Opt[int64] // 1 optional
	RepetitionLevelHistogram    []int64    // 2 optional
	DefinitionLevelHistogram    []int64    // 3 optional
}

// BoundingBox is the bounding box of GEOMETRY/GEOGRAPHY values.
type BoundingBox struct {
	Xmin float64      // 1 required
	Xmax float64      // 2 required
	Ymin float64      // 3 required
	Ymax float64      // 4 required
	Zmin Opt[float64] // 5 optional
	Zmax Opt[float64] // 6 optional
	Mmin Opt[float64] // 7 optional
	Mmax Opt[float64] // 8 optional
}

// GeospatialStatistics are the statistics of a GEOMETRY/GEOGRAPHY column.
type GeospatialStatistics struct {
	BBox            *BoundingBox // 1 optional
	GeospatialTypes []int32      // 2 optional
}

// ColumnOrderKind names the member set in a ColumnOrder union.
type ColumnOrderKind int16

// Column orders.
const (
	OrderUnknown        ColumnOrderKind = 0 // no known member set
	TypeDefinedOrder    ColumnOrderKind = 1
	IEEE754TotalOrder   ColumnOrderKind = 2
	Int96TimestampOrder ColumnOrderKind = 3
)

// ColumnOrder is the ColumnOrder union (all members are empty structs).
type ColumnOrder struct {
	Kind ColumnOrderKind
}

// PageHeader precedes every page.
type PageHeader struct {
	Type                 PageType              // 1 required
	UncompressedPageSize int32                 // 2 required
	CompressedPageSize   int32                 // 3 required
	CRC                  Opt[int32]            // 4 optional
	DataPageHeader       *DataPageHeader       // 5 optional
	IndexPageHeader      *IndexPageHeader      // 6 optional
	DictionaryPageHeader *DictionaryPageHeader // 7 optional
	DataPageHeaderV2     *DataPageHeaderV2     // 8 optional
}

// DataPageHeader is the header of a version 1 data page.
type DataPageHeader struct {
	NumValues               int32       // 1 required
	Encoding                Encoding    // 2 required
	DefinitionLevelEncoding Encoding    // 3 required
	RepetitionLevelEncoding Encoding    // 4 required
	Statistics              *Statistics // 5 optional
}

// IndexPageHeader is the (empty) header of an index page.
type IndexPageHeader struct{}

// DictionaryPageHeader is the header of a dictionary page.
type DictionaryPageHeader struct {
	NumValues int32     // 1 required
	Encoding  Encoding  // 2 required
	IsSorted  Opt[bool] // 3 optional
}

// DataPageHeaderV2 is the header of a version 2 data page.
type DataPageHeaderV2 struct {
	NumValues                  int32       // 1 required
	NumNulls                   int32       // 2 required
	NumRows                    int32       // 3 required
	Encoding                   Encoding    // 4 required
	DefinitionLevelsByteLength int32       // 5 required
	RepetitionLevelsByteLength int32       // 6 required
	IsCompressed               Opt[bool]   // 7 optional, default true
	Statistics                 *Statistics // 8 optional
}

// Compressed reports whether the data section of the page is compressed
// (is_compressed defaults to true).
func (h *DataPageHeaderV2) Compressed() bool { return h.IsCompressed.Or(true) }

// BloomFilterHeader precedes a bloom filter bitset. Algorithm, Hash and
// Compression are unions with a single member each today; their value is
// the member's field id (1), 0 when unrecognised.
type BloomFilterHeader struct {
	NumBytes    int32 // 1 required
	Algorithm   int16 // 2 required: 1 = BLOCK (split block)
	Hash        int16 // 3 required: 1 = XXHASH (XXH64)
	Compression int16 // 4 required: 1 = UNCOMPRESSED
}

// Bloom filter union members.
const (
	BloomBlock        int16 = 1 // BloomFilterAlgorithm.BLOCK
	BloomXXHash       int16 = 1 // BloomFilterHash.XXHASH
	BloomUncompressed int16 = 1 // BloomFilterCompression.UNCOMPRESSED
)

// KeyValue is an entry of key-value metadata.
type KeyValue struct {
	Key   string      // 1 required
	Value Opt[string] // 2 optional
}

// SortingColumn says how a row group is sorted by one column.
type SortingColumn struct {
	ColumnIdx  int32 // 1 required
	Descending bool  // 2 required
	NullsFirst bool  // 3 required
}

// PageEncodingStats counts the pages of one type and encoding in a chunk.
type PageEncodingStats struct {
	PageType PageType // 1 required
	Encoding Encoding // 2 required
	Count    int32    // 3 required
}

// ColumnMetaData describes a column chunk.
type ColumnMetaData struct {
	Type                  Type                  // 1 required
	Encodings             []Encoding            // 2 required
	PathInSchema          []string              // 3 required
	Codec                 CompressionCodec      // 4 required
	NumValues             int64                 // 5 required
	TotalUncompressedSize int64                 // 6 required
	TotalCompressedSize   int64                 // 7 required
	KeyValueMetadata      []KeyValue            // 8 optional
	DataPageOffset        int64                 // 9 required
	IndexPageOffset       Opt[int64]            // 10 optional
	DictionaryPageOffset  Opt[int64]            // 11 optional
	Statistics            *Statistics           // 12 optional
	EncodingStats         []PageEncodingStats   // 13 optional
	BloomFilterOffset     Opt[int64]            // 14 optional
	BloomFilterLength     Opt[int32]            // 15 optional
	SizeStatistics        *SizeStatistics       // 16 optional
	GeospatialStatistics  *GeospatialStatistics // 17 optional
}

// EncryptionWithColumnKey says a column is encrypted with its own key.
type EncryptionWithColumnKey struct {
	PathInSchema []string // 1 required
	KeyMetadata  []byte   // 2 optional
}

// ColumnCryptoKind names the member set in a ColumnCryptoMetaData union.
type ColumnCryptoKind int16

// Column crypto kinds.
const (
	CryptoUnknown   ColumnCryptoKind = 0
	CryptoFooterKey ColumnCryptoKind = 1 // ENCRYPTION_WITH_FOOTER_KEY
	CryptoColumnKey ColumnCryptoKind = 2 // ENCRYPTION_WITH_COLUMN_KEY
)

// ColumnCryptoMetaData is the ColumnCryptoMetaData union; ColumnKey holds
// the member's fields when Kind == CryptoColumnKey.
type ColumnCryptoMetaData struct {
	Kind      ColumnCryptoKind
	ColumnKey EncryptionWithColumnKey
}

// ColumnChunk locates a column chunk and its indexes.
type ColumnChunk struct {
	FilePath                Opt[string]           // 1 optional
	FileOffset              int64                 // 2 required (deprecated; write 0)
	MetaData                *ColumnMetaData       // 3 optional
	OffsetIndexOffset       Opt[int64]            // 4 optional
	OffsetIndexLength       Opt[int32]            // 5 optional
	ColumnIndexOffset       Opt[int64]            // 6 optional
	ColumnIndexLength       Opt[int32]            // 7 optional
	CryptoMetadata          *ColumnCryptoMetaData // 8 optional
	EncryptedColumnMetadata []byte                // 9 optional
}

// RowGroup describes one row group.
type RowGroup struct {
	Columns             []ColumnChunk   // 1 required
	TotalByteSize       int64           // 2 required
	NumRows             int64           // 3 required
	SortingColumns      []SortingColumn // 4 optional
	FileOffset          Opt[int64]      // 5 optional
	TotalCompressedSize Opt[int64]      // 6 optional
	Ordinal             Opt[int16]      // 7 optional
}

// PageLocation locates one page of a column chunk.
type PageLocation struct {
	Offset             int64 // 1 required
	CompressedPageSize int32 // 2 required (header included)
	FirstRowIndex      int64 // 3 required
}

// OffsetIndex locates the pages of a column chunk.
type OffsetIndex struct {
	PageLocations               []PageLocation // 1 required
	UnencodedByteArrayDataBytes []int64        // 2 optional
}

// ColumnIndex holds the per-page statistics of a column chunk.
type ColumnIndex struct {
	NullPages                 []bool        // 1 required
	MinValues                 [][]byte      // 2 required
	MaxValues                 [][]byte      // 3 required
	BoundaryOrder             BoundaryOrder // 4 required
	NullCounts                []int64       // 5 optional
	RepetitionLevelHistograms []int64       // 6 optional
	DefinitionLevelHistograms []int64       // 7 optional
	NanCounts                 []int64       // 8 optional
}

// EncryptionKind names the member set in an EncryptionAlgorithm union.
type EncryptionKind int16

// Encryption algorithms.
const (
	EncryptionUnknown EncryptionKind = 0
	AesGcmV1          EncryptionKind = 1
	AesGcmCtrV1       EncryptionKind = 2
)

// AesGcmParams are the fields of AesGcmV1 and AesGcmCtrV1 (they are alike).
type AesGcmParams struct {
	AADPrefix       []byte    // 1 optional
	AADFileUnique   []byte    // 2 optional
	SupplyAADPrefix Opt[bool] // 3 optional
}

// EncryptionAlgorithm is the EncryptionAlgorithm union.
type EncryptionAlgorithm struct {
	Kind   EncryptionKind
	Params AesGcmParams
}

// FileMetaData is the file footer.
type FileMetaData struct {
	Version                  int32                // 1 required
	Schema                   []SchemaElement      // 2 required
	NumRows                  int64                // 3 required
	RowGroups                []RowGroup           // 4 required
	KeyValueMetadata         []KeyValue           // 5 optional
	CreatedBy                Opt[string]          // 6 optional
	ColumnOrders             []ColumnOrder        // 7 optional
	EncryptionAlgorithm      *EncryptionAlgorithm // 8 optional
	FooterSigningKeyMetadata []byte               // 9 optional
}

// FileCryptoMetaData precedes an encrypted footer.
type FileCryptoMetaData struct {
	EncryptionAlgorithm EncryptionAlgorithm // 1 required
	KeyMetadata         []byte              // 2 optional
}
