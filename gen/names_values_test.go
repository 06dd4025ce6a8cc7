package gen

import (
	"maps"
	"testing"
)

// TestNameValues checks the names the naming pass gives the leaves:
// CamelCase field paths, a struct element's fields continuing the list's
// name, other elements named Elem, map keys and values Key and Value,
// and clashes made unique.
func TestNameValues(t *testing.T) {
	const text = `message Row {
  required int64 id;
  optional group lines (LIST) {
    repeated group list {
      required group element {
        required binary sku (STRING);
        optional group options (MAP) {
          repeated group key_value {
            required binary key (STRING);
            optional int64 value;
          }
        }
      }
    }
  }
  optional group grid (LIST) {
    repeated group list {
      optional group element (LIST) {
        repeated group list {
          optional int32 element;
        }
      }
    }
  }
  required int32 lines_sku;
}`
	p, err := FromSchemaText("s.schema", text, "p", "Row")
	if err != nil {
		t.Fatal(err)
	}
	typ := p.Types[0]
	typ.Names.nameValues(typ)
	want := map[int]string{
		0: "ID",
		1: "LinesSKU",
		2: "LinesOptionsKey",
		3: "LinesOptionsValue",
		4: "GridElemElem",
		5: "LinesSKU2", // lines_sku clashes with lines.sku, named first
	}
	if !maps.Equal(typ.Names.Leaves, want) {
		t.Errorf("leaf names %v, want %v", typ.Names.Leaves, want)
	}
	if got := typ.Names.col(1); got != "colLinesSKU" {
		t.Errorf("col(1) = %q, want colLinesSKU", got)
	}
	if got := typ.Names.colIndex(4); got != "pqgenRowColGridElemElem" {
		t.Errorf("colIndex(4) = %q, want pqgenRowColGridElemElem", got)
	}
}
