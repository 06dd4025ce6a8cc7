package generated

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
)

// bigMaps gives the maps of orders and deeps 0 to 64 entries: every
// Order's attrs and options, and Deep's maps at both levels.
func bigMaps(or []Order, dp []Deep) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range or {
		if or[i].Attrs != nil || i%5 == 0 {
			or[i].Attrs = map[string]string{}
			for len(or[i].Attrs) < i%65 {
				or[i].Attrs["k"+strconv.Itoa(r.IntN(500))] = randString(r)
			}
		}
		for j := range or[i].Lines {
			if or[i].Lines[j].Options != nil {
				for len(or[i].Lines[j].Options) < (i*7+j)%65 {
					or[i].Lines[j].Options[strconv.Itoa(r.IntN(1000)-500)] = r.Int64()
				}
			}
		}
	}
	for i := range dp {
		if dp[i].M == nil && i%3 == 0 {
			dp[i].M = map[int32][]map[string]*int64{}
		}
		for len(dp[i].M) < i%65 && dp[i].M != nil {
			var lst []map[string]*int64
			for range r.IntN(3) {
				m := map[string]*int64{}
				for len(m) < r.IntN(65) {
					m[randString(r)] = ptr(r.Int64())
				}
				lst = append(lst, m)
			}
			dp[i].M[r.Int32N(200)-100] = lst
		}
	}
}

// writeSplit writes rows through newW in Write calls of the given sizes
// (cycled).
func writeSplit[T any, W interface {
	Write([]T) (int, error)
	Close() error
}](t *testing.T, rows []T, sizes []int, opts []runtime.WriterOption, newW func(io.Writer, ...runtime.WriterOption) (W, error)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := newW(&buf, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; len(rows) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(rows))
		if k, err := w.Write(rows[:n]); err != nil || k != n {
			t.Fatalf("Write: %d, %v", k, err)
		}
		rows = rows[n:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// determinismOpts are the writer options of the determinism tests: small
// pages and row groups, so that row groups are cut often (after the rows
// are handed over, which must not depend on the Write calls).
func determinismOpts(extra ...runtime.WriterOption) []runtime.WriterOption {
	return append([]runtime.WriterOption{runtime.WithPageSize(4 << 10), runtime.WithRowGroupSize(64 << 10)}, extra...)
}

// checkSameBytes writes rows many ways (split into Write calls of many
// sizes, with goroutines or not, GOMAXPROCS 1 or more, from the rows read
// back, whose maps were built in another order) and fails unless every
// way gives the bytes of the first.
func checkSameBytes[T any, W interface {
	Write([]T) (int, error)
	Close() error
}](t *testing.T, name string, rows []T, newW func(io.Writer, ...runtime.WriterOption) (W, error), read func(string, ...runtime.ReaderOption) ([]T, error)) []byte {
	t.Helper()
	want := writeSplit(t, rows, []int{len(rows)}, determinismOpts(), newW)
	same := func(how string, got []byte) {
		t.Helper()
		if !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Fatalf("%s written %s: %d bytes, differ from %d bytes at byte %d", name, how, len(got), len(want), i)
		}
	}
	for _, sizes := range [][]int{{1}, {7, 300, 1, 255}, {256}, {257}, {1000, 3}, {1024}, {1025}} {
		same(fmt.Sprintf("in Write calls of %v rows", sizes), writeSplit(t, rows, sizes, determinismOpts(), newW))
	}
	for _, procs := range []int{1, 2, 8} {
		old := goruntime.GOMAXPROCS(procs)
		same(fmt.Sprintf("with GOMAXPROCS %d", procs), writeSplit(t, rows, []int{100}, determinismOpts(), newW))
		same(fmt.Sprintf("with GOMAXPROCS %d, WithParallelism(4)", procs), writeSplit(t, rows, []int{33}, determinismOpts(runtime.WithParallelism(4)), newW))
		goruntime.GOMAXPROCS(old)
	}
	for range 5 {
		same("again", writeSplit(t, rows, []int{len(rows)}, determinismOpts(), newW))
	}
	path := filepath.Join(t.TempDir(), name+".parquet")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := read(path)
	if err != nil {
		t.Fatal(err)
	}
	same("from the rows read back", writeSplit(t, back, []int{len(back)}, determinismOpts(), newW))
	return want
}

// TestSameBytes: the same rows and options give the same bytes, whatever
// the split of the rows between Write calls, WithParallelism, GOMAXPROCS
// or the process (the test binary writes the files again in a child
// process). The rows hold maps of 0 to 64 entries, maps in lists (Order's
// line options), and maps of lists of maps (Deep).
func TestSameBytes(t *testing.T) {
	or, dp := orders(3000), deeps(3000)
	bigMaps(or, dp)
	if dir := os.Getenv("PQGEN_SAME_BYTES_DIR"); dir != "" {
		// The child process: write the files and stop.
		for name, b := range map[string][]byte{
			"order": writeSplit(t, or, []int{len(or)}, determinismOpts(), NewOrderWriter),
			"deep":  writeSplit(t, dp, []int{len(dp)}, determinismOpts(), NewDeepWriter),
		} {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	files := map[string][]byte{
		"order": checkSameBytes(t, "order", or, NewOrderWriter, ReadOrderFile),
		"deep":  checkSameBytes(t, "deep", dp, NewDeepWriter, ReadDeepFile),
	}
	for name, b := range files {
		r, err := runtime.NewFileReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		if rgs := len(r.File().Meta.RowGroups); rgs < 3 {
			t.Fatalf("%s: %d row groups: the test means little", name, rgs)
		}
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSameBytes$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PQGEN_SAME_BYTES_DIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child process: %v\n%s", err, out)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the child process wrote other bytes (%d, %d)", name, len(got), len(want))
		}
	}
}

// TestMapKeyOrder: the entries of every map are in the file in ascending
// key order, read column by column with the runtime (not through the
// generated reader, which builds Go maps).
func TestMapKeyOrder(t *testing.T) {
	or, dp := orders(3000), deeps(3000)
	bigMaps(or, dp)
	ob := writeSplit(t, or, []int{len(or)}, nil, NewOrderWriter)
	db := writeSplit(t, dp, []int{len(dp)}, nil, NewDeepWriter)
	// Keys are in order between a slot whose repetition level is at most
	// the map's (a new map) and the next one.
	check := func(name string, data []byte, col int, mapRep uint8, less func(r any, i, j int) bool, read func(*runtime.FileReader) (any, *runtime.Levels, error)) {
		t.Helper()
		fr, err := runtime.NewFileReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		rd, lv, err := read(fr)
		if err != nil {
			t.Fatal(err)
		}
		maxDef := fr.File().Schema.Leaves[col].MaxDef
		v, maps, entries := -1, 0, 0
		prev := -1
		for s, d := range lv.Def {
			if lv.Rep[s] < mapRep {
				prev = -1
			}
			if d != uint8(maxDef) {
				continue
			}
			v++
			entries++
			if lv.Rep[s] < mapRep {
				maps++
			} else if prev >= 0 && !less(rd, prev, v) {
				t.Fatalf("%s: key %d is not above key %d", name, v, prev)
			}
			prev = v
		}
		if maps < 100 || entries < 5*maps {
			t.Fatalf("%s: %d maps, %d entries: the test means little", name, maps, entries)
		}
	}
	byteKeys := func(col int) func(*runtime.FileReader) (any, *runtime.Levels, error) {
		return func(fr *runtime.FileReader) (any, *runtime.Levels, error) {
			c, err := fr.ByteArrayReader(col)
			if err != nil {
				return nil, nil, err
			}
			_, err = c.ReadRows(int(fr.NumRows()))
			return c, &c.Levels, err
		}
	}
	byteLess := func(r any, i, j int) bool {
		c := r.(*runtime.ByteArrayReader)
		return c.String(i) < c.String(j)
	}
	col := func(fr *runtime.FileReader, path string) int {
		for _, l := range fr.File().Schema.Leaves {
			if l.PathString() == path {
				return l.Column
			}
		}
		t.Fatalf("no column %s", path)
		return -1
	}
	ofr, _ := runtime.NewFileReader(bytes.NewReader(ob), int64(len(ob)))
	dfr, _ := runtime.NewFileReader(bytes.NewReader(db), int64(len(db)))
	c := col(ofr, "attrs.key_value.key")
	check("attrs", ob, c, 1, byteLess, byteKeys(c))
	c = col(ofr, "lines.list.element.options.key_value.key")
	check("options", ob, c, 2, byteLess, byteKeys(c))
	c = col(dfr, "m.key_value.value.list.element.key_value.key")
	check("m.value.element", db, c, 3, byteLess, byteKeys(c))
	c = col(dfr, "m.key_value.key")
	check("m", db, c, 1, func(r any, i, j int) bool {
		v := r.(*runtime.Int32Reader).Values
		return v[i] < v[j]
	}, func(fr *runtime.FileReader) (any, *runtime.Levels, error) {
		c, err := fr.Int32Reader(c)
		if err != nil {
			return nil, nil, err
		}
		_, err = c.ReadRows(int(fr.NumRows()))
		return c, &c.Levels, err
	})
}

// TestUnsortedMaps: WithSortedMaps(false) writes map entries in iteration
// order. The rows read back are the rows written, and the bytes differ
// from the sorted file's (some 64-entry map is out of order in one of a
// few writes: the chance that all come out sorted is nil).
func TestUnsortedMaps(t *testing.T) {
	or, dp := orders(600), deeps(600)
	bigMaps(or, dp)
	sorted := writeSplit(t, or, []int{len(or)}, nil, NewOrderWriter)
	differ := false
	for range 3 {
		data := writeSplit(t, or, []int{len(or)}, []runtime.WriterOption{runtime.WithSortedMaps(false)}, NewOrderWriter)
		differ = differ || !bytes.Equal(data, sorted)
		back, err := ReadOrderFile(writeTemp(t, data))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(or, back, cmpOpts); d != "" {
			t.Fatalf("orders read back differ (-written +read):\n%s", d)
		}
		data = writeSplit(t, dp, []int{len(dp)}, []runtime.WriterOption{runtime.WithSortedMaps(false)}, NewDeepWriter)
		dback, err := ReadDeepFile(writeTemp(t, data))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(dp, dback, cmpOpts); d != "" {
			t.Fatalf("deeps read back differ (-written +read):\n%s", d)
		}
	}
	if !differ {
		t.Fatal("three writes in iteration order all gave the sorted file's bytes")
	}
}

// writeTemp writes data to a file of the test's temporary directory.
func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rows.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
