// Package runtime is the small library that pqgen's generated code calls:
// it opens Parquet files (magic, footer, schema), and, through its
// subpackages, implements every encoding (runtime/encode), codec
// (runtime/compress), page layout (runtime/page), metadata structure
// (runtime/meta), bloom filter (runtime/bloom), encryption (runtime/crypt),
// Variant value (runtime/variant) and geospatial statistic (runtime/geo)
// of the format.
//
// The file layout is described at
// https://parquet.apache.org/docs/file-format/: "PAR1", the column chunks
// of every row group, the Thrift-encoded FileMetaData, its 4-byte
// little-endian length, and "PAR1" again ("PARE" when the footer is
// encrypted).
package runtime
