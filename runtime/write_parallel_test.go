package runtime

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestParallelWideSameBytes: with enough columns for EndRows itself to go
// parallel (rows × columns at or above parallelMinSlots), the file is the
// sequential writer's, byte for byte; so it is below the threshold.
func TestParallelWideSameBytes(t *testing.T) {
	const cols = 80
	var sb strings.Builder
	sb.WriteString("message m {\n")
	for i := range cols {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&sb, "  optional int64 i%d;\n", i)
		case 1:
			fmt.Fprintf(&sb, "  required double d%d;\n", i)
		default:
			fmt.Fprintf(&sb, "  optional binary s%d (STRING);\n", i)
		}
	}
	sb.WriteString("}")
	write := func(rows int, opts ...WriterOption) []byte {
		r := rand.New(rand.NewPCG(1, 2))
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, mustSchema(t, sb.String()), append([]WriterOption{WithPageSize(4 << 10), WithRowGroupSize(256 << 10)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		for range 12 {
			for c := range cols {
				switch c % 3 {
				case 0:
					b, _ := w.Int64Buffer(c)
					for range rows {
						if r.IntN(4) == 0 {
							b.Def = append(b.Def, 0)
							continue
						}
						b.Def = append(b.Def, 1)
						b.Values = append(b.Values, r.Int64N(1000))
					}
				case 1:
					b, _ := w.DoubleBuffer(c)
					for range rows {
						b.Values = append(b.Values, r.NormFloat64())
					}
				default:
					b, _ := w.ByteArrayBuffer(c)
					for range rows {
						b.Def = append(b.Def, 1)
						b.Values.AppendString(fmt.Sprintf("v%d", r.IntN(300)))
					}
				}
			}
			if err := w.EndRows(rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, rows := range []int{(parallelMinSlots + cols - 1) / cols, 16} { // parallel EndRows; sequential EndRows
		seq := write(rows)
		for _, par := range []int{2, 7} {
			if got := write(rows, WithParallelism(par)); !bytes.Equal(seq, got) {
				t.Fatalf("%d rows per EndRows, parallelism %d: files differ (%d and %d bytes)", rows, par, len(seq), len(got))
			}
		}
	}
}
