package generated

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pqgen/pqgen/runtime"
)

// TestFilterLogical checks every predicate method of every LogicalWhere
// field (every physical and logical type the generator maps) against a
// brute-force evaluation on the rows' Go values, on files with small
// pages and truncated statistics, without statistics and page indexes, and
// with v2 pages without dictionaries. Values come from a small pool, so
// that equalities hit and pages have narrow bounds; the pool holds nulls,
// NaN, -0.0, infinities, long strings and negative decimals.
func TestFilterLogical(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	pool := logicals(12)
	nz := math.Copysign(0, -1)
	for i, f := range []float64{math.NaN(), nz, 0, math.Inf(1), math.Inf(-1), -1.5} {
		pool[i].F64, pool[i].F32, pool[i].Temp = f, float32(f), Celsius(f)
	}
	for i, h := range []uint16{0x7e00, 0x8000, 0x0000, 0x3c00, 0xbc00, 0x7c00, 0x0001} {
		binary.LittleEndian.PutUint16(pool[i].Float16[:], h)
	}
	for i, d := range [][]byte{{0x80}, {0xff, 0x7f}, {0}, {0, 0x80, 0}, {0x7f}, {0xff}, {1, 0, 0, 0, 0, 0, 0, 0, 0}} {
		pool[i].DecBytes = d
	}
	long := strings.Repeat("x", 70)
	pool[0].Str, pool[1].Str, pool[2].Str = long+"a", long+"b", long
	pool[3].Bin = []byte(long + "\xff")
	for i := range pool {
		days, nanos := int32(2460000+r.IntN(3)), int64(r.IntN(4))*3_600_000_000_000
		binary.LittleEndian.PutUint64(pool[i].Int96[:8], uint64(nanos))
		binary.LittleEndian.PutUint32(pool[i].Int96[8:], uint32(days))
		pool[i].DecFixed[0] = byte(r.IntN(2)) * 0xff // both signs
	}
	rows := make([]Logical, 2000)
	nf := reflect.TypeFor[Logical]().NumField()
	for i := range rows {
		rv := reflect.ValueOf(&rows[i]).Elem()
		for f := range nf {
			rv.Field(f).Set(reflect.ValueOf(pool[r.IntN(len(pool))]).Field(f))
		}
		rows[i].ID = int64(i)
	}
	variants := [][]runtime.WriterOption{
		{runtime.WithPageRowLimit(60), runtime.WithRowGroupSize(64 << 10), runtime.WithStatsTruncateLength(16),
			runtime.WithColumnBloomFilter("str", 100, 0.01), runtime.WithColumnBloomFilter("i64", 100, 0.01), runtime.WithColumnBloomFilter("uuid", 100, 0.01)},
		{runtime.WithStatistics(false), runtime.WithPageIndex(false), runtime.WithPageRowLimit(100)},
		{runtime.WithDataPageVersion(2), runtime.WithDictionary(false), runtime.WithPageRowLimit(300)},
	}
	where := reflect.ValueOf(LogicalWhere)
	for vi, opts := range variants {
		data := writeAll(t, rows, opts, NewLogicalWriter)
		for f := range nf {
			name := reflect.TypeFor[Logical]().Field(f).Name
			b := where.FieldByName(name)
			if !b.IsValid() {
				t.Fatalf("LogicalWhere has no field %s", name)
			}
			for _, op := range []string{"Eq", "NotEq", "In", "Lt", "Le", "Gt", "Ge", "Between", "IsNull", "NotNull"} {
				m := b.MethodByName(op)
				if !m.IsValid() {
					continue
				}
				for range 2 {
					var args []reflect.Value
					switch op {
					case "IsNull", "NotNull":
					case "In":
						for range r.IntN(4) {
							args = append(args, pick(r, rows, f))
						}
					case "Between":
						args = []reflect.Value{pick(r, rows, f), pick(r, rows, f)}
					default:
						args = []reflect.Value{pick(r, rows, f)}
					}
					p := m.Call(args)[0].Interface().(runtime.Predicate)
					var want []int64
					for i := range rows {
						if bruteMatch(name, op, reflect.ValueOf(rows[i]).Field(f), args) {
							want = append(want, int64(i))
						}
					}
					got := filteredIDs(t, data, p)
					if !slices.Equal(got, want) {
						t.Fatalf("variant %d, %s: %d rows, want %d (first %v, want %v)", vi, p, len(got), len(want), got[:min(len(got), 5)], want[:min(len(want), 5)])
					}
					if op == "IsNull" || op == "NotNull" {
						break
					}
				}
			}
		}
	}
}

// pick returns a non-null value of field f of a random row, without its
// pointer.
func pick(r *rand.Rand, rows []Logical, f int) reflect.Value {
	for {
		v := reflect.ValueOf(rows[r.IntN(len(rows))]).Field(f)
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				continue
			}
			v = v.Elem()
		}
		return v
	}
}

func filteredIDs(t *testing.T, data []byte, p runtime.Predicate) []int64 {
	t.Helper()
	r, err := NewLogicalReader(bytes.NewReader(data), int64(len(data)), runtime.WithFilter(p), runtime.WithColumns("id"))
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for row, err := range r.All() {
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, row.ID)
	}
	return out
}

// goNull reports whether v, the value of Logical's field name, is a null
// in the file: a nil pointer; for a field tagged optional, a nil slice, or
// a zero value (gen's zeroCheck: a time by IsZero, a number equal to 0).
func goNull(name string, v reflect.Value) bool {
	if v.Kind() == reflect.Pointer {
		return v.IsNil()
	}
	f, _ := reflect.TypeFor[Logical]().FieldByName(name)
	if !slices.Contains(strings.Split(f.Tag.Get("parquet"), ",")[1:], "optional") {
		return false
	}
	switch {
	case v.Kind() == reflect.Slice:
		return v.IsNil()
	case v.Type() == reflect.TypeFor[time.Time]():
		return v.Interface().(time.Time).IsZero()
	case v.CanFloat():
		return v.Float() == 0
	}
	return v.IsZero()
}

// bruteMatch evaluates op on field value v (of field name) with args, by
// the Go semantics of the field's type: a null matches only IsNull, NaN
// compares with nothing.
func bruteMatch(name, op string, v reflect.Value, args []reflect.Value) bool {
	null := goNull(name, v)
	switch op {
	case "IsNull":
		return null
	case "NotNull":
		return !null
	}
	if null {
		return false
	}
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	cmp := func(k reflect.Value) (int, bool) { return compareGo(name, v, k) }
	switch op {
	case "Eq":
		c, ok := cmp(args[0])
		return ok && c == 0
	case "NotEq":
		c, ok := cmp(args[0])
		return !ok || c != 0
	case "In":
		for _, a := range args {
			if c, ok := cmp(a); ok && c == 0 {
				return true
			}
		}
		return false
	case "Between":
		c1, ok1 := cmp(args[0])
		c2, ok2 := cmp(args[1])
		return ok1 && ok2 && c1 >= 0 && c2 <= 0
	}
	c, ok := cmp(args[0])
	if !ok {
		return false
	}
	switch op {
	case "Lt":
		return c < 0
	case "Le":
		return c <= 0
	case "Gt":
		return c > 0
	}
	return c >= 0
}

// compareGo compares two values of field name; ok is false when either is
// NaN.
func compareGo(name string, a, b reflect.Value) (int, bool) {
	switch name {
	case "Float16":
		return compareFloats(halfFloat(bytesOf(a)), halfFloat(bytesOf(b)))
	case "DecFixed", "DecBytes":
		return twos(bytesOf(a)).Cmp(twos(bytesOf(b))), true
	case "Int96":
		x, y := bytesOf(a), bytesOf(b)
		dx, dy := int32(binary.LittleEndian.Uint32(x[8:])), int32(binary.LittleEndian.Uint32(y[8:]))
		if dx != dy {
			return cmpInt(int64(dx), int64(dy)), true
		}
		return cmpInt(int64(binary.LittleEndian.Uint64(x[:8])), int64(binary.LittleEndian.Uint64(y[:8]))), true
	}
	if t, ok := a.Interface().(time.Time); ok {
		return t.Compare(b.Interface().(time.Time)), true
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpInt(a.Int(), b.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x, y := a.Uint(), b.Uint()
		if x == y {
			return 0, true
		} else if x < y {
			return -1, true
		}
		return 1, true
	case reflect.Float32, reflect.Float64:
		return compareFloats(a.Float(), b.Float())
	case reflect.String:
		return strings.Compare(a.String(), b.String()), true
	case reflect.Bool:
		if a.Bool() == b.Bool() {
			return 0, true
		}
		return 1, true
	}
	return bytes.Compare(bytesOf(a), bytesOf(b)), true
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func compareFloats(x, y float64) (int, bool) {
	switch {
	case x != x || y != y:
		return 0, false
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	}
	return 0, true
}

// bytesOf returns the bytes of a []byte or [N]byte value.
func bytesOf(v reflect.Value) []byte {
	if v.Kind() == reflect.Slice {
		return v.Bytes()
	}
	b := make([]byte, v.Len())
	reflect.Copy(reflect.ValueOf(b), v)
	return b
}

// twos reads big-endian two's complement bytes.
func twos(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

// halfFloat decodes little-endian IEEE 754 half-precision bytes.
func halfFloat(b []byte) float64 {
	h := binary.LittleEndian.Uint16(b)
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	var f float64
	switch e {
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		f = math.Inf(1)
	case 0:
		f = m / 1024 * math.Pow(2, -14)
	default:
		f = (1 + m/1024) * math.Pow(2, float64(e-15))
	}
	if h&0x8000 != 0 {
		f = -f
	}
	return f
}
