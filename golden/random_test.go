package golden

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestRandomSchemas generates random schemas (nesting depth, repetition,
// physical and logical types, LIST and MAP layouts), generates their code
// and, from the IR, a filler of random rows for each; the rows must
// round-trip through the generated writer and reader.
var (
	randomN    = flag.Int("random.n", 25, "TestRandomSchemas: how many schemas")
	randomSeed = flag.Uint64("random.seed", 42, "TestRandomSchemas: the seed")
)

func TestRandomSchemas(t *testing.T) {
	n := *randomN
	const dir = "testdata/randomall"
	r := rand.New(rand.NewPCG(*randomSeed, 7))
	var outs []output
	var fill bytes.Buffer
	f := jen.NewFilePathName("github.com/pqgen/pqgen/golden/"+dir, "randomall")
	for i := range n {
		text := randomSchema(r, fmt.Sprintf("r%d", i), i%numShapes)
		typ := fmt.Sprintf("R%d", i)
		p, err := gen.FromSchemaText(typ+".schema", text, "randomall", typ)
		if err != nil {
			t.Fatalf("schema %d: %v\n%s", i, err, text)
		}
		p.Path = "github.com/pqgen/pqgen/golden/" + dir
		files, err := gen.Generate(p, strings.ToLower(typ)+".go")
		if err != nil {
			t.Fatalf("schema %d: %v\n%s", i, err, text)
		}
		for name, code := range files {
			outs = append(outs, output{virtual: filepath.Join(dir, name), code: code})
		}
		emitFiller(f, p.Types[0])
	}
	emitRandomTests(f, n)
	if err := f.Render(&fill); err != nil {
		t.Fatal(err)
	}
	outs = append(outs, output{virtual: filepath.Join(dir, "fill_test.go"), code: fill.Bytes()},
		output{virtual: filepath.Join(dir, "check_test.go"), code: []byte(checkRowsCode)})
	if testing.Short() {
		t.Skip("compiling generated code: skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "randomall.test")
	compile(t, outs, "test", "-vet=off", "-c", "-o", bin)
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("random schemas do not round-trip: %v\n%s", err, head(string(out), 120))
	}
}

// The shapes of random schemas: a schema is drawn from one of them in
// turn, so that the edge shapes (only a Variant, one column, nothing
// required) are generated as often as the general one.
const (
	shapeGeneral     = iota // a few fields at each level
	shapeVariantOnly        // one Variant column and nothing else
	shapeSingle             // one field (a scalar, group, list or map)
	shapeAllOptional        // every field optional
	shapeVariantMix         // Variants among other fields
	numShapes
)

// randomSchema returns schema text of the given shape.
func randomSchema(r *rand.Rand, name string, shape int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "message %s {\n", name)
	g := fieldGen{r: r}
	switch shape {
	case shapeVariantOnly:
		randomVariant(r, &b, "v")
	case shapeSingle:
		g.randomField(&b, "f0", 1, 0)
	case shapeAllOptional:
		g.allOptional = true
		for i := range 1 + r.IntN(5) {
			g.randomField(&b, fmt.Sprintf("f%d", i), 1, 0)
		}
	case shapeVariantMix:
		for i := range 1 + r.IntN(4) {
			if r.IntN(2) == 0 {
				randomVariant(r, &b, fmt.Sprintf("v%d", i))
			} else {
				g.randomField(&b, fmt.Sprintf("f%d", i), 1, 0)
			}
		}
	default:
		for i := range 1 + r.IntN(5) {
			g.randomField(&b, fmt.Sprintf("f%d", i), 1, 0)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// randomVariant writes an unshredded VARIANT field of the row.
func randomVariant(r *rand.Rand, b *strings.Builder, name string) {
	rep := []string{"required", "optional"}[r.IntN(2)]
	fmt.Fprintf(b, "  %s group %s (VARIANT(1)) {\n    required binary metadata;\n    required binary value;\n  }\n", rep, name)
}

// fieldGen draws random fields.
type fieldGen struct {
	r           *rand.Rand
	allOptional bool // every field optional (map keys and repeated nodes aside)
}

// mapKeys are the key types of random maps: every primitive a MAP key
// may have in generated code.
var mapKeys = []string{
	"binary key (STRING)", "binary key", "int32 key", "int64 key (INT(64,false))", "boolean key", "float key", "double key",
	"int32 key (INT(8,true))", "int32 key (INT(16,false))", "int32 key (DATE)", "int64 key (TIMESTAMP(MILLIS,true))",
	"int64 key (TIMESTAMP(NANOS,false))", "int32 key (TIME(MILLIS,true))", "fixed_len_byte_array(16) key (UUID)",
	"fixed_len_byte_array(3) key", "int32 key (DECIMAL(9,2))", "binary key (ENUM)", "int96 key",
}

var primitives = []string{
	"boolean", "int32", "int64", "float", "double", "binary", "binary (STRING)", "int32 (INT(8,true))",
	"int32 (INT(16,false))", "int64 (INT(64,false))", "int32 (DATE)", "int64 (TIMESTAMP(MICROS,true))",
	"int64 (TIMESTAMP(MILLIS,false))", "int64 (TIMESTAMP(NANOS,true))", "int32 (TIME(MILLIS,true))",
	"int64 (TIME(MICROS,true))", "fixed_len_byte_array(16) (UUID)", "fixed_len_byte_array(3)",
	"int32 (DECIMAL(9,2))", "binary (ENUM)", "int96", "fixed_len_byte_array(2) (FLOAT16)",
}

func (g fieldGen) randomField(b *strings.Builder, name string, depth, nesting int) {
	r := g.r
	ind := strings.Repeat("  ", depth)
	rep := []string{"required", "optional"}[r.IntN(2)]
	if g.allOptional {
		rep = "optional"
	}
	kind := r.IntN(10)
	if nesting >= 3 {
		kind = 0
	}
	switch {
	case kind < 4:
		if r.IntN(8) == 0 && !g.allOptional {
			rep = "repeated"
		}
		typ, ann, _ := strings.Cut(primitives[r.IntN(len(primitives))], " ")
		fmt.Fprintf(b, "%s%s %s %s %s;\n", ind, rep, typ, name, ann)
	case kind < 6:
		if r.IntN(6) == 0 && !g.allOptional {
			rep = "repeated"
		}
		fmt.Fprintf(b, "%s%s group %s {\n", ind, rep, name)
		for i := range 1 + r.IntN(3) {
			g.randomField(b, fmt.Sprintf("%s_%d", name, i), depth+1, nesting+1)
		}
		fmt.Fprintf(b, "%s}\n", ind)
	case kind < 8:
		fmt.Fprintf(b, "%s%s group %s (LIST) {\n%s  repeated group list {\n", ind, rep, name, ind)
		g.randomField(b, "element", depth+2, nesting+1)
		fmt.Fprintf(b, "%s  }\n%s}\n", ind, ind)
	default:
		fmt.Fprintf(b, "%s%s group %s (MAP) {\n%s  repeated group key_value {\n", ind, rep, name, ind)
		fmt.Fprintf(b, "%s    required %s;\n", ind, mapKeys[r.IntN(len(mapKeys))])
		g.randomField(b, "value", depth+2, nesting+1)
		fmt.Fprintf(b, "%s  }\n%s}\n", ind, ind)
	}
}

const (
	pathTime       = "time"
	pathVariantPkg = "github.com/pqgen/pqgen/runtime/variant"
	pathRuntimePkg = "github.com/pqgen/pqgen/runtime"
)

var freshN int

// fresh returns a new local variable name.
func fresh(prefix string) string {
	freshN++
	return fmt.Sprintf("%s%d", prefix, freshN)
}

// emitFiller emits fillT(r) returning a random T, walking the IR.
func emitFiller(f *jen.File, t *gen.Type) {
	var body []jen.Code
	body = append(body, jen.Var().Id("x").Add(t.Root.Go.Code()))
	body = append(body, fillFields(t.Root, func() *jen.Statement { return jen.Id("x") }, 0)...)
	body = append(body, jen.Return(jen.Id("x")))
	f.Func().Id("fill" + t.Name).Params(jen.Id("r").Op("*").Qual("math/rand/v2", "Rand")).Add(t.Root.Go.Code()).Block(body...)
}

func fillFields(v *gen.Value, p func() *jen.Statement, depth int) []jen.Code {
	var out []jen.Code
	for _, fl := range v.Struct.Fields {
		name := fl.Name
		out = append(out, fillValue(fl.Value, func() *jen.Statement { return p().Dot(name) }, depth)...)
	}
	return out
}

func fillValue(v *gen.Value, p func() *jen.Statement, depth int) []jen.Code {
	switch v.Null {
	case gen.NullPointer:
		x := fresh("p")
		inner := append([]jen.Code{jen.Id(x).Op(":=").New(v.Base.Code())},
			fillBase(v, func() *jen.Statement { return jen.Parens(jen.Op("*").Id(x)) }, depth+1)...)
		inner = append(inner, p().Op("=").Id(x))
		return []jen.Code{jen.If(jen.Id("r").Dot("IntN").Call(jen.Lit(3)).Op(">").Lit(0)).Block(inner...)}
	case gen.NullNil:
		return []jen.Code{jen.If(jen.Id("r").Dot("IntN").Call(jen.Lit(4)).Op(">").Lit(0)).Block(fillBase(v, p, depth)...)}
	}
	return fillBase(v, p, depth)
}

func fillBase(v *gen.Value, p func() *jen.Statement, depth int) []jen.Code {
	rc := func(m string, args ...jen.Code) *jen.Statement { return jen.Id("r").Dot(m).Call(args...) }
	switch v.Kind {
	case gen.KindStruct:
		return fillFields(v, p, depth)
	case gen.KindList:
		s, j := fresh("s"), fresh("j")
		return []jen.Code{
			jen.Id(s).Op(":=").Make(v.Base.Code(), rc("IntN", jen.Lit(4))),
			jen.For(jen.Id(j).Op(":=").Range().Id(s)).Block(fillValue(v.Elem, func() *jen.Statement { return jen.Id(s).Index(jen.Id(j)) }, depth+1)...),
			p().Op("=").Id(s),
		}
	case gen.KindVariant:
		// An integer or a string, or (when optional) null a quarter of
		// the time.
		vb, md, val := fresh("vb"), fresh("md"), fresh("val")
		build := []jen.Code{
			jen.Id(vb).Op(":=").New(jen.Qual(pathVariantPkg, "Builder")),
			jen.If(rc("IntN", jen.Lit(2)).Op("==").Lit(0)).Block(jen.Id(vb).Dot("AppendInt").Call(rc("Int64N", jen.Lit(1000)))).Else().Block(
				jen.Id(vb).Dot("AppendString").Call(jen.Qual("strconv", "Itoa").Call(rc("IntN", jen.Lit(1000))))),
			jen.List(jen.Id(md), jen.Id(val), jen.Id("_")).Op(":=").Id(vb).Dot("Finish").Call(),
			p().Op("=").Qual(pathVariantPkg, "Encoded").Values(jen.Dict{jen.Id("Metadata"): jen.Id(md), jen.Id("Value"): jen.Id(val)}),
		}
		if v.Node.Repetition == meta.Optional {
			return []jen.Code{jen.If(rc("IntN", jen.Lit(4)).Op(">").Lit(0)).Block(build...)}
		}
		return build
	case gen.KindMap:
		m, k, e := fresh("m"), fresh("k"), fresh("e")
		loop := []jen.Code{jen.Var().Id(k).Add(v.Key.Go.Code()), jen.Var().Id(e).Add(v.Elem.Go.Code())}
		loop = append(loop, fillValue(v.Key, func() *jen.Statement { return jen.Id(k) }, depth+1)...)
		loop = append(loop, fillValue(v.Elem, func() *jen.Statement { return jen.Id(e) }, depth+1)...)
		loop = append(loop, jen.Id(m).Index(jen.Id(k)).Op("=").Id(e))
		// Mostly small maps, and up to 64 entries (fewer when keys
		// collide) one time in eight.
		return []jen.Code{
			jen.Id(m).Op(":=").Make(v.Base.Code()),
			jen.For(jen.Range().Add(jen.Id("mapSize").Call(jen.Id("r")))).Block(loop...),
			p().Op("=").Id(m),
		}
	}
	n := v.Node
	tm := func(name string) *jen.Statement { return jen.Qual(pathTime, name) }
	var val jen.Code
	switch v.Conv {
	case gen.ConvString:
		val = v.Base.Code().Call(jen.Qual("strconv", "Itoa").Call(rc("IntN", jen.Lit(1000))))
	case gen.ConvBytes:
		val = jen.Index().Byte().Call(jen.Qual("strconv", "Itoa").Call(rc("IntN", jen.Lit(1000))))
	case gen.ConvFixed:
		i := fresh("i")
		return []jen.Code{jen.For(jen.Id(i).Op(":=").Range().Add(p())).Block(p().Index(jen.Id(i)).Op("=").Byte().Call(rc("Uint32")))}
	case gen.ConvTimestamp:
		switch n.Logical.Time.Unit {
		case meta.Millis:
			val = tm("UnixMilli").Call(rc("Int64N", jen.Lit(int64(4e12)))).Dot("UTC").Call()
		case meta.Micros:
			val = tm("UnixMicro").Call(rc("Int64N", jen.Lit(int64(4e15)))).Dot("UTC").Call()
		default:
			val = tm("Unix").Call(jen.Lit(0), rc("Int64")).Dot("UTC").Call()
		}
	case gen.ConvInterval:
		val = jen.Qual(pathRuntimePkg, "Interval").Values(jen.Dict{jen.Id("Months"): rc("Uint32"), jen.Id("Days"): rc("Uint32"), jen.Id("Millis"): rc("Uint32")})
	case gen.ConvFloat16:
		// A finite binary16 value of either sign (NaN would not compare).
		val = v.Base.Code().Call(jen.Qual(pathRuntimePkg, "Float16ToFloat32").Call(jen.Uint16().Call(rc("Uint32N", jen.Lit(0x7c00))).Op("|").Uint16().Call(rc("Uint32N", jen.Lit(2))).Op("<<").Lit(15)))
	case gen.ConvDate:
		val = tm("Unix").Call(jen.Int64().Call(rc("Int32N", jen.Lit(100000)).Op("-").Lit(50000)).Op("*").Lit(86400), jen.Lit(0)).Dot("UTC").Call()
	case gen.ConvDuration:
		switch {
		case n.Logical.Kind == meta.LogicalTime && n.Logical.Time.Unit == meta.Millis:
			val = tm("Duration").Call(rc("Int64N", jen.Lit(86400000))).Op("*").Add(tm("Millisecond"))
		case n.Logical.Kind == meta.LogicalTime && n.Logical.Time.Unit == meta.Micros:
			val = tm("Duration").Call(rc("Int64N", jen.Lit(int64(86400000000)))).Op("*").Add(tm("Microsecond"))
		default:
			val = tm("Duration").Call(rc("Int64"))
		}
	default:
		switch n.Type {
		case meta.Boolean:
			val = rc("IntN", jen.Lit(2)).Op("==").Lit(0)
		case meta.Float, meta.Double:
			val = v.Base.Code().Call(rc("Float64"))
		case meta.Int96:
			i := fresh("i")
			return []jen.Code{jen.For(jen.Id(i).Op(":=").Range().Add(p())).Block(p().Index(jen.Id(i)).Op("=").Byte().Call(rc("Uint32")))}
		default:
			val = v.Base.Code().Call(rc("Uint64"))
			if n.Logical.Kind == meta.LogicalDecimal {
				// An unscaled value of at most the precision's digits
				// (a writer refuses more: runtime.DecimalDigits64).
				lim := int64(1)
				for range n.Logical.Decimal.Precision {
					lim *= 10
				}
				val = v.Base.Code().Call(rc("Int64N", jen.Lit(2*lim-1)).Op("-").Lit(lim - 1))
			}
		}
	}
	return []jen.Code{p().Op("=").Add(val)}
}

func emitRandomTests(f *jen.File, n int) {
	var body []jen.Code
	for i := range n {
		typ := fmt.Sprintf("R%d", i)
		body = append(body, jen.Id("t").Dot("Run").Call(jen.Lit(typ), jen.Func().Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
			jen.Id("r").Op(":=").Qual("math/rand/v2", "New").Call(jen.Qual("math/rand/v2", "NewPCG").Call(jen.Lit(i), jen.Lit(1))),
			jen.Id("rows").Op(":=").Make(jen.Index().Id(typ), jen.Lit(700)),
			jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(jen.Id("rows").Index(jen.Id("i")).Op("=").Id("fill"+typ).Call(jen.Id("r"))),
			jen.Id("checkRows").Call(jen.Id("t"), jen.Id("rows"), jen.Id("pqgen"+typ+"SchemaText"), jen.Id("New"+typ+"Writer"), jen.Id("Write"+typ+"File"), jen.Id("Read"+typ+"File")),
		)))
	}
	f.Func().Id("TestRoundTrip").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(body...)
}

// checkRowsCode is the test helper of the random schemas' package: rows
// must round-trip, give the same bytes however they are written, and read
// with projections.
const checkRowsCode = `package randomall

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/schema"
)

func mapSize(r interface{ IntN(int) int }) int {
	if r.IntN(8) == 0 {
		return r.IntN(65)
	}
	return r.IntN(4)
}

func checkRows[T any, W interface {
	Write([]T) (int, error)
	Close() error
}](t *testing.T, rows []T, schemaText string, newW func(io.Writer, ...runtime.WriterOption) (W, error),
	writeFile func(string, []T, ...runtime.WriterOption) error, readFile func(string, ...runtime.ReaderOption) ([]T, error)) {
	opts := []runtime.WriterOption{runtime.WithPageRowLimit(64), runtime.WithRowGroupSize(16 << 10)}
	path := filepath.Join(t.TempDir(), "f.parquet")
	if err := writeFile(path, rows, opts...); err != nil {
		t.Fatal(err)
	}
	got, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rows, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("schema:\n%s\n(-want +got)\n%s", schemaText, d)
	}

	// The same bytes, however the rows are written.
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write := func(rows []T, sizes []int, extra ...runtime.WriterOption) []byte {
		var buf bytes.Buffer
		w, err := newW(&buf, append(opts[:len(opts):len(opts)], extra...)...)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; len(rows) > 0; i++ {
			n := min(sizes[i%len(sizes)], len(rows))
			if _, err := w.Write(rows[:n]); err != nil {
				t.Fatal(err)
			}
			rows = rows[n:]
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	same := func(how string, b []byte) {
		if !bytes.Equal(b, want) {
			t.Fatalf("schema:\n%s\nwritten %s: other bytes (%d, %d)", schemaText, how, len(b), len(want))
		}
	}
	same("in one Write", write(rows, []int{len(rows)}))
	same("one row per Write", write(rows, []int{1}))
	same("in Writes of 3, 255 and 300 rows", write(rows, []int{3, 255, 300}))
	same("with WithParallelism(3)", write(rows, []int{100}, runtime.WithParallelism(3)))
	old := goruntime.GOMAXPROCS(1)
	same("with GOMAXPROCS 1, WithParallelism(3)", write(rows, []int{50}, runtime.WithParallelism(3)))
	goruntime.GOMAXPROCS(old)
	same("from the rows read back", write(got, []int{len(got)}))

	// No column: every field zero.
	none, err := readFile(path, runtime.WithColumns())
	if err != nil {
		t.Fatalf("no column: %v", err)
	}
	if d := cmp.Diff(make([]T, len(rows)), none, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("schema:\n%s\nno column: (-want +got)\n%s", schemaText, d)
	}
	// The first field alone: the others zero.
	s, err := schema.Parse(schemaText)
	if err != nil {
		t.Fatal(err)
	}
	first, err := readFile(path, runtime.WithColumns(s.Root.Children[0].Name))
	if err != nil {
		t.Fatalf("the first field: %v", err)
	}
	wantFirst := make([]T, len(rows))
	for i := range rows {
		reflect.ValueOf(&wantFirst[i]).Elem().Field(0).Set(reflect.ValueOf(rows[i]).Field(0))
	}
	if d := cmp.Diff(wantFirst, first, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("schema:\n%s\nthe first field: (-want +got)\n%s", schemaText, d)
	}
	_ = fmt.Sprint
}
`
