package generated

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
)

// TestOptionalDensity: Event's optional flat fields (Referrer, a *string;
// Retries, an *int32; Country, a string read as "" when null) read back
// as written whatever share of the rows hold a value, in runs of 700
// rows: none, every one, all but one in 40, one in 40, every other row,
// and random halves and thirds. Reads of 1,000 and 4,096 rows, with and
// without WithReadParallelism(2), meet parts of both kinds
// (runtime.Mixed), walked through runtime.Defined or row by row.
func TestOptionalDensity(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	kinds := []func(i int) bool{
		func(int) bool { return false },
		func(int) bool { return true },
		func(i int) bool { return i%40 != 0 },
		func(i int) bool { return i%40 == 0 },
		func(i int) bool { return i%2 == 0 },
		func(int) bool { return r.IntN(2) == 0 },
		func(int) bool { return r.IntN(3) == 0 },
	}
	rows := events(7 * 700 * 3)
	for i := range rows {
		has := kinds[i/700%len(kinds)]
		rows[i].Referrer, rows[i].Retries, rows[i].Country = nil, nil, ""
		if has(i) {
			rows[i].Referrer = ptr(fmt.Sprint("ref", i))
		}
		if has(i + 1) {
			rows[i].Retries = ptr(int32(i))
		}
		if has(i + 2) {
			rows[i].Country = "fr"
		}
	}
	data := writeAll(t, rows, nil, NewEventWriter)
	for _, batch := range []int{1000, 4096} {
		for _, par := range []int{1, 2} {
			got := readAllWith(t, data, batch, NewEventReader, runtime.WithReadParallelism(par))
			if d := cmp.Diff(rows, got); d != "" {
				t.Fatalf("Reads of %d rows, parallelism %d: (-want +got)\n%s", batch, par, d)
			}
		}
	}
}

// TestOptionalDensityBytes: the two ways a writer shreds a nullable flat
// field (Retries, an *int32) write the same file, byte for byte, whatever
// the rows' density: every batch through the levels first and Defined's
// rows, every batch row by row, and the writer's own choice (from the
// last batch). Writes of 256 rows are one shred each, before which the
// test sets the choice.
func TestOptionalDensityBytes(t *testing.T) {
	rows := events(7 * 700 * 3)
	for i := range rows {
		rows[i].Retries = nil
		switch i / 700 % 4 {
		case 1:
			rows[i].Retries = ptr(int32(i))
		case 2:
			if i%2 == 0 {
				rows[i].Retries = ptr(int32(i))
			}
		case 3:
			if i%40 != 0 {
				rows[i].Retries = ptr(int32(i))
			}
		}
	}
	write := func(force *bool) []byte {
		var buf bytes.Buffer
		w, err := NewEventWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for from := 0; from < len(rows); from += pqgenEventBatchCheck {
			if force != nil {
				w.mixedRetries = *force
			}
			if _, err := w.Write(rows[from:min(from+pqgenEventBatchCheck, len(rows))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	mixed, byRow := true, false
	own, levelsFirst, rowByRow := write(nil), write(&mixed), write(&byRow)
	if !bytes.Equal(levelsFirst, rowByRow) || !bytes.Equal(own, rowByRow) {
		t.Fatalf("the files differ: levels first %d bytes, row by row %d, the writer's choice %d", len(levelsFirst), len(rowByRow), len(own))
	}
}
