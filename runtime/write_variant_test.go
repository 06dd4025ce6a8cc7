package runtime

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/variant"
)

// variantSchema shreds v as an object with an int64 field, a list of
// strings, a nested object and a decimal; w is unshredded; l is a list
// of optional Variants shredded as dates.
const variantSchema = `message m {
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
      required group d { optional binary value; optional int32 typed_value (DECIMAL(9,2)); }
      required group u { optional binary value; optional fixed_len_byte_array(16) typed_value (UUID); }
      required group big { optional binary value; optional fixed_len_byte_array(9) typed_value (DECIMAL(20,3)); }
    }
  }
  required group w (VARIANT) {
    required binary metadata;
    required binary value;
  }
  required group l (LIST) {
    repeated group list {
      optional group element (VARIANT) {
        required binary metadata;
        optional binary value;
        optional int32 typed_value (DATE);
      }
    }
  }
}`

// randVariant builds a random Variant biased towards the shredded
// layout: objects using the shredded keys (with matching and mismatching
// types), arrays of strings with nulls, decimals of several scales.
func randVariant(r *rand.Rand, b *variant.Builder, depth int) {
	switch k := r.IntN(14); {
	case k < 4 && depth < 3:
		b.StartObject()
		for _, key := range []string{"a", "tags", "o", "d", "u", "big", "x", "zz", "é"} {
			if r.IntN(2) == 0 {
				b.Key(key)
				switch key {
				case "a":
					if r.IntN(3) > 0 {
						b.AppendInt64(r.Int64())
						continue
					}
				case "x":
					if r.IntN(3) > 0 {
						b.AppendDouble(r.NormFloat64())
						continue
					}
				case "d":
					if r.IntN(3) > 0 {
						b.AppendDecimalKind(variant.KindDecimal4, variant.Decimal{Lo: uint64(r.Int32N(1e9)), Scale: uint8(1 + r.IntN(3))})
						continue
					}
				case "u":
					var u [16]byte
					u[r.IntN(16)] = byte(r.Uint32())
					b.AppendUUID(u)
					continue
				case "big":
					b.AppendDecimalKind(variant.KindDecimal16, variant.Decimal{Hi: r.Int64N(100) - 50, Lo: r.Uint64(), Scale: 3})
					continue
				}
				randVariant(r, b, depth+1)
			}
		}
		b.End()
	case k < 6 && depth < 3:
		b.StartArray()
		for range r.IntN(4) {
			if r.IntN(3) == 0 {
				randVariant(r, b, depth+1)
			} else {
				b.AppendString(strings.Repeat("s", r.IntN(70)))
			}
		}
		b.End()
	case k == 6:
		b.AppendNull()
	case k == 7:
		b.AppendBool(r.IntN(2) == 0)
	case k == 8:
		b.AppendInt(r.Int64N(1000) - 500)
	case k == 9:
		b.AppendString("str")
	case k == 10:
		b.AppendDate(r.Int32N(40000))
	case k == 11:
		b.AppendTimestamp(variant.KindTimestampNanos, r.Int64())
	default:
		b.AppendBinary([]byte{byte(r.Uint32()), 0})
	}
}

func encodeVariant(t testing.TB, f func(b *variant.Builder)) variant.Encoded {
	t.Helper()
	var b variant.Builder
	f(&b)
	m, v, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return variant.Encoded{Metadata: m, Value: v}
}

// variantRow is a row of variantShredFile: v, w and the elements of l.
type variantRow struct {
	v, w variant.Encoded
	l    []variant.Encoded // nil: empty list; IsNull elements: null
}

// variantShredFile writes rows random rows of variantSchema (v shredded,
// w not, l a list of shredded Variants) in pages of 2 KiB and row groups
// of 64 KiB, and returns them and the file.
func variantShredFile(t testing.TB, rows int) ([]variantRow, []byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 9))
	in := make([]variantRow, rows)
	for i := range in {
		if r.IntN(8) > 0 {
			in[i].v = encodeVariant(t, func(b *variant.Builder) { randVariant(r, b, 0) })
		}
		in[i].w = encodeVariant(t, func(b *variant.Builder) { randVariant(r, b, 0) })
		for range r.IntN(4) {
			var e variant.Encoded
			switch r.IntN(3) {
			case 0:
				e = encodeVariant(t, func(b *variant.Builder) { b.AppendDate(r.Int32()) })
			case 1:
				e = encodeVariant(t, func(b *variant.Builder) { randVariant(r, b, 1) })
			}
			in[i].l = append(in[i].l, e)
		}
	}
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, variantSchema), WithPageSize(2048), WithRowGroupSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := fw.Int32Buffer(0)
	vw, err := fw.VariantWriter("v")
	if err != nil {
		t.Fatal(err)
	}
	ww, err := fw.VariantWriter("w")
	if err != nil {
		t.Fatal(err)
	}
	lw, err := fw.VariantWriter("l.list.element")
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range in {
		ids.Values = append(ids.Values, int32(i))
		if err := vw.Append(x.v, 0); err != nil {
			t.Fatal(err)
		}
		if err := ww.Append(x.w, 0); err != nil {
			t.Fatal(err)
		}
		if len(x.l) == 0 {
			lw.AppendNull(0, 0)
		}
		for j, e := range x.l {
			rep := uint8(1)
			if j == 0 {
				rep = 0
			}
			if e.IsNull() {
				lw.AppendNull(1, rep)
			} else if err := lw.Append(e, rep); err != nil {
				t.Fatal(err)
			}
		}
		if i%100 == 99 {
			if err := fw.EndRows(100); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return in, buf.Bytes()
}

// TestVariantShredRoundTrip writes random Variants through the shredding
// writer (several pages and row groups) and reads them back rebuilt: the
// same kinds and values, and the unshredded column byte for byte.
func TestVariantShredRoundTrip(t *testing.T) {
	const rows = 3000
	in, data := variantShredFile(t, rows)
	f := openBytes(t, data)
	if len(f.Meta.RowGroups) < 2 {
		t.Fatalf("%d row groups; the test wants several", len(f.Meta.RowGroups))
	}
	fr, err := newFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	vr, err := fr.VariantReader("v")
	if err != nil {
		t.Fatal(err)
	}
	wr, err := fr.VariantReader("w")
	if err != nil {
		t.Fatal(err)
	}
	lr, err := fr.VariantReader("l.list.element")
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for {
		n, err := vr.ReadRows(7)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := wr.ReadRows(7); err != nil {
			t.Fatal(err)
		}
		if _, err := lr.ReadRows(7); err != nil {
			t.Fatal(err)
		}
		// Place the list's occurrences back into rows by their levels.
		lists := make([][]variant.Encoded, n)
		row := -1
		for j, e := range lr.Rows {
			if lr.Rep[j] == 0 {
				row++
			}
			switch lr.Def[j] {
			case 0: // empty list
			case 1:
				lists[row] = append(lists[row], variant.Encoded{})
			default:
				lists[row] = append(lists[row], e)
			}
		}
		if row != n-1 {
			t.Fatalf("list occurrences span %d rows, want %d", row+1, n)
		}
		for k := range n {
			want := in[i+k].l
			if len(lists[k]) != len(want) {
				t.Fatalf("row %d: list of %d, want %d", i+k, len(lists[k]), len(want))
			}
			for j := range want {
				if want[j].IsNull() != lists[k][j].IsNull() {
					t.Fatalf("row %d element %d: null mismatch", i+k, j)
				}
				if !want[j].IsNull() {
					wv, _ := want[j].Parse()
					gv, err := lists[k][j].Parse()
					if err != nil || !variant.Equal(gv, wv) {
						t.Fatalf("row %d element %d: got %v %v, want %s", i+k, j, gv, err, variant.Describe(wv))
					}
				}
			}
		}
		for k := range n {
			want, got := in[i+k].v, vr.Rows[k]
			if want.IsNull() != got.IsNull() {
				t.Fatalf("row %d: null %v, want %v", i+k, got.IsNull(), want.IsNull())
			}
			if !want.IsNull() {
				wv, _ := want.Parse()
				gv, err := got.Parse()
				if err != nil {
					t.Fatalf("row %d: %v", i+k, err)
				}
				if !variant.Equal(gv, wv) {
					t.Fatalf("row %d:\n got %s\nwant %s", i+k, variant.Describe(gv), variant.Describe(wv))
				}
			}
			if w := in[i+k].w; !bytes.Equal(wr.Rows[k].Metadata, w.Metadata) || !bytes.Equal(wr.Rows[k].Value, w.Value) {
				t.Fatalf("row %d: unshredded column differs", i+k)
			}
		}
		i += n
	}
	if i != rows {
		t.Fatalf("read %d rows, want %d", i, rows)
	}
	// The typed columns were really used.
	for _, p := range []string{"v.typed_value.a.typed_value", "v.typed_value.tags.typed_value.list.element.typed_value", "v.typed_value.o.typed_value.x.typed_value", "v.typed_value.d.typed_value", "v.typed_value.u.typed_value", "v.typed_value.big.typed_value", "l.list.element.typed_value"} {
		col := -1
		for _, lf := range f.Schema.Leaves {
			if lf.PathString() == p {
				col = lf.Column
			}
		}
		var values int64
		for _, rg := range f.Meta.RowGroups {
			cm := rg.Columns[col].MetaData
			values += cm.NumValues - cm.Statistics.NullCount.Val
		}
		if values == 0 {
			t.Errorf("%s holds no values", p)
		}
	}
}

// TestVariantWriterRejects: a Variant that cannot be stored appends
// nothing and says why.
func TestVariantWriterRejects(t *testing.T) {
	const text = `message m {
  required group v (VARIANT) {
    required binary metadata;
    optional group typed_value { required group a { optional int64 typed_value; } }
  }
}`
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, text))
	if err != nil {
		t.Fatal(err)
	}
	vw, err := fw.VariantWriter("v")
	if err != nil {
		t.Fatal(err)
	}
	ok := encodeVariant(t, func(b *variant.Builder) { b.StartObject(); b.Key("a"); b.AppendInt64(5); b.End() })
	if err := vw.Append(ok, 0); err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]variant.Encoded{
		"string at top": encodeVariant(t, func(b *variant.Builder) { b.AppendString("x") }),
		"string field":  encodeVariant(t, func(b *variant.Builder) { b.StartObject(); b.Key("a"); b.AppendString("5"); b.End() }),
		"extra field":   encodeVariant(t, func(b *variant.Builder) { b.StartObject(); b.Key("b"); b.AppendInt64(5); b.End() }),
		"null group":    {},
		"bad bytes":     {Metadata: []byte{1, 0, 0}, Value: []byte{0xff}},
	} {
		if err := vw.Append(e, 0); err == nil {
			t.Errorf("%s: no error", name)
		} else if name != "bad bytes" && !errors.Is(err, ErrColumnType) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := fw.EndRows(1); err != nil {
		t.Fatalf("the rejected Variants left slots behind: %v", err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestVariantWriterCheckThenAppend: appending a batch after checking it
// (reusing Check's parses, as generated writers do) writes the same file
// as appending alone, also after a batch whose check failed.
func TestVariantWriterCheckThenAppend(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	in := make([]variant.Encoded, 600)
	for i := range in {
		if r.IntN(8) > 0 {
			in[i] = encodeVariant(t, func(b *variant.Builder) { randVariant(r, b, 0) })
		}
	}
	const text = `message m {
  optional group v (VARIANT) {
    required binary metadata;
    optional binary value;
    optional group typed_value {
      required group a { optional binary value; optional int64 typed_value; }
      required group o { optional binary value; optional group typed_value { required group x { optional double typed_value; } } }
    }
  }
}`
	write := func(check bool) []byte {
		var buf bytes.Buffer
		fw, err := NewFileWriter(&buf, mustSchema(t, text), WithPageSize(1024))
		if err != nil {
			t.Fatal(err)
		}
		vw, err := fw.VariantWriter("v")
		if err != nil {
			t.Fatal(err)
		}
		rows := in
		for len(rows) > 0 {
			k := min(len(rows), 50)
			// A rejected Variant ends the batch's checks early; the rows
			// checked before it are appended on their own.
			var ok []variant.Encoded
			for _, e := range rows[:k] {
				if vw.Check(e) != nil {
					break
				}
				ok = append(ok, e)
			}
			if !check {
				vw.checked, vw.next = nil, 0 // forget the parses
			}
			kept := len(vw.checked) // the parses Check kept
			taken := 0              // non-null Variants appended
			for j, e := range ok {
				if err := vw.Append(e, 0); err != nil {
					t.Fatal(err)
				}
				if !e.IsNull() {
					taken++
				}
				// In a batch checked whole, each Append takes its own
				// Check's parse (an unmatched one would clear them all).
				if check && len(ok) == k && taken < kept && (vw.next != taken || len(vw.checked) != kept) {
					t.Fatalf("Append %d of %d: %d of %d parses taken, want %d of %d", j, len(ok), vw.next, len(vw.checked), taken, kept)
				}
			}
			if err := fw.EndRows(len(ok)); err != nil {
				t.Fatal(err)
			}
			rows = rows[len(ok):]
			if len(ok) < k {
				rows = rows[1:] // the rejected one
			}
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := write(true), write(false)
	if !bytes.Equal(a, b) {
		t.Fatalf("checked then appended: %d bytes; appended alone: %d bytes, not the same", len(a), len(b))
	}
	// Some rows were rejected, some shredded: the test covers both.
	f := openBytes(t, a)
	if n := f.Meta.NumRows; n < 300 || n == int64(len(in)) {
		t.Fatalf("%d rows written of %d", n, len(in))
	}
}

// TestVariantShredDecimalPrecision: a Variant decimal of the typed
// column's scale whose digits exceed the column's precision goes to the
// value column (its bytes would fit the INT32, its digits not DECIMAL(5)),
// one that fits to typed_value; both read back as written.
func TestVariantShredDecimalPrecision(t *testing.T) {
	const text = `message m {
  required group v (VARIANT) {
    required binary metadata;
    optional binary value;
    optional int32 typed_value (DECIMAL(5,2));
  }
}`
	in := []variant.Encoded{
		encodeVariant(t, func(b *variant.Builder) { b.AppendDecimal(variant.Decimal{Lo: 12345, Scale: 2}) }),
		encodeVariant(t, func(b *variant.Builder) { b.AppendDecimal(variant.Decimal{Lo: 1234567, Scale: 2}) }),
		encodeVariant(t, func(b *variant.Builder) {
			b.AppendDecimal(variant.Decimal{Hi: -1, Lo: uint64(1<<64 - 99999), Scale: 2})
		}),
		encodeVariant(t, func(b *variant.Builder) {
			b.AppendDecimal(variant.Decimal{Hi: -1, Lo: uint64(1<<64 - 100000), Scale: 2})
		}),
	}
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, text))
	if err != nil {
		t.Fatal(err)
	}
	vw, err := fw.VariantWriter("v")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range in {
		if err := vw.Append(e, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.EndRows(len(in)); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	fr, err := newFileReader(openBytes(t, buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	typed, err := fr.Int32Reader(2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := typed.ReadRows(len(in)); err != nil {
		t.Fatal(err)
	}
	if want := []uint8{1, 0, 1, 0}; !bytes.Equal(typed.Def, want) || len(typed.Values) != 2 || typed.Values[0] != 12345 || typed.Values[1] != -99999 {
		t.Fatalf("typed_value levels %v values %v, want levels %v and 12345, -99999", typed.Def, typed.Values, want)
	}
	vr, err := fr.VariantReader("v")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vr.ReadRows(len(in)); err != nil {
		t.Fatal(err)
	}
	for i, e := range vr.Rows {
		got, err := e.Parse()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := in[i].Parse()
		if got.Decimal() != want.Decimal() {
			t.Errorf("row %d: %+v, want %+v", i, got.Decimal(), want.Decimal())
		}
	}
}
