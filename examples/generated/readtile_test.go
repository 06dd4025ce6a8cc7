package generated

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"runtime/debug"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// TestReadTiles reads a file of Events with one Read of every row, which
// goes in several tiles (runtime.ReadTile), into a buffer holding other
// rows, and checks the rows equal those of Reads of 700 rows (one tile
// each), sequentially and with WithReadParallelism(2).
func TestReadTiles(t *testing.T) {
	tile := runtime.ReadTile[Event](0, 1<<40) // about the most rows of a tile of Event (at least that of its leaves)
	n := 2*tile + 123
	var buf bytes.Buffer
	w, err := NewEventWriter(&buf, runtime.WithPageSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(events(n)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	read := func(batch int, dirty bool, opts ...runtime.ReaderOption) []Event {
		t.Helper()
		r, err := NewEventReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		out := make([]Event, batch)
		if dirty {
			copy(out, events(batch)[1:]) // rows that are not the file's
		}
		var got []Event
		for {
			k, err := r.Read(out)
			got = append(got, out[:k]...)
			if err == io.EOF {
				return got
			}
			if err != nil {
				t.Fatal(err)
			}
			if k != min(batch, n-len(got)+k) {
				t.Fatalf("Read of %d rows returned %d", batch, k)
			}
		}
	}
	want := read(700, false)
	if len(want) != n {
		t.Fatalf("read %d rows, wrote %d", len(want), n)
	}
	for _, par := range []int{1, 2} {
		got := read(n, true, runtime.WithReadParallelism(par))
		if !reflect.DeepEqual(got, want) {
			for i := range got {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("parallelism %d: row %d (tile %d):\n got %+v\nwant %+v", par, i, i/tile, got[i], want[i])
				}
			}
			t.Fatalf("parallelism %d: rows differ", par)
		}
	}
}

// TestReadSteadyAllocs: a sequential Read of 4,096 Events in a reader's
// steady state allocates only the buffers its strings and pointer targets
// share across batches: 3 per Read were measured. Assembly's per-leaf
// bounds stay on the stack: when the goroutine of a split batch captured
// them, 4 arrays per tile moved to the heap (7 per Read). The least of
// three measures is taken with the GC off, as a GC during one empties the
// buffer pools (as in the runtime's TestDictStringAllocs, where the least
// of three alone still failed about one run in three).
//
// Under the race detector, whose sync.Pool drops items at random, it
// failed about one run in eight (before and after the read-ahead's
// workers): it is checked by the runs without -race.
func TestReadSteadyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random: the allocations are checked by the runs without -race")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	data := writeAll(t, sortedEvents(200_000), nil, NewEventWriter)
	r, err := NewEventReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]Event, 4096)
	least := math.Inf(1)
	for range 3 {
		least = min(least, testing.AllocsPerRun(10, func() {
			if n, err := r.Read(buf); n != len(buf) || err != nil {
				t.Fatalf("%d rows, %v", n, err)
			}
		}))
	}
	if least > 3 {
		t.Fatalf("%v allocations per Read of 4,096 Events, want at most 3", least)
	}
}
