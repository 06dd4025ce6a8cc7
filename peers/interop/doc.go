// Package interop cross-checks the files pqgen's runtime writes against the
// readers of arrow-go and parquet-go: values, levels, statistics, page
// index and bloom filters (see write_test.go).
package interop
