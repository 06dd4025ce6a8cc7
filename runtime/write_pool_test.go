package runtime

import (
	"bytes"
	"math/rand/v2"
	goruntime "runtime"
	"testing"
)

// TestPooledBuffersSameBytes: writers that take the pooled buffers of
// closed writers (which hold other files' values past their lengths)
// write the same bytes as a writer on fresh buffers, for the columns of
// pipeSchema (every physical type, levels of lists and maps, dictionary
// fallback), sequentially and with WithParallelism(2).
func TestPooledBuffersSameBytes(t *testing.T) {
	s := mustSchema(t, pipeSchema)
	write := func(seed uint64, rows int, opts ...WriterOption) []byte {
		r := rand.New(rand.NewPCG(seed, 7))
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, append([]WriterOption{WithPageSize(16 << 10)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		for batch := 0; batch < rows; batch += 300 {
			n := min(300, rows-batch)
			shredPipeRows(t, w, r, n)
			if err := w.EndRows(n); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, opts := range [][]WriterOption{nil, {WithParallelism(2)}} {
		// Two collections empty the sync.Pools: the first writer's buffers
		// are fresh.
		goruntime.GC()
		goruntime.GC()
		first := write(1, 5000, opts...)
		for i := range 3 {
			write(uint64(i+2), 9000+i*1000, opts...) // fills the pools with other values
			if again := write(1, 5000, opts...); !bytes.Equal(again, first) {
				t.Fatalf("%d options, round %d: a writer on pooled buffers wrote other bytes", len(opts), i)
			}
		}
		f := openBytes(t, first)
		if got := f.Meta.NumRows; got != 5000 {
			t.Fatalf("%d rows", got)
		}
	}
}
