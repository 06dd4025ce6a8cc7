package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime"
)

// deviationFile is a file of runtime/testdata/deviations (written by
// DuckDB 1.5 and hyparquet-writer 0.17).
func deviationFile(name string) string {
	return filepath.Join("..", "..", "runtime", "testdata", "deviations", name)
}

// TestInspectDeviations: inspect notes the footer's deviations always and
// those of the pages with Scan, in text and JSON; under WithStrict the
// scan fails naming the deviation.
func TestInspectDeviations(t *testing.T) {
	run := func(name string, o Options) (string, error) {
		var out bytes.Buffer
		err := Run(&out, deviationFile(name), o)
		return out.String(), err
	}
	text, err := run("hyparquet_int_width.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "deviations from the specification, read as their writers meant (a strict reader refuses them; docs/DEVIATIONS.md):\n" +
		"  note: thrift-integer-width (hyparquet-writer 0.17): footer field IntType.bitWidth is written as a Thrift i32, not i8 (read, its value fits)\n" +
		"  (footer only; --scan reads the pages too)\n"
	if !strings.HasSuffix(text, want) {
		t.Fatalf("footer deviation:\n%s", text)
	}

	text, err = run("duckdb_delta33.parquet", Options{})
	if err != nil || strings.Contains(text, "deviations from") || strings.Contains(text, "note:") {
		t.Fatalf("without scan: %v\n%s", err, text)
	}
	text, err = run("duckdb_delta33.parquet", Options{Scan: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"a", "u"} {
		note := `  note: column "` + col + `", row group 0, page 0, int32-delta-wider-than-32-bits (DuckDB 1.5): INT32 DELTA_BINARY_PACKED miniblocks wider than 32 bits`
		if !strings.Contains(text, note) {
			t.Fatalf("no note for %s:\n%s", col, text)
		}
	}
	js, err := run("duckdb_delta33.parquet", Options{Scan: true, JSON: true})
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Scanned || len(r.Deviations) != 2 || r.Deviations[1].Kind != string(runtime.DeviationWideDelta) || r.Deviations[1].Column != "u" ||
		r.Deviations[1].RowGroup != 0 || r.Deviations[1].Page != 0 || r.Deviations[1].Writer != "DuckDB 1.5" {
		t.Fatalf("JSON deviations: %+v", r.Deviations)
	}

	text, err = run("duckdb_variant_unsorted.parquet", Options{Scan: true})
	if err != nil || !strings.Contains(text, `note: column "v.value", variant-object-unsorted (DuckDB 1.5)`) {
		t.Fatalf("variant scan: %v\n%s", err, text)
	}
	text, err = run("duckdb_delta33.parquet", Options{Scan: true, Reader: []runtime.ReaderOption{runtime.WithStrict(true)}})
	if !errors.Is(err, runtime.ErrDeviation) || strings.Contains(text, "deviations from the specification") {
		t.Fatalf("strict scan: %v\n%s", err, text)
	}
	text, err = run("duckdb_encrypted.parquet", Options{Scan: true, Reader: []runtime.ReaderOption{runtime.WithFooterKey([]byte("0123456789012345"))}})
	if err != nil || !strings.Contains(text, "note: encryption-without-aad (DuckDB 1.5)") {
		t.Fatalf("encrypted: %v\n%s", err, text)
	}

	// Corpus files: parquet-mr 1.12's dictionary_page_offset 0, and a
	// file without deviation, which says so once scanned.
	var out bytes.Buffer
	err = Run(&out, corpus.Path(t, "data/dict-page-offset-zero.parquet"), Options{Scan: true})
	if err != nil || !strings.Contains(out.String(), `note: column "l_partkey", row group 0, dictionary-page-offset-0`) {
		t.Fatalf("dict-page-offset-zero: %v\n%s", err, out.String())
	}
	out.Reset()
	err = Run(&out, corpus.Path(t, "data/alltypes_plain.parquet"), Options{Scan: true})
	if err != nil || !strings.HasSuffix(out.String(), "\ndeviations from the specification: none (pages scanned)\n") {
		t.Fatalf("alltypes_plain: %v\n%s", err, out.String())
	}
}
