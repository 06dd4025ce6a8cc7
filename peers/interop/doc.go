// Package interop cross-checks the files pqgen's runtime writes against the
// readers of arrow-go and parquet-go: values, levels, statistics, page
// index and bloom filters (see write_test.go); and against the JavaScript
// peers of peers/js, run with node: DuckDB (@duckdb/node-api), parquet-wasm
// (arrow-rs), hyparquet and nodejs-polars read every file of the writer
// matrix (small row groups included) with the values written, but for the
// columns a reader is documented not to read, DuckDB's parquet_metadata
// shows our footer, and the files DuckDB writes read through our FileReader
// as DuckDB reads them (duckdb_test.go, wasm_test.go, polars_test.go,
// jsedge_test.go; helpers in js_test.go).
// Without node or peers/js/node_modules those tests skip, or fail under
// CI=true.
package interop
