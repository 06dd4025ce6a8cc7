package runtime

import (
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
