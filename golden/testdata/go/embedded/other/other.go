// Package other holds types used by the embedded golden input from
// another package.
package other

// Money is an amount in cents.
type Money int64

// Item is a struct from another package.
type Item struct {
	Name  string `parquet:"name"`
	Price Money  `parquet:"price"`
}
