package inspect

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestWrappedGeographyBox: a GEOGRAPHY box across the antimeridian is
// reported as wrapping.
func TestWrappedGeographyBox(t *testing.T) {
	w, buf := newWriter(t, "message m { required binary g (GEOGRAPHY); }")
	g, _ := w.ByteArrayBuffer(0)
	g.Values.Append(geo.AppendLineString(nil, [][2]float64{{170, 0}, {-170, 0}}))
	r := closeAndBuild(t, w, buf, 1)
	if gs := r.RowGroups[0].Columns[0].Geospatial; gs == nil || !gs.Wraps {
		t.Fatalf("geospatial %+v", gs)
	}
	wantLines(t, r, "geospatial: bbox [170 -170 0 0] (wraps the antimeridian: x >= xmin or x <= xmax), types [2]")
}

// newWriter returns a writer of the schema text to a new buffer.
func newWriter(t *testing.T, text string) (*runtime.FileWriter, *bytes.Buffer) {
	t.Helper()
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := runtime.NewFileWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	return w, &buf
}

// wantLines fails unless r's text holds each of lines.
func wantLines(t *testing.T, r *Report, lines ...string) {
	t.Helper()
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range lines {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, text.String())
		}
	}
}

// closeAndBuild ends rows rows of w, closes it and builds the report of
// the file written to buf.
func closeAndBuild(t *testing.T, w *runtime.FileWriter, buf *bytes.Buffer, rows int) *Report {
	t.Helper()
	if err := w.EndRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := runtime.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return Build("test.parquet", f)
}
