package generated

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestLevelsDisagree writes Order files whose column buffers are corrupted
// after shredding into shapes no writer produces; the generated reader
// must fail with ErrChunk naming the row type and the column, not panic
// (assemble does not recover: Read checks the levels first).
func TestLevelsDisagree(t *testing.T) {
	row := Order{ID: 1, Lines: []Line{{SKU: "a", Quantity: 1}, {SKU: "b", Quantity: 2}}, Notes: []*string{nil}}
	for _, c := range []struct {
		name    string
		corrupt func(w *OrderWriter)
		want    string
	}{
		{"a sibling with fewer list elements", func(w *OrderWriter) {
			// quantity holds one element of lines where sku holds two.
			q := w.colLinesQuantity
			q.Def, q.Rep, q.Values = q.Def[:1], q.Rep[:1], q.Values[:1]
		}, `Order: column "lines.list.element.quantity" disagrees with column "lines.list.element.sku" on the shape of lines.list`},
		{"a list continued after a null", func(w *OrderWriter) {
			// tags is null, then a second slot continues its list.
			g := w.colTagsElem
			if len(g.Def) != 1 || g.Def[0] != 0 {
				t.Fatalf("tags levels %v, want one null", g.Def)
			}
			g.Def, g.Rep = append(g.Def, 2), append(g.Rep, 1)
			g.Values.AppendString("x")
		}, `Order: column "tags.list.element": level slot 1 continues a list at repetition level 1 that is empty or null`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := NewOrderWriter(&buf)
			if err != nil {
				t.Fatal(err)
			}
			w.shred([]Order{row})
			c.corrupt(w)
			if err := w.fw.EndRows(1); err != nil {
				t.Fatalf("EndRows: %v", err)
			}
			if err := w.fw.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			r, err := NewOrderReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil {
				t.Fatal(err)
			}
			rows := make([]Order, 2)
			n, err := r.Read(rows)
			if n != 0 || !errors.Is(err, runtime.ErrChunk) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Read: %d, %v; want 0 and an ErrChunk with %q", n, err, c.want)
			}
			if rows[0].ID != 0 || rows[0].Lines != nil {
				t.Fatalf("a failed Read left %+v in rows", rows[0])
			}
		})
	}
}

// FuzzReadCorrupt reads mutated Order, Deep and Metric files (written
// uncompressed, without checksums or dictionaries, in pages of two rows,
// so that most mutations reach the levels and values) with the generated
// readers: any error is fine, a panic is not.
func FuzzReadCorrupt(f *testing.F) {
	opts := []runtime.WriterOption{runtime.WithCompression(meta.Uncompressed, 0), runtime.WithCRC(false),
		runtime.WithDictionary(false), runtime.WithStatistics(false), runtime.WithPageRowLimit(2)}
	f.Add(byte(0), writeAll(f, orders(5), opts, NewOrderWriter))
	f.Add(byte(1), writeAll(f, deeps(4), opts, NewDeepWriter))
	f.Add(byte(2), writeAll(f, []Metric{{Name: "m", Labels: map[string]*string{"a": ptr("x"), "b": nil}}, {Name: "n"}}, opts, NewMetricWriter))
	f.Fuzz(func(t *testing.T, kind byte, file []byte) {
		r := bytes.NewReader(file)
		switch kind % 3 {
		case 0:
			rd, err := NewOrderReader(r, int64(len(file)))
			readCorrupt(t, rd, err)
		case 1:
			rd, err := NewDeepReader(r, int64(len(file)))
			readCorrupt(t, rd, err)
		default:
			rd, err := NewMetricReader(r, int64(len(file)))
			readCorrupt(t, rd, err)
		}
	})
}

// readCorrupt reads every row of r, three at a time, until an error
// (io.EOF or another).
func readCorrupt[T any, R interface{ Read([]T) (int, error) }](t *testing.T, r R, err error) {
	if err != nil {
		return
	}
	rows := make([]T, 3)
	for {
		n, err := r.Read(rows)
		if err != nil {
			return
		}
		if n == 0 {
			t.Fatal("Read returned 0 rows and no error")
		}
	}
}
