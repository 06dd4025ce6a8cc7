// Package geninterop cross-checks the code pqgen generates for the example
// types of examples/generated (Event, Order, Deep, Logical, Metric) against
// other Parquet implementations, in both directions:
//
//   - ours → peers: files written by the generated writers, in several
//     writer configurations, read by arrow-go (pqarrow), parquet-go (its
//     row API), DuckDB and parquet-wasm (arrow-rs) give exactly the rows
//     written;
//   - peers → ours: files the peers write with the same logical schema read
//     back through the generated readers as exactly the original Go rows.
//   - peers → ours in parallel: larger files the peers write, of many row
//     groups and of one, read by the generated ReadTFile and Read under
//     WithReadParallelism as exactly the rows one reader gives
//     (parallel_test.go).
//
// Rows are compared in one canonical form (see canon_test.go), computed
// from the Go rows by reflection on the Go side and printed by
// peers/js/geninterop.mjs on the JavaScript side. Every column a peer cannot
// handle is a narrow, documented exception that is itself checked, so that
// it fails once the peer is fixed. The package has tests only.
package geninterop
