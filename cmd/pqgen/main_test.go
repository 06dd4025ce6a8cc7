package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
)

// unreadable lists the corpus files pqgen inspect must refuse, with a part
// of the one-line message it must give. Every other file must inspect
// with exit status 0, as text and as JSON.
var unreadable = map[string]string{
	// Encrypted footers need keys (runtime/crypt is not there yet).
	"data/encrypt_columns_and_footer.parquet.encrypted":                     "needs the footer key",
	"data/encrypt_columns_and_footer_aad.parquet.encrypted":                 "needs the footer key",
	"data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted":        "needs the footer key",
	"data/encrypt_columns_and_footer_ctr.parquet.encrypted":                 "needs the footer key",
	"data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted": "needs the footer key",
	"data/external_key_material_java.parquet.encrypted":                     "needs the footer key",
	"data/uniform_encryption.parquet.encrypted":                             "needs the footer key",
	// The one bad_data file whose fault is in the footer: a corrupt schema.
	"bad_data/PARQUET-1481.parquet": "corrupt footer",
}

func TestInspectCorpus(t *testing.T) {
	files := corpus.ParquetFiles(t)
	seen := map[string]bool{}
	for _, rel := range files {
		seen[rel] = true
		path := corpus.Path(t, rel)
		for _, mode := range []string{"text", "json"} {
			args := []string{"inspect", path}
			if mode == "json" {
				args = []string{"inspect", "--json", path}
			}
			var out, errOut bytes.Buffer
			code := run(args, &out, &errOut)
			if want, bad := unreadable[rel]; bad {
				msg := errOut.String()
				if code != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, want) || !strings.HasPrefix(msg, "pqgen: "+path+": ") {
					t.Errorf("%s (%s): exit %d, stderr %q; want exit 1 and one line containing %q", rel, mode, code, msg, want)
				}
				continue
			}
			if code != 0 || errOut.Len() != 0 {
				t.Errorf("%s (%s): exit %d, stderr %q", rel, mode, code, errOut.String())
				continue
			}
			if mode == "json" {
				var v map[string]any
				if err := json.Unmarshal(out.Bytes(), &v); err != nil {
					t.Errorf("%s: invalid JSON: %v", rel, err)
				} else if _, ok := v["schema"].(string); !ok {
					t.Errorf("%s: JSON without schema", rel)
				}
			} else if !strings.Contains(out.String(), "schema:\n  message ") {
				t.Errorf("%s: text output without schema:\n%s", rel, out.String())
			}
		}
	}
	for rel := range unreadable {
		if !seen[rel] {
			t.Errorf("expected corpus file %s is missing", rel)
		}
	}
}

func TestInspectUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage") {
		t.Errorf("no args: exit %d, %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"inspect", "/nonexistent/x.parquet"}, &out, &errOut); code != 1 || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("missing file: exit %d, %q", code, errOut.String())
	}
	errOut.Reset()
	f, err := os.CreateTemp(t.TempDir(), "*.parquet")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not parquet at all")
	f.Close()
	if code := run([]string{"inspect", f.Name()}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not a Parquet file") {
		t.Errorf("garbage file: exit %d, %q", code, errOut.String())
	}
}
