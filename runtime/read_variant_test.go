package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
	"github.com/pqgen/pqgen/runtime/variant"
)

// TestShreddedVariantCorpus reads every case of shredded_variant/ and
// compares each row with the expected Variant of its .variant.bin, or
// expects the error the case names.
func TestShreddedVariantCorpus(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "shredded_variant")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Case         int       `json:"case_number"`
		Test         string    `json:"test"`
		Parquet      string    `json:"parquet_file"`
		VariantFile  string    `json:"variant_file"`
		VariantFiles []*string `json:"variant_files"`
		Error        string    `json:"error_message"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 90 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%03d-%s", c.Case, c.Test), func(t *testing.T) {
			rows, err := readVariants(filepath.Join(dir, c.Parquet))
			if c.Error != "" {
				if err == nil {
					t.Fatalf("read without error; want %q", c.Error)
				}
				if !errors.Is(err, ErrVariant) && !errors.Is(err, ErrColumn) {
					t.Fatalf("error %v is neither ErrVariant nor ErrColumn", err)
				}
				// The same reason as the case's message ("Invalid variant,
				// conflicting value and typed_value"; "Unsupported shredded
				// value type: ...").
				reason, _, _ := strings.Cut(strings.TrimPrefix(c.Error, "Invalid variant, "), ":")
				if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(reason)) {
					t.Fatalf("error %q does not say %q", err, reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			files := c.VariantFiles
			if c.VariantFile != "" {
				files = []*string{&c.VariantFile}
			}
			if len(rows) != len(files) {
				t.Fatalf("%d rows, want %d", len(rows), len(files))
			}
			for i, f := range files {
				if f == nil {
					if !rows[i].IsNull() {
						t.Fatalf("row %d: want null, got %x", i, rows[i].Value)
					}
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, *f))
				if err != nil {
					t.Fatal(err)
				}
				want, err := variant.ParseConcat(b)
				if err != nil {
					t.Fatalf("%s: %v", *f, err)
				}
				got, err := rows[i].Parse()
				if err != nil {
					t.Fatalf("row %d: our Variant does not parse: %v", i, err)
				}
				if variant.Describe(got) != variant.Describe(want) {
					t.Fatalf("row %d:\n got %s\nwant %s", i, variant.Describe(got), variant.Describe(want))
				}
			}
		})
	}
}

// readVariants reads column var of every row, in batches of 3 rows so that
// batch boundaries are crossed.
func readVariants(path string) ([]variant.Encoded, error) {
	fh, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	fr, err := NewFileReader(fh, size)
	if err != nil {
		return nil, err
	}
	vr, err := fr.VariantReader("var")
	if err != nil {
		return nil, err
	}
	var out []variant.Encoded
	for {
		n, err := vr.ReadRows(3)
		if err == io.EOF && n == 0 {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		for _, r := range vr.Rows {
			out = append(out, variant.Encoded{Metadata: append([]byte(nil), r.Metadata...), Value: append([]byte(nil), r.Value...)})
		}
	}
}

// FuzzReadVariant: any file bytes given to VariantReader give rows or an
// error, never a panic; the rows it gives are valid Variants, their
// objects in key order (re-encoded when the file's were not).
func FuzzReadVariant(f *testing.F) {
	addDeviationSeeds(f)
	if dir, ok := corpus.Lookup(); ok {
		files, _ := filepath.Glob(filepath.Join(dir, "shredded_variant", "*.parquet"))
		for i, p := range files {
			if i%4 != 0 { // a quarter of the cases cover every layout
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(readVariantFuzzBody)
}

// readVariantFuzzBody is FuzzReadVariant's check of one input.
func readVariantFuzzBody(t *testing.T, data []byte) {
	{
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		var groups []string
		var walk func(n *schema.Node)
		walk = func(n *schema.Node) {
			if n.Logical.Kind == meta.LogicalVariant {
				groups = append(groups, n.PathString())
			}
			for _, c := range n.Children {
				walk(c)
			}
		}
		walk(fr.File().Schema.Root)
		for _, g := range groups {
			vr, err := fr.VariantReader(g)
			if err != nil {
				continue
			}
			for range 100 {
				n, err := vr.ReadRows(4)
				if err != nil || n == 0 {
					break
				}
				for _, r := range vr.Rows {
					if r.IsNull() {
						continue
					}
					if x, err := r.Parse(); err != nil {
						t.Fatalf("%s: VariantReader gave an invalid Variant: %v", g, err)
					} else if x.Unsorted() {
						t.Fatalf("%s: VariantReader gave an object out of key order", g)
					}
				}
			}
		}
	}
}

// TestVariantReaderNullMetadata: a file whose metadata column is null
// where the group is defined (each column valid on its own, the two at
// odds) is an error, not a read past the metadata values.
func TestVariantReaderNullMetadata(t *testing.T) {
	const text = `message m {
  optional group v (VARIANT) {
    optional binary value;
    required binary metadata;
  }
}`
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, text))
	if err != nil {
		t.Fatal(err)
	}
	val, err := fw.ByteArrayBuffer(0)
	if err != nil {
		t.Fatal(err)
	}
	md, err := fw.ByteArrayBuffer(1)
	if err != nil {
		t.Fatal(err)
	}
	val.Def = append(val.Def, 1) // v defined, value null
	md.Def = append(md.Def, 0)   // v null
	if err := fw.EndRows(1); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	fr, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	vr, err := fr.VariantReader("v")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vr.ReadRows(1); !errors.Is(err, ErrChunk) {
		t.Fatalf("ReadRows: %v, want ErrChunk", err)
	}
}

// TestVariantColumn: the group is read when all its leaves are selected,
// and is absent (nil, or ErrBind when required) when the file lacks it or
// WithColumns leaves any of its leaves out.
func TestVariantColumn(t *testing.T) {
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, variantSchema))
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := fw.Int32Buffer(0)
	ids.Values = append(ids.Values, 1)
	e := encodeVariant(t, func(b *variant.Builder) { b.StartObject(); b.Key("a"); b.AppendInt64(7); b.End() })
	for _, p := range []string{"v", "w"} {
		vw, err := fw.VariantWriter(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := vw.Append(e, 0); err != nil {
			t.Fatal(err)
		}
	}
	lw, err := fw.VariantWriter("l.list.element")
	if err != nil {
		t.Fatal(err)
	}
	lw.AppendNull(0, 0)
	if err := fw.EndRows(1); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cols []string
		path string
		read bool
	}{
		{nil, "v", true},
		{nil, "l.list.element", true},
		{nil, "nope", false},
		{nil, "id", false}, // a leaf, not a group
		{[]string{"v"}, "v", true},
		{[]string{"v", "id"}, "w", false},
		{[]string{"v.metadata", "v.value"}, "v", false},
		{[]string{"v.typed_value"}, "v", false},
	} {
		name := fmt.Sprintf("%v %s", c.cols, c.path)
		var opts []ReaderOption
		if c.cols != nil {
			opts = append(opts, WithColumns(c.cols...))
		}
		fr, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), opts...)
		if err != nil {
			t.Fatal(err)
		}
		vr, err := fr.VariantColumn(c.path, false)
		if err != nil || (vr != nil) != c.read {
			t.Fatalf("%s: VariantColumn: %v, %v; want a reader: %v", name, vr != nil, err, c.read)
		}
		// Required: an error when the file lacks the group, not when
		// WithColumns leaves it out (it then reads as null, like the
		// other columns left out read as zero).
		absent := c.path == "nope" || c.path == "id"
		if vr2, err := fr.VariantColumn(c.path, true); (err != nil) != absent || (vr2 != nil) != c.read || (err != nil && !errors.Is(err, ErrBind)) {
			t.Fatalf("%s: VariantColumn required: %v", name, err)
		}
		if !c.read {
			continue
		}
		if n, err := vr.ReadRows(2); n != 1 || err != nil {
			t.Fatalf("%s: ReadRows: %d, %v", name, n, err)
		}
		want := "null"
		if c.path == "v" {
			want = variant.Describe(mustVariant(t, e))
		}
		if got := describeRow(t, vr.Rows[0]); got != want {
			t.Fatalf("%s: read %s, want %s", name, got, want)
		}
		d := vr.Detach()
		if len(d) != 1 || describeRow(t, d[0]) != want {
			t.Fatalf("%s: Detach: %d rows, want 1 of %s", name, len(d), want)
		}
		if !d[0].IsNull() && &d[0].Value[0] == &vr.Rows[0].Value[0] {
			t.Fatalf("%s: Detach shares the reader's bytes", name)
		}
	}
}

func mustVariant(t *testing.T, e variant.Encoded) variant.Value {
	t.Helper()
	v, err := e.Parse()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// describeRow describes a row read: "null" for a null group.
func describeRow(t *testing.T, e variant.Encoded) string {
	t.Helper()
	if e.IsNull() {
		return "null"
	}
	return variant.Describe(mustVariant(t, e))
}
