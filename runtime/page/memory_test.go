package page

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// memFile is an InMemory that counts its ReadAt calls.
type memFile struct {
	b     []byte
	reads int
}

func (m *memFile) ReadAt(p []byte, off int64) (int, error) {
	m.reads++
	return bytes.NewReader(m.b).ReadAt(p, off)
}

func (m *memFile) FileBytes() []byte { return m.b }

// readChunkWith reads every page of the length bytes at start of r with
// cr, with a Prefetch after each page when prefetch is set, and returns
// the pages' records and the error that ended the reading.
func readChunkWith(cr *ChunkReader, r io.ReaderAt, start, length int64, col Column, opts ChunkOptions, prefetch bool) ([]string, error) {
	cr.Reset(r, start, length, col, opts)
	var got []string
	for {
		p, err := cr.Next()
		if err != nil {
			return got, err
		}
		got = append(got, pageRecord(p, col.Type))
		if prefetch {
			cr.Prefetch()
		}
	}
}

// TestChunkReaderInMemory: a chunk in an InMemory file reads as the same
// pages as through a bytes.Reader, under every codec, with and without a
// dictionary and prefetching, through a decryptor too, without a ReadAt
// call and without writing a byte of the file; a chunk reader moved to
// another file afterwards (Reset, or Detach then Reset) reads it into a
// window of its own, leaving the memory file untouched; a chunk said to
// end past the memory is read with ReadAt, and fails.
func TestChunkReaderInMemory(t *testing.T) {
	pad := []byte("PAR1 some bytes before the chunk ")
	check := func(name string, chunk []byte, col Column, opts func() ChunkOptions) {
		t.Helper()
		file := slices.Concat(pad, chunk, []byte("footer"))
		orig := slices.Clone(file)
		want, err := readChunkWith(new(ChunkReader), bytes.NewReader(orig), int64(len(pad)), int64(len(chunk)), col, opts(), false)
		if err != io.EOF || len(want) == 0 {
			t.Fatalf("%s: %d pages, %v", name, len(want), err)
		}
		for _, prefetch := range []bool{false, true} {
			m := &memFile{b: file}
			var cr ChunkReader
			got, err := readChunkWith(&cr, m, int64(len(pad)), int64(len(chunk)), col, opts(), prefetch)
			if err != io.EOF || !slices.Equal(got, want) {
				t.Errorf("%s (prefetch %v): in memory\n%q (%v), want\n%q", name, prefetch, got, err, want)
			}
			if m.reads != 0 {
				t.Errorf("%s (prefetch %v): %d ReadAt calls on a file in memory", name, prefetch, m.reads)
			}
			// The same chunk reader on another file, a copy of the
			// first: its window must not be the memory file's bytes.
			for _, detach := range []bool{false, true} {
				if detach {
					cr.Detach()
				}
				other := slices.Concat(pad, chunk, []byte("footer"))
				got, err = readChunkWith(&cr, bytes.NewReader(other), int64(len(pad)), int64(len(chunk)), col, opts(), prefetch)
				if err != io.EOF || !slices.Equal(got, want) {
					t.Errorf("%s (prefetch %v, detach %v): after the file in memory\n%q (%v), want\n%q", name, prefetch, detach, got, err, want)
				}
				// Its window is its own: writing all of it leaves the
				// memory file as it was.
				w := cr.win[:cap(cr.win)]
				for i := range w {
					w[i] ^= 0xff
				}
				if !bytes.Equal(file, orig) {
					t.Fatalf("%s (prefetch %v, detach %v): the window read into is the memory file's", name, prefetch, detach)
				}
				// Back to the memory file, then away again.
				if _, err := readChunkWith(&cr, m, int64(len(pad)), int64(len(chunk)), col, opts(), prefetch); err != io.EOF {
					t.Errorf("%s: the memory file again: %v", name, err)
				}
			}
			if !bytes.Equal(file, orig) {
				t.Fatalf("%s (prefetch %v): the file in memory was written", name, prefetch)
			}
		}
	}
	forPrefetchChunks(t, func(name string, col Column, chunk []byte) {
		check(name, chunk, col, func() ChunkOptions { return ChunkOptions{VerifyCRC: true} })
	})

	// Encrypted (bodies and headers XORed by the test decryptor), with the
	// pages skipped sparsely too.
	col := Column{Path: "x", Type: meta.Int32, RowGroup: 1, Index: 4}
	var chunk []byte
	for i := range 4 {
		body := []byte{byte(i), 0, 0, 0, 8, 0, 0, 0}
		h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 8, CompressedPageSize: 8,
			DataPageHeader: &meta.DataPageHeader{NumValues: 2, Encoding: meta.EncodingPlain}}
		hb := h.AppendThrift(nil)
		chunk = append(chunk, byte(len(hb)), 0, 0, 0)
		for _, b := range slices.Concat(hb, body) {
			chunk = append(chunk, b^0x55)
		}
	}
	check("encrypted", chunk, col, func() ChunkOptions { return ChunkOptions{Decryptor: &decryptor{}} })
	check("sparse", prefetchChunk(t, Column{Path: "c", MaxDef: 1, Type: meta.Int64, Codec: meta.Snappy}, false),
		Column{Path: "c", MaxDef: 1, Type: meta.Int64, Codec: meta.Snappy}, func() ChunkOptions { return ChunkOptions{Sparse: true} })

	// A chunk said to end past the memory: read with ReadAt, which fails.
	short := &memFile{b: prefetchChunk(t, Column{Path: "c", MaxDef: 1, Type: meta.Int64}, false)}
	n := int64(len(short.b))
	_, err := readChunkWith(new(ChunkReader), short, 0, n+100, Column{Path: "c", MaxDef: 1, Type: meta.Int64}, ChunkOptions{}, false)
	if !errors.Is(err, ErrCorrupt) || short.reads == 0 {
		t.Errorf("a chunk past the end of the memory: %v after %d ReadAt calls, want ErrCorrupt from ReadAt", err, short.reads)
	}
}
