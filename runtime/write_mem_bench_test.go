package runtime

import (
	"io"
	goruntime "runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"
)

// BenchmarkWriteGigabytePeakHeap writes 1 GiB of row data (an int64, a
// 24-byte string of high cardinality, a double and an optional int32 per
// row) with the default options (SNAPPY, 128 MiB row groups, 1 MiB pages,
// dictionaries with fallback) and reports the peak live heap seen while
// writing, sampled every 5 ms, against the row-group budget. The writer
// keeps one row group of encoded, compressed pages plus the open page of
// each column, so the peak should stay near the 128 MiB budget whatever the
// amount written.
func BenchmarkWriteGigabytePeakHeap(b *testing.B) {
	const (
		rowBytes = 8 + 24 + 8 + 4
		total    = 1 << 30
		rows     = total / rowBytes
	)
	s := mustSchema(b, "message m { required int64 id; required binary name (STRING); required double v; optional int32 o; }")
	b.SetBytes(total)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		goruntime.GC()
		peak := watchHeap()
		w, err := NewFileWriter(io.Discard, s)
		if err != nil {
			b.Fatal(err)
		}
		ids, _ := w.Int64Buffer(0)
		names, _ := w.ByteArrayBuffer(1)
		vs, _ := w.DoubleBuffer(2)
		opt, _ := w.Int32Buffer(3)
		name := []byte("user-000000000000000000")
		for r := 0; r < rows; r += benchBatch {
			n := min(benchBatch, rows-r)
			for k := 0; k < n; k++ {
				id := int64(r + k)
				ids.Values = append(ids.Values, id)
				strconv.AppendInt(name[:5], id*2654435761%1_000_000_007, 10)
				names.Values.Append(name)
				vs.Values = append(vs.Values, float64(id)*0.5)
				if id%2 == 0 {
					opt.Def = append(opt.Def, 1)
					opt.Values = append(opt.Values, int32(id))
				} else {
					opt.Def = append(opt.Def, 0)
				}
			}
			if err := w.EndRows(n); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		p := peak()
		b.ReportMetric(float64(p)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(p)/float64(DefaultRowGroupSize), "peak/row-group-budget")
	}
}

// watchHeap samples the live heap objects every 5 ms until the returned
// function is called, which returns the largest sample.
func watchHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var (
		mu   sync.Mutex
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			mu.Lock()
			peak = max(peak, sample[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}
