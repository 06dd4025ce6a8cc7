package generated

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/variant"
)

// randomJSON returns a JSON document shaped like DocumentLog's shredding
// most of the time (user, count, tags with the shredded types), with
// mismatching types, extra fields and non-objects mixed in.
func randomJSON(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0:
		return fmt.Sprintf("%d", r.Int64N(1000))
	case 1:
		return `"just a string"`
	case 2:
		return `[1, "two", null]`
	}
	s := "{"
	sep := ""
	add := func(k, v string) {
		s += sep + fmt.Sprintf("%q:%s", k, v)
		sep = ","
	}
	if r.IntN(4) > 0 {
		add("user", fmt.Sprintf("%q", fmt.Sprintf("u%d", r.IntN(50))))
	} else if r.IntN(2) == 0 {
		add("user", "42") // not a string: stays in value
	}
	if r.IntN(4) > 0 {
		add("count", fmt.Sprintf("%d", r.Int64()>>uint(r.IntN(60))))
	}
	if r.IntN(3) > 0 {
		add("tags", fmt.Sprintf(`["a%d", "b", %s]`, r.IntN(9), []string{`"c"`, "null", "7", `{"x":1}`}[r.IntN(4)]))
	}
	if r.IntN(2) == 0 {
		add("note", fmt.Sprintf(`{"deep": [%d, 2.50, true]}`, r.IntN(100)))
	}
	return s + "}"
}

func mustVariant(t *testing.T, js string) variant.Encoded {
	t.Helper()
	m, v, err := variant.FromJSON([]byte(js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return variant.Encoded{Metadata: m, Value: v}
}

func documents(t *testing.T, n int) []Document {
	r := rand.New(rand.NewPCG(21, 22))
	out := make([]Document, n)
	for i := range out {
		out[i] = Document{ID: int64(i), Body: mustVariant(t, randomJSON(r))}
		if r.IntN(3) > 0 {
			out[i].Extra = mustVariant(t, []string{"5", `"x"`, "null", "12.5"}[r.IntN(4)])
		}
	}
	return out
}

func describe(t *testing.T, e variant.Encoded) string {
	t.Helper()
	if e.IsNull() {
		return "<null>"
	}
	v, err := e.Parse()
	if err != nil {
		t.Fatal(err)
	}
	return variant.Describe(v)
}

// same reports whether two encoded Variants (or nulls) are equal values.
func same(t *testing.T, a, b variant.Encoded) bool {
	t.Helper()
	if a.IsNull() || b.IsNull() {
		return a.IsNull() == b.IsNull()
	}
	va, err := a.Parse()
	if err != nil {
		t.Fatal(err)
	}
	vb, err := b.Parse()
	if err != nil {
		t.Fatal(err)
	}
	return variant.Equal(va, vb)
}

// TestDocumentVariants: unshredded Variants round-trip byte for byte
// through the generated writer and reader, nulls included.
func TestDocumentVariants(t *testing.T) {
	in := documents(t, 3000)
	var buf bytes.Buffer
	w, err := NewDocumentWriter(&buf, runtime.WithPageSize(4096))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(in); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewDocumentReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var out []Document
	batch := make([]Document, 77)
	for {
		n, err := r.Read(batch)
		out = append(out, batch[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) != len(in) {
		t.Fatalf("%d rows, want %d", len(out), len(in))
	}
	for i := range in {
		a, b := in[i], out[i]
		if a.ID != b.ID || !bytes.Equal(a.Body.Metadata, b.Body.Metadata) || !bytes.Equal(a.Body.Value, b.Body.Value) ||
			a.Extra.IsNull() != b.Extra.IsNull() || !bytes.Equal(a.Extra.Value, b.Extra.Value) {
			t.Fatalf("row %d: got %s %s, want %s %s", i, describe(t, b.Body), describe(t, b.Extra), describe(t, a.Body), describe(t, a.Extra))
		}
	}
}

// TestDocumentLogShredding writes the same Variants through DocumentLog,
// whose schema shreds them, and reads the file back both as DocumentLog
// and as Document (unshredded type, shredded file): the same Variants.
func TestDocumentLogShredding(t *testing.T) {
	docs := documents(t, 2000)
	logs := make([]DocumentLog, len(docs))
	for i, d := range docs {
		logs[i] = DocumentLog{ID: d.ID, Body: d.Body}
		if !d.Extra.IsNull() {
			// extra shreds int64 only; other values stay in value.
			logs[i].Extra = d.Extra
		}
	}
	var buf bytes.Buffer
	w, err := NewDocumentLogWriter(&buf, runtime.WithPageSize(2048))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(logs); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := runtime.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	// The shredded columns hold values: user strings, counts, tags.
	for _, path := range []string{"body.typed_value.user.typed_value", "body.typed_value.count.typed_value", "body.typed_value.tags.typed_value.list.element.typed_value", "extra.typed_value"} {
		var vals int64
		for _, l := range f.Schema.Leaves {
			if l.PathString() == path {
				md := f.Meta.RowGroups[0].Columns[l.Column].MetaData
				vals = md.NumValues - md.Statistics.NullCount.Val
			}
		}
		if vals == 0 {
			t.Errorf("%s holds no values", path)
		}
	}
	back, err := readAll(t, buf.Bytes(), NewDocumentLogReader)
	if err != nil {
		t.Fatal(err)
	}
	asDocs, err := readAll(t, buf.Bytes(), NewDocumentReader)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(docs) || len(asDocs) != len(docs) {
		t.Fatalf("%d and %d rows, want %d", len(back), len(asDocs), len(docs))
	}
	for i, d := range docs {
		want := describe(t, d.Body) + " " + describe(t, d.Extra)
		if !same(t, back[i].Body, d.Body) || !same(t, back[i].Extra, d.Extra) {
			t.Fatalf("row %d as DocumentLog:\n got %s %s\nwant %s", i, describe(t, back[i].Body), describe(t, back[i].Extra), want)
		}
		if !same(t, asDocs[i].Body, d.Body) || !same(t, asDocs[i].Extra, d.Extra) {
			t.Fatalf("row %d as Document:\n got %s %s\nwant %s", i, describe(t, asDocs[i].Body), describe(t, asDocs[i].Extra), want)
		}
	}
}

func readAll[T any, R runtime.RowReader[T]](t *testing.T, data []byte, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error)) ([]T, error) {
	t.Helper()
	r, err := open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var out []T
	batch := make([]T, 100)
	for {
		n, err := r.Read(batch)
		out = append(out, batch[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// TestDocumentVariantRejected: a batch holding an invalid Variant, or a
// Variant its shredded group cannot store, is refused whole; the writer
// goes on and the file holds exactly the accepted rows.
func TestDocumentVariantRejected(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewDocumentWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	good := documents(t, 10)
	if _, err := w.Write(good[:5]); err != nil {
		t.Fatal(err)
	}
	bad := append([]Document(nil), good[5:]...)
	bad[3].Body = variant.Encoded{Metadata: []byte{1, 0, 0}, Value: []byte{0xfe}}
	if n, err := w.Write(bad); err == nil || n != 0 || !errors.Is(err, variant.ErrMalformed) {
		t.Fatalf("Write of an invalid Variant: %d, %v", n, err)
	}
	bad[3].Body = variant.Encoded{} // null in a required group
	if _, err := w.Write(bad); err == nil {
		t.Fatal("null Variant in a required group accepted")
	}
	if _, err := w.Write(good[5:]); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := readAll(t, buf.Bytes(), NewDocumentReader)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 10 {
		t.Fatalf("%d rows, want 10", len(out))
	}
	for i := range out {
		if out[i].ID != int64(i) || !bytes.Equal(out[i].Body.Value, good[i].Body.Value) {
			t.Fatalf("row %d differs", i)
		}
	}
}

// TestDocumentLogParallel: the parallel writer gives the same bytes for
// shredded Variant columns as the sequential one.
func TestDocumentLogParallel(t *testing.T) {
	docs := documents(t, 1500)
	logs := make([]DocumentLog, len(docs))
	for i, d := range docs {
		logs[i] = DocumentLog(d)
	}
	write := func(opts ...runtime.WriterOption) []byte {
		var buf bytes.Buffer
		w, err := NewDocumentLogWriter(&buf, append([]runtime.WriterOption{runtime.WithPageSize(1024)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(logs); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(write(), write(runtime.WithParallelism(2))) {
		t.Fatal("WithParallelism(2) wrote other bytes")
	}
}
