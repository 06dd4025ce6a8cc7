package bench

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// TestWideTiles: a generated writer of Wide rows (1.8 KB each) shreds a
// batch of 1,024 rows in tiles (runtime.ShredTile); the file is the one
// Writes of one row each write, which shred no tile of more than a row,
// and it reads back to the rows.
func TestWideTiles(t *testing.T) {
	probe, err := NewWideWriter(&bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	if got := runtime.ShredTile[Wide](probe.parts, pqgenWideBatch); got >= pqgenWideBatch {
		t.Fatalf("Wide rows go %d at a time in a batch of %d: no tiles to test", got, pqgenWideBatch)
	}
	for _, gen := range []func(int) []Wide{wideRows, wideRowsHE} {
		rows := gen(5_000)
		write := func(per int) []byte {
			var out bytes.Buffer
			w, err := NewWideWriter(&out, runtime.WithCompression(codecs[0].pqgen, 0))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < len(rows); i += per {
				if _, err := w.Write(rows[i:min(i+per, len(rows))]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}
		whole, byRow := write(len(rows)), write(1)
		if !bytes.Equal(whole, byRow) {
			t.Fatalf("Write of %d rows at once: %d bytes; row by row: %d bytes, not the same", len(rows), len(whole), len(byRow))
		}
		r, err := NewWideReader(bytes.NewReader(whole), int64(len(whole)))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]Wide, len(rows)+1)
		n := 0
		for {
			k, err := r.Read(got[n:])
			n += k
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if n != len(rows) {
			t.Fatalf("%d rows read back, want %d", n, len(rows))
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			if !reflect.DeepEqual(got[i], rows[i]) {
				t.Fatalf("row %d differs", i)
			}
		}
	}
}
