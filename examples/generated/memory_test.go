package generated

import (
	"bytes"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestReadMemoryFile: events (strings, []byte payloads, fixed-size arrays)
// and orders (nested lists, maps, optional groups) written uncompressed,
// with and without dictionaries, and with snappy, read from a
// runtime.MemoryFile as the rows written; and nothing read points into the
// file: overwriting its bytes afterwards leaves the rows as they were.
func TestReadMemoryFile(t *testing.T) {
	for _, opts := range [][]runtime.WriterOption{
		{runtime.WithCompression(meta.Uncompressed, 0)},
		{runtime.WithCompression(meta.Uncompressed, 0), runtime.WithDictionary(false), runtime.WithDataPageVersion(2)},
		{runtime.WithCompression(meta.Snappy, 0)},
	} {
		evs := events(3000)
		checkMemoryFile(t, evs, func(w io.Writer) (rowWriter[Event], error) { return NewEventWriter(w, opts...) },
			func(r io.ReaderAt, n int64) (rowReader[Event], error) { return NewEventReader(r, n) })
		ords := orders(2000)
		checkMemoryFile(t, ords, func(w io.Writer) (rowWriter[Order], error) { return NewOrderWriter(w, opts...) },
			func(r io.ReaderAt, n int64) (rowReader[Order], error) { return NewOrderReader(r, n) })
	}
}

type rowWriter[T any] interface {
	Write([]T) (int, error)
	Close() error
}

type rowReader[T any] interface {
	Read([]T) (int, error)
}

func checkMemoryFile[T any](t *testing.T, rows []T, newW func(io.Writer) (rowWriter[T], error), newR func(io.ReaderAt, int64) (rowReader[T], error)) {
	t.Helper()
	var buf bytes.Buffer
	w, err := newW(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	r, err := newR(runtime.MemoryFile(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]T, len(rows)+1)
	n := 0
	for n < len(got) {
		k, err := r.Read(got[n:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	got = got[:n]
	if d := cmp.Diff(rows, got, cmpOpts); d != "" {
		t.Fatalf("%T rows read from memory (-want +got)\n%s", rows, d)
	}
	for i := range data {
		data[i] = 0xff
	}
	if d := cmp.Diff(rows, got, cmpOpts); d != "" {
		t.Fatalf("%T rows read from memory change with the file's bytes (-want +got)\n%s", rows, d)
	}
}
