// Package corpus locates the public parquet-testing corpus for tests, the
// way Arrow's tests do: through the PARQUET_TEST_DATA environment variable
// (a directory holding data/ and bad_data/), defaulting to
// ../shared/parquet-testing beside the repository root.
//
// Without the corpus a test skips with a loud message; under CI=true the
// corpus's absence is a failure, so a CI run can never pass by skipping.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Dir returns the corpus root (the directory holding data/ and bad_data/),
// skipping the test when it cannot be found, or failing under CI=true.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, ok := Lookup()
	if ok {
		return dir
	}
	msg := "parquet-testing corpus not found: set PARQUET_TEST_DATA or place it at ../shared/parquet-testing beside the repository (looked at " + dir + ")"
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg)
	}
	tb.Skip("SKIPPED LOUDLY: " + msg)
	return ""
}

// Optional returns the corpus root and true when it exists. For a test
// whose other cases run without the corpus: without it, Optional logs a
// loud message and returns false, and under CI=true it fails the test.
func Optional(tb testing.TB) (string, bool) {
	tb.Helper()
	dir, ok := Lookup()
	if ok {
		return dir, true
	}
	msg := "parquet-testing corpus not found: set PARQUET_TEST_DATA or place it at ../shared/parquet-testing beside the repository (looked at " + dir + "); its cases are not checked"
	if os.Getenv("CI") == "true" {
		tb.Error(msg)
	} else {
		tb.Log("SKIPPED LOUDLY: " + msg)
	}
	return dir, false
}

// Lookup returns the corpus root and whether it exists.
func Lookup() (string, bool) {
	dir := os.Getenv("PARQUET_TEST_DATA")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		// internal/corpus/corpus.go -> repository root -> ../shared/parquet-testing
		root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		dir = filepath.Join(root, "..", "shared", "parquet-testing")
	}
	dir = filepath.Clean(dir)
	st, err := os.Stat(filepath.Join(dir, "data"))
	return dir, err == nil && st.IsDir()
}

// Files returns every file below the corpus root whose name ends with one
// of the suffixes (".parquet", ".parquet.encrypted", ...), sorted, as paths
// relative to the root ("data/alltypes_plain.parquet").
func Files(tb testing.TB, suffixes ...string) []string {
	tb.Helper()
	root := Dir(tb)
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		for _, s := range suffixes {
			if strings.HasSuffix(path, s) {
				rel, err := filepath.Rel(root, path)
				if err != nil {
					return err
				}
				out = append(out, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(out)
	if len(out) == 0 {
		tb.Fatalf("no %v files under %s", suffixes, root)
	}
	return out
}

// ParquetFiles returns every .parquet and .parquet.encrypted file of the
// corpus, relative to its root.
func ParquetFiles(tb testing.TB) []string {
	tb.Helper()
	return Files(tb, ".parquet", ".parquet.encrypted")
}

// Path joins the corpus root and a relative path.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), filepath.FromSlash(rel))
}
