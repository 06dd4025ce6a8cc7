// Generation of the Thrift compact-protocol codec (codec_gen.go), the enum
// String methods (enums_gen.go) and the test schema (schema_gen_test.go)
// from the table in internal/metagen; see
// https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
// and https://parquet.apache.org/docs/file-format/metadata/.

package meta

//go:generate go run ../../internal/metagen -dir .
