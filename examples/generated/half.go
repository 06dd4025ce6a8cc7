package generated

// Half reads and writes a FLOAT16 column as float32: the layout of the
// corpus's float16_*.parquet files (an optional column x).
type Half struct {
	X *float32 `parquet:"x,float16"`
}

// HalfRaw is the same column as raw binary16 bits, little endian.
type HalfRaw struct {
	X *[2]byte `parquet:"x,float16"`
}

//go:generate go run github.com/pqgen/pqgen/cmd/pqgen -type Half,HalfRaw
