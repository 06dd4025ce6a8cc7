package generated

import (
	"bytes"
	goruntime "runtime"
	"syscall"
	"testing"
	"unsafe"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// threadCPU returns the CPU time (ns) the calling OS thread has consumed
// (CLOCK_THREAD_CPUTIME_ID), or -1 if unavailable.
func threadCPU() int64 {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}

// BenchmarkReadStages splits the sequential Read of BenchmarkReadParallelism's
// files into its two stages, in CPU time of the reading thread, which other
// processes do not inflate: decode-ms (ReadColumns: pages, decompression,
// levels and values) and assemble-ms (Check, clearing the rows and
// building the structs), per file. Reading ahead overlaps the decoding of
// one batch with the assembly of the one before, so on two idle cores a
// Read that only read ahead would take at least max(assemble,
// (decode+assemble)/2): bound-x is the speedup over the sequential Read
// that this allows, and serial-x the one that decoding columns in
// parallel without overlap (decode/2 + assemble) allows. Assembling each
// batch in two halves at once (Leaves.Split) lifts the bound towards 2:
// only Check and Split stay on the reading goroutine.
func BenchmarkReadStages(b *testing.B) {
	ev := writeAll(b, sortedEvents(200_000), []runtime.WriterOption{runtime.WithCompression(meta.Zstd, 0)}, NewEventWriter)
	or := writeAll(b, orders(40_000), []runtime.WriterOption{runtime.WithCompression(meta.Snappy, 0)}, NewOrderWriter)
	b.Run("type=events", func(b *testing.B) {
		buf := make([]Event, 8192)
		stages(b, func() (dec, asm int64) {
			r, err := NewEventReader(bytes.NewReader(ev), int64(len(ev)))
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			return stagedRead(b, r.fr, r.leaves, &r.read, buf, r.assemble)
		})
	})
	b.Run("type=orders", func(b *testing.B) {
		buf := make([]Order, 8192)
		stages(b, func() (dec, asm int64) {
			r, err := NewOrderReader(bytes.NewReader(or), int64(len(or)))
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			return stagedRead(b, r.fr, r.leaves, &r.read, buf, r.assemble)
		})
	})
}

// stagedRead does what a generated Read does, batch by batch into buf,
// for a reader whose FileReader, leaves, count of rows read and assemble
// method are given, and returns the thread CPU time spent decoding
// (ReadColumns) and assembling (Check, clear, assemble).
func stagedRead[T any](b *testing.B, fr *runtime.FileReader, leaves *runtime.Leaves, read *int64, buf []T, assemble func([]T) error) (dec, asm int64) {
	for {
		k, err := fr.Available(*read, len(buf))
		if err != nil {
			b.Fatal(err)
		}
		if k == 0 {
			return dec, asm
		}
		t0 := threadCPU()
		if err := fr.ReadColumns(k, leaves.Jobs...); err != nil {
			b.Fatal(err)
		}
		t1 := threadCPU()
		if err := leaves.Check(); err != nil {
			b.Fatal(err)
		}
		rows := buf[:k]
		clear(rows)
		if err := assemble(rows); err != nil {
			b.Fatal(err)
		}
		dec, asm = dec+t1-t0, asm+threadCPU()-t1
		*read += int64(k)
	}
}

// stages runs read b.N times on one OS thread and reports its stages.
func stages(b *testing.B, read func() (dec, asm int64)) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	if threadCPU() < 0 {
		b.Fatal("no thread CPU clock")
	}
	var dec, asm int64
	for b.Loop() {
		d, a := read()
		dec, asm = dec+d, asm+a
	}
	d, a := float64(dec)/float64(b.N), float64(asm)/float64(b.N)
	b.ReportMetric(d/1e6, "decode-ms")
	b.ReportMetric(a/1e6, "assemble-ms")
	b.ReportMetric((d+a)/max(a, (d+a)/2), "bound-x")
	b.ReportMetric((d+a)/(d/2+a), "serial-x")
}
