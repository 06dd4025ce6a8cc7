// Package arrowcol reads leaf columns with arrow-go's low-level column
// chunk readers, for the cross-checks of the peers module: levels and
// values, each value rendered exactly as a string.
package arrowcol

import (
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Renderings of physical values: booleans and integers in decimal,
// floats by their bits (so NaNs and -0 compare exactly), INT96 and byte
// arrays as their raw bytes.
func Bool(b bool) string           { return strconv.FormatBool(b) }
func Int(x int64) string           { return strconv.FormatInt(x, 10) }
func Float32(x float32) string     { return fmt.Sprintf("f%08x", math.Float32bits(x)) }
func Float64(x float64) string     { return fmt.Sprintf("d%016x", math.Float64bits(x)) }
func Int96(x parquet.Int96) string { return string(x[:]) }

// Leaf is one leaf column of every row group: definition levels (nil
// when the leaf's maximum is 0), repetition levels (likewise) and the
// dense values, rendered.
type Leaf struct {
	Def, Rep []int16
	Vals     []string
}

// Read reads leaf col of every row group of rdr, batch slots at a time.
// arrow-go may panic on a file it cannot read: callers recover.
func Read(rdr *file.Reader, col, batch int) (out Leaf, err error) {
	leaf := rdr.MetaData().Schema.Column(col)
	def := make([]int16, batch)
	rep := make([]int16, batch)
	for rg := range rdr.NumRowGroups() {
		cr, err := rdr.RowGroup(rg).Column(col)
		if err != nil {
			return Leaf{}, fmt.Errorf("row group %d: %w", rg, err)
		}
		for {
			total, err := readBatch(cr, batch, def, rep, &out.Vals)
			if err != nil {
				return Leaf{}, fmt.Errorf("row group %d: %w", rg, err)
			}
			if total == 0 {
				break
			}
			if leaf.MaxDefinitionLevel() > 0 {
				out.Def = append(out.Def, def[:total]...)
			}
			if leaf.MaxRepetitionLevel() > 0 {
				out.Rep = append(out.Rep, rep[:total]...)
			}
		}
		if err := cr.Err(); err != nil {
			return Leaf{}, fmt.Errorf("row group %d: %w", rg, err)
		}
	}
	return out, nil
}

// readBatch reads up to batch slots of cr into def and rep, appends the
// rendered values to vals and returns the number of slots.
func readBatch(cr file.ColumnChunkReader, batch int, def, rep []int16, vals *[]string) (int64, error) {
	switch c := cr.(type) {
	case *file.BooleanColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, Bool)
	case *file.Int32ColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, func(x int32) string { return Int(int64(x)) })
	case *file.Int64ColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, Int)
	case *file.Int96ColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, Int96)
	case *file.Float32ColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, Float32)
	case *file.Float64ColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, Float64)
	case *file.ByteArrayColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, func(x parquet.ByteArray) string { return string(x) })
	case *file.FixedLenByteArrayColumnChunkReader:
		return readTyped(c.ReadBatch, batch, def, rep, vals, func(x parquet.FixedLenByteArray) string { return string(x) })
	}
	return 0, fmt.Errorf("unexpected column reader %T", cr)
}

func readTyped[T any](read func(int64, []T, []int16, []int16) (int64, int, error), batch int, def, rep []int16, vals *[]string, render func(T) string) (int64, error) {
	v := make([]T, batch)
	total, n, err := read(int64(batch), v, def, rep)
	for _, x := range v[:n] {
		*vals = append(*vals, render(x))
	}
	return total, err
}
