// Package variant implements the Parquet Variant binary encoding and
// Variant shredding.
//
// A Variant is two byte strings: the metadata (a dictionary of the field
// names used by every object in the value) and the value (a self-describing
// tree of primitives, short strings, objects and arrays). Both are specified
// in "Variant Binary Encoding"
// (https://github.com/apache/parquet-format/blob/master/VariantEncoding.md);
// in Parquet they are the metadata and value BYTE_ARRAY children of a group
// annotated VARIANT.
//
// Reading: ParseMetadata and Parse validate the whole encoding once (every
// offset bounded by the bytes present, every field id inside the
// dictionary, object keys unique and sorted, UTF-8 strings, nesting depth
// at most MaxDepth) and return views (Metadata, Value) whose accessors then
// never fail and never allocate. Values keep referring to the caller's
// bytes.
//
// Writing: a Builder appends values (primitives, objects, arrays) into one
// buffer and produces the metadata and value components; FromJSON and
// AppendJSON convert from and to JSON.
//
// Shredding ("Variant Shredding",
// https://github.com/apache/parquet-format/blob/master/VariantShredding.md)
// stores parts of a value in typed Parquet columns under typed_value
// groups. Shape describes such a layout (built from a schema node with
// ShapeOf); Unshred rebuilds the Variant of one row from the decoded
// columns, as readers must, and Shred splits a Variant into the value and
// typed_value parts of a Shape, as writers do.
package variant
