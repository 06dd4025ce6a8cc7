package generated

import (
	"bytes"
	"io"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestParallelWriterSameBytes: WithParallelism changes who does the work,
// not the file. Small pages and row groups make many pages, dictionary
// fallbacks and row groups; bloom filters, page indexes and both codecs
// are on.
func TestParallelWriterSameBytes(t *testing.T) {
	ev := events(20000)
	or := orders(5000)
	// Go randomises map iteration, hence the order of map entries in the
	// file: keep one entry per map so that two writes can be compared.
	for i := range or {
		or[i].Attrs = firstEntry(or[i].Attrs)
		or[i].Discounts = firstEntry(or[i].Discounts)
		for j := range or[i].Lines {
			or[i].Lines[j].Options = firstEntry(or[i].Lines[j].Options)
		}
	}
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd} {
		opts := []runtime.WriterOption{
			runtime.WithCompression(codec, 0),
			runtime.WithPageSize(8 << 10),
			runtime.WithRowGroupSize(256 << 10),
			runtime.WithMaxDictionarySize(4 << 10),
			runtime.WithColumnBloomFilter("user", 1000, 0.01),
		}
		for _, par := range []int{2, 3, 16} {
			seq := writeAll(t, ev, opts, NewEventWriter)
			got := writeAll(t, ev, append(opts, runtime.WithParallelism(par)), NewEventWriter)
			if !bytes.Equal(seq, got) {
				t.Fatalf("%v, parallelism %d: Event files differ (%d and %d bytes)", codec, par, len(seq), len(got))
			}
			seq = writeAll(t, or, opts[:4], NewOrderWriter)
			got = writeAll(t, or, append(opts[:4:4], runtime.WithParallelism(par)), NewOrderWriter)
			if !bytes.Equal(seq, got) {
				t.Fatalf("%v, parallelism %d: Order files differ (%d and %d bytes)", codec, par, len(seq), len(got))
			}
		}
	}
	// The file has several row groups, so the test means something.
	data := writeAll(t, ev, []runtime.WriterOption{runtime.WithRowGroupSize(256 << 10), runtime.WithParallelism(2)}, NewEventWriter)
	r, err := NewEventReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rgs := len(r.fr.File().Meta.RowGroups)
	if rgs < 3 {
		t.Fatalf("%d row groups", rgs)
	}
	if _, err := runtime.NewFileWriter(io.Discard, pqgenEventSchema(), runtime.WithParallelism(-1)); err == nil {
		t.Fatal("WithParallelism(-1) accepted")
	}
}

// firstEntry returns a map holding the smallest key of m (nil for nil).
func firstEntry[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	var k string
	first := true
	for x := range m {
		if first || x < k {
			k, first = x, false
		}
	}
	out := map[string]V{}
	if !first {
		out[k] = m[k]
	}
	return out
}

func writeAll[T any, W interface {
	Write([]T) (int, error)
	Close() error
}](t testing.TB, rows []T, opts []runtime.WriterOption, newW func(io.Writer, ...runtime.WriterOption) (W, error)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := newW(&buf, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
