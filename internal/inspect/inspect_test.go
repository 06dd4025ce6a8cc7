package inspect

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenFiles are corpus files whose full inspect output is pinned: each
// was checked by hand against the corpus documentation when its golden
// file was first written (decimal bounds, truncated statistics, page
// index and bloom filter offsets, float16 bounds, nested levels,
// plaintext-footer encryption, geospatial statistics, size statistics).
var goldenFiles = []string{
	"data/int32_decimal.parquet",
	"data/fixed_length_decimal.parquet",
	"data/binary_truncated_min_max.parquet",
	"data/data_index_bloom_encoding_stats.parquet",
	"data/float16_nonzeros_and_nans.parquet",
	"data/nested_lists.snappy.parquet",
	"data/encrypt_columns_plaintext_footer.parquet.encrypted",
	"data/geospatial/geospatial.parquet",
	"data/int96_from_spark.parquet",
	"data/column_chunk_key_value_metadata.parquet",
	"data/sort_columns.parquet",
	"data/floating_orders_nan_count.parquet",
}

func TestGolden(t *testing.T) {
	for _, rel := range goldenFiles {
		t.Run(rel, func(t *testing.T) {
			f, fh, err := runtime.OpenPath(corpus.Path(t, rel))
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			r := Build(rel, f)
			var text bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			js, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Join("testdata", "golden", strings.NewReplacer("/", "__").Replace(rel))
			check(t, base+".txt", text.Bytes())
			check(t, base+".json", append(js, '\n'))
		})
	}
}

func check(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}
