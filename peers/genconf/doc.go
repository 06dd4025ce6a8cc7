// Package genconf is the generator's conformance test over the
// parquet-testing corpus (issue #5): for every Parquet file under data/
// (and shredded_variant/, whose files hold Variant columns), the
// generator (gen.FromFile) emits a row type, all of them into one
// generated package with a driver that reads each corpus file with its
// ReadTFile and writes the rows back with its WriteTFile; the package is
// built once and run once, and DuckDB (peers/js/duckdb_except.mjs, one node
// process) checks that each original and its copy hold the same rows
// (equal counts, EXCEPT ALL empty both ways) and the same columns. Files
// that cannot pass are listed, with the reason and the stage they stop
// at, in the exclusion table of genconf_test.go; an excluded file that
// passes fails the test too.
//
// TestWorldWritersRoundTrip does the same for the files DuckDB, Polars,
// parquet-wasm (arrow-rs), parquetjs and hyparquet-writer write with every
// feature they offer (peers/js/writers.mjs, issue 13): the files of one
// schema share a generated type, DuckDB judges each copy, and parquetjs
// (for its own files), hyparquet or parquet-wasm the files DuckDB cannot
// read (the copies of parquetjs's files are written PLAIN, which it
// reads, with WithColumnEncoding). Its table of expected failures
// names each file that cannot pass yet and why, and fails when one passes.
//
// TestDuckFuzz runs the same round trip over files of random schemas and
// rows that DuckDB writes under random COPY options
// (peers/js/duckfuzz.mjs); every one must pass. PQGEN_DUCKFUZZ_SEED and PQGEN_DUCKFUZZ_N
// choose the files (24 from seed 1 by default; `make fuzz` draws a fresh
// seed). TestArrowFuzz does the same for random Arrow tables that arrow-rs
// (parquet-wasm) and Polars write under random writer properties
// (peers/js/arrowfuzz.mjs; PQGEN_ARROWFUZZ_SEED, PQGEN_ARROWFUZZ_N: 12
// seeds, 24 files, by default), and TestHypFuzz for random explicit
// schemas hyparquet-writer writes (peers/js/hypfuzz.mjs;
// PQGEN_HYPFUZZ_SEED, PQGEN_HYPFUZZ_N: 16 files by default), and
// TestParquetjsFuzz for random schemas parquetjs writes
// (peers/js/pjsfuzz.mjs; PQGEN_PJSFUZZ_SEED, PQGEN_PJSFUZZ_N: 16), and
// TestArrowGoFuzz for random Arrow tables arrow-go (pqarrow, Arrow C++'s
// writer ported to Go) writes under random writer properties
// (arrowgofuzz_test.go; PQGEN_GOFUZZ_SEED, PQGEN_GOFUZZ_N: 16), and
// TestParquetGoFuzz for rows of random Go types (reflect.StructOf) that
// parquet-go writes under random struct tags and writer options
// (parquetgofuzz_test.go; PQGEN_PGOFUZZ_SEED, PQGEN_PGOFUZZ_N: 16). Where DuckDB
// cannot read an original, parquet-wasm, or else hyparquet, compares it
// with its copy.
package genconf
