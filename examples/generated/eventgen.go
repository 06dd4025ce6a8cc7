package generated

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/pqgen/pqgen/runtime"
)

// The events of issue 16's query benchmarks (filter_test.go here, and
// peers/bench's BenchmarkQueryDuckDB, which runs the same queries through
// DuckDB on the same file).

// EventKinds are the low-cardinality kinds SortedEvents draws from.
var EventKinds = []Kind{"view", "click", "buy", "cart", "refund"}

// EventEpoch is the time of the first of SortedEvents.
var EventEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// SortedEvents returns n events one second apart from EventEpoch, with
// random ids, kinds, users and payloads; the same n gives the same events.
func SortedEvents(n int) []Event {
	r := rand.New(rand.NewPCG(16, 1))
	out := make([]Event, n)
	for i := range out {
		e := Event{
			ID: r.Int64(), At: EventEpoch.Add(time.Duration(i) * time.Second), Kind: EventKinds[r.IntN(len(EventKinds))],
			User: fmt.Sprintf("user%d", r.IntN(5000)), Latency: time.Duration(r.IntN(1e9)), Score: r.Float64(), Success: r.IntN(2) == 0,
			Country: []string{"", "fr", "us", "de"}[r.IntN(4)], Payload: payloadOf(randString(r)),
		}
		fill(r, e.Session[:])
		if r.IntN(3) == 0 {
			e.Referrer = ptr(randString(r))
		}
		if r.IntN(3) == 0 {
			e.Retries = ptr(r.Int32N(5))
		}
		out[i] = e
	}
	return out
}

// EventQueryWriterOptions are the writer options of the query benchmark
// file: 1 MiB row groups of 64 KiB pages and a bloom filter on id.
func EventQueryWriterOptions() []runtime.WriterOption {
	return []runtime.WriterOption{runtime.WithRowGroupSize(1 << 20), runtime.WithPageSize(64 << 10),
		runtime.WithColumnBloomFilter("id", 20000, 0.01)}
}

// EventWindow returns the inclusive bounds of the query's time window
// over SortedEvents(n): 0.1% of the events, from the middle.
func EventWindow(n int) (t0, t1 time.Time) {
	t0 = EventEpoch.Add(time.Duration(n/2) * time.Second)
	return t0, t0.Add(time.Duration(n/1000-1) * time.Second)
}

func ptr[T any](v T) *T { return &v }

// payloadOf is []byte(s), nil when s is empty: the value a required []byte
// field reads back as (nil and empty are one value in the file).
func payloadOf(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

func randString(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, r.IntN(8))
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}
