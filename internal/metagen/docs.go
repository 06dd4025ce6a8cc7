// Documentation and Go names of the generated metadata types (types_gen.go):
// the doc comments of types, notes on fields, and the Go constants of enums.

package main

// typeDocs holds the doc comment of each generated type, by Go name.
var typeDocs = map[string]string{
	"Type": "Type is the physical type of a column (parquet.thrift Type).",
	"ConvertedType": "ConvertedType is the legacy logical annotation (parquet.thrift\n" +
		"ConvertedType), superseded by LogicalType but still written for\n" +
		"compatibility.",
	"FieldRepetitionType":        "FieldRepetitionType says how often a field occurs in its parent.",
	"Encoding":                   "Encoding is a value or level encoding (parquet.thrift Encoding).",
	"CompressionCodec":           "CompressionCodec names the codec of a column chunk's pages.",
	"PageType":                   "PageType is the kind of a page.",
	"BoundaryOrder":              "BoundaryOrder says how the page bounds of a ColumnIndex are ordered.",
	"EdgeInterpolationAlgorithm": "EdgeInterpolationAlgorithm is how a GEOGRAPHY column interpolates edges.",
	"LogicalKind": "LogicalKind names the member set in a LogicalType union; its value is the\n" +
		"member's Thrift field id.",
	"TimeUnit": "TimeUnit is the unit of a TIME or TIMESTAMP logical type (a union of empty\n" +
		"structs; the value is the member's field id, 0 when unrecognised).",
	"DecimalType": "DecimalType holds the parameters of a DECIMAL logical type.",
	"TimeType": "TimeType holds the parameters of a TIME or TIMESTAMP logical type\n" +
		"(TimeType and TimestampType have the same fields).",
	"IntType":       "IntType holds the parameters of an INTEGER logical type.",
	"VariantType":   "VariantType holds the parameters of a VARIANT logical type.",
	"GeometryType":  "GeometryType holds the parameters of a GEOMETRY logical type.",
	"GeographyType": "GeographyType holds the parameters of a GEOGRAPHY logical type.",
	"LogicalType": "LogicalType is the LogicalType union. Kind says which member is set; the\n" +
		"parameter field of that member (Decimal, Time, Integer, Variant, Geometry,\n" +
		"Geography) holds its fields. Kind is LogicalNone when the annotation is\n" +
		"absent or carries only members this package does not know; Unrecognized\n" +
		"then holds the field id of the last unknown member seen (0 if none), for\n" +
		"diagnostics. Unrecognized members are never re-encoded.",
	"SchemaElement": "SchemaElement is one node of the depth-first schema list.",
	"Statistics": "Statistics of a page or column chunk. Min and Max are the deprecated\n" +
		"signed-order bounds; MinValue and MaxValue are the bounds in the column's\n" +
		"order.",
	"SizeStatistics": "SizeStatistics describes the unencoded size and the level distribution of\n" +
		"a page or column chunk.",
	"BoundingBox":          "BoundingBox is the bounding box of GEOMETRY/GEOGRAPHY values.",
	"GeospatialStatistics": "GeospatialStatistics are the statistics of a GEOMETRY/GEOGRAPHY column.",
	"ColumnOrderKind":      "ColumnOrderKind names the member set in a ColumnOrder union.",
	"ColumnOrder":          "ColumnOrder is the ColumnOrder union (all members are empty structs).",
	"PageHeader":           "PageHeader precedes every page.",
	"DataPageHeader":       "DataPageHeader is the header of a version 1 data page.",
	"IndexPageHeader":      "IndexPageHeader is the (empty) header of an index page.",
	"DictionaryPageHeader": "DictionaryPageHeader is the header of a dictionary page.",
	"DataPageHeaderV2":     "DataPageHeaderV2 is the header of a version 2 data page.",
	"BloomFilterHeader": "BloomFilterHeader precedes a bloom filter bitset. Algorithm, Hash and\n" +
		"Compression are unions with a single member each today; their value is\n" +
		"the member's field id (1), 0 when unrecognised.",
	"KeyValue":                "KeyValue is an entry of key-value metadata.",
	"SortingColumn":           "SortingColumn says how a row group is sorted by one column.",
	"PageEncodingStats":       "PageEncodingStats counts the pages of one type and encoding in a chunk.",
	"ColumnMetaData":          "ColumnMetaData describes a column chunk.",
	"EncryptionWithColumnKey": "EncryptionWithColumnKey says a column is encrypted with its own key.",
	"ColumnCryptoKind":        "ColumnCryptoKind names the member set in a ColumnCryptoMetaData union.",
	"ColumnCryptoMetaData": "ColumnCryptoMetaData is the ColumnCryptoMetaData union; ColumnKey holds\n" +
		"the member's fields when Kind == CryptoColumnKey.",
	"ColumnChunk":         "ColumnChunk locates a column chunk and its indexes.",
	"RowGroup":            "RowGroup describes one row group.",
	"PageLocation":        "PageLocation locates one page of a column chunk.",
	"OffsetIndex":         "OffsetIndex locates the pages of a column chunk.",
	"ColumnIndex":         "ColumnIndex holds the per-page statistics of a column chunk.",
	"EncryptionKind":      "EncryptionKind names the member set in an EncryptionAlgorithm union.",
	"AesGcmParams":        "AesGcmParams are the fields of AesGcmV1 and AesGcmCtrV1 (they are alike).",
	"EncryptionAlgorithm": "EncryptionAlgorithm is the EncryptionAlgorithm union.",
	"FileMetaData":        "FileMetaData is the file footer.",
	"FileCryptoMetaData":  "FileCryptoMetaData precedes an encrypted footer.",
}

// fieldNotes holds what a field's comment says after its id and
// requiredness, by "Struct.Field".
var fieldNotes = map[string]string{
	"SchemaElement.Type":              " (absent for groups)",
	"SchemaElement.RepetitionType":    " (absent for the root)",
	"Statistics.Max":                  " (deprecated)",
	"Statistics.Min":                  " (deprecated)",
	"Statistics.NanCount":             " (FLOAT, DOUBLE, FLOAT16)",
	"DataPageHeaderV2.IsCompressed":   ", default true",
	"BloomFilterHeader.Algorithm":     ": 1 = BLOCK (split block)",
	"BloomFilterHeader.Hash":          ": 1 = XXHASH (XXH64)",
	"BloomFilterHeader.Compression":   ": 1 = UNCOMPRESSED",
	"ColumnChunk.FileOffset":          " (deprecated; write 0)",
	"PageLocation.CompressedPageSize": " (header included)",
}

// enumTypes gives each enum's underlying Go type, the doc comment of its
// constant group and its constants (with the names parquet.thrift gives
// them in the enums table).
var enumTypes = map[string]enumType{
	"Type": {Under: "int32", Untyped: false, GroupDoc: "Physical types.", Consts: []C{
		{Go: "Boolean", Val: 0, Note: "", Doc: ""},
		{Go: "Int32", Val: 1, Note: "", Doc: ""},
		{Go: "Int64", Val: 2, Note: "", Doc: ""},
		{Go: "Int96", Val: 3, Note: "", Doc: ""},
		{Go: "Float", Val: 4, Note: "", Doc: ""},
		{Go: "Double", Val: 5, Note: "", Doc: ""},
		{Go: "ByteArray", Val: 6, Note: "", Doc: ""},
		{Go: "FixedLenByteArray", Val: 7, Note: "", Doc: ""},
	}},
	"ConvertedType": {Under: "int32", Untyped: false, GroupDoc: "Converted types.", Consts: []C{
		{Go: "ConvertedUTF8", Val: 0, Note: "", Doc: ""},
		{Go: "ConvertedMap", Val: 1, Note: "", Doc: ""},
		{Go: "ConvertedMapKeyValue", Val: 2, Note: "", Doc: ""},
		{Go: "ConvertedList", Val: 3, Note: "", Doc: ""},
		{Go: "ConvertedEnum", Val: 4, Note: "", Doc: ""},
		{Go: "ConvertedDecimal", Val: 5, Note: "", Doc: ""},
		{Go: "ConvertedDate", Val: 6, Note: "", Doc: ""},
		{Go: "ConvertedTimeMillis", Val: 7, Note: "", Doc: ""},
		{Go: "ConvertedTimeMicros", Val: 8, Note: "", Doc: ""},
		{Go: "ConvertedTimestampMillis", Val: 9, Note: "", Doc: ""},
		{Go: "ConvertedTimestampMicros", Val: 10, Note: "", Doc: ""},
		{Go: "ConvertedUint8", Val: 11, Note: "", Doc: ""},
		{Go: "ConvertedUint16", Val: 12, Note: "", Doc: ""},
		{Go: "ConvertedUint32", Val: 13, Note: "", Doc: ""},
		{Go: "ConvertedUint64", Val: 14, Note: "", Doc: ""},
		{Go: "ConvertedInt8", Val: 15, Note: "", Doc: ""},
		{Go: "ConvertedInt16", Val: 16, Note: "", Doc: ""},
		{Go: "ConvertedInt32", Val: 17, Note: "", Doc: ""},
		{Go: "ConvertedInt64", Val: 18, Note: "", Doc: ""},
		{Go: "ConvertedJSON", Val: 19, Note: "", Doc: ""},
		{Go: "ConvertedBSON", Val: 20, Note: "", Doc: ""},
		{Go: "ConvertedInterval", Val: 21, Note: "", Doc: ""},
	}},
	"FieldRepetitionType": {Under: "int32", Untyped: false, GroupDoc: "Repetitions.", Consts: []C{
		{Go: "Required", Val: 0, Note: "", Doc: ""},
		{Go: "Optional", Val: 1, Note: "", Doc: ""},
		{Go: "Repeated", Val: 2, Note: "", Doc: ""},
	}},
	"Encoding": {Under: "int32", Untyped: false, GroupDoc: "Encodings. Value 1 is unused (it was GROUP_VAR_INT).", Consts: []C{
		{Go: "EncodingPlain", Val: 0, Note: "", Doc: ""},
		{Go: "EncodingPlainDictionary", Val: 2, Note: "", Doc: ""},
		{Go: "EncodingRLE", Val: 3, Note: "", Doc: ""},
		{Go: "EncodingBitPacked", Val: 4, Note: "", Doc: ""},
		{Go: "EncodingDeltaBinaryPacked", Val: 5, Note: "", Doc: ""},
		{Go: "EncodingDeltaLengthByteArray", Val: 6, Note: "", Doc: ""},
		{Go: "EncodingDeltaByteArray", Val: 7, Note: "", Doc: ""},
		{Go: "EncodingRLEDictionary", Val: 8, Note: "", Doc: ""},
		{Go: "EncodingByteStreamSplit", Val: 9, Note: "", Doc: ""},
		{Go: "EncodingALP", Val: 10, Note: "", Doc: "EncodingALP is the adaptive lossless floating point encoding of the\ndevelopment head (\"in preview\"), for FLOAT and DOUBLE: read always,\nwritten only on request (runtime/encode)."},
	}},
	"CompressionCodec": {Under: "int32", Untyped: false, GroupDoc: "Codecs.", Consts: []C{
		{Go: "Uncompressed", Val: 0, Note: "", Doc: ""},
		{Go: "Snappy", Val: 1, Note: "", Doc: ""},
		{Go: "Gzip", Val: 2, Note: "", Doc: ""},
		{Go: "LZO", Val: 3, Note: "", Doc: ""},
		{Go: "Brotli", Val: 4, Note: "", Doc: ""},
		{Go: "LZ4", Val: 5, Note: "", Doc: "LZ4 is the deprecated codec with the Hadoop framing."},
		{Go: "Zstd", Val: 6, Note: "", Doc: ""},
		{Go: "LZ4Raw", Val: 7, Note: "", Doc: ""},
	}},
	"PageType": {Under: "int32", Untyped: false, GroupDoc: "Page types.", Consts: []C{
		{Go: "DataPage", Val: 0, Note: "", Doc: ""},
		{Go: "IndexPage", Val: 1, Note: "", Doc: ""},
		{Go: "DictionaryPage", Val: 2, Note: "", Doc: ""},
		{Go: "DataPageV2", Val: 3, Note: "", Doc: ""},
	}},
	"BoundaryOrder": {Under: "int32", Untyped: false, GroupDoc: "Boundary orders.", Consts: []C{
		{Go: "Unordered", Val: 0, Note: "", Doc: ""},
		{Go: "Ascending", Val: 1, Note: "", Doc: ""},
		{Go: "Descending", Val: 2, Note: "", Doc: ""},
	}},
	"EdgeInterpolationAlgorithm": {Under: "int32", Untyped: false, GroupDoc: "Edge interpolation algorithms.", Consts: []C{
		{Go: "Spherical", Val: 0, Note: "", Doc: ""},
		{Go: "Vincenty", Val: 1, Note: "", Doc: ""},
		{Go: "Thomas", Val: 2, Note: "", Doc: ""},
		{Go: "Andoyer", Val: 3, Note: "", Doc: ""},
		{Go: "Karney", Val: 4, Note: "", Doc: ""},
	}},
	"LogicalKind": {Under: "int16", Untyped: false, GroupDoc: "Logical type kinds. Field id 9 is reserved (it was INTERVAL).", Consts: []C{
		{Go: "LogicalNone", Val: 0, Note: "absent, or only unrecognised members", Doc: ""},
		{Go: "LogicalString", Val: 1, Note: "", Doc: ""},
		{Go: "LogicalMap", Val: 2, Note: "", Doc: ""},
		{Go: "LogicalList", Val: 3, Note: "", Doc: ""},
		{Go: "LogicalEnum", Val: 4, Note: "", Doc: ""},
		{Go: "LogicalDecimal", Val: 5, Note: "", Doc: ""},
		{Go: "LogicalDate", Val: 6, Note: "", Doc: ""},
		{Go: "LogicalTime", Val: 7, Note: "", Doc: ""},
		{Go: "LogicalTimestamp", Val: 8, Note: "", Doc: ""},
		{Go: "LogicalInteger", Val: 10, Note: "", Doc: ""},
		{Go: "LogicalUnknown", Val: 11, Note: "the UNKNOWN (always null) type, NullType", Doc: ""},
		{Go: "LogicalJSON", Val: 12, Note: "", Doc: ""},
		{Go: "LogicalBSON", Val: 13, Note: "", Doc: ""},
		{Go: "LogicalUUID", Val: 14, Note: "", Doc: ""},
		{Go: "LogicalFloat16", Val: 15, Note: "", Doc: ""},
		{Go: "LogicalVariant", Val: 16, Note: "", Doc: ""},
		{Go: "LogicalGeometry", Val: 17, Note: "", Doc: ""},
		{Go: "LogicalGeography", Val: 18, Note: "", Doc: ""},
		{Go: "LogicalFile", Val: 19, Note: "development-head draft", Doc: ""},
	}},
	"TimeUnit": {Under: "int8", Untyped: false, GroupDoc: "Time units.", Consts: []C{
		{Go: "Millis", Val: 1, Note: "", Doc: ""},
		{Go: "Micros", Val: 2, Note: "", Doc: ""},
		{Go: "Nanos", Val: 3, Note: "", Doc: ""},
	}},
	"ColumnOrderKind": {Under: "int16", Untyped: false, GroupDoc: "Column orders.", Consts: []C{
		{Go: "OrderUnknown", Val: 0, Note: "no known member set", Doc: ""},
		{Go: "TypeDefinedOrder", Val: 1, Note: "", Doc: ""},
		{Go: "IEEE754TotalOrder", Val: 2, Note: "", Doc: ""},
		{Go: "Int96TimestampOrder", Val: 3, Note: "", Doc: ""},
	}},
	"BloomMembers": {Under: "int16", Untyped: true, GroupDoc: "Bloom filter union members.", Consts: []C{
		{Go: "BloomBlock", Val: 1, Note: "BloomFilterAlgorithm.BLOCK", Doc: ""},
		{Go: "BloomXXHash", Val: 1, Note: "BloomFilterHash.XXHASH", Doc: ""},
		{Go: "BloomUncompressed", Val: 1, Note: "BloomFilterCompression.UNCOMPRESSED", Doc: ""},
	}},
	"ColumnCryptoKind": {Under: "int16", Untyped: false, GroupDoc: "Column crypto kinds.", Consts: []C{
		{Go: "CryptoUnknown", Val: 0, Note: "", Doc: ""},
		{Go: "CryptoFooterKey", Val: 1, Note: "ENCRYPTION_WITH_FOOTER_KEY", Doc: ""},
		{Go: "CryptoColumnKey", Val: 2, Note: "ENCRYPTION_WITH_COLUMN_KEY", Doc: ""},
	}},
	"EncryptionKind": {Under: "int16", Untyped: false, GroupDoc: "Encryption algorithms.", Consts: []C{
		{Go: "EncryptionUnknown", Val: 0, Note: "", Doc: ""},
		{Go: "AesGcmV1", Val: 1, Note: "", Doc: ""},
		{Go: "AesGcmCtrV1", Val: 2, Note: "", Doc: ""},
	}},
}

// enumType describes an enum's Go declaration.
type enumType struct {
	Under    string // int8, int16 or int32
	Untyped  bool   // constants of type Under, no type declared
	GroupDoc string // comment of the const group
	Consts   []C
}

// C is an enum constant.
type C struct {
	Go   string // Go name
	Val  int
	Note string // trailing comment
	Doc  string // comment above it
}
