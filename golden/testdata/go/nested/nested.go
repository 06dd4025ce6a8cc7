// Package nested is a golden-test input: lists, maps, nested and optional
// groups.
//
//go:generate pqgen -type Order,Line
package nested

// Order has nested lines and maps.
type Order struct {
	ID       int64             `parquet:"id"`
	Lines    []Line            `parquet:"lines"`
	Tags     []string          `parquet:"tags,optional"`
	Attrs    map[string]string `parquet:"attrs"`
	Scores   map[string][]int32
	Customer *Customer `parquet:"customer"`
	Nums     []int64   `parquet:"nums,repeated"`
	Matrix   [][]float64
	MaybeIDs []*int64
}

// Line is an order line.
type Line struct {
	SKU   string   `parquet:"sku"`
	Qty   int32    `parquet:"qty"`
	Price *int64   `parquet:"price,decimal(2,18)"`
	Notes []string `parquet:"notes"`
}

// Customer is an optional group.
type Customer struct {
	Name  string
	Email *string
}
