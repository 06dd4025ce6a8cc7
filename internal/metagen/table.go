// The table of Parquet metadata structures (parquet.thrift) from which
// metagen generates the compact-protocol codec of runtime/meta. Field ids,
// types and requiredness follow parquet.thrift
// (https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift); see
// https://parquet.apache.org/docs/file-format/metadata/.

package main

// Kind is the Thrift type of a field.
type Kind int

// Field kinds.
const (
	Bool Kind = iota
	I8
	I16
	I32
	I64
	Double
	String
	Binary
	Enum       // i32 with a named Go type
	Struct     // a struct (pointer when optional, value when required)
	List       // list<Elem>
	EmptyUnion // a union of empty structs held as its member id (Go type Go)
)

// T is a field type.
type T struct {
	K      Kind
	Go     string // Enum, Struct: the Go type; EmptyUnion: the Go type of the member id
	Thrift string // EmptyUnion: the Thrift union name
	Max    int    // EmptyUnion: the highest member id
	Elem   *T     // List: the element type
}

// F is a struct field.
type F struct {
	ID   int
	Name string // Thrift name
	Go   string // Go field name
	T    T
	Req  bool
}

// Member is a union member.
type Member struct {
	ID     int
	Name   string // Thrift name
	Kind   string // Go constant of the Kind field
	Param  string // Go field holding the member's struct ("" for empty structs)
	PType  string // Go type of Param
	Thrift string // Thrift struct name of the member
}

// S is a struct or union.
type S struct {
	Name    string
	Fields  []F
	Members []Member // union when non-nil
	Unrec   bool     // union records unknown member ids in Unrecognized
	Top     bool     // exported AppendThrift / DecodeThrift
	Share   bool     // decoded in share mode (one copy of the input)
}

func req(id int, name, goName string, t T) F { return F{id, name, goName, t, true} }
func opt(id int, name, goName string, t T) F { return F{id, name, goName, t, false} }

var (
	tBool   = T{K: Bool}
	tI8     = T{K: I8}
	tI16    = T{K: I16}
	tI32    = T{K: I32}
	tI64    = T{K: I64}
	tDouble = T{K: Double}
	tString = T{K: String}
	tBinary = T{K: Binary}
)

func enum(goType string) T  { return T{K: Enum, Go: goType} }
func strct(goType string) T { return T{K: Struct, Go: goType} }
func list(e T) T            { return T{K: List, Elem: &e} }
func emptyUnion(goType, thrift string, max int) T {
	return T{K: EmptyUnion, Go: goType, Thrift: thrift, Max: max}
}

// emptyUnions lists the member names of the unions of empty structs.
var emptyUnions = map[string][]string{
	"TimeUnit":               {"MILLIS", "MICROS", "NANOS"},
	"BloomFilterAlgorithm":   {"BLOCK"},
	"BloomFilterHash":        {"XXHASH"},
	"BloomFilterCompression": {"UNCOMPRESSED"},
}

var structs = []S{
	{Name: "DecimalType", Fields: []F{
		req(1, "scale", "Scale", tI32),
		req(2, "precision", "Precision", tI32),
	}},
	{Name: "TimeType", Fields: []F{
		req(1, "isAdjustedToUTC", "IsAdjustedToUTC", tBool),
		req(2, "unit", "Unit", emptyUnion("TimeUnit", "TimeUnit", 3)),
	}},
	{Name: "IntType", Fields: []F{
		req(1, "bitWidth", "BitWidth", tI8),
		req(2, "isSigned", "IsSigned", tBool),
	}},
	{Name: "VariantType", Fields: []F{
		opt(1, "specification_version", "SpecificationVersion", tI8),
	}},
	{Name: "GeometryType", Fields: []F{
		opt(1, "crs", "CRS", tString),
	}},
	{Name: "GeographyType", Fields: []F{
		opt(1, "crs", "CRS", tString),
		opt(2, "algorithm", "Algorithm", enum("EdgeInterpolationAlgorithm")),
	}},
	{Name: "LogicalType", Unrec: true, Members: []Member{
		{1, "STRING", "LogicalString", "", "", "StringType"},
		{2, "MAP", "LogicalMap", "", "", "MapType"},
		{3, "LIST", "LogicalList", "", "", "ListType"},
		{4, "ENUM", "LogicalEnum", "", "", "EnumType"},
		{5, "DECIMAL", "LogicalDecimal", "Decimal", "DecimalType", "DecimalType"},
		{6, "DATE", "LogicalDate", "", "", "DateType"},
		{7, "TIME", "LogicalTime", "Time", "TimeType", "TimeType"},
		{8, "TIMESTAMP", "LogicalTimestamp", "Time", "TimeType", "TimestampType"},
		{10, "INTEGER", "LogicalInteger", "Integer", "IntType", "IntType"},
		{11, "UNKNOWN", "LogicalUnknown", "", "", "NullType"},
		{12, "JSON", "LogicalJSON", "", "", "JsonType"},
		{13, "BSON", "LogicalBSON", "", "", "BsonType"},
		{14, "UUID", "LogicalUUID", "", "", "UUIDType"},
		{15, "FLOAT16", "LogicalFloat16", "", "", "Float16Type"},
		{16, "VARIANT", "LogicalVariant", "Variant", "VariantType", "VariantType"},
		{17, "GEOMETRY", "LogicalGeometry", "Geometry", "GeometryType", "GeometryType"},
		{18, "GEOGRAPHY", "LogicalGeography", "Geography", "GeographyType", "GeographyType"},
		{19, "FILE", "LogicalFile", "", "", "FileType"},
	}},
	{Name: "SchemaElement", Fields: []F{
		opt(1, "type", "Type", enum("Type")),
		opt(2, "type_length", "TypeLength", tI32),
		opt(3, "repetition_type", "RepetitionType", enum("FieldRepetitionType")),
		req(4, "name", "Name", tString),
		opt(5, "num_children", "NumChildren", tI32),
		opt(6, "converted_type", "ConvertedType", enum("ConvertedType")),
		opt(7, "scale", "Scale", tI32),
		opt(8, "precision", "Precision", tI32),
		opt(9, "field_id", "FieldID", tI32),
		opt(10, "logicalType", "LogicalType", strct("LogicalType")),
	}},
	{Name: "Statistics", Top: true, Fields: []F{
		opt(1, "max", "Max", tBinary),
		opt(2, "min", "Min", tBinary),
		opt(3, "null_count", "NullCount", tI64),
		opt(4, "distinct_count", "DistinctCount", tI64),
		opt(5, "max_value", "MaxValue", tBinary),
		opt(6, "min_value", "MinValue", tBinary),
		opt(7, "is_max_value_exact", "IsMaxValueExact", tBool),
		opt(8, "is_min_value_exact", "IsMinValueExact", tBool),
		opt(9, "nan_count", "NanCount", tI64),
	}},
	{Name: "SizeStatistics", Fields: []F{
		opt(1, "unencoded_byte_array_data_bytes", "UnencodedByteArrayDataBytes", tI64),
		opt(2, "repetition_level_histogram", "RepetitionLevelHistogram", list(tI64)),
		opt(3, "definition_level_histogram", "DefinitionLevelHistogram", list(tI64)),
	}},
	{Name: "BoundingBox", Fields: []F{
		req(1, "xmin", "Xmin", tDouble),
		req(2, "xmax", "Xmax", tDouble),
		req(3, "ymin", "Ymin", tDouble),
		req(4, "ymax", "Ymax", tDouble),
		opt(5, "zmin", "Zmin", tDouble),
		opt(6, "zmax", "Zmax", tDouble),
		opt(7, "mmin", "Mmin", tDouble),
		opt(8, "mmax", "Mmax", tDouble),
	}},
	{Name: "GeospatialStatistics", Fields: []F{
		opt(1, "bbox", "BBox", strct("BoundingBox")),
		opt(2, "geospatial_types", "GeospatialTypes", list(tI32)),
	}},
	{Name: "ColumnOrder", Members: []Member{
		{1, "TYPE_ORDER", "TypeDefinedOrder", "", "", "TypeDefinedOrder"},
		{2, "IEEE_754_TOTAL_ORDER", "IEEE754TotalOrder", "", "", "IEEE754TotalOrder"},
		{3, "INT96_TIMESTAMP_ORDER", "Int96TimestampOrder", "", "", "Int96TimestampOrder"},
	}},
	{Name: "PageHeader", Top: true, Fields: []F{
		req(1, "type", "Type", enum("PageType")),
		req(2, "uncompressed_page_size", "UncompressedPageSize", tI32),
		req(3, "compressed_page_size", "CompressedPageSize", tI32),
		opt(4, "crc", "CRC", tI32),
		opt(5, "data_page_header", "DataPageHeader", strct("DataPageHeader")),
		opt(6, "index_page_header", "IndexPageHeader", strct("IndexPageHeader")),
		opt(7, "dictionary_page_header", "DictionaryPageHeader", strct("DictionaryPageHeader")),
		opt(8, "data_page_header_v2", "DataPageHeaderV2", strct("DataPageHeaderV2")),
	}},
	{Name: "DataPageHeader", Fields: []F{
		req(1, "num_values", "NumValues", tI32),
		req(2, "encoding", "Encoding", enum("Encoding")),
		req(3, "definition_level_encoding", "DefinitionLevelEncoding", enum("Encoding")),
		req(4, "repetition_level_encoding", "RepetitionLevelEncoding", enum("Encoding")),
		opt(5, "statistics", "Statistics", strct("Statistics")),
	}},
	{Name: "IndexPageHeader"},
	{Name: "DictionaryPageHeader", Fields: []F{
		req(1, "num_values", "NumValues", tI32),
		req(2, "encoding", "Encoding", enum("Encoding")),
		opt(3, "is_sorted", "IsSorted", tBool),
	}},
	{Name: "DataPageHeaderV2", Fields: []F{
		req(1, "num_values", "NumValues", tI32),
		req(2, "num_nulls", "NumNulls", tI32),
		req(3, "num_rows", "NumRows", tI32),
		req(4, "encoding", "Encoding", enum("Encoding")),
		req(5, "definition_levels_byte_length", "DefinitionLevelsByteLength", tI32),
		req(6, "repetition_levels_byte_length", "RepetitionLevelsByteLength", tI32),
		opt(7, "is_compressed", "IsCompressed", tBool),
		opt(8, "statistics", "Statistics", strct("Statistics")),
	}},
	{Name: "BloomFilterHeader", Top: true, Fields: []F{
		req(1, "numBytes", "NumBytes", tI32),
		req(2, "algorithm", "Algorithm", emptyUnion("int16", "BloomFilterAlgorithm", 1)),
		req(3, "hash", "Hash", emptyUnion("int16", "BloomFilterHash", 1)),
		req(4, "compression", "Compression", emptyUnion("int16", "BloomFilterCompression", 1)),
	}},
	{Name: "KeyValue", Fields: []F{
		req(1, "key", "Key", tString),
		opt(2, "value", "Value", tString),
	}},
	{Name: "SortingColumn", Fields: []F{
		req(1, "column_idx", "ColumnIdx", tI32),
		req(2, "descending", "Descending", tBool),
		req(3, "nulls_first", "NullsFirst", tBool),
	}},
	{Name: "PageEncodingStats", Fields: []F{
		req(1, "page_type", "PageType", enum("PageType")),
		req(2, "encoding", "Encoding", enum("Encoding")),
		req(3, "count", "Count", tI32),
	}},
	{Name: "ColumnMetaData", Top: true, Share: true, Fields: []F{
		req(1, "type", "Type", enum("Type")),
		req(2, "encodings", "Encodings", list(enum("Encoding"))),
		req(3, "path_in_schema", "PathInSchema", list(tString)),
		req(4, "codec", "Codec", enum("CompressionCodec")),
		req(5, "num_values", "NumValues", tI64),
		req(6, "total_uncompressed_size", "TotalUncompressedSize", tI64),
		req(7, "total_compressed_size", "TotalCompressedSize", tI64),
		opt(8, "key_value_metadata", "KeyValueMetadata", list(strct("KeyValue"))),
		req(9, "data_page_offset", "DataPageOffset", tI64),
		opt(10, "index_page_offset", "IndexPageOffset", tI64),
		opt(11, "dictionary_page_offset", "DictionaryPageOffset", tI64),
		opt(12, "statistics", "Statistics", strct("Statistics")),
		opt(13, "encoding_stats", "EncodingStats", list(strct("PageEncodingStats"))),
		opt(14, "bloom_filter_offset", "BloomFilterOffset", tI64),
		opt(15, "bloom_filter_length", "BloomFilterLength", tI32),
		opt(16, "size_statistics", "SizeStatistics", strct("SizeStatistics")),
		opt(17, "geospatial_statistics", "GeospatialStatistics", strct("GeospatialStatistics")),
	}},
	{Name: "EncryptionWithColumnKey", Fields: []F{
		req(1, "path_in_schema", "PathInSchema", list(tString)),
		opt(2, "key_metadata", "KeyMetadata", tBinary),
	}},
	{Name: "ColumnCryptoMetaData", Members: []Member{
		{1, "ENCRYPTION_WITH_FOOTER_KEY", "CryptoFooterKey", "", "", "EncryptionWithFooterKey"},
		{2, "ENCRYPTION_WITH_COLUMN_KEY", "CryptoColumnKey", "ColumnKey", "EncryptionWithColumnKey", "EncryptionWithColumnKey"},
	}},
	{Name: "ColumnChunk", Fields: []F{
		opt(1, "file_path", "FilePath", tString),
		req(2, "file_offset", "FileOffset", tI64),
		opt(3, "meta_data", "MetaData", strct("ColumnMetaData")),
		opt(4, "offset_index_offset", "OffsetIndexOffset", tI64),
		opt(5, "offset_index_length", "OffsetIndexLength", tI32),
		opt(6, "column_index_offset", "ColumnIndexOffset", tI64),
		opt(7, "column_index_length", "ColumnIndexLength", tI32),
		opt(8, "crypto_metadata", "CryptoMetadata", strct("ColumnCryptoMetaData")),
		opt(9, "encrypted_column_metadata", "EncryptedColumnMetadata", tBinary),
	}},
	{Name: "RowGroup", Fields: []F{
		req(1, "columns", "Columns", list(strct("ColumnChunk"))),
		req(2, "total_byte_size", "TotalByteSize", tI64),
		req(3, "num_rows", "NumRows", tI64),
		opt(4, "sorting_columns", "SortingColumns", list(strct("SortingColumn"))),
		opt(5, "file_offset", "FileOffset", tI64),
		opt(6, "total_compressed_size", "TotalCompressedSize", tI64),
		opt(7, "ordinal", "Ordinal", tI16),
	}},
	{Name: "PageLocation", Fields: []F{
		req(1, "offset", "Offset", tI64),
		req(2, "compressed_page_size", "CompressedPageSize", tI32),
		req(3, "first_row_index", "FirstRowIndex", tI64),
	}},
	{Name: "OffsetIndex", Top: true, Share: true, Fields: []F{
		req(1, "page_locations", "PageLocations", list(strct("PageLocation"))),
		opt(2, "unencoded_byte_array_data_bytes", "UnencodedByteArrayDataBytes", list(tI64)),
	}},
	{Name: "ColumnIndex", Top: true, Share: true, Fields: []F{
		req(1, "null_pages", "NullPages", list(tBool)),
		req(2, "min_values", "MinValues", list(tBinary)),
		req(3, "max_values", "MaxValues", list(tBinary)),
		req(4, "boundary_order", "BoundaryOrder", enum("BoundaryOrder")),
		opt(5, "null_counts", "NullCounts", list(tI64)),
		opt(6, "repetition_level_histograms", "RepetitionLevelHistograms", list(tI64)),
		opt(7, "definition_level_histograms", "DefinitionLevelHistograms", list(tI64)),
		opt(8, "nan_counts", "NanCounts", list(tI64)),
	}},
	{Name: "AesGcmParams", Fields: []F{
		opt(1, "aad_prefix", "AADPrefix", tBinary),
		opt(2, "aad_file_unique", "AADFileUnique", tBinary),
		opt(3, "supply_aad_prefix", "SupplyAADPrefix", tBool),
	}},
	{Name: "EncryptionAlgorithm", Members: []Member{
		{1, "AES_GCM_V1", "AesGcmV1", "Params", "AesGcmParams", "AesGcmV1"},
		{2, "AES_GCM_CTR_V1", "AesGcmCtrV1", "Params", "AesGcmParams", "AesGcmCtrV1"},
	}},
	{Name: "FileMetaData", Top: true, Share: true, Fields: []F{
		req(1, "version", "Version", tI32),
		req(2, "schema", "Schema", list(strct("SchemaElement"))),
		req(3, "num_rows", "NumRows", tI64),
		req(4, "row_groups", "RowGroups", list(strct("RowGroup"))),
		opt(5, "key_value_metadata", "KeyValueMetadata", list(strct("KeyValue"))),
		opt(6, "created_by", "CreatedBy", tString),
		opt(7, "column_orders", "ColumnOrders", list(strct("ColumnOrder"))),
		opt(8, "encryption_algorithm", "EncryptionAlgorithm", strct("EncryptionAlgorithm")),
		opt(9, "footer_signing_key_metadata", "FooterSigningKeyMetadata", tBinary),
	}},
	{Name: "FileCryptoMetaData", Top: true, Share: true, Fields: []F{
		req(1, "encryption_algorithm", "EncryptionAlgorithm", strct("EncryptionAlgorithm")),
		opt(2, "key_metadata", "KeyMetadata", tBinary),
	}},
}

// E is an enum with its Thrift value names.
type E struct {
	Go     string
	Values []EV
}

// EV is one enum value.
type EV struct {
	Name string
	Val  int
}

func ev(names ...string) []EV {
	var r []EV
	for i, n := range names {
		if n != "" {
			r = append(r, EV{n, i})
		}
	}
	return r
}

var enums = []E{
	{"Type", ev("BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY")},
	{"ConvertedType", ev("UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE", "TIME_MILLIS",
		"TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64",
		"INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL")},
	{"FieldRepetitionType", ev("REQUIRED", "OPTIONAL", "REPEATED")},
	{"Encoding", ev("PLAIN", "", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
		"DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT", "ALP")},
	{"CompressionCodec", ev("UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW")},
	{"PageType", ev("DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2")},
	{"BoundaryOrder", ev("UNORDERED", "ASCENDING", "DESCENDING")},
	{"EdgeInterpolationAlgorithm", ev("SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY")},
	{"LogicalKind", ev("NONE", "STRING", "MAP", "LIST", "ENUM", "DECIMAL", "DATE", "TIME", "TIMESTAMP", "",
		"INTEGER", "UNKNOWN", "JSON", "BSON", "UUID", "FLOAT16", "VARIANT", "GEOMETRY", "GEOGRAPHY", "FILE")},
	{"TimeUnit", ev("", "MILLIS", "MICROS", "NANOS")},
	{"ColumnOrderKind", ev("", "TYPE_ORDER", "IEEE_754_TOTAL_ORDER", "INT96_TIMESTAMP_ORDER")},
	{"ColumnCryptoKind", ev("", "ENCRYPTION_WITH_FOOTER_KEY", "ENCRYPTION_WITH_COLUMN_KEY")},
	{"EncryptionKind", ev("", "AES_GCM_V1", "AES_GCM_CTR_V1")},
}
