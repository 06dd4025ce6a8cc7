package gen

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestFromFileEncryptedFooter: FromFile passes its reader options to the
// footer reader, so a file with an encrypted footer generates with its
// key and fails with ErrEncryptedFooter without it.
func TestFromFileEncryptedFooter(t *testing.T) {
	s, err := schema.Parse("message m { required int64 id; optional binary name (STRING); }")
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("0123456789012345")
	path := filepath.Join(t.TempDir(), "enc.parquet")
	err = runtime.WriteFile(path, s, func(w *runtime.FileWriter) error { return w.EndRows(0) },
		runtime.WithEncryption(runtime.FileEncryption{FooterKey: key}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromFile(path, "p", "Row"); !errors.Is(err, runtime.ErrEncryptedFooter) {
		t.Fatalf("without the key: %v, want ErrEncryptedFooter", err)
	}
	p, err := FromFile(path, "p", "Row", runtime.WithFooterKey(key))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Types[0].Schema.String(); got != s.String() {
		t.Errorf("schema\n%s\nwant\n%s", got, s.String())
	}
	files, err := Generate(p, "")
	if err != nil {
		t.Fatal(err)
	}
	if src, ok := files["row_parquet.go"]; !ok || !strings.Contains(string(src), "func ReadRowFile(") {
		t.Errorf("no row_parquet.go with ReadRowFile among %d generated files", len(files))
	}
}
