// Package encode benchmarks pqgen's runtime/encode against parquet-go's
// encoding packages and arrow-go, one benchmark per operation with one
// sub-benchmark per implementation (pqgen, parquetgo, arrowgo), so that a
// single `go test -bench` run can be turned into ratios by
// peers/internal/benchratio.
//
// arrow-go's encoders live in an internal package
// (parquet/internal/encoding) that other modules cannot import, so the
// arrowgo sub-benchmarks go through arrow-go's exported file API: they
// write or read one uncompressed single-page column chunk with the
// encoding under test, which adds the page, column and footer overhead of
// a real file to the encoding's own cost.
package encode
