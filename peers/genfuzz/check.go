package genfuzz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
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
	// Read reads every row with the generated reader, batch rows per Read
	// call, checking NumRows against want.
	Read func(r io.ReaderAt, size int64, batch int, want int) (any, error)
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
		Read: func(in io.ReaderAt, size int64, batch, want int) (any, error) {
			r, err := newReader(in, size)
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
// of each), CRC, statistics, page index, and per-column encodings and
// bloom filters.
func randomConfig(r *rand.Rand, s *schema.Schema) config {
	var c config
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
		}
		if l.Type != meta.Boolean && r.IntN(8) == 0 { // BOOLEAN columns have no bloom filter
			add(runtime.WithBloomFilter(p, 100, 0.05), "%s bloom filter", p)
		}
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

// Check runs the case with rows random rows: the rows written under a
// random writer configuration must read back equal through the generated
// reader (with a large and a small batch), and arrow-go must read the
// levels and values shredded from the rows. The error carries everything
// needed to reproduce a failure.
func Check(c Case, rows int) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s (seed %d): %s\nreplay: cd peers && PQGEN_GENFUZZ_SEED=%d PQGEN_GENFUZZ_N=1 go test -count=1 -run TestGenFuzz ./genfuzz\nschema:\n%s",
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
	cfg := randomConfig(r, s)
	plan := writePlan(r, rows)
	var buf bytes.Buffer
	if err := c.Write(&buf, in.Interface(), plan, cfg.opts...); err != nil {
		return fail("writing %d rows (%s; plan %v): %v", rows, strings.Join(cfg.desc, ", "), plan, err)
	}
	data := buf.Bytes()
	what := fmt.Sprintf("%d rows, %s, %d bytes", rows, strings.Join(cfg.desc, ", "), len(data))
	for _, batch := range []int{rows + 1, 1 + r.IntN(7)} {
		got, err := c.Read(bytes.NewReader(data), int64(len(data)), batch, rows)
		if err != nil {
			return fail("reading back (%s; batch %d): %v", what, batch, err)
		}
		gv := reflect.ValueOf(got)
		if gv.Len() != rows {
			return fail("read back %d rows, want %d (%s; batch %d)", gv.Len(), rows, what, batch)
		}
		for i := range rows {
			if d := diffValue(root, in.Index(i), gv.Index(i), fmt.Sprintf("row %d", i)); d != "" {
				return fail("the generated reader differs from the rows written (%s; batch %d): %s", what, batch, d)
			}
		}
	}
	cols, n, err := readArrow(data)
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
	var paths []string
	for _, l := range s.Leaves {
		paths = append(paths, l.PathString())
	}
	if d := diffColumns(want, cols, paths); d != "" {
		return fail("arrow-go reads other levels or values (%s): %s", what, d)
	}
	return nil
}

// ErrFailed reports that RunCases found failures.
var ErrFailed = errors.New("genfuzz: cases failed")

// RowsFor is how many rows the case of seed checks: none for one seed in
// sixteen, otherwise 20 to 400.
func RowsFor(seed uint64) int {
	r := rand.New(rand.NewPCG(seed, 0x707))
	if r.IntN(16) == 0 {
		return 0
	}
	return 20 + r.IntN(381)
}

// RunCases checks every case with RowsFor(seed) rows, reporting each
// failure through report; it returns the rows checked, and ErrFailed if
// any case failed.
func RunCases(cases []Case, report func(error)) (int, error) {
	failed := false
	total := 0
	for _, c := range cases {
		n := RowsFor(c.Seed)
		total += n
		if err := Check(c, n); err != nil {
			report(err)
			failed = true
		}
	}
	if failed {
		return total, ErrFailed
	}
	return total, nil
}
