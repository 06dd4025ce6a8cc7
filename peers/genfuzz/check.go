package genfuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// Case is one generated row type under test, with its code reached
// through functions so that Check needs no generated identifiers.
type Case struct {
	// Name is the generated type's name.
	Name string
	// Seed draws the schema (RandomSchema), the rows and the writer
	// configuration.
	Seed uint64
	// SchemaText is the generated schema constant.
	SchemaText string
	// RowType is the generated row type.
	RowType reflect.Type
	// Write writes rows (a slice of RowType) with the generated writer,
	// following plan: a positive entry writes that many rows with one
	// Write call, zero calls Flush.
	Write func(w io.Writer, rows any, plan []int, opts ...runtime.WriterOption) error
	// Read reads every row with the generated reader opened with opts,
	// batch rows per Read call, checking NumRows against want.
	Read func(r io.ReaderAt, size int64, batch int, want int, opts ...runtime.ReaderOption) (any, error)
}

// RowWriter is the generated writer of rows of T.
type RowWriter[T any] interface {
	Write(rows []T) (int, error)
	Flush() error
	Close() error
}

// RowReader is the generated reader of rows of T.
type RowReader[T any] interface {
	Read(rows []T) (int, error)
	NumRows() int64
	Close() error
}

// NewCase makes the Case of generated type T from its generated
// constructors.
func NewCase[T any, W RowWriter[T], R RowReader[T]](name string, seed uint64, schemaText string,
	newWriter func(io.Writer, ...runtime.WriterOption) (W, error),
	newReader func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error)) Case {
	return Case{
		Name: name, Seed: seed, SchemaText: schemaText, RowType: reflect.TypeFor[T](),
		Write: func(out io.Writer, rows any, plan []int, opts ...runtime.WriterOption) error {
			w, err := newWriter(out, opts...)
			if err != nil {
				return err
			}
			rs := rows.([]T)
			for _, n := range plan {
				if n == 0 {
					if err := w.Flush(); err != nil {
						return fmt.Errorf("flush: %w", err)
					}
					continue
				}
				k, err := w.Write(rs[:n])
				if err != nil {
					return fmt.Errorf("write: %w", err)
				}
				if k != n {
					return fmt.Errorf("a write of %d rows returned %d", n, k)
				}
				rs = rs[n:]
			}
			return w.Close()
		},
		Read: func(in io.ReaderAt, size int64, batch, want int, opts ...runtime.ReaderOption) (any, error) {
			r, err := newReader(in, size, opts...)
			if err != nil {
				return nil, err
			}
			if r.NumRows() != int64(want) {
				return nil, fmt.Errorf("NumRows is %d, want %d", r.NumRows(), want)
			}
			out := []T{}
			buf := make([]T, batch)
			for {
				n, err := r.Read(buf)
				out = append(out, buf[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					return nil, fmt.Errorf("read after %d rows: %w", len(out), err)
				}
				if n == 0 {
					return nil, fmt.Errorf("read returned 0 rows and no error after %d rows", len(out))
				}
			}
			return out, r.Close()
		},
	}
}

// config is a random writer configuration and its description.
type config struct {
	opts []runtime.WriterOption
	desc []string
	// duckDB is false when the configuration sets an encoding DuckDB
	// does not read on some column: BYTE_STREAM_SPLIT on a column other
	// than FLOAT or DOUBLE, or a delta byte array encoding on a BYTE_ARRAY
	// column DuckDB does not take as text or blob (a DECIMAL, say).
	duckDB bool
	// rowLimit is the row limit of a row group (WithRowGroupRowLimit), or
	// 0 for none.
	rowLimit int
}

// duckDBReads reports whether DuckDB reads a column of leaf l written
// with encoding e (see config.duckDB).
func duckDBReads(l *schema.Node, e meta.Encoding) bool {
	switch e {
	case meta.EncodingByteStreamSplit:
		return l.Type == meta.Float || l.Type == meta.Double
	case meta.EncodingDeltaLengthByteArray, meta.EncodingDeltaByteArray:
		switch l.Logical.Kind {
		case meta.LogicalNone, meta.LogicalString, meta.LogicalEnum, meta.LogicalJSON, meta.LogicalBSON:
			return true
		}
		return false
	}
	return true
}

// encodings are the value encodings each physical type can be written
// with, besides the dictionary.
var encodings = map[meta.Type][]meta.Encoding{
	meta.Boolean:   {meta.EncodingPlain, meta.EncodingRLE},
	meta.Int32:     {meta.EncodingPlain, meta.EncodingDeltaBinaryPacked, meta.EncodingByteStreamSplit},
	meta.Int64:     {meta.EncodingPlain, meta.EncodingDeltaBinaryPacked, meta.EncodingByteStreamSplit},
	meta.Int96:     {meta.EncodingPlain},
	meta.Float:     {meta.EncodingPlain, meta.EncodingByteStreamSplit},
	meta.Double:    {meta.EncodingPlain, meta.EncodingByteStreamSplit},
	meta.ByteArray: {meta.EncodingPlain, meta.EncodingDeltaLengthByteArray, meta.EncodingDeltaByteArray},
	// DELTA_BYTE_ARRAY is valid for FIXED_LEN_BYTE_ARRAY too, but
	// arrow-go v18.8.0 cannot decode it (it panics: "unimplemented
	// encoding type"), so it is not drawn here.
	meta.FixedLenByteArray: {meta.EncodingPlain, meta.EncodingByteStreamSplit},
}

// randomConfig draws a writer configuration: codec, page version,
// dictionary, small pages and row groups (so that columns span several
// of each; a row limit for a row group in a third of them), CRC,
// statistics, page index, and per-column encodings and bloom filters.
func randomConfig(r *rand.Rand, s *schema.Schema) config {
	c := config{duckDB: true}
	add := func(o runtime.WriterOption, format string, args ...any) {
		c.opts = append(c.opts, o)
		c.desc = append(c.desc, fmt.Sprintf(format, args...))
	}
	codecs := []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Gzip, meta.Zstd, meta.LZ4Raw, meta.Brotli}
	codec := codecs[r.IntN(len(codecs))]
	add(runtime.WithCompression(codec, compress.DefaultLevel), "codec %s", codec)
	v := 1 + r.IntN(2)
	add(runtime.WithDataPageVersion(v), "data page v%d", v)
	dict := r.IntN(3) > 0
	add(runtime.WithDictionary(dict), "dictionary %v", dict)
	if dict && r.IntN(2) == 0 {
		n := 16 + r.IntN(512)
		add(runtime.WithMaxDictionarySize(n), "max dictionary %d bytes", n)
	}
	ps := 64 << r.IntN(8)
	add(runtime.WithPageSize(ps), "page size %d", ps)
	if r.IntN(2) == 0 {
		n := 1 + r.IntN(50)
		add(runtime.WithPageRowLimit(n), "page row limit %d", n)
	}
	rg := int64(512 << r.IntN(8))
	add(runtime.WithRowGroupSize(rg), "row group size %d", rg)
	crc := r.IntN(2) == 0
	add(runtime.WithCRC(crc), "CRC %v", crc)
	pi := r.IntN(2) == 0
	add(runtime.WithPageIndex(pi), "page index %v", pi)
	if r.IntN(4) == 0 {
		add(runtime.WithStatistics(false), "statistics false")
	}
	paths := map[string]int{}
	for _, l := range s.Leaves {
		paths[l.PathString()]++
	}
	for _, l := range s.Leaves {
		p := l.PathString()
		if paths[p] > 1 { // a name holding a dot makes the path ambiguous
			continue
		}
		if r.IntN(2) == 0 {
			encs := encodings[l.Type]
			e := encs[r.IntN(len(encs))]
			add(runtime.WithColumnEncoding(p, e), "%s %s", p, e)
			c.duckDB = c.duckDB && duckDBReads(l, e)
		}
		if l.Type != meta.Boolean && r.IntN(8) == 0 { // BOOLEAN columns have no bloom filter
			add(runtime.WithColumnBloomFilter(p, 100, 0.05), "%s bloom filter", p)
		}
	}
	if r.IntN(3) == 0 {
		c.rowLimit = 1 + r.IntN(200)
		add(runtime.WithRowGroupRowLimit(c.rowLimit), "row group row limit %d", c.rowLimit)
	}
	return c
}

// writePlan splits n rows into Write calls with Flush calls between some.
func writePlan(r *rand.Rand, n int) []int {
	var plan []int
	for n > 0 {
		k := 1 + r.IntN(min(n, 1+r.IntN(300)))
		plan = append(plan, k)
		n -= k
		if r.IntN(5) == 0 {
			plan = append(plan, 0)
		}
	}
	return plan
}

// Configs is how many random writer configurations Check writes the rows
// of a case with.
const Configs = 3

// Result counts what Check covered.
type Result struct {
	// Files is the number of files written, RowGroups their row groups.
	Files, RowGroups int
	// Slots is the number of level slots compared with arrow-go.
	Slots int
	// ArrowRetries counts the files arrow-go failed to write with
	// DELTA columns (a panic in its DELTA_BINARY_PACKED encoder, which
	// its DELTA byte-array encoders use for lengths; see
	// arrowDeltaPanic), written again without them.
	ArrowRetries int
}

// Check runs the case with rows random rows written under Configs random
// writer configurations: the generated reader must read them back equal
// (with a large and a small batch, and with a projection on some
// fields, groups, lists or maps), and arrow-go must read the levels and values
// shredded from the rows. The error carries everything needed to
// reproduce a failure.
func Check(c Case, rows int) (Result, error) {
	var res Result
	fail := func(format string, args ...any) (Result, error) {
		return res, fmt.Errorf("%s (seed %d): %s\nreplay: cd peers && PQGEN_GENFUZZ_SEED=%d PQGEN_GENFUZZ_N=1 go test -count=1 -run TestGenFuzz ./genfuzz\nschema:\n%s",
			c.Name, c.Seed, fmt.Sprintf(format, args...), c.Seed, c.SchemaText)
	}
	s, err := schema.Parse(c.SchemaText)
	if err != nil {
		return fail("the generated schema does not parse: %v", err)
	}
	root, err := buildShape(s, c.RowType)
	if err != nil {
		return fail("the generated type does not match the schema: %v", err)
	}
	r := rand.New(rand.NewPCG(c.Seed, 0xf111))
	in := (&filler{r: r}).rows(root, rows)
	var paths []string
	for _, l := range s.Leaves {
		paths = append(paths, l.PathString())
	}
	// The file of the first configuration DuckDB reads (config.duckDB)
	// and arrow-go's file, kept in PairDir.
	var pqgenFile []byte
	var pqgenDesc, arrowDesc string
	var arrowFile []byte
	for k := range Configs {
		cfg := randomConfig(r, s)
		plan := writePlan(r, rows)
		var buf bytes.Buffer
		if err := c.Write(&buf, in.Interface(), plan, cfg.opts...); err != nil {
			return fail("writing %d rows (configuration %d: %s; plan %v): %v", rows, k, strings.Join(cfg.desc, ", "), plan, err)
		}
		data := buf.Bytes()
		what := fmt.Sprintf("configuration %d: %d rows, %s, %d bytes", k, rows, strings.Join(cfg.desc, ", "), len(data))
		if cfg.rowLimit > 0 {
			f, err := runtime.OpenFile(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				return fail("opening the file (%s): %v", what, err)
			}
			for i, rg := range f.Meta.RowGroups {
				if rg.NumRows > int64(cfg.rowLimit) {
					return fail("row group %d holds %d rows, above the row limit (%s; plan %v)", i, rg.NumRows, what, plan)
				}
			}
		}
		if cfg.duckDB && pqgenFile == nil {
			pqgenFile, pqgenDesc = data, what
		}
		for _, batch := range []int{rows + 1, 1 + r.IntN(7)} {
			got, err := c.Read(bytes.NewReader(data), int64(len(data)), batch, rows)
			if err != nil {
				return fail("reading back (%s; batch %d): %v", what, batch, err)
			}
			if d := diffRows(root, in, reflect.ValueOf(got), nil); d != "" {
				return fail("the generated reader differs from the rows written (%s; batch %d): %s", what, batch, d)
			}
		}
		if sel, names := projection(r, s); len(names) > 0 {
			batch := 1 + r.IntN(50)
			got, err := c.Read(bytes.NewReader(data), int64(len(data)), batch, rows, runtime.WithColumns(names...))
			if err != nil {
				return fail("reading back columns %q (%s; batch %d): %v", names, what, batch, err)
			}
			if d := diffRows(root, in, reflect.ValueOf(got), sel); d != "" {
				return fail("the generated reader of columns %q differs from the rows written (%s; batch %d): %s", names, what, batch, d)
			}
		}
		cols, n, rowGroups, err := readArrow(data)
		if err != nil {
			return fail("arrow-go cannot read the file (%s): %v", what, err)
		}
		if n != int64(rows) {
			return fail("arrow-go reads %d rows, want %d (%s)", n, rows, what)
		}
		want, mismatch := expectedColumns(root, in, len(root.cols), cols)
		if mismatch != "" {
			return fail("arrow-go reads other map keys (%s): %s", what, mismatch)
		}
		if d := diffColumns(want, cols, paths); d != "" {
			return fail("arrow-go reads other levels or values (%s): %s", what, d)
		}
		res.Files++
		res.RowGroups += rowGroups
		for _, col := range want {
			res.Slots += max(len(col.def), len(col.vals))
		}
		if k > 0 {
			continue
		}
		// The other way round: arrow-go writes the rows, under the schema
		// it reads from pqgen's file, and the generated reader reads them.
		sc, err := arrowSchema(data)
		if err != nil {
			return fail("arrow-go cannot read the schema (%s): %v", what, err)
		}
		// Map entries in the order of pqgen's file (its keys' order), so
		// that the readers of TestGenFuzz's pairs read the same rows from
		// both files.
		ordered, _ := expectedColumns(root, in, len(root.cols), cols)
		at := cuts(r, rows)
		adata, adesc, err := writeArrow(sc, ordered, rows, at, r, false)
		if err != nil && arrowDeltaPanic(err, adesc) {
			res.ArrowRetries++
			adata, adesc, err = writeArrow(sc, ordered, rows, at, r, true)
		}
		if err != nil {
			return fail("arrow-go cannot write the rows (%s): %v", adesc, err)
		}
		arrowFile, arrowDesc = adata, adesc
		batch := 1 + r.IntN(100)
		got, err := c.Read(bytes.NewReader(adata), int64(len(adata)), batch, rows)
		if err != nil {
			return fail("reading the file arrow-go wrote (%s; batch %d): %v", adesc, batch, err)
		}
		if d := diffRows(root, in, reflect.ValueOf(got), nil); d != "" {
			return fail("the generated reader of the file arrow-go wrote differs from the rows (%s; batch %d): %s", adesc, batch, d)
		}
		res.Files++
	}
	if PairDir != "" {
		// And the file of the writer's defaults, all rows in one Write,
		// which stands for the configuration's when each set an encoding
		// DuckDB does not read.
		var def bytes.Buffer
		if err := c.Write(&def, in.Interface(), []int{rows}); err != nil {
			return fail("writing %d rows with the default configuration: %v", rows, err)
		}
		if pqgenFile == nil {
			pqgenFile, pqgenDesc = def.Bytes(), fmt.Sprintf("the defaults: %d rows, %d bytes", rows, def.Len())
		}
		if err := writePair(c, rows, pqgenFile, pqgenDesc, def.Bytes(), arrowFile, arrowDesc); err != nil {
			return fail("keeping the files for DuckDB: %v", err)
		}
	}
	return res, nil
}

// PairDir, when not empty, is a directory where Check keeps, for each
// case, files of the same rows under the same schema: the file of its
// first writer configuration that sets no encoding DuckDB does not read
// (NAME.pqgen.parquet; when every one does, the next file again), a file
// written with the writer's defaults (NAME.default.parquet) and the one
// arrow-go wrote (NAME.arrow.parquet), with a Pair describing them
// (NAME.json). TestGenFuzz has other readers compare them.
var PairDir string

// Pair describes the files Check keeps for a case in PairDir (the
// defaults' file is named after the case alone).
type Pair struct {
	Name   string `json:"name"`
	Seed   uint64 `json:"seed"`
	Rows   int    `json:"rows"`
	Pqgen  string `json:"pqgen"`  // pqgen's file, and how it was written
	Arrow  string `json:"arrow"`  // arrow-go's file, and how it was written
	Schema string `json:"schema"` // the case's schema text
}

// writePair keeps pqgen's files data and def and arrow-go's file adata
// of case c in PairDir (see PairDir).
func writePair(c Case, rows int, data []byte, what string, def, adata []byte, adesc string) error {
	p := Pair{Name: c.Name, Seed: c.Seed, Rows: rows, Pqgen: what, Arrow: adesc, Schema: c.SchemaText}
	desc, err := json.Marshal(p)
	if err != nil {
		return err
	}
	for name, b := range map[string][]byte{".pqgen.parquet": data, ".default.parquet": def, ".arrow.parquet": adata, ".json": desc} {
		if err := os.WriteFile(filepath.Join(PairDir, c.Name+name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// cuts returns up to three row group boundaries in (0, rows), ascending.
func cuts(r *rand.Rand, rows int) []int {
	var out []int
	at := 0
	for range r.IntN(4) {
		if rows-at < 2 {
			break
		}
		at += 1 + r.IntN(rows-at-1)
		out = append(out, at)
	}
	return out
}

// projection picks one to three nodes to read (any field, group, list
// or map, but nothing inside a map) and returns the leaf columns they
// select and their paths. Paths that name more than one node (a name
// holding a dot) are never picked.
func projection(r *rand.Rand, s *schema.Schema) (sel map[int]bool, names []string) {
	var cands []*schema.Node
	count := map[string]int{}
	var walk func(n *schema.Node, inMap bool)
	walk = func(n *schema.Node, inMap bool) {
		if n.Parent != nil {
			count[n.PathString()]++
			if !inMap {
				cands = append(cands, n)
			}
		}
		for _, c := range n.Children {
			walk(c, inMap || isMapNode(n))
		}
	}
	walk(s.Root, false)
	sel = map[int]bool{}
	for range 1 + r.IntN(3) {
		n := cands[r.IntN(len(cands))]
		if count[n.PathString()] > 1 {
			continue
		}
		names = append(names, n.PathString())
		var mark func(n *schema.Node)
		mark = func(n *schema.Node) {
			if !n.Group {
				sel[n.Column] = true
			}
			for _, c := range n.Children {
				mark(c)
			}
		}
		mark(n)
	}
	return sel, names
}

// projected returns v (a value of shape s) as a reader of only the leaf
// columns in sel sees it: values without a selected leaf are zero.
func projected(s *shape, v reflect.Value, sel map[int]bool) reflect.Value {
	hit := false
	for _, c := range s.cols {
		hit = hit || sel[c]
	}
	if !hit {
		return reflect.Zero(s.t)
	}
	if s.opt && v.IsNil() {
		return v
	}
	base := v
	if s.ptr {
		base = v.Elem()
	}
	out := reflect.New(base.Type()).Elem()
	switch s.kind {
	case structShape:
		for i, f := range s.fields {
			out.Field(i).Set(projected(f, base.Field(i), sel))
		}
	case listShape:
		out.Set(reflect.MakeSlice(base.Type(), base.Len(), base.Len()))
		for i := range base.Len() {
			out.Index(i).Set(projected(s.elem, base.Index(i), sel))
		}
	default: // leaves, and maps, which are selected whole
		out.Set(base)
	}
	if s.ptr {
		p := reflect.New(base.Type())
		p.Elem().Set(out)
		return p
	}
	return out
}

// diffRows compares two slices of rows of shape root; when sel is not
// nil, the rows are compared as a reader of only the leaf columns in sel
// sees them.
func diffRows(root *shape, want, got reflect.Value, sel map[int]bool) string {
	if want.Len() != got.Len() {
		return fmt.Sprintf("read %d rows, want %d", got.Len(), want.Len())
	}
	for i := range want.Len() {
		w := want.Index(i)
		if sel != nil {
			w = projected(root, w, sel)
		}
		if d := diffValue(root, w, got.Index(i), fmt.Sprintf("row %d", i)); d != "" {
			return d
		}
	}
	return ""
}

// ErrFailed reports that RunCases found failures.
var ErrFailed = errors.New("genfuzz: cases failed")

// RowsFor is how many rows the case of seed checks: none for one seed in
// sixteen, otherwise 20 to 600.
func RowsFor(seed uint64) int {
	r := rand.New(rand.NewPCG(seed, 0x707))
	if r.IntN(16) == 0 {
		return 0
	}
	return 20 + r.IntN(581)
}

// RunCases checks every case with RowsFor(seed) rows, reporting each
// failure through report; it returns the rows checked and what Check
// covered, and ErrFailed if any case failed.
func RunCases(cases []Case, report func(error)) (int, Result, error) {
	failed := false
	total := 0
	var sum Result
	for _, c := range cases {
		n := RowsFor(c.Seed)
		total += n
		res, err := Check(c, n)
		if err != nil {
			report(err)
			failed = true
		}
		sum.Files += res.Files
		sum.RowGroups += res.RowGroups
		sum.Slots += res.Slots
		sum.ArrowRetries += res.ArrowRetries
	}
	if failed {
		return total, sum, ErrFailed
	}
	return total, sum, nil
}
