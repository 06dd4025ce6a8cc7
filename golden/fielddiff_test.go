package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/gen"
)

// maxFieldDiff bounds the lines of order_parquet.go that adding one
// top-level scalar field to Order may change (issue 15): generated names
// come from field paths, not leaf positions, so the other fields' code
// stays as it was.
const maxFieldDiff = 60

// TestAddFieldDiff generates examples' Order as it is and with one scalar
// field added at the top of the struct, and counts the lines the unified
// diff of the generated file adds and removes.
func TestAddFieldDiff(t *testing.T) {
	src, err := os.ReadFile("../examples/generated/orders.go")
	if err != nil {
		t.Fatal(err)
	}
	const anchor = "type Order struct {\n"
	added := strings.Replace(string(src), anchor, anchor+"\tRegion string `parquet:\"region\"`\n", 1)
	if added == string(src) {
		t.Fatalf("the anchor %q is not in orders.go", anchor)
	}
	before := generateOrder(t, string(src))
	after := generateOrder(t, added)
	n := changedLines(strings.Split(before, "\n"), strings.Split(after, "\n"))
	t.Logf("adding one top-level scalar changes %d of %d lines of order_parquet.go", n, strings.Count(before, "\n"))
	if n == 0 {
		t.Fatal("adding a field changed nothing in the generated file")
	}
	if n > maxFieldDiff {
		t.Errorf("adding one top-level scalar field changes %d lines of order_parquet.go, want at most %d", n, maxFieldDiff)
	}
}

// generateOrder generates the code of type Order from src (orders.go) in
// a module of its own.
func generateOrder(t *testing.T, src string) string {
	t.Helper()
	code, ok := generateTypes(t, src, "Order")["order_parquet.go"]
	if !ok {
		t.Fatal("no order_parquet.go generated")
	}
	return string(code)
}

// generateTypes generates the code of the named types of src (orders.go)
// in a module of its own, and returns the generated files by name.
func generateTypes(t *testing.T, src string, types ...string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module example.com/generated\n\ngo 1.26\n",
		"orders.go": src,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := gen.LoadGo(dir, types)
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(p, "")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// changedLines is the number of lines a minimal line diff of a and b
// removes plus adds: len(a)+len(b) less twice their longest common
// subsequence.
func changedLines(a, b []string) int {
	// One row of the LCS table at a time.
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return len(a) + len(b) - 2*prev[len(b)]
}

// TestChangedLines checks the line diff count on small inputs.
func TestChangedLines(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"x y z", "x y z", 0},
		{"x y z", "x z", 1},
		{"x y z", "w x y z", 1},
		{"a b c", "d e f", 6},
		{"a b c d", "a c b d", 2},
	} {
		if got := changedLines(strings.Fields(c.a), strings.Fields(c.b)); got != c.want {
			t.Errorf("changedLines(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
