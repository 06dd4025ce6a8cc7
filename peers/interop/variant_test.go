package interop

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	arrowvariant "github.com/apache/arrow-go/v18/parquet/variant"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/schema"
	"github.com/pqgen/pqgen/runtime/variant"
)

// shreddedSchema shreds v as an object of an int64, a list of strings, a
// nested object and a date; u is an unshredded Variant.
const shreddedSchema = `message m {
  required int32 id;
  optional group v (VARIANT(1)) {
    required binary metadata;
    optional binary value;
    optional group typed_value {
      required group a { optional binary value; optional int64 typed_value; }
      required group tags {
        optional binary value;
        optional group typed_value (LIST) {
          repeated group list {
            required group element { optional binary value; optional binary typed_value (STRING); }
          }
        }
      }
      required group o {
        optional binary value;
        optional group typed_value {
          required group x { optional binary value; optional double typed_value; }
        }
      }
      required group d { optional binary value; optional int32 typed_value (DATE); }
    }
  }
  optional group u (VARIANT(1)) {
    required binary metadata;
    required binary value;
  }
}`

// randomVariant appends a random value using the shredded keys with both
// matching and mismatching types.
func randomVariant(r *rand.Rand, b *variant.Builder, depth int) {
	switch k := r.IntN(12); {
	case k < 4 && depth < 3:
		b.StartObject()
		for _, key := range []string{"a", "tags", "o", "d", "x", "other"} {
			if r.IntN(2) == 0 {
				continue
			}
			b.Key(key)
			switch {
			case key == "a" && r.IntN(3) > 0:
				b.AppendInt64(r.Int64())
			case key == "x" && r.IntN(3) > 0:
				b.AppendDouble(r.NormFloat64())
			case key == "d" && r.IntN(3) > 0:
				b.AppendDate(r.Int32N(50000))
			default:
				randomVariant(r, b, depth+1)
			}
		}
		b.End()
	case k < 6 && depth < 3:
		b.StartArray()
		for range r.IntN(4) {
			if r.IntN(3) == 0 {
				randomVariant(r, b, depth+1)
			} else {
				b.AppendString(strings.Repeat("t", r.IntN(5)))
			}
		}
		b.End()
	case k == 6:
		b.AppendNull()
	case k == 7:
		b.AppendBool(r.IntN(2) == 0)
	case k == 8:
		b.AppendInt(r.Int64N(100000) - 50000)
	case k == 9:
		b.AppendDecimal(variant.Decimal{Lo: uint64(r.Int32N(1e6)), Scale: 3})
	case k == 10:
		b.AppendTimestamp(variant.KindTimestamp, r.Int64N(1e15))
	default:
		b.AppendString("a longer string value of more than sixty-four bytes, to use the long form")
	}
}

// TestVariantArrowGo writes shredded and unshredded Variants with pqgen
// and reads them with arrow-go's pqarrow, which rebuilds shredded values
// on its own: every row must give the same kinds and values.
func TestVariantArrowGo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const rows = 2000
	s, err := schema.Parse(shreddedSchema)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	fw, err := runtime.NewFileWriter(&buf, s, runtime.WithPageSize(4096))
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := fw.Int32Buffer(0)
	vw, err := fw.VariantWriter("v")
	if err != nil {
		t.Fatal(err)
	}
	uw, err := fw.VariantWriter("u")
	if err != nil {
		t.Fatal(err)
	}
	want := make([][2]variant.Encoded, rows)
	for i := range want {
		for j := range 2 {
			if r.IntN(10) == 0 {
				continue // null
			}
			var b variant.Builder
			randomVariant(r, &b, 0)
			m, v, err := b.Finish()
			if err != nil {
				t.Fatal(err)
			}
			want[i][j] = variant.Encoded{Metadata: m, Value: v}
		}
		ids.Values = append(ids.Values, int32(i))
		if err := vw.Append(want[i][0], 0); err != nil {
			t.Fatal(err)
		}
		if err := uw.Append(want[i][1], 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.EndRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}

	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	ar, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 512}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := ar.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	defer tbl.Release()
	for col := 1; col <= 2; col++ {
		chunks := tbl.Column(col).Data().Chunks()
		row := 0
		for _, ch := range chunks {
			va, ok := ch.(*extensions.VariantArray)
			if !ok {
				t.Fatalf("column %d: arrow-go gives %T, not a Variant array", col, ch)
			}
			if col == 1 && !va.IsShredded() {
				t.Fatal("arrow-go does not see column v as shredded")
			}
			for i := 0; i < va.Len(); i, row = i+1, row+1 {
				w := want[row][col-1]
				// arrow-go's IsNull is also true for a Variant null (00)
				// value; its storage's null bit is the group's.
				if va.Storage().IsNull(i) {
					if !w.IsNull() {
						t.Fatalf("column %d row %d: arrow-go reads a null group", col, row)
					}
					continue
				}
				if w.IsNull() {
					t.Fatalf("column %d row %d: arrow-go reads a value where we wrote null", col, row)
				}
				av, err := va.Value(i)
				if err != nil {
					t.Fatalf("column %d row %d: arrow-go: %v", col, row, err)
				}
				got, err := variant.Parse(av.Metadata().Bytes(), av.Bytes())
				if err != nil {
					t.Fatalf("column %d row %d: arrow-go's Variant does not parse: %v", col, row, err)
				}
				wv, _ := w.Parse()
				// Equal values (arrow-go may pick another integer width of
				// the same equivalence class).
				if !variant.Equal(got, wv) {
					t.Fatalf("column %d row %d:\narrow-go %s\nwant     %s", col, row, variant.Describe(got), variant.Describe(wv))
				}
			}
		}
		if row != rows {
			t.Fatalf("column %d: %d rows", col, row)
		}
	}
}

// TestVariantFromArrowGo has arrow-go shred random Variants (its own
// shredding of an object of an int64, a nested object and a date) and
// write them with pqarrow; pqgen's VariantReader must rebuild every row.
// A shredded list is left out: arrow-go v18.8.0's writer fails on its own
// shredded lists ("lists with non-zero length null components are not
// supported").
func TestVariantFromArrowGo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const rows = 2000
	typed := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "o", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64})},
		arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date32},
	)
	vt := extensions.NewShreddedVariantType(typed)
	sc := arrow.NewSchema([]arrow.Field{{Name: "v", Type: vt, Nullable: true}}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	vb := rb.Field(0).(*extensions.VariantBuilder)
	want := make([]variant.Encoded, rows)
	for i := range want {
		if r.IntN(10) == 0 {
			vb.AppendNull()
			continue
		}
		var b variant.Builder
		randomVariant(r, &b, 0)
		m, v, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		want[i] = variant.Encoded{Metadata: m, Value: v}
		av, err := arrowvariant.New(m, v)
		if err != nil {
			t.Fatalf("arrow-go rejects our Variant %x/%x: %v", m, v, err)
		}
		vb.Append(av)
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fr, err := runtime.NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fr.File().Schema.Leaves); n != 9 {
		t.Fatalf("arrow-go wrote %d leaves: not shredded", n)
	}
	vr, err := fr.VariantReader("v")
	if err != nil {
		t.Fatal(err)
	}
	row := 0
	for {
		n, err := vr.ReadRows(300)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for k := range n {
			got, w := vr.Rows[k], want[row]
			if got.IsNull() != w.IsNull() {
				t.Fatalf("row %d: null %v, want %v", row, got.IsNull(), w.IsNull())
			}
			if !w.IsNull() {
				gv, err := got.Parse()
				if err != nil {
					t.Fatalf("row %d: %v", row, err)
				}
				wv, _ := w.Parse()
				// arrow-go shreds an int16 into an int64 column: the same
				// equivalence class (Exact Numeric), so compare values.
				if !variant.Equal(gv, wv) {
					t.Fatalf("row %d:\n got %s\nwant %s", row, variant.Describe(gv), variant.Describe(wv))
				}
			}
			row++
		}
	}
	if row != rows {
		t.Fatalf("%d rows", row)
	}
}
