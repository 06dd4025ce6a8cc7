package gen

import (
	"fmt"
	"strings"
	"testing"
)

// planText renders the parts of a read plan a reader's shape depends on.
func planText(p *readPlan) string {
	var b strings.Builder
	how := map[readHow]string{readVariant: "variant", readFlat: "flat", readColumnWise: "column-wise", readRowByRow: "row-by-row"}
	for _, fp := range p.fields {
		fmt.Fprintf(&b, "field %s: %s // %s\n", fp.field.Name, how[fp.how], fp.comment())
	}
	for _, l := range p.leaves {
		fmt.Fprintf(&b, "leaf %s\n", l.PathString())
	}
	for _, d := range p.drivers {
		var ls []string
		for _, c := range d.leaves {
			ls = append(ls, p.t.Schema.Leaves[c].PathString())
		}
		fmt.Fprintf(&b, "driver %s: %s\n", d.value.Node.PathString(), strings.Join(ls, ", "))
	}
	for _, v := range p.slabs.order {
		fmt.Fprintf(&b, "slab %s: %s\n", p.slabs.names[v], v.Node.PathString())
	}
	for _, fl := range p.variants {
		fmt.Fprintf(&b, "variant %s\n", fl.Name)
	}
	for _, fl := range p.defaults {
		fmt.Fprintf(&b, "default %s\n", fl.Name)
	}
	return b.String()
}

// TestPlanReadOrder plans the reader of an Order-like schema: flat
// scalars, a nullable struct and a list read column by column, a list
// holding a map and a required struct row by row, a Variant.
func TestPlanReadOrder(t *testing.T) {
	text := `message order {
  required int64 id;
  optional group customer { required int64 id; optional binary email (STRING); }
  required group lines (LIST) {
    repeated group list {
      required group element {
        required binary sku (STRING);
        optional group options (MAP) {
          repeated group key_value { required binary key (STRING); required int64 value; }
        }
      }
    }
  }
  optional group tags (LIST) { repeated group list { required binary element (STRING); } }
  required group shipping { required binary street (STRING); optional binary zip (STRING); }
  optional int32 version;
  optional group doc (VARIANT(1)) { required binary metadata; required binary value; }
}`
	pkg, err := FromSchemaText("order.schema", text, "p", "Order")
	if err != nil {
		t.Fatal(err)
	}
	typ := pkg.Types[0]
	typ.Names.nameValues(typ)
	got := planText(planRead(typ))
	want := `field ID: flat // id
field Customer: column-wise // customer
field Lines: row-by-row // lines (row by row: a map needs its keys and values together)
field Tags: column-wise // tags
field Shipping: row-by-row // shipping (row by row)
field Version: flat // version
field Doc: variant // doc (Variant)
leaf id
leaf customer.id
leaf customer.email
leaf lines.list.element.sku
leaf lines.list.element.options.key_value.key
leaf lines.list.element.options.key_value.value
leaf tags.list.element
leaf shipping.street
leaf shipping.zip
leaf version
driver lines: lines.list.element.sku, lines.list.element.options.key_value.key, lines.list.element.options.key_value.value
driver lines.list.element.options: lines.list.element.options.key_value.key, lines.list.element.options.key_value.value
slab slabCustomer: customer
slab slabLines: lines
slab slabTags: tags
variant Doc
`
	if got != want {
		t.Fatalf("plan:\n%s\nwant:\n%s", got, want)
	}
}

// TestPlanReadVariantOnly: a row type of Variants alone reads no leaf
// with a typed reader, so its reader has no leaf checks or drivers.
func TestPlanReadVariantOnly(t *testing.T) {
	pkg, err := FromSchemaText("v.schema", `message m { required group doc (VARIANT(1)) { required binary metadata; required binary value; } }`, "p", "V")
	if err != nil {
		t.Fatal(err)
	}
	typ := pkg.Types[0]
	typ.Names.nameValues(typ)
	p := planRead(typ)
	if got, want := planText(p), "field Doc: variant // doc (Variant)\nvariant Doc\n"; got != want || p.hasLeaves() {
		t.Fatalf("plan %q (leaves %v), want %q and no leaves", got, p.hasLeaves(), want)
	}
}

// TestAssembleMethodPerField: assemblePart calls one fill method per
// top-level field and holds no loop itself, so that no generated reader
// function grows with the number of columns beyond a line per field (one
// function holding every field's loops took the Go compiler more than two
// minutes for 2,000 columns). Each fill method stays the size of its
// field's code, the same in a type of 4 fields and of 400.
func TestAssembleMethodPerField(t *testing.T) {
	schemaOf := func(n int) string {
		var sb strings.Builder
		sb.WriteString("message m {\n")
		for i := range n {
			switch i % 4 {
			case 0:
				fmt.Fprintf(&sb, "  optional int64 c%d;\n", i)
			case 1:
				fmt.Fprintf(&sb, "  required binary c%d (STRING);\n", i)
			case 2:
				fmt.Fprintf(&sb, "  optional group g%d { optional double d; required int32 e; }\n", i)
			case 3:
				fmt.Fprintf(&sb, "  optional group l%d (LIST) { repeated group list { optional int32 element; } }\n", i)
			}
		}
		return sb.String() + "}\n"
	}
	// funcs returns the line count of each function of the generated
	// code, by name (method names without their receiver).
	funcs := func(n int) map[string]int {
		p, err := FromSchemaText("s", schemaOf(n), "p", "Row")
		if err != nil {
			t.Fatal(err)
		}
		files, err := Generate(p, "")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		name := ""
		for _, l := range strings.Split(string(files["row_parquet.go"]), "\n") {
			switch {
			case strings.HasPrefix(l, "func "):
				f := strings.TrimPrefix(l, "func ")
				if strings.HasPrefix(f, "(") {
					f = f[strings.Index(f, ") ")+2:]
				}
				name = f[:strings.IndexAny(f, "[(")]
			case l == "}":
				name = ""
			}
			if name != "" {
				out[name]++
			}
		}
		return out
	}
	small, large := funcs(4), funcs(400)
	part := large["assemblePart"]
	if part == 0 || part > 400+10 {
		t.Errorf("assemblePart of 400 fields: %d lines, want a call per field", part)
	}
	for _, name := range []string{"fillC0", "fillC1", "fillG2", "fillL3"} {
		if small[name] == 0 || small[name] != large[name] {
			t.Errorf("%s: %d lines among 4 fields, %d among 400", name, small[name], large[name])
		}
	}
}

// TestFillDocColumnName: a fill method's doc names the field's column as
// it is, whatever it holds, then says how the field is assembled.
func TestFillDocColumnName(t *testing.T) {
	const s = `message m { optional group "a (b)" (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } } }`
	p, err := FromSchemaText("s", s, "p", "Row")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(p, "")
	if err != nil {
		t.Fatal(err)
	}
	want := "// fillAB fills a (b) in rows, a part of the batch, row by row: a map needs its keys and values together.\n"
	if !strings.Contains(string(files["row_parquet.go"]), want) {
		t.Errorf("no fill method doc %q in the generated code", want)
	}
}
