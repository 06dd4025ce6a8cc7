package gen

import (
	"path/filepath"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestGeoParquetColumns: FromFile types the WKB columns a file's
// GeoParquet metadata describes GEOMETRY (planar edges) or GEOGRAPHY
// (spherical), with the CRS the metadata names by identifier, OGC:CRS84
// when it names none; it leaves the other columns as they are: those of
// another encoding, or of a CRS without an identifier, nested ones,
// annotated ones, and every column of a file whose metadata is not
// JSON.
func TestGeoParquetColumns(t *testing.T) {
	in := `message m {
  required int64 id;
  optional binary g;
  optional binary g4326;
  optional binary sph;
  optional binary unknown;
  optional binary noid;
  optional binary native;
  optional binary s (STRING);
  optional group nested {
    optional binary g;
  }
}`
	geo := `{"version":"1.1.0","primary_column":"g","columns":{
  "g":{"encoding":"WKB","geometry_types":[]},
  "g4326":{"encoding":"WKB","geometry_types":["Point"],"crs":{"type":"GeographicCRS","name":"WGS 84","id":{"authority":"EPSG","code":4326}}},
  "sph":{"encoding":"WKB","geometry_types":[],"edges":"spherical","crs":{"id":{"authority":"OGC","code":"CRS84"}}},
  "unknown":{"encoding":"WKB","geometry_types":[],"crs":null},
  "noid":{"encoding":"WKB","geometry_types":[],"crs":{"type":"GeographicCRS","name":"custom"}},
  "native":{"encoding":"point","geometry_types":["Point"]},
  "s":{"encoding":"WKB","geometry_types":[]},
  "nested":{"encoding":"WKB","geometry_types":[]}}}`
	want := `message m {
  required int64 id;
  optional binary g (GEOMETRY("OGC:CRS84"));
  optional binary g4326 (GEOMETRY("EPSG:4326"));
  optional binary sph (GEOGRAPHY("OGC:CRS84",SPHERICAL));
  optional binary unknown;
  optional binary noid;
  optional binary native;
  optional binary s (STRING);
  optional group nested {
    optional binary g;
  }
}`
	for _, c := range []struct {
		name, geo, want string
	}{
		{"geo", geo, want},
		{"not JSON", "{", in},
		{"no columns", `{"version":"1.0.0"}`, in},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := schema.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "geo.parquet")
			err = runtime.WriteFile(path, s, func(w *runtime.FileWriter) error { return w.EndRows(0) },
				runtime.WithKeyValueMetadata("geo", c.geo))
			if err != nil {
				t.Fatal(err)
			}
			p, err := FromFile(path, "p", "Row")
			if err != nil {
				t.Fatal(err)
			}
			w, err := schema.Parse(c.want)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Types[0].Schema.String(); got != w.String() {
				t.Errorf("schema\n%s\nwant\n%s", got, w.String())
			}
			f, fh, err := runtime.OpenPath(path)
			if err != nil {
				t.Fatal(err)
			}
			fh.Close()
			if fs, err := FileSchema(f); err != nil || fs.String() != w.String() {
				t.Errorf("FileSchema: %v, %v; want the schema FromFile generates", fs, err)
			}
		})
	}
}

// TestGeoParquetDuckDB: the GeoParquet metadata DuckDB 1.5 writes (its
// default, GEOPARQUET_VERSION V1; peers/js/writers.mjs's
// duckdb_all_types.parquet) types its geometry column GEOMETRY.
func TestGeoParquetDuckDB(t *testing.T) {
	// The "geo" value of that file, as DuckDB wrote it.
	const geo = `{"version":"1.0.0","primary_column":"geometry","columns":{"geometry":{"encoding":"WKB","geometry_types":["Point","GeometryCollection"],"bbox":[0.0,0.0,5.0,6.0]}}}`
	s, err := schema.Parse("message duckdb_schema { optional binary geometry; }")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "duck.parquet")
	err = runtime.WriteFile(path, s, func(w *runtime.FileWriter) error { return w.EndRows(0) }, runtime.WithKeyValueMetadata("geo", geo))
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromFile(path, "p", "Row")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Types[0].Schema.String(), "message duckdb_schema {\n  optional binary geometry (GEOMETRY(\"OGC:CRS84\"));\n}\n"; got != want {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
}
