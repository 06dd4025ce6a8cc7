// Test helpers: the parquet-testing corpus location and footer extraction
// (https://parquet.apache.org/docs/file-format/metadata/), and the schema
// description type used by schema_gen_test.go.

package meta

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
)

// schemaField describes one field of a Thrift struct for the differential
// tests: its name, compact wire type, list element wire type (tStop when
// not a list) and nested struct name ("" when not a struct).
type schemaField struct {
	name string
	wire byte
	elem byte
	sub  string
}

// corpusDir returns the parquet-testing corpus root (see internal/corpus).
func corpusDir(t testing.TB) string {
	t.Helper()
	return corpus.Dir(t)
}

// corpusFiles lists every .parquet and .parquet.encrypted file under dir.
func corpusFiles(t testing.TB, dir string) []string {
	t.Helper()
	var files []string
	for _, rel := range corpus.ParquetFiles(t) {
		files = append(files, filepath.Join(dir, filepath.FromSlash(rel)))
	}
	return files
}

// footer returns the footer bytes of a Parquet file and its magic ("PAR1"
// or "PARE").
func footer(path string) ([]byte, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	if len(b) < 12 {
		return nil, "", fmt.Errorf("file too short (%d bytes)", len(b))
	}
	magic := string(b[len(b)-4:])
	if magic != "PAR1" && magic != "PARE" {
		return nil, "", fmt.Errorf("bad magic %q", magic)
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	if n > len(b)-12 {
		return nil, "", fmt.Errorf("footer length %d exceeds file size %d", n, len(b))
	}
	return b[len(b)-8-n : len(b)-8], magic, nil
}
