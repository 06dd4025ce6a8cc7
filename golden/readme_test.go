package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeBlock returns the body of the first fenced block opened by fence
// after marker in the README, each line less the indent of its first.
func readmeBlock(t *testing.T, readme, marker, fence string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, marker)
	if !ok {
		t.Fatalf("README: no %q", marker)
	}
	_, after, ok = strings.Cut(after, fence+"\n")
	body, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		t.Fatalf("README: no %s block after %q", fence, marker)
	}
	lines := strings.Split(body, "\n")
	indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	for i, l := range lines {
		if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n")
}

// TestReadmeAPI generates the code of the README's Order struct (the
// struct of "Go structs", with a Line type of its own, which the README
// leaves out) and of an Event of the fields its Filtering example uses,
// and builds the README's block of the generated API and its Filtering
// block against it, their placeholder loop bodies filled: the calls the
// README documents exist with the arguments and results it shows.
func TestReadmeAPI(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	structs := readmeBlock(t, readme, "1. **Go structs**", "```go")
	api := readmeBlock(t, readme, "the generated API is:", "```go")
	if !strings.Contains(api, "{ ... }") {
		t.Fatalf("README: the API block has no { ... } placeholder to fill:\n%s", api)
	}
	api = strings.Replace(api, "{ ... }", "{ _, _ = o, err }", 1)
	filter := readmeBlock(t, readme, "and give the result to the reader:", "```go")
	if !strings.Contains(filter, "        ...\n") {
		t.Fatalf("README: the Filtering block has no ... placeholder to fill:\n%s", filter)
	}
	filter = strings.Replace(filter, "        ...\n", "        _, _ = row, err\n", 1)

	src := "package readme\n\nimport \"time\"\n\n" + structs + `
// Line is a line of an Order (the README does not show it).
type Line struct {
	SKU string ` + "`parquet:\"sku\"`" + `
	Qty int32  ` + "`parquet:\"qty\"`" + `
}

// Event is the row type of the README's Filtering example.
type Event struct {
	At   time.Time ` + "`parquet:\"at,timestamp(microsecond)\"`" + `
	Kind string    ` + "`parquet:\"kind,dict\"`" + `
}
`
	files := generateTypes(t, src, "Order", "Event")
	use := `package readme

import (
	"io"
	"time"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// readmeAPI is the README's block of the generated API.
func readmeAPI(out io.Writer, in io.ReaderAt, size int64, data []byte, orders, buf []Order) error {
` + api + `
	_, _ = n, devs
	return err
}

// readmeFilter is the README's Filtering block.
func readmeFilter(f io.ReaderAt, size int64, t0, t1 time.Time) error {
` + filter + `
	return err
}
`
	virtual := "testdata/readme"
	outs := []output{
		{virtual: filepath.Join(virtual, "order.go"), code: []byte(src)},
		{virtual: filepath.Join(virtual, "api.go"), code: []byte(use)},
	}
	for name, code := range files {
		outs = append(outs, output{virtual: filepath.Join(virtual, name), code: code})
	}
	if out, err := tryCompile(t, outs, "build"); err != nil {
		t.Fatalf("the README's API block does not type-check against the generated code: %v\n%s\n%s", err, head(out, 40), use)
	}
}
