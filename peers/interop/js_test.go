package interop

// Helpers of the JavaScript peers (peers/js: DuckDB, parquet-wasm,
// hyparquet): finding node, running a script over many files at once,
// assembling rows from leaf columns, and comparing rows with the
// canonical JSON the scripts print (peers/js/canon.mjs).

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/pqgen/pqgen/peers/internal/dremel"
	"github.com/pqgen/pqgen/peers/internal/nodejs"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// needNode returns the node binary, or skips the test (fails it under
// CI=true) when node or a module of peers/js/node_modules is missing.
func needNode(t *testing.T) string {
	t.Helper()
	return nodejs.Need(t, "JavaScript peer interop (DuckDB, parquet-wasm, hyparquet)",
		"@duckdb/node-api", "parquet-wasm", "apache-arrow", "hyparquet", "hyparquet-compressors")
}

// runJS runs node SCRIPT ARGS... in peers/js and returns the file
// sections it printed, keyed by path.
func runJS(t *testing.T, script string, args ...string) map[string]*nodejs.File {
	t.Helper()
	return nodejs.Run(t, needNode(t), append([]string{script}, args...)...)
}

// Canonical values built on the Go side (see peers/js/canon.mjs for the
// JSON form they are compared with).
type (
	intV   string   // any integer, date, time or timestamp: decimal
	floatV float64  // float (widened) or double
	bytesV []byte   // binary: {"$hex": ...}
	decV   struct { // decimal
		unscaled *big.Int
		scale    int32
	}
	structV struct {
		names []string
		vals  []any
	}
	mapV [][2]any
)

func (d decV) String() string {
	r := new(big.Rat).SetFrac(d.unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.scale)), nil))
	return r.FloatString(int(d.scale))
}

// cmpOpts relaxes the comparison for a peer's documented limitation.
type cmpOpts struct {
	// lossyDecimal: the peer turns decimals into float64 (hyparquet
	// 1.31.5: convert.js computes unscaled * 10**-scale), so a decimal
	// matches when it is within 1e-12 relative of the exact value.
	lossyDecimal bool
	// mapAsObject: the peer returns a MAP with string keys as a plain
	// object (hyparquet 1.31.5), so key order is not compared.
	mapAsObject bool
	// used, when not nil, counts the values each relaxation let match.
	used *relaxed
}

// relaxed counts the values a cmpOpts relaxation let match.
type relaxed struct{ lossyDecimal, mapAsObject int }

// checkUsed fails t for a relaxation of o that let no value match: the
// peer no longer has the limitation it documents.
func (o cmpOpts) checkUsed(t *testing.T, reader string) {
	t.Helper()
	if o.lossyDecimal && o.used.lossyDecimal == 0 {
		t.Errorf("%s: every decimal is exact now: drop lossyDecimal", reader)
	}
	if o.mapAsObject && o.used.mapAsObject == 0 {
		t.Errorf("%s: no map came as an object: drop mapAsObject", reader)
	}
}

// sameValue compares a Go canonical value with a decoded JSON one and
// describes the first difference ("" when equal).
func sameValue(want, got any, o cmpOpts) string {
	switch w := want.(type) {
	case nil:
		if got != nil {
			return fmt.Sprintf("want null, got %s", jsonText(got))
		}
		return ""
	case bool:
		if g, ok := got.(bool); !ok || g != w {
			return fmt.Sprintf("want %v, got %s", w, jsonText(got))
		}
		return ""
	case intV:
		if g, ok := got.(string); !ok || g != string(w) {
			return fmt.Sprintf("want integer %s, got %s", w, jsonText(got))
		}
		return ""
	case floatV:
		g, ok := got.(string)
		if !ok {
			return fmt.Sprintf("want float %v, got %s", float64(w), jsonText(got))
		}
		x, err := strconv.ParseFloat(g, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return fmt.Sprintf("want float %v, got %q", float64(w), g)
		}
		if math.IsNaN(float64(w)) && math.IsNaN(x) || math.Float64bits(x) == math.Float64bits(float64(w)) {
			return ""
		}
		return fmt.Sprintf("want float %s, got %q", strconv.FormatFloat(float64(w), 'g', -1, 64), g)
	case string:
		if g, ok := got.(string); !ok || g != w {
			return fmt.Sprintf("want string %q, got %s", w, jsonText(got))
		}
		return ""
	case bytesV:
		m, _ := got.(map[string]any)
		if h, ok := m["$hex"].(string); !ok || h != hex.EncodeToString(w) {
			return fmt.Sprintf("want binary %x, got %s", []byte(w), jsonText(got))
		}
		return ""
	case decV:
		g, ok := got.(string)
		if !ok {
			return fmt.Sprintf("want decimal %s, got %s", w, jsonText(got))
		}
		exact := new(big.Rat).SetFrac(w.unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(w.scale)), nil))
		r, ok := new(big.Rat).SetString(g)
		if ok && r.Cmp(exact) == 0 {
			return ""
		}
		if ok && o.lossyDecimal {
			x, _ := exact.Float64()
			y, _ := r.Float64()
			if math.Abs(x-y) <= 1e-12*math.Max(math.Abs(x), 1e-300) {
				if o.used != nil {
					o.used.lossyDecimal++
				}
				return ""
			}
		}
		return fmt.Sprintf("want decimal %s, got %s", w, jsonText(got))
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("want list of %d, got %s", len(w), jsonText(got))
		}
		for i := range w {
			if d := sameValue(w[i], g[i], o); d != "" {
				return fmt.Sprintf("[%d]: %s", i, d)
			}
		}
		return ""
	case *structV:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w.names) {
			return fmt.Sprintf("want struct of %d fields, got %s", len(w.names), jsonText(got))
		}
		for i, n := range w.names {
			if d := sameValue(w.vals[i], g[n], o); d != "" {
				return fmt.Sprintf(".%s: %s", n, d)
			}
		}
		return ""
	case mapV:
		if obj, ok := got.(map[string]any); ok && o.mapAsObject && len(obj) == len(w) {
			for i := range w {
				k, _ := w[i][0].(string)
				v, ok := obj[k]
				if !ok {
					return fmt.Sprintf("entry %d: key %q missing from %s", i, k, jsonText(got))
				}
				if d := sameValue(w[i][1], v, o); d != "" {
					return fmt.Sprintf("entry %q: %s", k, d)
				}
			}
			if o.used != nil {
				o.used.mapAsObject++
			}
			return ""
		}
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("want map of %d entries, got %s", len(w), jsonText(got))
		}
		for i := range w {
			kv, ok := g[i].([]any)
			if !ok || len(kv) != 2 {
				return fmt.Sprintf("entry %d: got %s", i, jsonText(g[i]))
			}
			for j := 0; j < 2; j++ {
				if d := sameValue(w[i][j], kv[j], o); d != "" {
					return fmt.Sprintf("entry %d[%d]: %s", i, j, d)
				}
			}
		}
		return ""
	}
	return fmt.Sprintf("unhandled Go value %T", want)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// compareRows compares the rows a peer printed for a file with the rows
// wanted (one []any of top-level column values per row) and reports at
// most a few differences. It returns the number of differing rows.
func compareRows(t *testing.T, reader, file string, f *nodejs.File, want [][]any, names []string, o cmpOpts) int {
	t.Helper()
	if f == nil {
		t.Errorf("%s: %s: no output", reader, file)
		return -1
	}
	if f.Err != "" {
		t.Errorf("%s: %s: %s", reader, file, f.Err)
		return -1
	}
	if len(f.Rows) != len(want) {
		t.Errorf("%s: %s: %d rows, want %d", reader, file, len(f.Rows), len(want))
		return -1
	}
	bad := 0
	for i, raw := range f.Rows {
		var got []any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %s: row %d: %v", reader, file, i, err)
		}
		if len(got) != len(want[i]) {
			t.Errorf("%s: %s: row %d has %d columns, want %d", reader, file, i, len(got), len(want[i]))
			return -1
		}
		for c := range got {
			if d := sameValue(want[i][c], got[c], o); d != "" {
				if bad < 3 {
					t.Errorf("%s: %s: row %d column %s: %s", reader, file, i, names[c], d)
				}
				bad++
				break
			}
		}
	}
	return bad
}

// plainValue is the canonical value of a leaf's PLAIN-encoded value (no
// length prefix), by the leaf's physical and logical type.
func plainValue(n *schema.Node, b []byte) any {
	lt := n.Logical
	switch n.Type {
	case meta.Boolean:
		return b[0] != 0
	case meta.Int32:
		v := int32(binary.LittleEndian.Uint32(b))
		switch {
		case lt.Kind == meta.LogicalTime:
			return nanos(int64(v), lt.Time.Unit)
		case lt.Kind == meta.LogicalDecimal:
			return decV{big.NewInt(int64(v)), lt.Decimal.Scale}
		case lt.Kind == meta.LogicalInteger && !lt.Integer.IsSigned:
			return intV(strconv.FormatUint(uint64(uint32(v)), 10))
		}
		return intV(strconv.FormatInt(int64(v), 10))
	case meta.Int64:
		v := int64(binary.LittleEndian.Uint64(b))
		switch {
		case lt.Kind == meta.LogicalTime || lt.Kind == meta.LogicalTimestamp:
			return nanos(v, lt.Time.Unit)
		case lt.Kind == meta.LogicalDecimal:
			return decV{big.NewInt(v), lt.Decimal.Scale}
		case lt.Kind == meta.LogicalInteger && !lt.Integer.IsSigned:
			return intV(strconv.FormatUint(uint64(v), 10))
		}
		return intV(strconv.FormatInt(v, 10))
	case meta.Float:
		return floatV(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case meta.Double:
		return floatV(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	case meta.ByteArray, meta.FixedLenByteArray:
		switch lt.Kind {
		case meta.LogicalString, meta.LogicalEnum, meta.LogicalJSON:
			return string(b)
		case meta.LogicalDecimal:
			return decV{decimalValue(b), lt.Decimal.Scale}
		case meta.LogicalUUID:
			h := hex.EncodeToString(b)
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		}
		return bytesV(b)
	}
	return bytesV(b) // INT96
}

// nanos is a time or timestamp of the given unit in nanoseconds.
func nanos(v int64, unit meta.TimeUnit) intV {
	x := big.NewInt(v)
	switch unit {
	case meta.Millis:
		x.Mul(x, big.NewInt(1e6))
	case meta.Micros:
		x.Mul(x, big.NewInt(1e3))
	}
	return intV(x.String())
}

// assembler holds the leaf columns of a schema (levels and PLAIN values,
// as got holds them) that rows are rebuilt from (dremel.Assembler: LIST
// groups become lists, MAP groups lists of [key, value]).
type assembler struct {
	s   *schema.Schema
	cur []leafCursor
}

type leafCursor struct {
	n       *schema.Node
	g       *got
	pos, vi int
}

func (c *leafCursor) def() uint8 {
	if c.n.MaxDef == 0 {
		return 0
	}
	return c.g.def[c.pos]
}

func (c *leafCursor) rep() uint8 {
	if c.n.MaxRep == 0 {
		return 0
	}
	return c.g.rep[c.pos]
}

func (c *leafCursor) slots() int {
	if c.n.MaxDef == 0 {
		return len(c.g.vals)
	}
	return len(c.g.def)
}

// assemble returns rows top-level values per row; cols[i] is leaf i.
func assemble(s *schema.Schema, cols []got) (rows [][]any, err error) {
	return assembleSome(s, cols, nil)
}

// assembleSome is assemble leaving out the top-level fields i with
// skip[i] (their leaves are not looked at).
func assembleSome(s *schema.Schema, cols []got, skip []bool) (rows [][]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("assembly: %v", r)
		}
	}()
	a := &assembler{s: s}
	for i, l := range s.Leaves {
		a.cur = append(a.cur, leafCursor{n: l, g: &cols[i]})
	}
	var fields []*schema.Node
	for i, f := range s.Root.Children {
		if i >= len(skip) || !skip[i] {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return nil, nil
	}
	asm := dremel.Assembler{Cols: a, Forms: forms}
	for {
		if _, _, ok := a.Levels(dremel.FirstLeaf(fields[0]).Column); !ok {
			break
		}
		row := make([]any, len(fields))
		for i, f := range fields {
			row[i] = asm.Field(f)
		}
		rows = append(rows, row)
	}
	for _, f := range fields {
		if err := a.done(f); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// done checks that every slot and value of the leaves under n was used.
func (a *assembler) done(n *schema.Node) error {
	if n.Group {
		for _, c := range n.Children {
			if err := a.done(c); err != nil {
				return err
			}
		}
		return nil
	}
	c := a.cur[n.Column]
	if c.pos != c.slots() || c.vi != len(c.g.vals) {
		return fmt.Errorf("column %s: %d of %d slots, %d of %d values used", c.n.PathString(), c.pos, c.slots(), c.vi, len(c.g.vals))
	}
	return nil
}

// Levels, Skip and Value make the leaf cursors dremel.Columns.
func (a *assembler) Levels(col int) (def, rep int, ok bool) {
	c := &a.cur[col]
	if c.pos >= c.slots() {
		return 0, 0, false
	}
	return int(c.def()), int(c.rep()), true
}

func (a *assembler) Skip(col int) { a.cur[col].pos++ }

func (a *assembler) Value(n *schema.Node) any {
	c := &a.cur[n.Column]
	v := plainValue(n, c.g.vals[c.vi])
	c.vi++
	c.pos++
	return v
}

// forms are the canonical groups (structV) and maps (mapV) of this package.
var forms = dremel.Forms{
	Group: func(n *schema.Node, vals []any) any {
		s := &structV{vals: vals}
		for _, c := range n.Children {
			s.names = append(s.names, c.Name)
		}
		return s
	},
	Child: func(_ *schema.Node, g any, i int) any { return g.(*structV).vals[i] },
	Map:   func(pairs [][2]any) any { return mapV(pairs) },
}

// readAllPlain reads every leaf of a file through our FileReader into
// levels and PLAIN values; the first error of any column is returned.
func readAllPlain(r *runtime.FileReader) ([]got, error) {
	cols, errs := readColumnsPlain(r)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return cols, nil
}

// readColumnsPlain is readAllPlain going on past a column's error;
// errs[i] is the error of leaf i.
func readColumnsPlain(r *runtime.FileReader) (cols []got, errs []error) {
	s := r.File().Schema
	cols = make([]got, len(s.Leaves))
	errs = make([]error, len(s.Leaves))
	for ci, l := range s.Leaves {
		errs[ci] = readColumnPlain(r, ci, l, &cols[ci])
	}
	return cols, errs
}

func readColumnPlain(r *runtime.FileReader, ci int, l *schema.Node, g *got) error {
	var (
		read func() (runtime.Levels, error)
		err  error
	)
	switch l.Type {
	case meta.Boolean:
		var c *runtime.BoolReader
		c, err = r.BoolReader(ci)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for _, v := range c.Values {
				b := []byte{0}
				if v {
					b[0] = 1
				}
				g.vals = append(g.vals, b)
			}
			return c.Levels, nil
		}
	case meta.Int32:
		var c *runtime.Int32Reader
		c, err = r.Int32Reader(ci)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for _, v := range c.Values {
				g.vals = append(g.vals, le32(uint32(v)))
			}
			return c.Levels, nil
		}
	case meta.Int64:
		var c *runtime.Int64Reader
		c, err = r.Int64Reader(ci)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for _, v := range c.Values {
				g.vals = append(g.vals, le64(uint64(v)))
			}
			return c.Levels, nil
		}
	case meta.Int96:
		var c *runtime.Int96Reader
		c, err = r.Int96Reader(ci)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for _, v := range c.Values {
				g.vals = append(g.vals, append([]byte(nil), v[:]...))
			}
			return c.Levels, nil
		}
	case meta.Float:
		var c *runtime.FloatReader
		c, err = r.FloatReader(ci)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for _, v := range c.Values {
				g.vals = append(g.vals, le32(math.Float32bits(v)))
			}
			return c.Levels, nil
		}
	case meta.Double:
		var c *runtime.DoubleReader
		c, err = r.DoubleReader(ci)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for _, v := range c.Values {
				g.vals = append(g.vals, le64(math.Float64bits(v)))
			}
			return c.Levels, nil
		}
	case meta.ByteArray:
		var c *runtime.ByteArrayReader
		c, err = r.ByteArrayReader(ci)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for i := 0; i < c.Values.Len(); i++ {
				g.vals = append(g.vals, append([]byte{}, c.Values.At(i)...))
			}
			return c.Levels, nil
		}
	case meta.FixedLenByteArray:
		var c *runtime.FixedReader
		c, err = r.FixedReader(ci)
		w := int(l.TypeLength)
		read = func() (runtime.Levels, error) {
			if _, err := c.ReadRows(500); err != nil {
				return runtime.Levels{}, err
			}
			for i := 0; i+w <= len(c.Values); i += w {
				g.vals = append(g.vals, append([]byte{}, c.Values[i:i+w]...))
			}
			return c.Levels, nil
		}
	}
	if err != nil {
		return fmt.Errorf("column %s: %w", l.PathString(), err)
	}
	for {
		lv, err := read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", l.PathString(), err)
		}
		g.def = append(g.def, lv.Def...)
		g.rep = append(g.rep, lv.Rep...)
	}
}

func topNames(s *schema.Schema) []string {
	var names []string
	for _, c := range s.Root.Children {
		names = append(names, c.Name)
	}
	return names
}

func openOwn(t *testing.T, data []byte) *runtime.FileReader {
	t.Helper()
	r, err := runtime.NewFileReader(bytes.NewReader(data), int64(len(data)), runtime.WithCRCCheck(true))
	if err != nil {
		t.Fatalf("pqgen: %v", err)
	}
	return r
}

// TestJSHarness checks the comparison helpers on values that must and
// must not match.
func TestJSHarness(t *testing.T) {
	var x any
	_ = json.Unmarshal([]byte(`["-0","NaN","0.1",{"$hex":"00ff"},"-12.30",[null,"3"],{"a":"1"},[["k",null]]]`), &x)
	got := x.([]any)
	want := []any{floatV(math.Copysign(0, -1)), floatV(math.NaN()), floatV(0.1), bytesV{0, 0xff},
		decV{big.NewInt(-1230), 2}, []any{nil, intV("3")}, &structV{[]string{"a"}, []any{intV("1")}}, mapV{{"k", nil}}}
	for i := range want {
		if d := sameValue(want[i], got[i], cmpOpts{}); d != "" {
			t.Errorf("value %d: %s", i, d)
		}
	}
	bad := []any{floatV(0), floatV(1), floatV(0.1000001), bytesV{0}, decV{big.NewInt(-1231), 2}, []any{intV("0"), intV("3")},
		&structV{[]string{"b"}, []any{intV("1")}}, mapV{{"k", intV("0")}}}
	for i := range bad {
		if sameValue(bad[i], got[i], cmpOpts{}) == "" {
			t.Errorf("value %d: %v matches %s", i, bad[i], jsonText(got[i]))
		}
	}
	if b, err := duckBlob(`\x00a\xFF1`); err != nil || string(b) != "\x00a\xff1" {
		t.Errorf("duckBlob: %q %v", b, err)
	}
}
