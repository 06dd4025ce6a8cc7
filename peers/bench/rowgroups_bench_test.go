package bench

import (
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pqgen/pqgen/runtime"
)

// BenchmarkWriteRowGroups writes rows in small row groups, snappy, with
// pqgen's sequential writer (WithRowGroupRowLimit) and parquet-go's
// (MaxRowsPerRowGroup), one after the other in each round: flat rows in
// groups of 1,000 and 20,000, nested in groups of 1,000, wide in groups
// of 250. What a writer does once a chunk (judging its dictionary,
// picking its encoding, writing its indexes) weighs here, where the
// suite's single row groups hide it.
func BenchmarkWriteRowGroups(b *testing.B) {
	flat, nested, wide := flatRows(200_000), contactRows(100_000), wideRows(10_000)
	both := []int{0, 1} // pqgen, parquet-go
	for _, n := range []int{1000, 20_000} {
		b.Run("type=flat/rows="+strconv.Itoa(n), func(b *testing.B) {
			benchWrite(b, flat, []lib[Flat]{
				pqgenLib[Flat](pqgenName, NewFlatWriter, NewFlatReader, rowLimitOpts(n)),
				parquetGoLib[Flat](parquet.MaxRowsPerRowGroup(int64(n))),
			}, both)
		})
	}
	b.Run("type=nested/rows=1000", func(b *testing.B) {
		benchWrite(b, nested, []lib[Contact]{
			pqgenLib[Contact](pqgenName, NewContactWriter, NewContactReader, rowLimitOpts(1000)),
			parquetGoLib[Contact](parquet.MaxRowsPerRowGroup(1000)),
		}, both)
	})
	b.Run("type=wide/rows=250", func(b *testing.B) {
		benchWrite(b, wide, []lib[Wide]{
			pqgenLib[Wide](pqgenName, NewWideWriter, NewWideReader, rowLimitOpts(250)),
			parquetGoLib[Wide](parquet.MaxRowsPerRowGroup(250)),
		}, both)
	})
}

// rowLimitOpts caps a pqgen writer's row groups at n rows.
func rowLimitOpts(n int) pqgenOpts {
	return pqgenOpts{write: []runtime.WriterOption{runtime.WithRowGroupRowLimit(n)}}
}
