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
	s, err := schema.Parse("message m { required binary g (GEOGRAPHY); }")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := runtime.NewFileWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := w.ByteArrayBuffer(0)
	g.Values.Append(geo.AppendLineString(nil, [][2]float64{{170, 0}, {-170, 0}}))
	r := closeAndBuild(t, w, &buf, 1)
	if gs := r.RowGroups[0].Columns[0].Geospatial; gs == nil || !gs.Wraps {
		t.Fatalf("geospatial %+v", gs)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if line := "geospatial: bbox [170 -170 0 0] (wraps the antimeridian: x >= xmin or x <= xmax), types [2]"; !strings.Contains(text.String(), line) {
		t.Fatalf("text lacks %q:\n%s", line, text.String())
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
