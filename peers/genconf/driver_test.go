package genconf

import (
	"strings"
	"testing"

	"github.com/pqgen/pqgen/peers/internal/nodejs"
)

// TestBuildDriverNamesBadFiles: when the generated package does not
// compile, buildDriver names the generated files at fault, so that the
// corpus test can give those files the compile verdict and build the rest.
func TestBuildDriverNamesBadFiles(t *testing.T) {
	files := map[string][]byte{
		"good_parquet.go": []byte("package main\n\nvar good = 1\n"),
		"bad_parquet.go":  []byte("package main\n\nvar bad int = \"text\"\n"),
	}
	bin, bad, out := buildDriver(t, t.TempDir(), t.TempDir(), files, nil)
	if bin != "" {
		t.Fatalf("built %s", bin)
	}
	if len(bad) != 1 || !strings.Contains(bad["bad_parquet.go"], "bad_parquet.go:3:") {
		t.Fatalf("bad files %q; output:\n%s", bad, out)
	}
	delete(files, "bad_parquet.go")
	if bin, bad, out = buildDriver(t, t.TempDir(), t.TempDir(), files, nil); bin == "" {
		t.Fatalf("no build without the bad file: %q\n%s", bad, out)
	}
}

// TestVerdict: the stage a DuckDB comparison fails at.
func TestVerdict(t *testing.T) {
	types := [][2]string{{"a", "INTEGER"}}
	for _, c := range []struct {
		r     nodejs.ExceptResult
		rows  int
		stage string
	}{
		{nodejs.ExceptResult{TypesA: types, TypesB: types, RowsA: 3, RowsB: 3}, 3, stagePass},
		{nodejs.ExceptResult{Stage: "read-a", Error: "x"}, 3, stageDuckA},
		{nodejs.ExceptResult{Stage: "read-b", Error: "x", TypesA: types}, 3, stageDuckB},
		{nodejs.ExceptResult{TypesA: types, TypesB: [][2]string{{"a", "BIGINT"}}, RowsA: 3, RowsB: 3}, 3, stageTypes},
		{nodejs.ExceptResult{TypesA: types, TypesB: types, RowsA: 3, RowsB: 3}, 2, stageRows},
		{nodejs.ExceptResult{TypesA: types, TypesB: types, RowsA: 3, RowsB: 2}, 3, stageRows},
		{nodejs.ExceptResult{TypesA: types, TypesB: types, RowsA: 3, RowsB: 3, AMinusB: 1, BMinusA: 1}, 3, stageRows},
		{nodejs.ExceptResult{TypesA: types, TypesB: types, RowsA: 3, RowsB: 3, SkipReadable: []string{"a"}}, 3, stageRows},
		{nodejs.ExceptResult{TypesA: types, TypesB: types, Stage: "except", Error: "x"}, 3, stageRows},
	} {
		if got, detail := verdict(c.r, c.rows); got != c.stage {
			t.Errorf("%+v with %d rows: %s (%s), want %s", c.r, c.rows, got, detail, c.stage)
		}
	}
}

// TestTypeName: corpus paths become distinct exported identifiers.
func TestTypeName(t *testing.T) {
	for in, want := range map[string]string{
		"data/alltypes_plain.snappy.parquet":        "AlltypesPlainSnappy",
		"data/geospatial/crs-srid.parquet":          "GeospatialCrsSrid",
		"data/datapage_v1-corrupt-checksum.parquet": "DatapageV1CorruptChecksum",
		"data/uniform_encryption.parquet.encrypted": "UniformEncryption",
		"data/1x.parquet":                           "F1x",
	} {
		if got := typeName(in); got != want {
			t.Errorf("typeName(%q) = %q, want %q", in, got, want)
		}
	}
}
