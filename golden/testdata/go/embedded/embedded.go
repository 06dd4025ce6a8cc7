//go:generate pqgen -type Row -o row_gen.go

// Package embedded is a golden-test input: embedded structs, aliases,
// named types and types from another package.
package embedded

import "github.com/pqgen/pqgen/golden/testdata/go/embedded/other"

// Base is embedded: its fields are Row's columns.
type Base struct {
	ID      int64 `parquet:"id"`
	Version int32 `parquet:"version"`
}

// Alias is an alias of another package's type.
type Alias = other.Item

// Name is a named string.
type Name string

// Row embeds Base and uses other package types.
type Row struct {
	Base
	Name   Name                   `parquet:"name,enum"`
	Item   other.Item             `parquet:"item"`
	Items  []Alias                `parquet:"items"`
	Prices map[string]other.Money `parquet:"prices"`
	Opt    *other.Money           `parquet:"opt,id(9)"`
	Anon   struct{ A, B int16 }   `parquet:"anon"`
}
