// Package peers holds the cross-checks and benchmarks that run pqgen beside
// other Parquet implementations (parquet-go, arrow-go, and through node
// DuckDB and parquet-wasm): the runtime's interop in interop, that of the
// generated readers and writers of the example types in geninterop. It is
// a separate module so that those libraries never enter the runtime's
// imports.
package peers
