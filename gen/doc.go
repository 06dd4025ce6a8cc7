// Package gen is pqgen's generator: it reads a schema from one of three
// sources, builds one intermediate representation (IR) of it, and emits
// monomorphic Go code that writes and reads Parquet files of that schema
// through package runtime, with no reflection and no interface value per
// row or value.
//
// # Sources
//
// LoadGo reads struct types of a Go package (golang.org/x/tools/go/packages):
// named types, embedded structs (their fields are promoted into the row),
// aliases and types of other packages work; errors carry file:line. Files
// pqgen generated earlier are left out of type checking, so stale generated
// code never blocks its own regeneration. FromSchemaText reads schema text
// in the message grammar (runtime/schema.Parse; errors carry line:column),
// FromFile the footer of a Parquet file (runtime.OpenFile). For the last
// two the struct types are generated too: exported fields whose parquet
// tags hold the exact column names (so files written back keep the
// schema). Names are decided once (names.go): words of the column name
// start upper-case and Go's common initialisms are upper-case ("order_id"
// → OrderID, "image_url" → ImageURL, "uids" → UIDs: the golint and
// staticcheck list plus SKU and UTC); Options.PlainNames (cmd/pqgen
// -initialisms=false) keeps plain CamelCase (OrderId, ImageUrl). A group
// is named after its parent struct and field (OrderShipping); the element
// of a list and the value of a map after the same with the last word made
// singular (OrderItem for order.items, OrderEntry for entries). Repeats
// get 2, 3... in schema order, so names are unique within the package and
// the same on every run. Two columns with the same dotted path (a column
// named "a.b" beside a group a with a column b) are an error, from any
// source: options, filters and WithColumns name columns by those paths. Legacy layouts are read as the
// logical types specification says: the five backward-compatibility rules
// of LIST, MAP_KEY_VALUE in place of MAP, and repeated fields without
// annotation as required lists of required elements. From a file, the
// top-level WKB columns its GeoParquet metadata ("geo") describes are
// typed GEOMETRY, or GEOGRAPHY for spherical edges, with the CRS the
// metadata names by identifier (OGC:CRS84 when it names none), and the
// optional shredded Variant field groups some writers make are required;
// FileSchema returns that schema, the one the generated writer writes.
//
// # Go types
//
// Integers of every width map to INT32/INT64 with an INT(bits,signed)
// annotation where the width or sign is not the physical type's; float32
// and float64 to FLOAT and DOUBLE; bool; string to BYTE_ARRAY (STRING);
// []byte to BYTE_ARRAY; [N]byte to FIXED_LEN_BYTE_ARRAY(N); time.Time to
// INT64 TIMESTAMP(NANOS,true); time.Duration to INT64 nanoseconds;
// encode.Int96 to INT96 (the legacy timestamp: Time and
// encode.Int96FromTime convert); pointers to optional columns or groups;
// slices to 3-level LISTs (nil and empty both write an empty list unless
// the field is optional, where nil is null); maps to MAPs; structs to
// groups. Named types of all of these work. Where nil and empty write
// alike (a []byte, list or map that is not optional), an empty value reads
// back as nil, the zero value; an optional one reads null as nil and empty
// as empty.
//
// # Logical types with a choice of Go type
//
// The first Go type is the one schema text and files generate; the others
// are chosen by declaring them in Go types (or with the flag given):
//
//	DECIMAL    the unscaled integer: int32 (up to 9 digits), int64 (18), [N]byte (what
//	           its bytes hold) or []byte (big-endian two's complement), the scale in
//	           the tag; a larger precision is an error, as the specification makes it; runtime.Decimal (Go types, or
//	           -decimal=type / Options.Decimal for INT32, INT64 and FIXED_LEN_BYTE_ARRAY
//	           up to 16 bytes; BYTE_ARRAY and wider columns stay []byte / [N]byte): 38
//	           digits, String, Float64, Int, Rescale; read at the column's scale, written
//	           rescaled exactly, a value losing digits or over the precision an error
//	           wrapping runtime.ErrValue (the writer then fails)
//	FLOAT16    float32: exact on read; on write rounded to nearest even, magnitudes from
//	           65520 up to ±Inf (IEEE 754 overflow, no clamping), ±Inf and NaN kept
//	           (runtime.Float32ToFloat16); [2]byte for the raw bits
//	INTERVAL   runtime.Interval{Months, Days, Millis}; [12]byte for the raw bytes. Not
//	           time.Duration: months and days have no fixed length
//	TIME       time.Duration since midnight in the column's unit; int32 (MILLIS) or int64
//	           (MICROS, NANOS) raw counts with the time(unit) tag
//	TIMESTAMP  time.Time (UTC on read); int64 raw counts with the timestamp(unit) tag
//	DATE       time.Time (UTC midnight); int32 days with the date tag
//	UUID       [16]byte
//	STRING, ENUM, JSON   string; []byte (ENUM, JSON) in Go types
//
// Times are written truncated to the column's unit (a DATE keeps the day
// of the instant in UTC). A value the column cannot hold is an error
// wrapping runtime.ErrValue that names the column and the row, by its
// index in the file (`column "ts": row 2500: ...`; the writer then fails),
// never a wrapped count: a time.Time outside the INT64 count of its
// TIMESTAMP unit (for NANOS, before 1677-09-21 or after 2262-04-11, the
// zero time.Time among them: make such a field a pointer or optional to
// write it as null) or outside a DATE's INT32 of days, a TIME that is not
// a time of day (a time.Duration or raw count below 0 or beyond 24 hours,
// which DuckDB wraps and Polars reads as null), a DECIMAL with more digits
// than its precision (int32, int64, runtime.Decimal, and the bytes of
// [N]byte and []byte ones), a string
// (or []byte) of a STRING, ENUM or JSON column that is not valid UTF-8,
// which those types require and DuckDB, Polars and arrow-rs refuse to
// read (bytes that are not text belong in a []byte field, a BYTE_ARRAY
// column without STRING), and a JSON value that is not one JSON document
// (RFC 8259), which DuckDB and hyparquet refuse: the empty string among
// them, so that a json field left empty fails (make it a pointer or
// optional to write null). GEOMETRY and GEOGRAPHY values must likewise be
// one whole WKB geometry each (an empty []byte is not; nil in an optional
// field is null).
//
// # Struct tags
//
// The `parquet:"name,options..."` syntax of parquet-go, extended:
//
//	name                           the column name ("" keeps the field name); a lone "-" skips the field
//	optional                       nullable column: nil slices, maps and []byte are null, other
//	                               non-pointer values are null when zero (pointers are always optional)
//	list / repeated                a slice as a 3-level LIST (default) / a bare repeated field
//	dict, nodict, plain, delta, split      dictionary on or off, PLAIN, DELTA_*, BYTE_STREAM_SPLIT
//	alp                                    ALP (float32, float64; preview: pages ALP does not
//	                                       shrink are written PLAIN)
//	snappy, gzip, zstd, brotli, lz4, lz4raw, uncompressed   column codec
//	timestamp(millisecond|microsecond|nanosecond[,local])  TIMESTAMP
//	date, time(unit[,local])       DATE; TIME (time.Duration since midnight, or raw integers;
//	                               local: not adjusted to UTC, as DuckDB writes TIME)
//	uuid, enum, json, bson         UUID ([16]byte), ENUM, JSON, BSON
//	decimal(scale,precision)       DECIMAL over int32, int64, [N]byte, []byte or runtime.Decimal
//	float16, interval              FLOAT16 (float32, or [2]byte raw bits), INTERVAL
//	                               (runtime.Interval, implied by its type, or [12]byte)
//	geometry, geography            GEOMETRY / GEOGRAPHY ([]byte WKB)
//	variant                        VARIANT: implied by a variant.Encoded field; on a struct, the
//	                               group holding metadata and value
//	file                           FILE (preview): implied by a runtime.FileRef field; on a struct,
//	                               a group of some of FileRef's fields (uri, offset, size,
//	                               content_type, checksum, inline), each optional
//	id(N)                          field id
//	bloom, bloom(ndv)              a bloom filter for the column
//	default(v)                     the value of a required top-level integer, float, bool or
//	                               string field when the file lacks its column (v as Go would
//	                               parse it; strings as written, commas included)
//
// Column options apply to every leaf below the field; options passed to
// NewTWriter come after them and win. Tags are parsed strictly: an unknown
// option, arguments on an option that takes none, an option given twice
// and conflicting choices (delta,plain; dict,nodict; two codecs; two
// logical types) are errors at the field's file:line, as are decimal,
// date, timestamp and time on unsigned integers (those columns count in
// signed integers).
//
// # Variants
//
// A field of the row type of type variant.Encoded (runtime/variant) is a
// VARIANT group, required unless tagged optional (the zero Encoded is
// null). Schema text and files give their top-level VARIANT groups such
// fields, keeping the group's shredding: the generated writer shreds every
// Variant into the typed columns (runtime.VariantWriter), the reader
// rebuilds it from them (runtime.VariantReader), and a reader of an
// unshredded type reads shredded files, or the reverse. Deeper VARIANT
// groups (in lists, maps or structs) are not generated as Variants: from
// Go source they are an error, from schema text and files they stay
// structs of their metadata, value and typed_value columns.
//
// # FILE references
//
// A FILE-annotated group (logical type 19, a draft of the format's
// development head) is a runtime.FileRef when its fields are among
// FileRef's six with FileRef's types (uri, content_type and checksum
// STRING): schema text and files bind such groups to it, and a FileRef
// field makes one from Go (with all six fields). Other FILE groups from
// schema text and files become declared structs tagged file. FileRef's
// Resolve, Validate and Bytes (and File.ReadFileRef) give a value's
// meaning and its bytes.
//
// # Generated code
//
// For each type T, in T's package: TWriter (NewTWriter, Write, Flush,
// Close), TReader (NewTReader, Read, All, NumRows, Close, Deviations: the
// departures from the specification met so far; NewTReader of a
// runtime.MemoryFile decodes a file held in memory in place instead of
// copying its pages; at the end of the rows
// and in Close it hands its page buffers on to the readers opened after
// it, see runtime.FileReader.Release), WriteTFile (temporary
// file, fsync, rename) and ReadTFile (under
// runtime.WithReadParallelism(n), n goroutines read a file's row groups at
// once, each into its own rows of the result: runtime.ReadFileWith), the
// schema as text, and a
// compile-time guard: an assignment of T{} to an unnamed struct type
// spelling T's exact fields, types and tags, which stops compiling when T
// changes, and for each named non-struct type it reads and writes (type
// Level int16) a conversion (*int16)((*Level)(nil)), which stops compiling
// when the underlying type changes. Every file starts with the pqgen
// version that generated it and checks, at compile time, that the runtime
// in the build supports its generated-code version (runtime.GenVersion,
// runtime.EnforceVersion): a file generated by a pqgen too old or too new
// for the runtime fails to compile at that named line. Writers shred one
// top-level field at a time over a batch of
// rows (a tile of it at a time for a wide type, runtime.ShredTile, so
// that the rows are still in cache for the next field),
// each in a method of its own (TWriter.shredName, a part of
// runtime.ShredParts, which WithParallelism shares with idle workers):
// a loop per leaf for flat columns, a Dremel level shredder per
// nested field, appending levels and values straight into the runtime's
// typed column buffers (a top-level number, boolean or time, required or
// nullable, grows its buffer by the batch once and assigns each row's
// value and level by index; a nullable one whose last batch mixed rows
// with and without a value, by runtime.Mixed, which the writer remembers
// in a field, sets the batch's levels first, without a branch per row,
// then takes the values of the rows runtime.Defined finds), and call
// EndRows every 1,024 rows (2,048 from
// 256 leaf columns; below 128 leaf columns, a schema with byte-array
// leaves ends a group early, at a multiple of 256 rows, 512 from 64 leaf
// columns, once its byte-array values hold 4 MiB) counted from the
// file's first row (rows of an unfinished group wait for the next Write,
// Flush or Close), and end a group where the row group reaches its row
// limit (runtime.WithRowGroupRowLimit; FileWriter.RowGroupRowsLeft), so
// that row groups, cut after EndRows, do not depend on how rows are split
// between Write calls. Write first asks
// FileWriter.Err: a writer that failed, or was closed, refuses rows at
// once (0 rows and its error, one wrapping runtime.ErrClosed once
// closed) rather than holding them in a group that will never be
// written. Map entries are written in
// ascending key order (runtime.MapEntries and MapEntriesFunc, into a slice
// per map that the writer reuses): numbers by value, strings and byte
// arrays by their bytes, booleans false first, times by instant;
// runtime.WithSortedMaps(false) keeps Go's iteration order for speed and
// gives up reproducible bytes. The same rows and options give the same
// bytes (with sorted maps; among several NaN keys of one map, iteration
// order decides). Generated files import every
// package under a pq-prefixed alias (pqrt for runtime, pqio for io,
// pqtime for time...), so that they compile in packages declaring runtime,
// io, time or any other imported name. Readers bind the
// schema to the file (missing nullable columns stay zero), read the same
// number of whole rows from every column, and assemble column by column:
// for each leaf, one loop walks its level slots and writes struct fields
// (a repetition level of 0 starts the next row, level R the next element
// of the list at level R; the first leaf present under a list appends its
// elements, later leaves fill them; every leaf allocates missing nullable
// groups). A top-level field holding a map is assembled row by row
// instead, all its leaves together, since a map entry needs its key and
// value at once: there the first leaf present below a list, map or
// nullable group (its "driver") decides nullness and length; a map is
// made at its size, counted from the driver's repetition levels
// (runtime.MapSize), rather than grown entry by entry. The leaves
// are opened from one table (runtime FileReader.OpenLeaves), and before
// assembling, Read checks the batch's levels (Leaves.Check: a list is
// continued only where it holds an element, and every two leaves under a
// common group agree on its shape), so that a corrupt file fails with an
// error wrapping runtime.ErrChunk that names the row type and the column,
// and assembly, which does not recover from panics, indexes only in range.
// Each top-level field is assembled by a method of its own (fillName,
// after the field's value name), which assemblePart calls in field order
// with pointers to the part's level slot and value positions: a type of
// 2,000 columns compiles in 15 s and 1.2 GB rather than in more than two
// minutes, as one function holding every field's loops did.
// An error of Read other than io.EOF is final: the columns read before the
// failing one have moved on, so the reader keeps the error and every later
// Read (and All) returns it; a new reader reads the file again. TReader.All
// reads ahead in batches of 256 rows (runtime.AllRowsAhead): a loop that
// stops early leaves the rows of its batch after the one it stopped at to
// the next Read or All (runtime.TakeAhead), so no row is skipped.
//
// # Filtering
//
// For each type T, TWhere holds a predicate builder per field outside
// lists and maps, nested structs as nested fields (OrderWhere.Customer.Name):
// a runtime.Field (Eq, NotEq, In), OrderedField (also Lt, Le, Gt, Ge,
// Between) for every type but bool, INTERVAL and geospatial values, a
// GeoField (also Intersects(box)) for GEOMETRY and GEOGRAPHY, and their
// Nullable variants (also IsNull, NotNull) for leaves that may be null. Each builder converts its Go values with the writer's own
// conversion of the field, so predicates compare the values stored:
//
//	r, err := NewEventReader(f, size, runtime.WithFilter(runtime.And(
//		EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("buy"))))
//
// A list of scalars (not geospatial) at the top of the row or in structs
// is a runtime.ListField whose Any() returns the element's Field or
// OrderedField: its predicates are true on the rows where at least one
// element satisfies them (OrderWhere.Tags.Any().Eq("gift")); a null or
// empty list matches none, a null element satisfies no comparison, and
// elements have no IsNull or NotNull. Rows are evaluated exactly; pruning
// uses the element column's chunk statistics, bloom filters (Eq, In) and
// page indexes, which can tell that no element matches but never that
// every row does. A map with scalar keys is a runtime.MapField whose
// AnyKey() and AnyValue() return the builders of its keys and values
// (OrderWhere.Attrs.AnyKey().Eq("color")), or a runtime.MapKeyField with
// AnyKey() alone when its values have no builders (geospatial values);
// they behave as Any() (a null or empty map matches none). Other lists
// (of structs, lists or maps) are a runtime.ListOf whose Any() returns
// the builder of the elements, for structs a struct of the builders of
// their fields; so at any depth (OrderWhere.Lines.Any().Parts.Any().Name,
// DeepWhere.M.AnyValue().Any().AnyKey()), every scalar builder under
// repetition made through runtime.AnyElement: a predicate is true where
// some value of its column in the row satisfies it, and two predicates
// joined by And may hold on different elements or entries;
// runtime.SameElement(p) asks for one element or entry satisfying all of p
// (runtime.SameElement(runtime.And(OrderWhere.Lines.Any().SKU.Eq("A-1"),
// OrderWhere.Lines.Any().Quantity.Gt(2)))).
//
// The reader (runtime.WithFilter) returns exactly the matching rows in
// file order; TReader.All iterates over them (for row, err := range
// r.All()). Read asks FileReader.Available how many rows it may read, which
// selects the rows of the row groups ahead first. It then decodes and
// assembles them tile by tile (runtime.ReadTile: tiles of equal size, each
// at most as many rows as keep the rows and their decoded values within
// about 1.5 MiB, and that at least 512), so that a wide type's values are
// still in cache when its rows are filled; types of a few dozen columns
// read a batch of 4,096 rows in one tile. A nullable top-level scalar
// field whose rows with and without a value are mixed in the tile
// (runtime.Mixed) is filled from the rows runtime.Defined finds, 256 at
// a time, rather than by a test of each row's level, which a processor
// mispredicts on such rows.
// Under runtime.WithReadParallelism(n ≥ 2), a tile of at least 256 rows and
// 16,384 rows × leaves with no batch read ahead of it is assembled in two
// halves at once (assemblePart on two goroutines, runtime.Both):
// runtime.Leaves.Split decides, and finds where the second half starts in
// each leaf (its level slot and value), and each half takes lists,
// structs and pointer targets from its own slabs (the reader's TSlabs,
// runtime.Slab). Byte-array leaves read into []byte are
// opened with runtime.LeafBytes, so that Split makes the copy their values
// share before the halves read it.
// On an error Read returns 0, and zeroes again the rows it had filled.
//
// # Schema evolution
//
// A generated reader binds the file's schema to its type once, at open
// (runtime.FileReader.Bind), then reads at full speed: yesterday's files
// read into today's structs by these rules.
//
//	file                            type                                     rule
//	field id N                      field with id(N), any name               matched by id (a rename keeps reading)
//	field without id, or no id(N)   field of the same name                   matched by name
//	id N on two sibling fields      field with id(N)                         matched by name: a shared id names
//	(in the file or the type)                                                neither field
//	sibling fields of one name      fields of that name                      matched in order
//	column the type lacks           -                                        skipped: never read from storage
//	-                               nullable field the file lacks            null / zero
//	-                               required field the file lacks            error naming the column, unless default(v)
//	required                        optional (pointer, optional tag)         reads; definition levels synthesized
//	optional                        required                                 error at open; with runtime.WithOptionalAsRequired
//	                                                                         it reads, a null is an error naming column and row
//	INT(8/16/32/64, signed)         a signed integer at least as wide        widened (int32 to int64 converted per page)
//	INT(8/16/32, unsigned)          unsigned at least as wide, or signed     widened (zero-extended)
//	                                strictly wider
//	FLOAT                           float64                                  widened
//	INT(8/16/32, any sign)          float64 (float32 from 8 and 16 bits)     converted exactly (not int64: inexact)
//	FLOAT16 ([2]byte float16)       float32, float64                         widened, exactly
//	DATE                            time.Time (TIMESTAMP, any unit)          midnight UTC of the day (past 2262 in
//	                                                                         nanoseconds: an error on read)
//	TIMESTAMP, TIME                 the same in a finer unit                 multiplied (millis to micros to nanos)
//	TIMESTAMP                       encode.Int96                             converted (legacy INT96 timestamps)
//	INT96 (Spark, Impala, Hive)     time.Time (TIMESTAMP(NANOS); a coarser   converted exactly; a value past 2262 in
//	                                unit with WithCoarserTimeUnits)          nanoseconds, or not whole, an error on read
//	DECIMAL(p,s)                    DECIMAL(p',s'), s' >= s, p'-s' >= p-s,   rescaled; INT32, INT64, FIXED_LEN_BYTE_ARRAY
//	                                any physical type                        and BYTE_ARRAY convert (a value too wide for
//	                                                                         the type's bytes is an error on read)
//	STRING, ENUM, JSON, bytes       any of string/enum/json/[]byte           the same bytes; BSON to []byte too
//	anything else                   a narrower or other type                 error at open wrapping runtime.ErrBind,
//	                                                                         naming the column and both types
//
// Narrowing is never silent: int64 to int32, int32 to int16, signed to
// unsigned, double to float, int64 to double, string to int, a coarser
// time unit, a smaller decimal scale or fewer integer digits all fail at
// open. runtime.WithCoarserTimeUnits reads coarser units when every value
// is a whole number of them (files that store all timestamps in
// microseconds, Spark's INT96 timestamps past 2262).
// The same rules apply inside structs, list elements and map keys and
// values; legacy layouts (two-level lists, repeated groups named array or
// _tuple, bare repeated fields, MAP_KEY_VALUE, key and value under other
// names) bind to the Go types of modern ones, and types generated from
// them (a list of one-field groups for an array or _tuple group, as
// parquet-avro and parquet-thrift wrote) read such files and modern ones
// whose elements are required; modern files whose elements may be null
// fail at open, as those elements have no null in such a type. A list
// read as a map or a struct, or the other way round, fails at open too.
// `pqgen check -type T FILE...` (or runtime.CheckSchema) prints per column
// match, converted, skipped, missing or incompatible without reading data
// (a converted column whose field is required on one side and optional on
// the other names that field: "name is required in the file, optional in
// the type"), and exits 1 when a file does not read into T: a gate for CI
// on yesterday's files.
//
// # Structure
//
// Generate turns a *Package into file contents (a map of file name to
// gofmt'd source); writing them is the caller's business (cmd/pqgen). The
// IR pairs the Parquet schema tree (*schema.Schema, with its levels) with
// the Go representation of every node (a Value tree of scalars, structs,
// lists and maps, each pointing at the schema node it occupies). Names of
// generated identifiers are decided once, in the IR (Names): each value is
// named by its path of field names ("LinesSKU", "AttrsKey"), and the
// identifiers about it extend that name (the buffer or reader colLinesSKU,
// the column index constant pqgenOrderColLinesSKU, the slab slabLines), so
// adding or removing a field changes only the code about that field.
// Before anything is printed, a plan is computed per part from the IR and
// tested on its own: the writer's plan (plan_write.go: writePlan) holds
// TWriter's buffer fields and the table its constructor opens them from
// (runtime.OpenBuffers), its Variant writers and map entry slices, each
// top-level field's shredding strategy, the batch size, whether shred can
// fail, and the options of the struct tags. The parts of a generated file
// that are fixed text with holes are embedded text/templates (gen/templates:
// the header and version guard, the declared struct types and the stale-code
// guard around their jennifer-built bodies, the schema constants, the
// writer's type, constructors and Write/endRows/Flush/Close, the file
// helpers, TReader.All), filled from the plans; a template names another
// package's identifiers through functions (rt, q, code) that become jennifer
// code, so jennifer keeps the imports exact, and the file is gofmt'd and its
// imports grouped once at the end. Jennifer builds the rest, the code made
// per field (the shredder, the assembler, TWhere).
//
// Emitters, one file per concern, only read the IR and the plans:
//
//   - emit_struct.go: struct declarations for the schema-text and file
//     sources (template structs);
//   - emit_writer.go: the writer (templates writer_type, writer_new,
//     writer_for, writer_write, writer_endrows, writer_flush, writer_close),
//     its tag options and its level shredder (emitShred, and
//     emitShredField per top-level field), from the writer's plan;
//   - emit_reader.go: the reader and its assembler, one emitter per method,
//     fed by the read plan (plan_read.go: per-field strategy, drivers,
//     slabs); the template reader_methods prints its NumRows and Close;
//   - emit_file.go: the schema constants and the WriteTFile/ReadTFile
//     helpers (templates schema, files);
//   - emit_guard.go: the compile-time guard against stale generated code
//     (template guard);
//   - emit_version.go: the generated-code version guard (template version);
//   - emit_where.go: TWhere, the predicate builders, and TReader.All
//     (template reader_all);
//   - emit_template.go: filling a template into jennifer code.
package gen
