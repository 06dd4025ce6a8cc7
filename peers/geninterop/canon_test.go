package geninterop

// The canonical form rows are compared in, shared by every peer (the
// JavaScript side prints it from peers/js/geninterop.mjs, in the form of
// peers/js/canon.mjs). A row is a []any of its top-level fields; a value
// is, by the column's Parquet type (physical and logical):
//
//	null                      nil
//	BOOLEAN                   bool
//	integers (any width)      decimal string; unsigned types unsigned
//	FLOAT, DOUBLE, FLOAT16    flt, compared by bits (every NaN equal); JSON
//	                          gives its shortest round-trip string ("NaN",
//	                          "Infinity", "-0")
//	STRING, ENUM, JSON        string
//	other binary, fixed,      {"$hex": lowercase hex} (BSON, GEOMETRY,
//	INTERVAL                  GEOGRAPHY and INTERVAL included)
//	DECIMAL                   decimal string of unscaled/10^scale with exactly
//	                          scale digits ("-12.30")
//	DATE                      days since the epoch, decimal string
//	TIMESTAMP, TIME, INT96    nanoseconds (since the epoch, since midnight),
//	                          decimal string, whatever the unit
//	UUID                      "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
//	LIST                      []any
//	group                     map[string]any by field name
//	MAP                       mapV of [key, value] pairs, compared in key
//	                          order (a JSON array of pairs from JavaScript)

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"time"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

type (
	// flt is a canonical float.
	flt float64
	// mapV is a canonical map: [key, value] pairs.
	mapV [][2]any
)

// hexV is the canonical binary value.
func hexV(b []byte) any { return map[string]any{"$hex": hex.EncodeToString(b)} }

func decimalString(unscaled *big.Int, scale int32) string {
	neg := unscaled.Sign() < 0
	s := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		for len(s) < int(scale)+1 {
			s = "0" + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	}
	if neg {
		return "-" + s
	}
	return s
}

// twos is the big-endian two's complement integer b.
func twos(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

// unitNanos is the number of nanoseconds of a time unit.
func unitNanos(u meta.TimeUnit) int64 {
	switch u {
	case meta.Millis:
		return 1e6
	case meta.Micros:
		return 1e3
	}
	return 1
}

func scaled(v int64, by int64) string {
	return new(big.Int).Mul(big.NewInt(v), big.NewInt(by)).String()
}

func isUnsigned(n *schema.Node) bool {
	return n.Logical.Kind == meta.LogicalInteger && !n.Logical.Integer.IsSigned
}

// half is the float64 value of an IEEE half-precision float.
func half(bits uint16) float64 {
	sign := 1.0
	if bits&0x8000 != 0 {
		sign = -1
	}
	exp := int(bits>>10) & 0x1f
	frac := float64(bits & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1+frac/1024, exp-15)
}

// canonPhys is the canonical value of a leaf's physical value x: bool,
// int32, int64, float32, float64, or []byte (INT96 as its 12 bytes).
func canonPhys(n *schema.Node, x any) any {
	lt := n.Logical
	switch v := x.(type) {
	case bool:
		return v
	case int32:
		switch {
		case isUnsigned(n):
			return strconv.FormatUint(uint64(uint32(v)), 10)
		case lt.Kind == meta.LogicalDecimal:
			return decimalString(big.NewInt(int64(v)), lt.Decimal.Scale)
		case lt.Kind == meta.LogicalTime:
			return scaled(int64(v), unitNanos(lt.Time.Unit))
		}
		return strconv.FormatInt(int64(v), 10)
	case int64:
		switch {
		case isUnsigned(n):
			return strconv.FormatUint(uint64(v), 10)
		case lt.Kind == meta.LogicalDecimal:
			return decimalString(big.NewInt(v), lt.Decimal.Scale)
		case lt.Kind == meta.LogicalTime || lt.Kind == meta.LogicalTimestamp:
			return scaled(v, unitNanos(lt.Time.Unit))
		}
		return strconv.FormatInt(v, 10)
	case float32:
		return flt(v)
	case float64:
		return flt(v)
	case []byte:
		if n.Type == meta.Int96 {
			ns := new(big.Int).SetUint64(binary.LittleEndian.Uint64(v))
			days := int64(binary.LittleEndian.Uint32(v[8:])) - 2440588
			return ns.Add(ns, new(big.Int).Mul(big.NewInt(days), big.NewInt(86400e9))).String()
		}
		switch lt.Kind {
		case meta.LogicalString, meta.LogicalEnum, meta.LogicalJSON:
			return string(v)
		case meta.LogicalDecimal:
			return decimalString(twos(v), lt.Decimal.Scale)
		case meta.LogicalUUID:
			h := hex.EncodeToString(v)
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		case meta.LogicalFloat16:
			return flt(half(binary.LittleEndian.Uint16(v)))
		}
		return hexV(v)
	}
	panic(fmt.Sprintf("canonPhys: %T", x))
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
)

// goFields are the fields of struct type t that are columns, in order:
// embedded structs flattened, `parquet:"-"` left out.
func goFields(t reflect.Type) [][]int {
	var out [][]int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("parquet")
		if tag == "-" {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && tag == "" {
			for _, sub := range goFields(f.Type) {
				out = append(out, append([]int{i}, sub...))
			}
			continue
		}
		out = append(out, []int{i})
	}
	return out
}

// canonRow is the canonical row of the Go struct v of schema s.
func canonRow(s *schema.Schema, v reflect.Value) []any {
	fields := goFields(v.Type())
	if len(fields) != len(s.Root.Children) {
		panic(fmt.Sprintf("%s has %d column fields, schema %d", v.Type(), len(fields), len(s.Root.Children)))
	}
	row := make([]any, len(fields))
	for i, f := range fields {
		row[i] = canonGo(s.Root.Children[i], v.FieldByIndex(f))
	}
	return row
}

// zeroNull reports whether v, the value of an optional non-pointer scalar
// field, is the zero value generated writers store as null (gen's
// zeroCheck): a time by IsZero, a number equal to 0 (-0.0 too), else
// Go's zero value.
func zeroNull(v reflect.Value) bool {
	switch {
	case v.Type() == timeType:
		return v.Interface().(time.Time).IsZero()
	case v.CanFloat():
		return v.Float() == 0
	}
	return v.IsZero()
}

// canonGo is the canonical value of the Go value v of field n.
func canonGo(n *schema.Node, v reflect.Value) any {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	} else if n.Repetition == meta.Optional {
		switch v.Kind() {
		case reflect.Slice, reflect.Map:
			if v.IsNil() {
				return nil
			}
		default:
			if !n.Group && zeroNull(v) {
				return nil // an optional non-pointer field: its zero value is null
			}
		}
	}
	if !n.Group {
		return canonPhys(n, goPhys(n, v))
	}
	switch {
	case n.Logical.Kind == meta.LogicalList:
		elem := n.Children[0].Children[0]
		out := []any{}
		for i := 0; i < v.Len(); i++ {
			out = append(out, canonGo(elem, v.Index(i)))
		}
		return out
	case n.Logical.Kind == meta.LogicalMap:
		kv := n.Children[0]
		out := mapV{}
		it := v.MapRange()
		for it.Next() {
			out = append(out, [2]any{canonGo(kv.Children[0], it.Key()), canonGo(kv.Children[1], it.Value())})
		}
		return out
	}
	fields := goFields(v.Type())
	out := map[string]any{}
	for i, c := range n.Children {
		out[c.Name] = canonGo(c, v.FieldByIndex(fields[i]))
	}
	return out
}

// goPhys is the physical value the generated writer stores for the Go
// leaf value v.
func goPhys(n *schema.Node, v reflect.Value) any {
	if v.Type() == timeType {
		t := v.Interface().(time.Time)
		var x int64
		switch {
		case n.Logical.Kind == meta.LogicalDate:
			x = t.Unix() / 86400
			if t.Unix()%86400 < 0 {
				x--
			}
		case n.Logical.Time.Unit == meta.Millis:
			x = t.UnixMilli()
		case n.Logical.Time.Unit == meta.Micros:
			x = t.UnixMicro()
		default:
			x = t.UnixNano()
		}
		if n.Type == meta.Int32 {
			return int32(x)
		}
		return x
	}
	if v.Type() == durationType && n.Logical.Kind == meta.LogicalTime {
		x := v.Int() / unitNanos(n.Logical.Time.Unit)
		if n.Type == meta.Int32 {
			return int32(x)
		}
		return x
	}
	if v.Kind() == reflect.Float32 && n.Logical.Kind == meta.LogicalFloat16 {
		// A FLOAT16 held as a float32: its two bytes, as a [2]byte field.
		return runtime.AppendFloat16(nil, float32(v.Float()))
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n.Type == meta.Int32 {
			return int32(v.Int())
		}
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n.Type == meta.Int32 {
			return int32(uint32(v.Uint()))
		}
		return int64(v.Uint())
	case reflect.Float32:
		return float32(v.Float())
	case reflect.Float64:
		return v.Float()
	case reflect.String:
		return []byte(v.String())
	case reflect.Slice:
		return v.Bytes()
	case reflect.Array:
		b := make([]byte, v.Len())
		reflect.Copy(reflect.ValueOf(b), v)
		return b
	}
	panic(fmt.Sprintf("goPhys: %s", v.Type()))
}

// canonRows is the canonical form of rows (a []T) of schema s.
func canonRows(s *schema.Schema, rows reflect.Value) [][]any {
	out := make([][]any, rows.Len())
	for i := range out {
		out[i] = canonRow(s, rows.Index(i))
	}
	return out
}

// canonText is the JSON of a canonical value, for messages and for the
// order of map keys.
func canonText(v any) string {
	b, err := json.Marshal(plainJSON(v))
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// plainJSON turns flt and mapV into what their JSON decodes to.
func plainJSON(v any) any {
	switch w := v.(type) {
	case flt:
		return floatText(float64(w))
	case mapV:
		out := []any{}
		for _, kv := range w {
			out = append(out, []any{plainJSON(kv[0]), plainJSON(kv[1])})
		}
		return out
	case []any:
		out := make([]any, len(w))
		for i := range w {
			out[i] = plainJSON(w[i])
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, x := range w {
			out[k] = plainJSON(x)
		}
		return out
	}
	return v
}

// floatText is the JavaScript String() of a float64, near enough for
// messages (comparisons parse the text back).
func floatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// parseFloatText parses a canonical float string.
func parseFloatText(s string) (float64, bool) {
	switch s {
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// sortedPairs returns the pairs of a canonical map in key order; got may
// be a mapV or the JSON array of pairs.
func sortedPairs(v any) ([][2]any, bool) {
	var pairs [][2]any
	switch w := v.(type) {
	case mapV:
		pairs = append(pairs, w...)
	case []any:
		for _, e := range w {
			kv, ok := e.([]any)
			if !ok || len(kv) != 2 {
				return nil, false
			}
			pairs = append(pairs, [2]any{kv[0], kv[1]})
		}
	default:
		return nil, false
	}
	sort.SliceStable(pairs, func(i, j int) bool { return canonText(pairs[i][0]) < canonText(pairs[j][0]) })
	return pairs, true
}

// diffCanon describes how got differs from want ("" when equal). want is
// built on the Go side; got is a peer's canonical value, decoded JSON or
// built on the Go side.
func diffCanon(want, got any) string {
	switch w := want.(type) {
	case nil:
		if got != nil {
			return "want null, got " + canonText(got)
		}
		return ""
	case flt:
		var g float64
		switch x := got.(type) {
		case flt:
			g = float64(x)
		case string:
			f, ok := parseFloatText(x)
			if !ok {
				return fmt.Sprintf("want float %s, got %q", floatText(float64(w)), x)
			}
			g = f
		default:
			return fmt.Sprintf("want float %s, got %s", floatText(float64(w)), canonText(got))
		}
		if math.IsNaN(float64(w)) && math.IsNaN(g) || math.Float64bits(float64(w)) == math.Float64bits(g) {
			return ""
		}
		return fmt.Sprintf("want float %s, got %s", floatText(float64(w)), floatText(g))
	case mapV:
		wp, _ := sortedPairs(w)
		gp, ok := sortedPairs(got)
		if !ok || len(gp) != len(wp) {
			return fmt.Sprintf("want map %s, got %s", canonText(w), canonText(got))
		}
		for i := range wp {
			for j := 0; j < 2; j++ {
				if d := diffCanon(wp[i][j], gp[i][j]); d != "" {
					return fmt.Sprintf("map entry %s: %s", canonText(wp[i][0]), d)
				}
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("want list %s, got %s", canonText(w), canonText(got))
		}
		for i := range w {
			if d := diffCanon(w[i], g[i]); d != "" {
				return fmt.Sprintf("[%d]: %s", i, d)
			}
		}
		return ""
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("want %s, got %s", canonText(w), canonText(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("field %q missing from %s", k, canonText(got))
			}
			if d := diffCanon(w[k], gv); d != "" {
				return "." + k + ": " + d
			}
		}
		return ""
	}
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("want %s, got %s", canonText(want), canonText(got))
}
