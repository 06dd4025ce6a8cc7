package generated

import "github.com/pqgen/pqgen/runtime"

// Price has runtime.Decimal fields of each physical type the decimal
// option picks for them (INT32 up to precision 9, INT64 up to 18,
// FIXED_LEN_BYTE_ARRAY up to 38), optional, in a list and in a map.
type Price struct {
	Amount runtime.Decimal            `parquet:"amount,decimal(2,9)"`
	Total  runtime.Decimal            `parquet:"total,decimal(4,18)"`
	Big    runtime.Decimal            `parquet:"big,decimal(6,38)"`
	Opt    *runtime.Decimal           `parquet:"opt,decimal(3,20)"`
	Zero   runtime.Decimal            `parquet:"zero,optional,decimal(1,5)"`
	Lines  []runtime.Decimal          `parquet:"lines,decimal(2,12)"`
	ByCode map[string]runtime.Decimal `parquet:"by_code,decimal(2,9)"`
}

// PriceScaled is the schema of Price with the scaled-integer mapping of
// DECIMAL: the unscaled values, big-endian for the byte arrays.
type PriceScaled struct {
	Amount int32            `parquet:"amount,decimal(2,9)"`
	Total  int64            `parquet:"total,decimal(4,18)"`
	Big    [16]byte         `parquet:"big,decimal(6,38)"`
	Opt    *[9]byte         `parquet:"opt,decimal(3,20)"`
	Zero   int32            `parquet:"zero,optional,decimal(1,5)"`
	Lines  []int64          `parquet:"lines,decimal(2,12)"`
	ByCode map[string]int32 `parquet:"by_code,decimal(2,9)"`
}

// DecimalColumn reads the DECIMAL(4,2) column of the corpus's
// int32_decimal.parquet and byte_array_decimal.parquet.
type DecimalColumn struct {
	Value *runtime.Decimal `parquet:"value,decimal(2,4)"`
}

// DecimalColumn10 reads int64_decimal.parquet's DECIMAL(10,2) column.
type DecimalColumn10 struct {
	Value *runtime.Decimal `parquet:"value,decimal(2,10)"`
}

// DecimalColumn13 reads fixed_length_decimal_legacy.parquet's
// DECIMAL(13,2) FIXED_LEN_BYTE_ARRAY(6) column (an INT64 column for the
// Go type: the reader adapts the physical type).
type DecimalColumn13 struct {
	Value *runtime.Decimal `parquet:"value,decimal(2,13)"`
}

// DecimalColumn25 reads fixed_length_decimal.parquet's DECIMAL(25,2)
// FIXED_LEN_BYTE_ARRAY(11) column.
type DecimalColumn25 struct {
	Value *runtime.Decimal `parquet:"value,decimal(2,25)"`
}

//go:generate go run github.com/pqgen/pqgen/cmd/pqgen -type Price,PriceScaled,DecimalColumn,DecimalColumn10,DecimalColumn13,DecimalColumn25
