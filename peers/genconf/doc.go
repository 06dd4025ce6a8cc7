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
package genconf
