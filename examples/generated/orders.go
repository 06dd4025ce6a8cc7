package generated

import "time"

// Order is an order with nested lines, maps and optional groups.
type Order struct {
	ID        int64              `parquet:"id"`
	PlacedAt  time.Time          `parquet:"placed_at,timestamp(millisecond)"`
	Customer  *Customer          `parquet:"customer"`
	Lines     []Line             `parquet:"lines"`
	Tags      []string           `parquet:"tags,optional"`
	Attrs     map[string]string  `parquet:"attrs"`
	Discounts map[string][]int32 `parquet:"discounts,optional"`
	Shipping  Address            `parquet:"shipping"`
	Notes     []*string          `parquet:"notes"`
	Audit
}

// Audit is embedded into Order: its fields are Order's columns.
type Audit struct {
	CreatedBy string `parquet:"created_by"`
	Version   uint32 `parquet:"version"`
}

// Customer is an optional group.
type Customer struct {
	ID    int64   `parquet:"id"`
	Name  string  `parquet:"name"`
	Email *string `parquet:"email"`
}

// Line is one order line.
type Line struct {
	SKU      string           `parquet:"sku"`
	Quantity int32            `parquet:"quantity"`
	Price    int64            `parquet:"price,decimal(2,18)"`
	Options  map[string]int64 `parquet:"options"`
	Parts    []Part           `parquet:"parts"`
}

// Part is a part of a line.
type Part struct {
	Name   string   `parquet:"name"`
	Weight *float32 `parquet:"weight"`
}

// Address is a required group.
type Address struct {
	Street string  `parquet:"street"`
	City   string  `parquet:"city"`
	Zip    *string `parquet:"zip"`
}
