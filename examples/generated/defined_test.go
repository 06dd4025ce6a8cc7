package generated

import (
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
