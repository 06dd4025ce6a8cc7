package golden

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pqgen/pqgen/gen"
)

// TestFileRefRoundTrip generates the code of testdata/schema/file.schema
// (FILE groups bound to runtime.FileRef, and one that is not) and runs a
// test of it: rows of every kind of reference (external range, whole
// external file, inline, empty inline, a range of the same file, null)
// round-trip, the file keeps the FILE annotations, a self-reference reads
// its bytes through the file, and a value resolving to nothing is refused.
func TestFileRefRoundTrip(t *testing.T) {
	runSchemaTest(t, "file.schema", "fileroundtrip", fileRoundTripCode)
}

// runSchemaTest generates the code of testdata/schema/name into package
// pkg (testdata/pkg, as overlays) beside the test file code, builds the
// test binary and runs it. Each of extra (schema text) is generated into
// the same package too, its type named after its message.
func runSchemaTest(t *testing.T, name, pkg, code string, extra ...string) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata/schema", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := "testdata/" + pkg
	outs := []output{{virtual: filepath.Join(dir, "doc_test.go"), code: []byte(code)}}
	for i, text := range append([]string{string(text)}, extra...) {
		p, err := gen.FromSchemaText(name, text, pkg, "")
		if err != nil {
			t.Fatal(err)
		}
		p.Path = "github.com/pqgen/pqgen/golden/" + dir
		out := fmt.Sprintf("extra%d.go", i)
		if i == 0 {
			out = "doc.go"
		}
		files, err := gen.Generate(p, out)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, output{virtual: filepath.Join(dir, out), code: files[out]})
	}
	if testing.Short() {
		t.Skip("compiling generated code: skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), pkg+".test")
	compile(t, outs, "test", "-vet=off", "-c", "-o", bin)
	if out, err := exec.Command(bin, "-test.v").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

const fileRoundTripCode = `package fileroundtrip

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	pqrt "github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

func TestRoundTrip(t *testing.T) {
	s := func(x string) *string { return &x }
	i := func(x int64) *int64 { return &x }
	rows := []Doc{
		{ID: 1, Attachment: &pqrt.FileRef{URI: s("s3://bucket/a.jpg"), Offset: i(10), Size: i(20), ContentType: s("image/jpeg"),
			Checksum: s("MD5:d41d8cd98f00b204e9800998ecf8427e")}, Thumb: &pqrt.FileRef{Inline: []byte("png"), ContentType: s("image/png")},
			Raw: &DocRaw{URI: []byte("file:///x")}},
		{ID: 2, Attachment: &pqrt.FileRef{Offset: i(0), Size: i(4)}},
		{ID: 3, Attachment: &pqrt.FileRef{Inline: []byte{}}},
		{ID: 4, Attachment: &pqrt.FileRef{URI: s("https://example.com/whole")}},
		{ID: 5},
	}
	var buf bytes.Buffer
	w, err := NewDocWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewDocReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]Doc, len(rows))
	if n, err := r.Read(got); n != len(rows) || err != nil {
		t.Fatalf("read %d rows: %v", n, err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Fatalf("rows differ:\n got %+v\nwant %+v", got, rows)
	}
	want := []string{"external URI s3://bucket/a.jpg [10, 30)", "range of this file [0, 4)", "inline bytes (0)", "external URI https://example.com/whole"}
	for k, w := range want {
		if tg, err := got[k].Attachment.Resolve(); err != nil || tg.String() != w {
			t.Errorf("row %d: %v %v, want %s", k, tg, err, w)
		}
	}
	// A present value that resolves to nothing is refused.
	bad, err := NewDocWriter(new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Write([]Doc{{ID: 9, Thumb: &pqrt.FileRef{}}}); err == nil {
		err = bad.Close()
		if !errors.Is(err, pqrt.ErrFileRef) {
			t.Errorf("an empty FILE value: %v", err)
		}
	} else if !errors.Is(err, pqrt.ErrFileRef) {
		t.Errorf("an empty FILE value: %v", err)
	}
	f, err := pqrt.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for k, name := range []string{"attachment", "thumb", "raw"} {
		if n := f.Schema.Root.Children[k+1]; n.Name != name || n.Logical.Kind != meta.LogicalFile {
			t.Errorf("group %s: %+v", name, n.Logical)
		}
	}
	if b, err := f.ReadFileRef(*got[1].Attachment, 0); err != nil || string(b) != "PAR1" {
		t.Errorf("self-reference: %q %v", b, err)
	}
	if b, err := f.ReadFileRef(*got[0].Thumb, 0); err != nil || string(b) != "png" {
		t.Errorf("inline: %q %v", b, err)
	}
}
`
