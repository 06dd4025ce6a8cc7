package runtime

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestDeferredPagesSameBytes: a pipelined writer whose large pages are
// compressed apart (write_defer.go) writes the sequential writer's file
// byte for byte: with row groups whose size the pending pages' bounds
// cross (the decision awaits them), both data page versions, CRCs,
// several codecs and pages stored after failed compressions; and pages
// were indeed left pending.
func TestDeferredPagesSameBytes(t *testing.T) {
	cases := []struct {
		name      string
		rowGroups int  // at least
		deferred  bool // pages are left pending
		opts      []WriterOption
	}{
		{"zstd", 1, true, []WriterOption{WithCompression(meta.Zstd, 0)}},
		{"snappy, row groups", 3, true, []WriterOption{WithCompression(meta.Snappy, 0), WithRowGroupSize(1 << 20)}},
		{"v2 pages, gzip, CRC, row groups", 3, true, []WriterOption{WithDataPageVersion(2), WithCompression(meta.Gzip, 0), WithCRC(true), WithRowGroupSize(1 << 20)}},
		{"v2 pages, zstd, row groups", 3, true, []WriterOption{WithDataPageVersion(2), WithCompression(meta.Zstd, 0), WithRowGroupSize(1 << 20)}},
		// Nothing to compress: pages are finished at once.
		{"uncompressed", 1, false, []WriterOption{WithCompression(meta.Uncompressed, 0)}},
	}
	const rows = 60000
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]WriterOption{WithPageSize(128 << 10)}, c.opts...)
			seq := writePipe(t, rows, 1024, 0, opts...)
			f, err := OpenFile(bytes.NewReader(seq), int64(len(seq)))
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Meta.RowGroups) < c.rowGroups {
				t.Fatalf("%d row groups, want at least %d", len(f.Meta.RowGroups), c.rowGroups)
			}
			for _, par := range []int{2, 4} {
				var w *FileWriter
				got := writePipeWith(t, func(fw *FileWriter) { w = fw }, rows, 1024, 0, append(opts, WithParallelism(par))...)
				if !bytes.Equal(seq, got) {
					t.Fatalf("parallelism %d: files differ (%d and %d bytes)", par, len(seq), len(got))
				}
				if n := w.pages.total.Load(); (n > 0) != c.deferred {
					t.Fatalf("parallelism %d: %d pages left pending", par, n)
				}
				if n := w.pages.pending.Load(); n != 0 {
					t.Fatalf("parallelism %d: %d pages still pending after Close", par, n)
				}
			}
		})
	}
}

// TestDeferredPagesErrors: a write error while pages are pending fails
// the pipelined writer one batch after the sequential one, with the same
// bytes written.
func TestDeferredPagesErrors(t *testing.T) {
	s := mustSchema(t, pipeSchema)
	failAt := func(par int) (int, []byte, int64) {
		fw := &failWriter{limit: 1500 << 10}
		w, err := NewFileWriter(fw, s, WithPageSize(128<<10), WithRowGroupSize(1<<20), WithCompression(meta.Zstd, 0), WithParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 3))
		for b := range 1000 {
			shredPipeRows(t, w, r, 1024)
			if err := w.EndRows(1024); err != nil {
				if !errors.Is(err, errDisk) {
					t.Fatalf("parallelism %d: %v", par, err)
				}
				if again := w.Close(); again != err {
					t.Fatalf("parallelism %d: Close after %v: %v", par, err, again)
				}
				return b, fw.buf.Bytes(), w.pages.total.Load()
			}
		}
		t.Fatalf("parallelism %d: no error", par)
		return 0, nil, 0
	}
	seqAt, seqBytes, _ := failAt(1)
	at, got, pending := failAt(2)
	if at != seqAt+1 || !bytes.Equal(got, seqBytes) {
		t.Fatalf("failed at batch %d with %d bytes written; sequentially at %d with %d", at, len(got), seqAt, len(seqBytes))
	}
	if pending == 0 {
		t.Fatal("no page was left pending")
	}
}

// TestDeferredPagesRowGroups: the row group decision counts a pending
// page (at its bound, then at its size once awaited): with a column whose
// pages are a good part of a row group, a decision that left the pending
// page out would cut the row groups later than the sequential writer.
func TestDeferredPagesRowGroups(t *testing.T) {
	s := mustSchema(t, "message m { required double x; required int32 k; }")
	write := func(par int) ([]byte, int64) {
		return writeBatches(t, s, 200, func(w *FileWriter, r *rand.Rand, _ int) {
			x, _ := w.DoubleBuffer(0)
			k, _ := w.Int32Buffer(1)
			for range 1024 {
				x.Values = append(x.Values, r.NormFloat64())
				k.Values = append(k.Values, r.Int32N(8))
			}
		}, WithPageSize(128<<10), WithRowGroupSize(300<<10), WithCompression(meta.Zstd, 0), WithParallelism(par))
	}
	seq, _ := write(1)
	f, err := OpenFile(bytes.NewReader(seq), int64(len(seq)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Meta.RowGroups); n < 5 {
		t.Fatalf("%d row groups, want at least 5", n)
	}
	for _, par := range []int{2, 4} {
		got, pending := write(par)
		if !bytes.Equal(got, seq) {
			t.Fatalf("parallelism %d: files differ (%d and %d bytes)", par, len(got), len(seq))
		}
		if pending == 0 {
			t.Fatalf("parallelism %d: no page was left pending", par)
		}
	}
}

// TestDeferredPagesInTurn: a column cutting a page in every batch (a
// page row limit of one batch) awaits its pending page before the next:
// its pages keep their order and each page's store decision follows the
// one before, as in the sequential writer's file.
func TestDeferredPagesInTurn(t *testing.T) {
	s := mustSchema(t, "message m { required binary s; required int64 v; }")
	val := make([]byte, 96)
	write := func(par int) ([]byte, int64) {
		return writeBatches(t, s, 120, func(w *FileWriter, r *rand.Rand, b int) {
			sb, _ := w.ByteArrayBuffer(0)
			vb, _ := w.Int64Buffer(1)
			for range 1024 {
				// Stretches of random and of repeated bytes: pages the
				// codec shrinks and pages it does not (stored).
				if b/8%2 == 0 {
					for i := range val {
						val[i] = byte(r.Uint32())
					}
				}
				sb.Values.Append(val)
				vb.Values = append(vb.Values, r.Int64())
			}
		}, WithPageRowLimit(1024), WithDictionary(false), WithCompression(meta.Zstd, 0), WithParallelism(par))
	}
	seq, _ := write(1)
	for _, par := range []int{2, 4} {
		got, pending := write(par)
		if !bytes.Equal(got, seq) {
			t.Fatalf("parallelism %d: files differ (%d and %d bytes)", par, len(got), len(seq))
		}
		if pending < 20 {
			t.Fatalf("parallelism %d: %d pages left pending, want at least 20", par, pending)
		}
	}
}

// writeBatches writes batches of 1,024 rows, each filled by fill (batch b,
// from a generator of a fixed seed), with a writer of s and opts, and
// returns the file and how many pages the writer left pending.
func writeBatches(t *testing.T, s *schema.Schema, batches int, fill func(w *FileWriter, r *rand.Rand, b int), opts ...WriterOption) ([]byte, int64) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	closeAfterBatches(t, w, batches, fill)
	return buf.Bytes(), w.pages.total.Load()
}

// closeAfterBatches ends batches batches of 1,024 rows on w, fill(w, r, b)
// appending batch b's values to w's buffers (r: a generator of a fixed
// seed), then closes w.
func closeAfterBatches(t *testing.T, w *FileWriter, batches int, fill func(w *FileWriter, r *rand.Rand, b int)) {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 5))
	for b := range batches {
		fill(w, r, b)
		if err := w.EndRows(1024); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
