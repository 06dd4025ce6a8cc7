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
		fmt.Fprintf(&b, "field %s: %s // %s\n", fp.field.Name, how[fp.how], fp.comment)
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
