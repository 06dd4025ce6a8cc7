// Package conformance cross-checks pqgen's file reader against arrow-go's
// low-level column readers: for every readable file of the
// parquet-testing corpus, every column's definition levels, repetition
// levels and values must be identical. Files and semantics:
// https://github.com/apache/parquet-testing and
// https://parquet.apache.org/docs/file-format/.
package conformance
