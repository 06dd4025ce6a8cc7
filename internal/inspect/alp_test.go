package inspect

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestALPPages: inspect describes the ALP pages of a chunk (v1 pages with
// definition levels and v2 pages, under ZSTD): pages, vectors, values,
// exceptions, vector size, parameters and bit widths.
func TestALPPages(t *testing.T) {
	for _, version := range []int{1, 2} {
		s, err := schema.Parse("message m { optional double price; required double plain; }")
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w, err := runtime.NewFileWriter(&buf, s, runtime.WithDictionary(false), runtime.WithPageRowLimit(2000),
			runtime.WithDataPageVersion(version), runtime.WithCompression(meta.Zstd, 0),
			runtime.WithColumnEncoding("price", meta.EncodingALP))
		if err != nil {
			t.Fatal(err)
		}
		price, _ := w.DoubleBuffer(0)
		plain, _ := w.DoubleBuffer(1)
		for i := range 3000 {
			plain.Values = append(plain.Values, float64(i))
			if i%3 == 0 {
				price.Def = append(price.Def, 0)
				continue
			}
			price.Def = append(price.Def, 1)
			x := float64(i%1000) + 0.25
			if i == 1 {
				x = 1.0 / 3 // an exception
			}
			price.Values = append(price.Values, x)
		}
		r := closeAndBuild(t, w, &buf, 3000)
		// 2000 rows (1333 values) and 1000 rows (667 values): vectors of
		// 1024+309 and 667 values; quarters need e=2 (x100): 17 bits for
		// 0.25..999.25, 16 for the second vector (537.25..999.25).
		want := &ALPPages{Pages: 2, Vectors: 3, Values: 2000, Exceptions: 1, VectorSizes: []int{1024},
			Params: []string{"e=2 f=0 ×3"}, MinBitWidth: 16, MaxBitWidth: 17}
		if d := cmp.Diff(want, r.RowGroups[0].Columns[0].ALP); d != "" {
			t.Errorf("v%d: (-want +got)\n%s", version, d)
		}
		if r.RowGroups[0].Columns[1].ALP != nil {
			t.Errorf("v%d: a PLAIN chunk described as ALP", version)
		}
		var text bytes.Buffer
		if err := r.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if line := "    ALP (preview): 2 pages, 3 vectors of [1024] values, 2000 values, 1 exceptions, bit widths 16..17, e=2 f=0 ×3\n"; !strings.Contains(text.String(), line) {
			t.Errorf("v%d: text lacks %q:\n%s", version, line, text.String())
		}
	}
}
