// Generation of the metadata types (types_gen.go), their Thrift
// compact-protocol codec (codec_gen.go), the enum String methods
// (enums_gen.go) and the test schema (schema_gen_test.go) from the one table
// in internal/metagen (table.go, with the Go names and doc comments in
// docs.go); see
// https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
// and https://parquet.apache.org/docs/file-format/metadata/.

package meta

//go:generate go run ../../internal/metagen -dir .
