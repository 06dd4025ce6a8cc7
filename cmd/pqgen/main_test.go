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
	// Encrypted footers need the footer key (--footer-key): without
	// keys, one line saying so (TestInspectEncrypted gives the keys).
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

// TestInspectEncrypted: with the corpus keys (data/README.md) every
// encrypted file inspects, shows its algorithm and footer mode and which
// columns are encrypted and how; a wrong key is one line naming the
// failed module.
func TestInspectEncrypted(t *testing.T) {
	keys := []string{"--footer-key", "0123456789012345", "--column-key", "double_field:1234567890123450",
		"--column-key", "float_field:hex:31323334353637383930313233343531"}
	want := map[string][]string{
		"data/encrypt_columns_and_footer.parquet.encrypted": {"encryption: AES_GCM_V1, encrypted footer",
			`column double_field (double): encrypted with a column key (key metadata "kc1"), key given: metadata decrypted`},
		"data/encrypt_columns_and_footer_aad.parquet.encrypted":                 {`AAD prefix "tester"`},
		"data/encrypt_columns_and_footer_ctr.parquet.encrypted":                 {"encryption: AES_GCM_CTR_V1, encrypted footer"},
		"data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted": {"AAD prefix must be supplied"},
		"data/encrypt_columns_plaintext_footer.parquet.encrypted":               {"plaintext (signed) footer", "signature verified"},
		"data/uniform_encryption.parquet.encrypted":                             {"encrypted with the footer key"},
		"data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted":        {"encrypted footer"},
	}
	for rel, wants := range want {
		args := append([]string{"inspect"}, keys...)
		if strings.Contains(rel, "_aad") {
			args = append(args, "--aad-prefix", "tester")
		}
		var out, errOut bytes.Buffer
		if code := run(append(args, corpus.Path(t, rel)), &out, &errOut); code != 0 || errOut.Len() != 0 {
			t.Errorf("%s: exit %d, %q", rel, code, errOut.String())
			continue
		}
		for _, w := range wants {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", rel, w, out.String())
			}
		}
	}
	var out, errOut bytes.Buffer
	code := run([]string{"inspect", "--footer-key", "0123456789012345", corpus.Path(t, "data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted")}, &out, &errOut)
	if code != 1 || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "--aad-prefix") {
		t.Errorf("no AAD prefix: exit %d, %q", code, errOut.String())
	}
	errOut.Reset()
	code = run([]string{"inspect", "--footer-key", "0000000000000000", corpus.Path(t, "data/uniform_encryption.parquet.encrypted")}, &out, &errOut)
	if code != 1 || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "authentication of the footer failed") {
		t.Errorf("wrong key: exit %d, %q", code, errOut.String())
	}
}
