// Column buffers: the contract between generated code and the runtime's
// writer. A generated shredder appends, per row, one level pair per value
// slot (a value, a null, or an empty/absent list) and one value per
// non-null leaf value, straight from struct fields; the runtime encodes
// pages from these buffers. Levels follow the Dremel model described at
// https://parquet.apache.org/docs/file-format/nestedencoding/.

package runtime

import "github.com/pqgen/pqgen/runtime/encode"

// Levels are the definition and repetition levels of the value slots of one
// leaf column. Def is empty when the column's maximum definition level is 0
// (a required column outside any repeated or optional field), Rep when its
// maximum repetition level is 0. Otherwise both hold one entry per slot.
type Levels struct {
	Def []uint8
	Rep []uint8
}

// levels returns l. Promoted to every typed reader and buffer, which embed
// Levels, it gives their levels to code over any of them (leafReader,
// passBatch).
func (l *Levels) levels() *Levels { return l }

// BoolBuffer buffers a BOOLEAN column: Values holds the non-null values.
type BoolBuffer struct {
	Levels
	Values []bool
}

// Int32Buffer buffers an INT32 column.
type Int32Buffer struct {
	Levels
	Values []int32
}

// Int64Buffer buffers an INT64 column.
type Int64Buffer struct {
	Levels
	Values []int64
}

// Int96Buffer buffers an INT96 column.
type Int96Buffer struct {
	Levels
	Values []encode.Int96
}

// FloatBuffer buffers a FLOAT column.
type FloatBuffer struct {
	Levels
	Values []float32
}

// DoubleBuffer buffers a DOUBLE column.
type DoubleBuffer struct {
	Levels
	Values []float64
}

// ByteArrayBuffer buffers a BYTE_ARRAY column.
type ByteArrayBuffer struct {
	Levels
	Values encode.ByteArrays
}

// FixedBuffer buffers a FIXED_LEN_BYTE_ARRAY column of Size-byte values
// stored back to back: len(Values) is a multiple of Size.
type FixedBuffer struct {
	Levels
	Size   int
	Values []byte
}
