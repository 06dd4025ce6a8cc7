package genconf

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	pgo "github.com/parquet-go/parquet-go"

	"github.com/pqgen/pqgen/peers/internal/nodejs"
)

// TestParquetGoFuzz is TestDuckFuzz for files that parquet-go writes from
// rows of random Go struct types (built with reflect.StructOf) under
// random struct tags and writer options: every Go type its tags map
// (integers of every width, floats, booleans, strings, byte slices and
// arrays, times as timestamps, dates, decimals, enums, JSON, UUIDs),
// pointers, slices, lists, maps and nested structs, and per field the
// dictionary, DELTA, BYTE_STREAM_SPLIT or PLAIN encoding and a codec;
// page buffer size, data page version, row group size, page statistics,
// bloom filters and flushes between rows. One file a seed;
// PQGEN_PGOFUZZ_SEED (default 1) and PQGEN_PGOFUZZ_N (default 16) choose
// them; `make fuzz` draws a fresh seed.
func TestParquetGoFuzz(t *testing.T) {
	node := nodejs.Need(t, "the random parquet-go files' round trip", "@duckdb/node-api", "hyparquet", "parquet-wasm", "apache-arrow")
	// parquet-go 0.32 fails a few writes, about 1 in 100, reading back
	// its own pages ("decoding definition levels of data page v1", "too
	// short to contain a PLAIN encoded byte array value").
	fuzzGoWriter(t, node, "parquetgofuzz", "parquet-go", duckFuzzInt(t, "PQGEN_PGOFUZZ_SEED", 1), duckFuzzInt(t, "PQGEN_PGOFUZZ_N", 16), writeParquetGoFuzz)
}

// pgGen draws one seed's struct type, rows and writer options.
type pgGen struct {
	r      *rand.Rand
	fields int
	leaves []string // the leaf paths, for bloom filters
}

// pgField is a random field: its Go type, its tag options, and how to
// fill a value of it.
type pgField struct {
	typ     reflect.Type
	opts    []string
	fill    func(v reflect.Value)
	logical bool // an option names a logical type (enum, json, uuid, date, ...)
}

var pgCodecs = []string{"snappy", "gzip", "brotli", "lz4", "zstd", "uncompressed"}

// leaf draws a scalar field; path is its column path; inMap: it is a map's
// value (parquet-go 0.32 cannot write a time.Time there).
func (g *pgGen) leaf(path string, inMap bool) pgField {
	r := g.r
	card := 0
	if r.IntN(3) == 0 {
		card = 1 + r.IntN(30)
	}
	salt := r.Uint64()
	// src is the source of one value: one of card values, or anew.
	src := func() *rand.Rand {
		if card > 0 {
			return rand.New(rand.NewPCG(salt, uint64(r.IntN(card))))
		}
		return r
	}
	str := func(q *rand.Rand) string {
		var sb strings.Builder
		for range q.IntN(20) {
			if q.IntN(15) == 0 {
				sb.WriteString("é")
			} else {
				sb.WriteByte(byte('a' + q.IntN(26)))
			}
		}
		return sb.String()
	}
	var f pgField
	enc := func(encs ...string) {
		if r.IntN(3) == 0 {
			f.opts = append(f.opts, encs[r.IntN(len(encs))])
		}
	}
	ints := func(t reflect.Type, bits int, split bool) {
		f.typ = t
		f.fill = func(v reflect.Value) {
			q := src()
			x := int64(q.Uint64()) >> (64 - bits)
			if q.IntN(2) == 0 {
				x = int64(q.IntN(2001) - 1000)
			}
			if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
				v.SetUint(uint64(x) & (1<<bits - 1))
			} else {
				v.SetInt(x)
			}
		}
		if split {
			enc("dict", "delta", "plain", "split")
		} else {
			enc("dict", "delta", "plain")
		}
	}
	k := r.IntN(17)
	if k == 15 && inMap {
		k = 3
	}
	switch k {
	case 0:
		ints(reflect.TypeFor[int8](), 8, false)
	case 1:
		ints(reflect.TypeFor[int16](), 16, false)
	case 2:
		ints(reflect.TypeFor[int32](), 32, true)
	case 3:
		ints(reflect.TypeFor[int64](), 64, true)
	case 4:
		ints(reflect.TypeFor[uint8](), 8, false)
	case 5:
		ints(reflect.TypeFor[uint16](), 16, false)
	case 6:
		ints(reflect.TypeFor[uint32](), 32, false)
	case 7:
		ints(reflect.TypeFor[uint64](), 63, false)
	case 8, 9:
		f.typ = []reflect.Type{reflect.TypeFor[float32](), reflect.TypeFor[float64]()}[r.IntN(2)]
		f.fill = func(v reflect.Value) {
			q := src()
			x := float64(q.IntN(2001)-1000) / 8
			switch q.IntN(30) {
			case 0:
				x = math.NaN()
			case 1:
				x = math.Inf(1 - 2*q.IntN(2))
			case 2:
				x = math.Copysign(0, -1)
			case 3:
				x = q.NormFloat64() * 1e30
			}
			v.SetFloat(x)
		}
		enc("dict", "plain", "split")
	case 10:
		f.typ = reflect.TypeFor[bool]()
		f.fill = func(v reflect.Value) { v.SetBool(src().IntN(2) == 0) }
	case 11, 12:
		f.typ = reflect.TypeFor[string]()
		f.fill = func(v reflect.Value) { v.SetString(str(src())) }
		switch r.IntN(6) {
		case 0:
			f.opts, f.logical = append(f.opts, "enum"), true
		case 1:
			f.opts, f.logical = append(f.opts, "json"), true
			f.fill = func(v reflect.Value) { v.SetString(fmt.Sprintf(`{"k":%q}`, str(src()))) }
		}
		enc("dict", "delta", "plain")
	case 13:
		f.typ = reflect.TypeFor[[]byte]()
		f.fill = func(v reflect.Value) {
			q := src()
			b := make([]byte, q.IntN(16))
			for i := range b {
				b[i] = byte(q.Uint32())
			}
			v.SetBytes(b)
		}
		enc("dict", "delta", "plain")
	case 14:
		n := 1 + r.IntN(16)
		f.typ = reflect.ArrayOf(n, reflect.TypeFor[byte]())
		if n == 16 && r.IntN(2) == 0 {
			f.opts, f.logical = append(f.opts, "uuid"), true
		}
		f.fill = func(v reflect.Value) {
			q := src()
			for i := range n {
				v.Index(i).SetUint(uint64(byte(q.Uint32())))
			}
		}
		enc("dict", "plain", "split", "delta")
	case 15:
		f.typ = reflect.TypeFor[time.Time]()
		unit := []string{"millisecond", "microsecond", "nanosecond"}[r.IntN(3)]
		f.opts, f.logical = append(f.opts, "timestamp("+unit+")"), true
		f.fill = func(v reflect.Value) {
			q := src()
			sec := q.Int64N(18000000000) - 9000000000 // 1685 to 2255
			v.Set(reflect.ValueOf(time.Unix(sec, q.Int64N(1e9)).UTC()))
		}
		enc("dict", "delta", "plain")
	case 16:
		switch r.IntN(2) {
		case 0:
			f.typ = reflect.TypeFor[int32]()
			f.opts, f.logical = append(f.opts, "date"), true
			f.fill = func(v reflect.Value) { v.SetInt(int64(src().IntN(200000) - 100000)) }
		default:
			p := 1 + r.IntN(18)
			s := r.IntN(p + 1)
			f.typ = reflect.TypeFor[int64]()
			f.opts, f.logical = append(f.opts, fmt.Sprintf("decimal(%d:%d)", s, p)), true
			f.fill = func(v reflect.Value) {
				q := src()
				lim := int64(math.Pow10(p)) - 1
				v.SetInt(q.Int64N(2*lim+1) - lim)
			}
		}
		enc("dict", "plain")
	}
	if r.IntN(4) == 0 {
		f.opts = append(f.opts, pgCodecs[r.IntN(len(pgCodecs))])
	}
	g.leaves = append(g.leaves, path)
	return f
}

// field draws a field at depth (0: top level) whose column path is path;
// inMap: it is a map's value; inSlice: it is in a slice's elements.
func (g *pgGen) field(depth int, path string, inMap, inSlice bool) pgField {
	r := g.r
	if depth < 3 && r.IntN(3) == 0 {
		k := r.IntN(5)
		if inMap && k < 2 {
			k = 4 // a map's value takes no tag: no slice, which may need "list"
		}
		switch k {
		case 0, 1: // a slice: repeated, or a LIST with "list"
			e := g.field(depth+1, path+".list.element", false, true)
			f := pgField{typ: reflect.SliceOf(e.typ)}
			if e.typ.Kind() == reflect.Slice && e.typ.Elem().Kind() != reflect.Uint8 || r.IntN(2) == 0 {
				f.opts = append(f.opts, "list")
			}
			f.fill = func(v reflect.Value) {
				n := g.length()
				s := reflect.MakeSlice(f.typ, n, n)
				for i := range n {
					e.fill(s.Index(i))
				}
				v.Set(s)
			}
			return f
		case 2: // a map of string keys
			e := g.field(depth+1, path+".key_value.value", true, inSlice)
			f := pgField{typ: reflect.MapOf(reflect.TypeFor[string](), e.typ)}
			f.fill = func(v reflect.Value) {
				m := reflect.MakeMap(f.typ)
				for range g.length() {
					x := reflect.New(e.typ).Elem()
					e.fill(x)
					m.SetMapIndex(reflect.ValueOf(fmt.Sprintf("k%d", g.r.IntN(50))), x)
				}
				v.Set(m)
			}
			return f
		default: // a struct, maybe through a pointer
			st, fill := g.structOf(depth+1, path, inSlice)
			// parquet-go 0.32 writes the required fields of a null struct
			// in a list one definition level short of its optional
			// siblings (they disagree on the struct): no pointer in a
			// slice.
			if r.IntN(2) == 0 || inSlice {
				return pgField{typ: st, fill: fill}
			}
			f := pgField{typ: reflect.PointerTo(st)}
			f.fill = func(v reflect.Value) {
				if g.r.IntN(4) == 0 {
					v.SetZero()
					return
				}
				p := reflect.New(st)
				fill(p.Elem())
				v.Set(p)
			}
			return f
		}
	}
	f := g.leaf(path, inMap)
	if r.IntN(3) == 0 { // optional, through a pointer or the tag
		base := f
		nullP := []float64{0, 0.1, 0.5, 1}[r.IntN(4)]
		// parquet-go 0.32 takes no delta tag on a pointer, and writes no
		// pointer under a logical type's tag.
		// Nor a pointer but to an int32, int64, float64 or string (it
		// panics on *uint8, *float32, *[N]byte, *bool in a list, ...).
		switch base.typ.Kind() {
		case reflect.Int32, reflect.Int64, reflect.Float64, reflect.String:
		default:
			base.logical = true
		}
		if r.IntN(2) == 0 && !base.logical && !slices.Contains(base.opts, "delta") && !inSlice {
			f.typ = reflect.PointerTo(base.typ)
			f.fill = func(v reflect.Value) {
				if g.r.Float64() < nullP {
					v.SetZero()
					return
				}
				p := reflect.New(base.typ)
				base.fill(p.Elem())
				v.Set(p)
			}
		} else if !slices.Contains(base.opts, "json") {
			// Not JSON: parquet-go writes the zero "" of an optional JSON
			// field as a value, which is no JSON, and pqgen's writer
			// refuses to write it back.
			f.opts = append(f.opts, "optional")
			f.fill = func(v reflect.Value) {
				if g.r.Float64() < nullP {
					v.SetZero() // the zero value is null
					return
				}
				base.fill(v)
			}
		}
	}
	return f
}

// length draws the length of a slice or map (fuzzLength).
func (g *pgGen) length() int { return fuzzLength(g.r) }

// structOf draws a struct type of 1-5 fields below path and its filler;
// inSlice: it is in a slice's elements.
func (g *pgGen) structOf(depth int, path string, inSlice bool) (reflect.Type, func(reflect.Value)) {
	var sfs []reflect.StructField
	var fills []func(reflect.Value)
	for range 1 + g.r.IntN(5) {
		g.fields++
		name := fmt.Sprintf("c%d", g.fields)
		p := name
		if path != "" {
			p = path + "." + name
		}
		f := g.field(depth, p, false, inSlice)
		sfs = append(sfs, reflect.StructField{Name: fmt.Sprintf("F%d", g.fields), Type: f.typ,
			Tag: reflect.StructTag(fmt.Sprintf(`parquet:"%s"`, strings.Join(append([]string{name}, f.opts...), ",")))})
		fills = append(fills, f.fill)
	}
	st := reflect.StructOf(sfs)
	return st, func(v reflect.Value) {
		for i, fill := range fills {
			fill(v.Field(i))
		}
	}
}

// writeParquetGoFuzz writes seed's file into root, and reports it as the
// JavaScript writers report theirs.
func writeParquetGoFuzz(root string, seed uint64) (w writtenFile) {
	g := &pgGen{r: rand.New(rand.NewPCG(seed, 0x7067))}
	st, fill := g.structOf(0, "", false)
	rows := []int{0, 1, 7, 100, 1000, 3000}[g.r.IntN(6)]
	if rows > 1 {
		rows = 1 + g.r.IntN(rows)
	}
	var opts []pgo.WriterOption
	var desc []string
	add := func(d string, o pgo.WriterOption) {
		opts = append(opts, o)
		desc = append(desc, d)
	}
	switch g.r.IntN(4) {
	case 0:
		add("zstd", pgo.Compression(&pgo.Zstd))
	case 1:
		add("snappy", pgo.Compression(&pgo.Snappy))
	case 2:
		add("gzip", pgo.Compression(&pgo.Gzip))
	}
	if g.r.IntN(2) == 0 {
		s := 64 << g.r.IntN(14)
		add(fmt.Sprintf("page buffers of %d bytes", s), pgo.PageBufferSize(s))
	}
	if g.r.IntN(2) == 0 {
		add("DATA_PAGE_V1", pgo.DataPageVersion(1))
	}
	if g.r.IntN(2) == 0 {
		n := int64(1 + g.r.IntN(max(rows, 1)))
		add(fmt.Sprintf("row groups of %d rows", n), pgo.MaxRowsPerRowGroup(n))
	}
	if g.r.IntN(2) == 0 {
		add("page statistics", pgo.DataPageStatistics(true))
	}
	if g.r.IntN(3) == 0 && len(g.leaves) > 0 {
		var fs []pgo.BloomFilterColumn
		for _, l := range g.leaves {
			if g.r.IntN(2) == 0 {
				fs = append(fs, pgo.SplitBlockFilter(10, strings.Split(l, ".")...))
			}
		}
		if len(fs) > 0 {
			add(fmt.Sprintf("%d bloom filters", len(fs)), pgo.BloomFilters(fs...))
		}
	}
	flushEvery := 0
	if g.r.IntN(3) == 0 {
		flushEvery = 1 + g.r.IntN(200)
		desc = append(desc, fmt.Sprintf("flushed every %d rows", flushEvery))
	}
	w = writtenFile{File: fmt.Sprintf("parquetgo_%d.parquet", seed), Writer: "parquet-go",
		Features: fmt.Sprintf("%d rows of %s; %s", rows, st, strings.Join(desc, ", "))}
	defer func() {
		if r := recover(); r != nil {
			w.Error = fmt.Sprintf("parquet-go panicked: %v", r)
		}
	}()
	var buf bytes.Buffer
	pw := pgo.NewWriter(&buf, append(opts, pgo.SchemaOf(reflect.New(st).Interface()))...)
	for i := range rows {
		v := reflect.New(st)
		fill(v.Elem())
		if err := pw.Write(v.Interface()); err != nil {
			w.Error = err.Error()
			return w
		}
		if flushEvery > 0 && (i+1)%flushEvery == 0 {
			if err := pw.Flush(); err != nil {
				w.Error = err.Error()
				return w
			}
		}
	}
	if err := pw.Close(); err != nil {
		w.Error = err.Error()
		return w
	}
	if err := os.WriteFile(filepath.Join(root, w.File), buf.Bytes(), 0o644); err != nil {
		w.Error = err.Error()
	}
	return w
}
