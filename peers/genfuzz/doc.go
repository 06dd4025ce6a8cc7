// Package genfuzz fuzzes the generator end to end: random schemas (nesting,
// repetition, every physical type and logical annotation, LIST and MAP
// layouts, the legacy LIST layouts of older writers, awkward names) are
// turned into generated code, random rows are written with the generated
// writer under a random writer configuration,
// read back with the generated reader, and read with arrow-go's low-level
// column readers, whose levels and values are compared with levels and
// values computed from the rows independently of pqgen; arrow-go's
// low-level column writers also write those levels and values, and the
// generated reader must read that file as the rows (a file on which
// arrow-go's DELTA_BINARY_PACKED encoder panics, a bug of arrow-go that
// its DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encoders share, is
// written again with those columns PLAIN and counted in
// Result.ArrowRetries). Independent readers then read, for each
// schema, the file of its first writer configuration DuckDB can read
// (one that sets no BYTE_STREAM_SPLIT on integers, say; else the next
// file), a file of the writer's defaults and arrow-go's file of the same
// rows (PairDir;
// pairs_test.go): DuckDB must find the same rows, in the same order and
// with the same types, in pqgen's file and arrow-go's; Polars,
// parquet-wasm (arrow-rs) and hyparquet must read the same rows from
// pqgen's two files and, but for hyparquet, from arrow-go's. What they
// cannot read (schemas, JavaScript's numbers) is counted and logged. In
// evolution
// mode (every other schema), the schema also gets a random compatible edit
// (EvolveSchema: integers and floats widened, required leaves made
// optional, a field dropped, one added); rows written with the old type's
// generated writer must read with the new type's generated reader as the
// old rows converted field by field (CheckEvolution).
//
// The package holds the pieces that do not depend on the generated code
// (the schema generator, the reflection-based row filler, shredder and
// comparer, the arrow-go reader and Check); its test generates the code
// of many schemas into one package, builds it once and runs the checks.
package genfuzz
