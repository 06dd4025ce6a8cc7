package generated

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// writeRowGroups writes rows to path in row groups of about rgBytes and
// returns the number of row groups.
func writeRowGroups[T any](t *testing.T, path string, rows []T, write func(string, []T, ...runtime.WriterOption) error, rgBytes int64) int {
	t.Helper()
	if err := write(path, rows, runtime.WithRowGroupSize(rgBytes)); err != nil {
		t.Fatal(err)
	}
	f := footer(t, path)
	return len(f.Meta.RowGroups)
}

// footer opens the file at path and returns its footer.
func footer(t *testing.T, path string) *runtime.File {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := runtime.OpenFile(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// countOpens returns an open function for runtime.ReadFileWith that
// counts the readers made.
func countOpens[R any](open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), n *atomic.Int32) func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error) {
	return func(r io.ReaderAt, size int64, opts ...runtime.ReaderOption) (R, error) {
		n.Add(1)
		return open(r, size, opts...)
	}
}

// readShares reads the Event file at path with ReadFileWith under opts and
// WithReadParallelism(n), and returns the rows and the readers made.
func readShares(t *testing.T, path, what string, opts []runtime.ReaderOption, n int) ([]Event, int32) {
	t.Helper()
	var opens atomic.Int32
	got, err := runtime.ReadFileWith[Event](path, append(opts[:len(opts):len(opts)], runtime.WithReadParallelism(n)), countOpens(NewEventReader, &opens))
	if err != nil {
		t.Fatalf("%s, parallelism %d: %v", what, n, err)
	}
	return got, opens.Load()
}

// TestReadFileParallel: ReadTFile under WithReadParallelism(2 and 3) reads
// a file of many row groups with several readers (one per task) and
// returns the rows of the written file, as one reader does, with and
// without projection, row-group selection, a filter (whose rows are not
// known before reading) and read coalescing; flat and nested rows.
func TestReadFileParallel(t *testing.T) {
	dir := t.TempDir()
	evPath := filepath.Join(dir, "events.parquet")
	ev := events(20_000)
	evGroups := writeRowGroups(t, evPath, ev, WriteEventFile, 128<<10)
	orPath := filepath.Join(dir, "orders.parquet")
	or := orders(6_000)
	orGroups := writeRowGroups(t, orPath, or, WriteOrderFile, 96<<10)
	t.Logf("events: %d row groups, orders: %d", evGroups, orGroups)
	if evGroups < 8 || orGroups < 4 {
		t.Fatalf("the files have %d and %d row groups: too few to test", evGroups, orGroups)
	}
	projected := make([]Event, len(ev))
	for i, e := range ev {
		projected[i] = Event{ID: e.ID, User: e.User}
	}
	// The rows of row groups 1, 3, 4, 6 and 7 (by the footer's counts).
	f := footer(t, evPath)
	var starts []int64 // of each row group, and the end
	at := int64(0)
	for _, rg := range f.Meta.RowGroups {
		starts = append(starts, at)
		at += rg.NumRows
	}
	starts = append(starts, at)
	var some []Event
	for _, g := range []int{1, 3, 4, 6, 7} {
		some = append(some, ev[starts[g]:starts[g+1]]...)
	}
	cases := []struct {
		name  string
		opts  []runtime.ReaderOption
		want  []Event
		tasks bool // read by several readers
	}{
		{"all", nil, ev, true},
		{"projected", []runtime.ReaderOption{runtime.WithColumns("id", "user")}, projected, true},
		{"row groups", []runtime.ReaderOption{runtime.WithRowGroups(1, 3, 4, 6, 7)}, some, true},
		{"filter", []runtime.ReaderOption{runtime.WithFilter(EventWhere.ID.Ge(5_000))}, ev[5_000:], true},
		{"coalesced", []runtime.ReaderOption{runtime.WithReadCoalescing(4<<10, 1<<20)}, ev, true},
		{"one row group", []runtime.ReaderOption{runtime.WithRowGroups(2)}, ev[starts[2]:starts[3]], false},
	}
	for _, c := range cases {
		var one []Event // read by one reader
		for _, n := range []int{1, 2, 3} {
			got, opens := readShares(t, evPath, c.name, c.opts, n)
			if n == 1 {
				if !reflect.DeepEqual(c.want, got) {
					if d := cmp.Diff(c.want, got, cmpOpts); d != "" {
						t.Fatalf("%s: (-want +got)\n%s", c.name, d)
					}
				}
				one = got
			} else if !reflect.DeepEqual(one, got) {
				t.Fatalf("%s, parallelism %d: the rows differ from one reader's:\n%s", c.name, n, cmp.Diff(one, got, cmpOpts))
			}
			if several := opens > 1; several != (c.tasks && n > 1) {
				t.Errorf("%s, parallelism %d: %d readers", c.name, n, opens)
			}
		}
	}
	// One row group of small pages: read in parts, cut at page boundaries
	// of the largest column (with its offset index).
	onePath := filepath.Join(dir, "events1.parquet")
	if err := WriteEventFile(onePath, ev, runtime.WithPageSize(8<<10)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts []runtime.ReaderOption
		want []Event
	}{
		{"whole", nil, ev},
		{"projected", []runtime.ReaderOption{runtime.WithColumns("id", "user")}, projected},
		{"filter", []runtime.ReaderOption{runtime.WithFilter(EventWhere.ID.Ge(5_000))}, ev[5_000:]},
		{"page filter", []runtime.ReaderOption{runtime.WithColumnPageFilter("id", func(_ *runtime.File, _ int, ci *meta.ColumnIndex, page int) bool {
			return page%3 != 1
		})}, nil},
		{"coalesced", []runtime.ReaderOption{runtime.WithReadCoalescing(4<<10, 1<<20)}, ev},
	} {
		var one []Event
		for _, n := range []int{1, 2, 3} {
			got, opens := readShares(t, onePath, "one row group, "+c.name, c.opts, n)
			if n == 1 {
				if c.want != nil && !reflect.DeepEqual(c.want, got) {
					if d := cmp.Diff(c.want, got, cmpOpts); d != "" {
						t.Fatalf("one row group, %s: (-want +got)\n%s", c.name, d)
					}
				}
				if len(got) == 0 || c.want == nil && len(got) >= len(ev) {
					t.Fatalf("one row group, %s: %d rows", c.name, len(got))
				}
				one = got
			} else if !reflect.DeepEqual(one, got) {
				t.Fatalf("one row group, %s, parallelism %d: the rows differ from one reader's:\n%s", c.name, n, cmp.Diff(one, got, cmpOpts))
			}
			if got := opens; n > 1 && int(got) != n || n == 1 && got != 1 {
				t.Errorf("one row group, %s, parallelism %d: %d readers, want %d", c.name, n, got, n)
			}
		}
	}
	// Encrypted (the footer and every column with one key): the readers
	// of a file's shares decrypt their pages with the footer decrypted
	// once.
	key := []byte("0123456789abcdef")
	encMany := filepath.Join(dir, "events_enc.parquet")
	encOne := filepath.Join(dir, "events_enc1.parquet")
	if err := WriteEventFile(encMany, ev, runtime.WithRowGroupSize(128<<10), runtime.WithEncryption(runtime.FileEncryption{FooterKey: key})); err != nil {
		t.Fatal(err)
	}
	if err := WriteEventFile(encOne, ev, runtime.WithPageSize(8<<10), runtime.WithEncryption(runtime.FileEncryption{FooterKey: key})); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{encMany, encOne} {
		for _, n := range []int{1, 2} {
			got, opens := readShares(t, path, path, []runtime.ReaderOption{runtime.WithFooterKey(key)}, n)
			if !reflect.DeepEqual(ev, got) {
				t.Fatalf("%s, %d: (-want +got)\n%s", path, n, cmp.Diff(ev, got, cmpOpts))
			}
			if several := opens > 1; several != (n > 1) {
				t.Errorf("%s, parallelism %d: %d readers", path, n, opens)
			}
		}
		if _, err := ReadEventFile(path, runtime.WithReadParallelism(2)); err == nil {
			t.Errorf("%s: read without its key", path)
		}
	}
	orOne := filepath.Join(dir, "orders1.parquet")
	if err := WriteOrderFile(orOne, or, runtime.WithPageSize(8<<10)); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{orPath, orOne} {
		var one []Order
		for _, n := range []int{1, 2, 3} {
			got, err := ReadOrderFile(path, runtime.WithReadParallelism(n))
			if err != nil {
				t.Fatal(err)
			}
			if n == 1 {
				if !reflect.DeepEqual(or, got) {
					if d := cmp.Diff(or, got, cmpOpts); d != "" {
						t.Fatalf("%s: (-want +got)\n%s", path, d)
					}
				}
				one = got
			} else if !reflect.DeepEqual(one, got) {
				t.Fatalf("%s, parallelism %d: the rows differ from one reader's:\n%s", path, n, cmp.Diff(one, got, cmpOpts))
			}
		}
	}
}

// TestReadFileParallelLargeRowGroup: a file of a large row group and a
// small one after it (as a writer leaves one when the rows end) is read
// under WithReadParallelism(2 and 3) with the large one cut into parts, so
// that one goroutine does not read most of the file, and gives one
// reader's rows, whole and under a page filter.
func TestReadFileParallelLargeRowGroup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.parquet")
	ev := events(20_000)
	writeLargeAndSmall(t, path, ev)
	for _, c := range []struct {
		name string
		opts []runtime.ReaderOption
	}{
		{"whole", nil},
		{"page filter", []runtime.ReaderOption{runtime.WithColumnPageFilter("id", func(_ *runtime.File, _ int, _ *meta.ColumnIndex, page int) bool {
			return page%3 != 1
		})}},
	} {
		var one []Event
		for _, n := range []int{1, 2, 3} {
			got, opens := readShares(t, path, c.name, c.opts, n)
			if n == 1 {
				if c.opts == nil && !reflect.DeepEqual(ev, got) {
					t.Fatalf("%s: the rows differ from those written:\n%s", c.name, cmp.Diff(ev, got, cmpOpts))
				}
				if len(got) == 0 {
					t.Fatalf("%s: no rows", c.name)
				}
				one = got
				continue
			}
			if !reflect.DeepEqual(one, got) {
				t.Fatalf("%s, parallelism %d: the rows differ from one reader's:\n%s", c.name, n, cmp.Diff(one, got, cmpOpts))
			}
			// The large row group in parts, and the small one.
			if got := opens; got < 3 {
				t.Errorf("%s, parallelism %d: %d readers, want the large row group in parts", c.name, n, got)
			}
			t.Logf("%s, parallelism %d: %d readers", c.name, n, opens)
		}
	}
}

// writeLargeAndSmall writes the 20,000 rows of ev to path in a row group
// of 18,000 rows and one of 2,000, in pages of 8 KiB.
func writeLargeAndSmall(t *testing.T, path string, ev []Event) {
	t.Helper()
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewEventWriter(fh, runtime.WithPageSize(8<<10))
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range [][]Event{ev[:18_000], ev[18_000:]} {
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	if rgs := footer(t, path).Meta.RowGroups; len(rgs) != 2 || rgs[0].NumRows != 18_000 {
		t.Fatalf("%d row groups, want 18,000 rows and 2,000", len(rgs))
	}
}

// TestReadFileParallelError: with pages of two row groups damaged, the
// parallel ReadTFile fails with the error one reader meets first (the
// earlier row group's), whichever task fails first in time.
func TestReadFileParallelError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.parquet")
	ev := events(20_000)
	if n := writeRowGroups(t, path, ev, WriteEventFile, 128<<10); n < 8 {
		t.Fatalf("%d row groups: too few", n)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := footer(t, path)
	damage := func(rg int) {
		for _, c := range f.Meta.RowGroups[rg].Columns {
			if c.MetaData.PathInSchema[0] != "user" {
				continue
			}
			at := c.MetaData.DataPageOffset // the first data page's header
			for i := range int64(8) {
				data[at+i] ^= 0x5a
			}
			return
		}
		t.Fatal("no column user")
	}
	damage(5)
	damage(2)
	bad := filepath.Join(dir, "bad.parquet")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, want := ReadEventFile(bad)
	if want == nil {
		t.Fatal("one reader read the damaged file without an error")
	}
	t.Log(want)
	for _, n := range []int{2, 3} {
		for range 5 {
			_, err := ReadEventFile(bad, runtime.WithReadParallelism(n))
			if err == nil || err.Error() != want.Error() {
				t.Fatalf("parallelism %d: %v, want %v", n, err, want)
			}
		}
	}
}

// BenchmarkReadFileParallel times ReadTFile of 300,000 events in row
// groups of 4 MiB (about 6) with WithReadParallelism 1 and 2 (par=1,
// par=2); each read starts on a collected heap (see BenchmarkReadFile).
func BenchmarkReadFileParallel(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "events.parquet")
	if err := WriteEventFile(path, events(300_000), runtime.WithRowGroupSize(4<<20)); err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 2} {
		b.Run("par="+string(rune('0'+n)), func(b *testing.B) {
			benchReadFile(b, func() (int, error) {
				rows, err := ReadEventFile(path, runtime.WithReadParallelism(n))
				return len(rows), err
			})
		})
	}
}

// TestReadFileParallelOffsetIndex: ReadTFile places the parts of a row
// group it cuts (a lone one, or a large one before a small one) by the
// offset index, which one reader does not use; with bytes of the large row
// group's offset indexes altered, the parallel read returns what one
// reader returns, rows or error.
func TestReadFileParallelOffsetIndex(t *testing.T) {
	dir := t.TempDir()
	ev := events(20_000)
	lone := filepath.Join(dir, "lone.parquet")
	if err := WriteEventFile(lone, ev, runtime.WithPageSize(8<<10)); err != nil {
		t.Fatal(err)
	}
	large := filepath.Join(dir, "large.parquet")
	writeLargeAndSmall(t, large, ev)
	for _, path := range []string{lone, large} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var at []int64 // offsets of offset-index bytes to alter
		for _, c := range footer(t, path).Meta.RowGroups[0].Columns {
			off, _ := c.OffsetIndexOffset.Get()
			n, _ := c.OffsetIndexLength.Get()
			for i := int64(0); i < int64(n); i += max(1, int64(n)/4) {
				at = append(at, off+i)
			}
		}
		bad := filepath.Join(dir, "bad.parquet")
		differ := 0
		for _, pos := range at {
			b := append([]byte(nil), data...)
			b[pos] ^= 0x03
			if err := os.WriteFile(bad, b, 0o644); err != nil {
				t.Fatal(err)
			}
			want, wantErr := ReadEventFile(bad)
			got, err := ReadEventFile(bad, runtime.WithReadParallelism(2))
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("%s, byte %d: in parallel: %v; one reader: %v", path, pos, err, wantErr)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("%s, byte %d: the rows read in parallel differ from one reader's", path, pos)
			}
			if wantErr != nil || !reflect.DeepEqual(want, ev) {
				differ++
			}
		}
		t.Logf("%s: %d offset-index bytes altered, %d reads of one reader failed or differed from the rows written", filepath.Base(path), len(at), differ)
	}
}
