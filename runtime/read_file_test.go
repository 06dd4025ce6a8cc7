package runtime

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// TestPlanFileTasks: ReadFileWith's row groups cut into runs of about
// total/(fileTasksPer×n) rows, placed by the footer's counts; none (one
// reader) for a single row group, too few rows, or counts a lying footer
// gives (negative, or more rows than the file's size makes plausible).
func TestPlanFileTasks(t *testing.T) {
	file := func(size int64, opts []ReaderOption, rows ...int64) *File {
		f := &File{Meta: &meta.FileMetaData{}, Size: size, cfg: newReaderConfig(opts...), devs: new(deviationLog)}
		for _, n := range rows {
			f.Meta.RowGroups = append(f.Meta.RowGroups, meta.RowGroup{NumRows: n})
		}
		return f
	}
	type task struct {
		rgs         []int
		rows, start int64
	}
	for _, c := range []struct {
		name  string
		f     *File
		n     int
		exact bool
		want  []task
	}{
		{"runs", file(1<<20, nil, 3000, 3000, 3000, 3000, 100, 5000), 2, true,
			[]task{{[]int{0}, 3000, 0}, {[]int{1}, 3000, 3000}, {[]int{2}, 3000, 6000}, {[]int{3}, 3000, 9000}, {[]int{4, 5}, 5100, 12000}}},
		{"small groups", file(1<<20, nil, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000), 2, true,
			[]task{{[]int{0, 1}, 2000, 0}, {[]int{2, 3}, 2000, 2000}, {[]int{4, 5}, 2000, 4000}, {[]int{6, 7}, 2000, 6000}, {[]int{8, 9}, 2000, 8000}}},
		{"selected", file(1<<20, []ReaderOption{WithRowGroups(0, 2, 3)}, 6000, 1, 6000, 6000), 3, true,
			[]task{{[]int{0}, 6000, 0}, {[]int{2}, 6000, 6000}, {[]int{3}, 6000, 12000}}},
		{"filter", file(1<<20, []ReaderOption{WithFilter(Or())}, 6000, 6000), 2, false,
			[]task{{[]int{0}, 6000, 0}, {[]int{1}, 6000, 6000}}},
		{"one row group", file(1<<20, nil, 100_000), 2, true, nil},
		{"too few rows", file(1<<20, nil, 4000, 4000), 2, true, nil},
		{"negative count", file(1<<20, nil, 6000, -1, 6000), 2, true, nil},
		// 64 bytes a row: at most presizeRatio × 1 MiB / 64 = 1 Mi rows.
		{"implausible", file(1<<20, nil, 6000, 1<<21), 2, true, nil},
		{"implausible total", file(1<<20, nil, 1<<19, 1<<19, 1<<19), 2, true, nil},
	} {
		plan, err := planFileTasks(c.f, c.n, 64)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []task
		for _, x := range plan.tasks {
			got = append(got, task{x.rowGroups, x.rows, x.start})
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: tasks %v, want %v", c.name, got, c.want)
		}
		if got != nil && plan.exact != c.exact {
			t.Errorf("%s: exact %v, want %v", c.name, plan.exact, c.exact)
		}
	}
}

// TestPartTasks: a lone row group is cut at the page boundary of its
// largest column nearest to equal parts, and each part's reader
// (withPart) returns exactly its rows of every column, the pages before
// them leapt by the offset index; a file without offset indexes is not
// cut.
func TestPartTasks(t *testing.T) {
	s := mustParse(t, `message m {
  required binary big;
  optional int32 small;
}`)
	const rows = 20_000
	write := func(opts ...WriterOption) []byte {
		var buf bytes.Buffer
		fw, err := NewFileWriter(&buf, s, append([]WriterOption{WithPageSize(4 << 10), WithDictionary(false)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		big, _ := fw.ByteArrayBuffer(0)
		small, _ := fw.Int32Buffer(1)
		for i := range rows {
			big.Values.AppendString(fmt.Sprintf("%0100d", i))
			if i%3 == 0 {
				small.Def = append(small.Def, 0)
			} else {
				small.Def = append(small.Def, 1)
				small.Values = append(small.Values, int32(i))
			}
		}
		if err := fw.EndRows(rows); err != nil {
			t.Fatal(err)
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	data := write()
	fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The page boundaries of each column.
	var bounds [2]map[int64]bool
	for col := range bounds {
		oi, err := fr.OffsetIndex(0, col)
		if err != nil || oi == nil || len(oi.PageLocations) < 5 {
			t.Fatalf("offset index of column %d: %v, %v", col, oi, err)
		}
		bounds[col] = map[int64]bool{}
		for _, l := range oi.PageLocations {
			bounds[col][l.FirstRowIndex] = true
		}
	}
	for _, n := range []int{2, 3} {
		tasks, err := partTasks(fr, 0, n)
		if err != nil || len(tasks) != n {
			t.Fatalf("%d parts: %d tasks, %v", n, len(tasks), err)
		}
		next := int64(0)
		for k, task := range tasks {
			p := task.part
			if p.rows.start != next || task.start != next || task.rows != p.rows.end-p.rows.start {
				t.Fatalf("%d parts: part %d is %+v, start %d, rows %d", n, k, p.rows, task.start, task.rows)
			}
			if k > 0 && !bounds[0][p.rows.start] {
				t.Errorf("%d parts: cut at row %d, not a page boundary of big", n, p.rows.start)
			}
			if want := int64(k) * rows / int64(n); abs64(p.rows.start-want) > 200 {
				t.Errorf("%d parts: cut at row %d, far from %d", n, p.rows.start, want)
			}
			next = p.rows.end
			// The part's reader returns exactly its rows.
			pr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), withPart(p))
			if err != nil {
				t.Fatal(err)
			}
			if pr.NumRows() != task.rows {
				t.Fatalf("part %+v: NumRows %d", p.rows, pr.NumRows())
			}
			br, _ := pr.ByteArrayReader(0)
			sr, _ := pr.Int32Reader(1)
			if got, err := br.ReadRows(int(task.rows) + 1); err != nil || int64(got) != task.rows {
				t.Fatalf("part %+v: big: %d rows, %v", p.rows, got, err)
			}
			if got, err := sr.ReadRows(int(task.rows) + 1); err != nil || int64(got) != task.rows {
				t.Fatalf("part %+v: small: %d rows, %v", p.rows, got, err)
			}
			v := 0
			for i := range int(task.rows) {
				row := int(p.rows.start) + i
				if got := string(br.Values.At(i)); got != fmt.Sprintf("%0100d", row) {
					t.Fatalf("part %+v: big row %d: %q", p.rows, row, got)
				}
				if null := sr.Def[i] == 0; null != (row%3 == 0) {
					t.Fatalf("part %+v: small row %d: def %d", p.rows, row, sr.Def[i])
				}
				if sr.Def[i] == 1 {
					if sr.Values[v] != int32(row) {
						t.Fatalf("part %+v: small row %d: %d", p.rows, row, sr.Values[v])
					}
					v++
				}
			}
			pr.Release()
		}
		if next != rows {
			t.Fatalf("%d parts end at row %d", n, next)
		}
	}
	noIndex := write(WithPageIndex(false))
	fr, err = NewFileReader(bytes.NewReader(noIndex), int64(len(noIndex)))
	if err != nil {
		t.Fatal(err)
	}
	if tasks, err := partTasks(fr, 0, 2); err != nil || tasks != nil {
		t.Fatalf("without offset indexes: %d tasks, %v", len(tasks), err)
	}
	// Columns of two pages of 10,000 rows: two parts, whatever the
	// parallelism asks for; one page: none.
	for _, c := range []struct {
		pageRows int
		cut      int64
	}{{10_000, 10_000}, {rows, 0}} {
		data := write(WithPageSize(64<<20), WithPageRowLimit(c.pageRows))
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, 3, 4, 8, 1 << 20} { // n far above the pages: tried from the pages down
			tasks, err := partTasks(fr, 0, n)
			switch {
			case err != nil:
				t.Fatalf("pages of %d rows, %d parts: %v", c.pageRows, n, err)
			case c.cut == 0 && tasks != nil:
				t.Errorf("pages of %d rows, %d parts: %d tasks, want none", c.pageRows, n, len(tasks))
			case c.cut > 0 && (len(tasks) != 2 || tasks[0].part.rows != rowRange{0, c.cut} || tasks[1].part.rows != rowRange{c.cut, rows} || tasks[1].start != c.cut):
				t.Errorf("pages of %d rows, %d parts: %+v, want two cut at %d", c.pageRows, n, tasks, c.cut)
			}
		}
	}
}
