package runtime

import (
	"errors"
	"strings"
	"testing"
)

type fakeColumn struct {
	rows int
	err  error
}

func (c *fakeColumn) ReadRows(n int) (int, error) { return min(n, c.rows), c.err }

func TestReadRowsExact(t *testing.T) {
	if err := ReadRowsExact(&fakeColumn{rows: 10}, 10, "a.b"); err != nil {
		t.Fatalf("whole batch: %v", err)
	}
	err := ReadRowsExact(&fakeColumn{rows: 7}, 10, "a.b")
	if !errors.Is(err, ErrChunk) || !strings.Contains(err.Error(), "column a.b: 7 rows where 10 were expected") {
		t.Fatalf("short column: %v", err)
	}
	boom := errors.New("boom")
	if err := ReadRowsExact(&fakeColumn{rows: 10, err: boom}, 10, "a"); !errors.Is(err, boom) {
		t.Fatalf("column error not passed on: %v", err)
	}
}
