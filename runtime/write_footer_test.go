package runtime

import (
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// TestChunkEncodingsOrder: a chunk lists its dictionary encoding, then its
// values' encodings, then the levels' RLE (parquet-go takes the first
// listed encoding as the column's, and cannot write INT32 values as RLE).
func TestChunkEncodingsOrder(t *testing.T) {
	fill := func(w *FileWriter) int {
		b, _ := w.Int32Buffer(0)
		for i := range 10 {
			b.Def = append(b.Def, uint8(i%2))
			if i%2 == 1 {
				b.Values = append(b.Values, 7) // one value: the dictionary pays
			}
		}
		return 10
	}
	for _, c := range []struct {
		name string
		opts []WriterOption
		want []meta.Encoding
	}{
		{"no dictionary", []WriterOption{WithDictionary(false)}, []meta.Encoding{meta.EncodingDeltaBinaryPacked, meta.EncodingRLE}},
		{"dictionary", nil, []meta.Encoding{meta.EncodingPlainDictionary, meta.EncodingRLE}},
	} {
		f := writeOne(t, "message m { optional int32 v; }", fill, c.opts...)
		if got := f.Meta.RowGroups[0].Columns[0].MetaData.Encodings; !slices.Equal(got, c.want) {
			t.Errorf("%s: encodings %v, want %v", c.name, got, c.want)
		}
	}
}
