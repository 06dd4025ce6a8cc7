package generated

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
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
