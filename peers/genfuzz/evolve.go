package genfuzz

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pqgen/pqgen/runtime/schema"
)

// leafLine is a leaf of schema text as RandomSchema writes it:
// indentation, repetition, type, name, annotation and field id.
var leafLine = regexp.MustCompile(`^( *)(required|optional|repeated) ([a-z0-9_()]+) ("(?:[^"\\]|\\.)*"|[A-Za-z0-9_]+)( \([^;]*\))?( = [0-9]+)?;$`)

// EvolveSchema returns a compatible edit of schema text (as RandomSchema
// writes it), drawn from seed, and what it changed: unannotated int32
// leaves widened to int64 and float leaves to double, required leaves
// made optional (not BYTE_ARRAY ones, whose nil and empty values differ,
// nor map keys), a top-level leaf dropped and an optional one added. The
// edit may change nothing but the added field.
func EvolveSchema(seed uint64, text string) (string, []string) {
	r := rand.New(rand.NewPCG(seed, 0xe701))
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var out, did []string
	top := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") && l != "  }" {
			top++
		}
	}
	dropped := false
	for _, l := range lines {
		m := leafLine.FindStringSubmatch(l)
		if m == nil {
			out = append(out, l)
			continue
		}
		indent, rep, typ, name, ann, id := m[1], m[2], m[3], m[4], m[5], m[6]
		if len(indent) == 2 && top > 1 && !dropped && r.IntN(4) == 0 {
			dropped = true
			did = append(did, "dropped "+name)
			continue
		}
		if ann == "" && (typ == "int32" || typ == "float") && r.IntN(2) == 0 {
			typ = map[string]string{"int32": "int64", "float": "double"}[typ]
			did = append(did, "widened "+name+" to "+typ)
		}
		if rep == "required" && typ != "binary" && name != "key" && r.IntN(2) == 0 {
			rep = "optional"
			did = append(did, "made "+name+" optional")
		}
		out = append(out, indent+rep+" "+typ+" "+name+ann+id+";")
	}
	// The closing brace of the message is the last line.
	out = append(out[:len(out)-1], "  optional int64 pqgen_added;", out[len(out)-1])
	did = append(did, "added pqgen_added")
	return strings.Join(out, "\n") + "\n", did
}

// Evolution is a generated row type (Old) and the type of an evolved
// schema (New, from EvolveSchema): rows written as Old must read as New.
type Evolution struct {
	Old, New Case
	// Edits are EvolveSchema's descriptions.
	Edits []string
}

// CheckEvolution writes rows of e.Old with its generated writer and reads
// the file with e.New's generated reader: the rows must be Old's rows
// converted field by field (matched by column name): integers and floats
// widened, values of fields made optional behind pointers, dropped fields
// gone, added ones null.
func CheckEvolution(e Evolution, rows int) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s to %s (seed %d; edits: %s): %s\nreplay: cd peers && PQGEN_GENFUZZ_SEED=%d PQGEN_GENFUZZ_N=1 go test -count=1 -run TestGenFuzz ./genfuzz\nold schema:\n%s\nnew schema:\n%s",
			e.Old.Name, e.New.Name, e.Old.Seed, strings.Join(e.Edits, ", "), fmt.Sprintf(format, args...), e.Old.Seed, e.Old.SchemaText, e.New.SchemaText)
	}
	s, err := schema.Parse(e.Old.SchemaText)
	if err != nil {
		return fail("the schema does not parse: %v", err)
	}
	root, err := buildShape(s, e.Old.RowType)
	if err != nil {
		return fail("the generated type does not match the schema: %v", err)
	}
	in := (&filler{r: rand.New(rand.NewPCG(e.Old.Seed, 0xe702))}).rows(root, rows)
	var buf bytes.Buffer
	if err := e.Old.Write(&buf, in.Interface(), []int{rows}); err != nil {
		return fail("writing %d rows: %v", rows, err)
	}
	got, err := e.New.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()), 1+rows/3, rows)
	if err != nil {
		return fail("reading %d rows as the new type: %v", rows, err)
	}
	want := reflect.MakeSlice(reflect.SliceOf(e.New.RowType), rows, rows)
	for i := range rows {
		evolveValue(want.Index(i), in.Index(i))
	}
	if d := cmp.Diff(want.Interface(), got, cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); d != "" {
		return fail("the rows read differ (-want +got):\n%s", d)
	}
	return nil
}

// columnName is the column name in a generated field's parquet tag.
func columnName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
	return name
}

// evolveValue sets dst (of the new type) to the value src (of the old
// type) reads as.
func evolveValue(dst, src reflect.Value) {
	switch {
	case dst.Kind() == reflect.Pointer && src.Kind() != reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		evolveValue(p.Elem(), src)
		dst.Set(p)
		return
	case dst.Kind() == reflect.Pointer:
		if !src.IsNil() {
			p := reflect.New(dst.Type().Elem())
			evolveValue(p.Elem(), src.Elem())
			dst.Set(p)
		}
		return
	}
	switch dst.Kind() {
	case reflect.Struct:
		if dst.Type() == src.Type() {
			dst.Set(src)
			return
		}
		byName := map[string]int{}
		for i := range src.NumField() {
			byName[columnName(src.Type().Field(i))] = i
		}
		for i := range dst.NumField() {
			if j, ok := byName[columnName(dst.Type().Field(i))]; ok {
				evolveValue(dst.Field(i), src.Field(j))
			}
		}
	case reflect.Slice:
		if src.IsNil() || dst.Type() == src.Type() {
			if !src.IsNil() {
				dst.Set(src)
			}
			return
		}
		dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
		for i := range src.Len() {
			evolveValue(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(dst.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			k, v := reflect.New(dst.Type().Key()).Elem(), reflect.New(dst.Type().Elem()).Elem()
			evolveValue(k, it.Key())
			evolveValue(v, it.Value())
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}
