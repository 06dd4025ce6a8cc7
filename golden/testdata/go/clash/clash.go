// Package clash is a golden-test input: it declares every name a
// generated file imports a package as without an alias (runtime, schema,
// io, fmt, time...), so the generated file compiles only if its imports are
// aliased.
//
//go:generate pqgen -type Row
package clash

import (
	pqe "github.com/pqgen/pqgen/runtime/encode"
	pqv "github.com/pqgen/pqgen/runtime/variant"
	stdtime "time"
)

// The names of the packages generated code uses.
var (
	runtime, schema, encode, meta, compress, variant = 1, 2, 3, 4, 5, 6
	io, fmt, errors, sync, time, bytes               = 7, 8, 9, 10, 11, 12
	cmp, slices, strconv, unsafe, math, os, strings  = 13, 14, 15, 16, 17, 18, 19
)

// Row has a field of every kind whose code needs an import: times and
// durations, a Variant, INT96, a map with byte-array keys (sorted by
// bytes), and a codec (meta, compress).
type Row struct {
	At    stdtime.Time            `parquet:"at,timestamp(microsecond)"`
	Took  stdtime.Duration        `parquet:"took"`
	V     pqv.Encoded             `parquet:"v,optional"`
	Old   pqe.Int96               `parquet:"old"`
	ByID  map[[4]byte]int32       `parquet:"by_id"`
	Days  map[stdtime.Time]string `parquet:"days"`
	Name  string                  `parquet:"name,zstd"`
	Flags map[bool]int64          `parquet:"flags"`
}
