// Package runtime reads and writes Parquet files for pqgen's generated
// code and for callers working column by column. Its subpackages implement
// the format: every encoding (runtime/encode), codec (runtime/compress),
// page layout (runtime/page), metadata structure and its Thrift codec
// (runtime/meta), schema (runtime/schema), bloom filter (runtime/bloom),
// encryption (runtime/crypt), Variant value (runtime/variant) and
// geospatial statistic (runtime/geo).
//
// The file layout is described at
// https://parquet.apache.org/docs/file-format/: "PAR1", the column chunks
// of every row group, the Thrift-encoded FileMetaData, its 4-byte
// little-endian length, and "PAR1" again ("PARE" when the footer is
// encrypted).
//
// # The API
//
// Most users call generated code (NewTWriter, NewTReader, WriteTFile,
// ReadTFile) and meet this package through three things:
//
//   - Options, the one way to configure. WriterOption values configure
//     writers (WithCompression, WithRowGroupSize, WithRowGroupRowLimit,
//     WithPageSize, WithEncryption, ...), ReaderOption values configure readers
//     (WithColumns, WithFilter, WithRowGroups, WithReadCoalescing,
//     WithReadParallelism, WithFooterKey, WithMaxPageSize, ...). An option that
//     concerns one column is named WithColumnX and takes the column's
//     dotted path first (WithColumnCompression, WithColumnEncoding,
//     WithColumnBloomFilter, WithColumnKey, WithColumnPageFilter);
//     WithColumns, which projects, is the one exception to the pattern. An
//     invalid option makes the constructor fail with an error wrapping
//     ErrConfig that names the option; no option silently falls back to a
//     default.
//   - Errors, declared in errors.go: every error wraps one sentinel of
//     this package or of a subpackage (test with errors.Is) and names the
//     column, row group and page where it has them.
//   - Files: OpenFile and OpenPath read a footer (File: metadata, schema,
//     encryption); WriteFile and WriteFileAtomic write through a temporary
//     file, fsync and rename. Splits divides a file's row groups among
//     readers (WithRowGroups).
//   - Deviations: files that depart from the specification in ways other
//     readers tolerate (DuckDB's 33-bit INT32 deltas, unsorted Variant
//     objects and AAD-less encryption, hyparquet-writer's optional
//     shredded fields and i32 bit widths, ...) are read and recorded
//     (File.Deviations); WithStrict(true) refuses them with an error
//     wrapping ErrDeviation. docs/DEVIATIONS.md lists them. Writers never
//     produce them.
//   - Predicates: the generated TWhere fields build Predicate values
//     (Field, OrderedField, NullableField, NullableOrderedField), combined
//     with And, Or and Not and given to readers with WithFilter.
//
// Callers who work column by column, without generated code, use
// NewFileWriter with the typed column buffers (Levels, BoolBuffer,
// Int32Buffer, Int64Buffer, Int96Buffer, FloatBuffer, DoubleBuffer,
// ByteArrayBuffer, FixedBuffer) and NewFileReader with the typed column
// readers (BoolReader ... FixedReader), over any io.ReaderAt or, for a
// file held in memory, a MemoryFile, whose pages are decoded in place;
// generated code is built on the
// same calls, its writers opening their buffers from a table
// (OpenBuffers with Buffer and VariantBuffer entries) and shredding in
// parts, one per top-level field (FileWriter.ShredParts, ShredParts.Run),
// a tile of rows at a time (ShredTile).
//
// Value types of logical types: Decimal (DECIMAL, up to 38 digits;
// NewDecimal, ParseDecimal, String, Float64, Int, Rescale, CompareDecimal),
// Interval (INTERVAL), and the FLOAT16 conversions Float16ToFloat32 (exact)
// and Float32ToFloat16 (round to nearest even, overflow to ±Inf, NaN kept).
//
// # Schema evolution
//
// FileReader.Bind binds a type's schema (as it is today) to a file's (as
// it was written), once, at open; the typed column readers then read at
// full speed. Fields match by field id when both sides carry one, else by
// name; LIST and MAP groups match in any layout, legacy ones included.
// Columns the type lacks are never read; nullable fields the file lacks
// read as null. A field required in the file reads into a nullable one
// (the reader synthesizes the definition levels); a nullable one into a
// required one only with WithOptionalAsRequired, a null then being an
// error wrapping ErrValue naming column and row. Values widen exactly,
// converted page by page in the column readers: integers to wider ones,
// FLOAT and FLOAT16 to DOUBLE (FLOAT16 to FLOAT too), DATE to TIMESTAMP,
// TIMESTAMP and TIME to finer units (coarser ones with
// WithCoarserTimeUnits, when every value is whole), DECIMAL to more
// integer digits and the same or a larger scale in any physical type,
// and text, enum, JSON and raw bytes into one another. Anything else (a
// narrowing, another type) fails at Bind with an error wrapping ErrBind
// naming the column and both types. CheckSchema reports the verdict per
// column without reading data. The table of rules is in pqgen's gen/doc.go.
//
// # For generated code
//
// These exported identifiers exist for the code pqgen generates; they are
// stable for it but are not meant to be called by hand: FileWriter.Fail,
// FileReader.Projected, FileReader.BindDefaults, FileReader.VariantColumn, VariantReader,
// VariantWriter, ReadRowsExact, ReadFileRows, ReadFileWith, RowReader,
// ColumnRows, DateDays, Slab, MapSize, AppendFloat16, Float16At, AppendInterval, IntervalAt,
// CompareInterval, DecimalUnscaled32, DecimalUnscaled64,
// AppendDecimalFixed, DecimalFromFixed, FileReader.Available,
// FileReader.ReadColumns, Col, ColumnJob, FileReader.OpenLeaves, Leaf,
// LeafSlot, Leaves, AllRows, AllRowsAhead, TakeAhead, NewField (and its
// Ordered and Nullable variants), NewListField, NewListOf, AnyElement,
// NewMapOf, NewMapKeyOf,
// and the version guard (GenVersion, MinGenVersion,
// EnforceVersion).
package runtime
