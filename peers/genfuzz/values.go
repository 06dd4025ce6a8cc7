package genfuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/pqgen/pqgen/peers/internal/arrowcol"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// filler draws random values for shapes: nulls at every level, empty and
// nil lists and maps, extreme numbers, NaN, infinities, negative zero,
// empty, long and invalid UTF-8 byte strings.
type filler struct {
	r *rand.Rand
}

// rows returns n random rows of the row shape s as a slice.
func (f *filler) rows(s *shape, n int) reflect.Value {
	out := reflect.MakeSlice(reflect.SliceOf(s.t), n, n)
	for i := range n {
		out.Index(i).Set(f.value(s, 0))
	}
	return out
}

// value returns a random value of shape s at nesting depth.
func (f *filler) value(s *shape, depth int) reflect.Value {
	if s.opt && f.r.IntN(4) == 0 {
		return reflect.Zero(s.t)
	}
	base := s.t
	if s.ptr {
		base = s.t.Elem()
	}
	v := reflect.New(base).Elem()
	switch s.kind {
	case structShape:
		for i, fs := range s.fields {
			v.Field(i).Set(f.value(fs, depth+1))
		}
	case listShape:
		n := f.length(depth)
		v.Set(reflect.MakeSlice(base, n, n))
		for i := range n {
			v.Index(i).Set(f.value(s.elem, depth+1))
		}
	case mapShape:
		n := f.length(depth)
		v.Set(reflect.MakeMapWithSize(base, n))
		for range n {
			v.SetMapIndex(f.value(s.key, depth+1), f.value(s.elem, depth+1))
		}
	default:
		f.leaf(s, v)
	}
	if s.ptr {
		p := reflect.New(base)
		p.Elem().Set(v)
		return p
	}
	return v
}

// length returns a list or map length: often zero or one, up to five
// near the top, and now and then a long one (a row spanning a page).
func (f *filler) length(depth int) int {
	if depth <= 2 && f.r.IntN(100) == 0 {
		return 50 + f.r.IntN(250)
	}
	max := 6 - depth
	if max < 2 {
		max = 2
	}
	return f.r.IntN(max + 1)
}

var extremeInts = []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, math.MinInt32, math.MaxInt32,
	math.MaxUint32, math.MinInt8, math.MaxInt8, math.MaxUint8, math.MinInt16, math.MaxInt16, math.MaxUint16}

// int64 returns a random integer: an extreme, a small one or any.
func (f *filler) int64() int64 {
	switch f.r.IntN(4) {
	case 0:
		return extremeInts[f.r.IntN(len(extremeInts))]
	case 1:
		return int64(f.r.IntN(20) - 10)
	}
	return int64(f.r.Uint64())
}

var extremeFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0,
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, math.SmallestNonzeroFloat32, 1, -1}

func (f *filler) float64() float64 {
	switch f.r.IntN(4) {
	case 0:
		return extremeFloats[f.r.IntN(len(extremeFloats))]
	case 1:
		return float64(f.r.IntN(8)) / 4
	}
	return f.r.NormFloat64() * math.Pow(10, float64(f.r.IntN(20)-10))
}

var words = []string{"", "a", "alpha", "beta", "gamma", "é", "\x00", "\xff\xfe", "\xc3", "日本"}

// timeOfDay returns a TIME value of unit u from 0 to 24 hours, the
// edges often.
func (f *filler) timeOfDay(u meta.TimeUnit) int64 {
	day := int64(86_400_000)
	switch u {
	case meta.Micros:
		day *= 1_000
	case meta.Nanos:
		day *= 1_000_000
	}
	switch f.r.IntN(8) {
	case 0:
		return 0
	case 1:
		return day
	}
	return f.r.Int64N(day + 1)
}

// decimalBytes returns a random integer of at most precision digits (and
// of size bytes' range) as size bytes of big-endian two's complement.
func (f *filler) decimalBytes(precision int32, size int) []byte {
	bound := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(precision, 1))), nil)
	if room := new(big.Int).Lsh(big.NewInt(1), uint(8*size-1)); room.Cmp(bound) < 0 {
		bound = room
	}
	raw := make([]byte, 8*size+8)
	for i := range raw {
		raw[i] = byte(f.r.Uint32())
	}
	x := new(big.Int).Mod(new(big.Int).SetBytes(raw), bound)
	if f.r.IntN(3) == 0 {
		x.Rsh(x, uint(f.r.IntN(x.BitLen()+1))) // small values too
	}
	if f.r.IntN(2) == 0 && x.Sign() != 0 {
		x.Neg(x)
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(8*size)))
	}
	return x.FillBytes(make([]byte, size))
}

// text returns bytes for a value of leaf n: valid UTF-8 for the STRING
// and ENUM types (the invalid sequences of bytes replaced by U+FFFD), a
// JSON document for JSON (a number, or the text as a JSON string), which
// writers refuse otherwise; any bytes for the others.
func (f *filler) text(n *schema.Node) []byte {
	b := f.bytes()
	switch n.Logical.Kind {
	case meta.LogicalString, meta.LogicalEnum:
		return []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
	case meta.LogicalJSON:
		if f.r.IntN(4) == 0 {
			return strconv.AppendInt(nil, f.int64(), 10)
		}
		doc, _ := json.Marshal(string(b)) // invalid UTF-8 becomes U+FFFD
		return doc
	}
	return b
}

// bytes returns a random byte string: empty, invalid UTF-8, a short word
// (dictionary friendly), random bytes or a long run (over the statistics
// truncation length).
func (f *filler) bytes() []byte {
	if f.r.IntN(200) == 0 { // longer than a small page
		b := make([]byte, 1000+f.r.IntN(20000))
		for i := range b {
			b[i] = byte(i * 7)
		}
		return b
	}
	switch f.r.IntN(6) {
	case 0, 1:
		return []byte(words[f.r.IntN(len(words))])
	case 2:
		b := make([]byte, f.r.IntN(12))
		for i := range b {
			b[i] = byte(f.r.Uint32())
		}
		return b
	case 3:
		return bytes.Repeat([]byte{0xff}, 60+f.r.IntN(20))
	case 4:
		return []byte(strings.Repeat("é", 30+f.r.IntN(10)) + strconv.Itoa(f.r.IntN(100)))
	}
	return []byte("w" + strconv.Itoa(f.r.IntN(50)))
}

// leaf sets v (of the leaf's base type) to a random value.
func (f *filler) leaf(s *shape, v reflect.Value) {
	n := s.node
	t := v.Type()
	switch {
	case t == timeType:
		var tm time.Time
		if n.Logical.Kind == meta.LogicalDate {
			tm = time.Unix(int64(int32(f.int64()))*86400, 0).UTC()
		} else {
			x := f.int64()
			switch n.Logical.Time.Unit {
			case meta.Millis:
				tm = time.UnixMilli(x)
			case meta.Micros:
				tm = time.UnixMicro(x)
			default:
				tm = time.Unix(0, x)
			}
			if f.r.IntN(2) == 0 {
				tm = tm.UTC()
			}
		}
		v.Set(reflect.ValueOf(tm))
		return
	case t == intervalType:
		v.Set(reflect.ValueOf(runtime.Interval{Months: f.r.Uint32(), Days: uint32(f.r.IntN(3)), Millis: f.r.Uint32()}))
		return
	case n.Type == meta.FixedLenByteArray && t.Kind() == reflect.Float32:
		// FLOAT16: a binary16 value (exact as a float32), NaNs quiet
		// (the writer makes every NaN quiet).
		h := uint16(f.r.Uint32())
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			h |= 0x200
		}
		v.SetFloat(float64(runtime.Float16ToFloat32(h)))
		return
	case t == durationType:
		// A time of day, 24:00 included: writers refuse others.
		x := f.timeOfDay(n.Logical.Time.Unit)
		switch n.Logical.Time.Unit {
		case meta.Millis:
			v.SetInt(int64(time.Duration(x) * time.Millisecond))
		case meta.Micros:
			v.SetInt(int64(time.Duration(x) * time.Microsecond))
		default:
			v.SetInt(x)
		}
		return
	case n.Logical.Kind == meta.LogicalTime && (t.Kind() == reflect.Int32 || t.Kind() == reflect.Int64):
		v.SetInt(f.timeOfDay(n.Logical.Time.Unit))
		return
	case n.Logical.Kind == meta.LogicalDecimal && (t.Kind() == reflect.Array || t.Kind() == reflect.Slice):
		// Big-endian two's complement within the precision's digits,
		// which writers check.
		size := int(n.TypeLength)
		if t.Kind() == reflect.Slice {
			size = 1 + f.r.IntN(18)
		}
		b := f.decimalBytes(n.Logical.Decimal.Precision, size)
		if t.Kind() == reflect.Slice {
			v.SetBytes(b)
		} else {
			reflect.Copy(v, reflect.ValueOf(b))
		}
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(f.r.IntN(2) == 0)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := f.int64()
		if d := n.Logical; d.Kind == meta.LogicalDecimal && d.Decimal.Precision >= 1 && d.Decimal.Precision <= 18 {
			// At most the precision's digits: writers refuse more
			// (runtime.DecimalDigits64).
			lim := int64(1)
			for range d.Decimal.Precision {
				lim *= 10
			}
			x %= lim
		}
		v.SetInt(x)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.int64()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f.float64())
	case reflect.String:
		v.SetString(string(f.text(n)))
	case reflect.Slice:
		v.SetBytes(f.text(n))
	case reflect.Array:
		for i := range v.Len() {
			v.Index(i).SetUint(uint64(f.r.Uint32()))
		}
		if f.r.IntN(4) == 0 { // repeated values make dictionaries pay
			for i := range v.Len() {
				v.Index(i).SetUint(uint64(i))
			}
		}
	}
}

// physical renders leaf value v (of the leaf's base type) as its physical
// value, the way renderArrow renders what arrow-go reads: integers in
// decimal, floats by their bits, byte strings raw.
func physical(s *shape, v reflect.Value) string {
	n := s.node
	t := v.Type()
	var x int64
	switch {
	case t == timeType:
		tm := v.Interface().(time.Time)
		switch {
		case n.Logical.Kind == meta.LogicalDate:
			sec := tm.Unix()
			d := sec / 86400
			if sec%86400 < 0 {
				d--
			}
			x = d
		case n.Logical.Time.Unit == meta.Millis:
			x = tm.UnixMilli()
		case n.Logical.Time.Unit == meta.Micros:
			x = tm.UnixMicro()
		default:
			x = tm.UnixNano()
		}
	case t == intervalType:
		return string(runtime.AppendInterval(nil, v.Interface().(runtime.Interval)))
	case n.Type == meta.FixedLenByteArray && t.Kind() == reflect.Float32:
		return string(runtime.AppendFloat16(nil, float32(v.Float())))
	case t == durationType:
		d := time.Duration(v.Int())
		switch n.Logical.Time.Unit {
		case meta.Millis:
			x = int64(d / time.Millisecond)
		case meta.Micros:
			x = int64(d / time.Microsecond)
		default:
			x = int64(d)
		}
	default:
		switch t.Kind() {
		case reflect.Bool:
			return arrowcol.Bool(v.Bool())
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			x = v.Int()
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			x = int64(v.Uint())
		case reflect.Float32:
			return arrowcol.Float32(float32(v.Float()))
		case reflect.Float64:
			return arrowcol.Float64(v.Float())
		case reflect.String:
			return v.String()
		case reflect.Slice:
			return string(v.Bytes())
		case reflect.Array:
			b := make([]byte, v.Len())
			for i := range b {
				b[i] = byte(v.Index(i).Uint())
			}
			return string(b)
		}
	}
	if n.Type == meta.Int32 {
		return arrowcol.Int(int64(int32(x)))
	}
	return arrowcol.Int(x)
}

func floatBitsEqual(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// diffValue returns where want and got (values of shape s) first differ,
// or "". Floats compare by their bits (NaN equals NaN, -0 differs from
// +0), times by instant; a nil and an empty slice are the same value only
// where the node cannot be null.
func diffValue(s *shape, want, got reflect.Value, path string) string {
	if s.opt {
		wn, gn := want.IsNil(), got.IsNil()
		if wn != gn {
			return fmt.Sprintf("%s: want null %v, got null %v (want %s, got %s)", path, wn, gn, show(want), show(got))
		}
		if wn {
			return ""
		}
		if s.ptr {
			want, got = want.Elem(), got.Elem()
		}
	}
	switch s.kind {
	case structShape:
		for i, fs := range s.fields {
			if d := diffValue(fs, want.Field(i), got.Field(i), path+"."+want.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case listShape:
		if want.Len() != got.Len() {
			return fmt.Sprintf("%s: want %d elements, got %d (want %s, got %s)", path, want.Len(), got.Len(), show(want), show(got))
		}
		for i := range want.Len() {
			if d := diffValue(s.elem, want.Index(i), got.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case mapShape:
		if want.Len() != got.Len() {
			return fmt.Sprintf("%s: want %d entries, got %d (want %s, got %s)", path, want.Len(), got.Len(), show(want), show(got))
		}
		it := want.MapRange()
		for it.Next() {
			g := got.MapIndex(it.Key())
			p := fmt.Sprintf("%s[%s]", path, show(it.Key()))
			if !g.IsValid() {
				return p + ": missing"
			}
			if d := diffValue(s.elem, it.Value(), g, p); d != "" {
				return d
			}
		}
	default:
		if !leafEqual(want, got) {
			return fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got))
		}
	}
	return ""
}

func leafEqual(want, got reflect.Value) bool {
	switch {
	case want.Type() == timeType:
		return want.Interface().(time.Time).Equal(got.Interface().(time.Time))
	case want.Kind() == reflect.Float32 || want.Kind() == reflect.Float64:
		return floatBitsEqual(want.Float(), got.Float())
	case want.Kind() == reflect.Slice:
		return bytes.Equal(want.Bytes(), got.Bytes())
	}
	return want.Interface() == got.Interface()
}

func show(v reflect.Value) string {
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		return "&" + show(v.Elem())
	}
	if v.Type() == timeType {
		tm := v.Interface().(time.Time)
		return fmt.Sprintf("%s (%d ns)", tm.Format(time.RFC3339Nano), tm.UnixNano())
	}
	return fmt.Sprintf("%#v", v.Interface())
}
