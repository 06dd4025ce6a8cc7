// Package inspect implements `pqgen inspect`: it reads a Parquet file's
// footer and reports its schema (in the schema text grammar), row groups,
// column chunks (codec, encodings, sizes, statistics decoded per type and
// order, page index, bloom filter and CRC presence, size statistics),
// key-value metadata and writer, the vectors and parameters of ALP pages
// (read for chunks that use ALP), FILE groups as references (what their
// values can resolve to), and a note for each deviation from the
// specification that the runtime read leniently (runtime.Deviation: those
// of the footer, and with Options.Scan those of every page and Variant),
// as text or as JSON. The text and the JSON come from one Report value,
// so they always say the same.
package inspect
