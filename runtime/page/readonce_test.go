package page

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// countingFile is a bytes.Reader that counts how often each byte is read.
type countingFile struct {
	r     *bytes.Reader
	times []int
	calls int
}

func (c *countingFile) ReadAt(p []byte, off int64) (int, error) {
	c.calls++
	n, err := c.r.ReadAt(p, off)
	for i := range n {
		c.times[int(off)+i]++
	}
	return n, err
}

// TestChunkReadOnce: a chunk reader reads each byte of its chunk from the
// file once, whether its pages are smaller than a window (and cut by its
// end) or larger; sparse reading reads none twice either. Before, the
// bytes of a page cut by a window's end were read again, with the next
// window: the suite's files were read as 1.09 to 1.44 times their size.
// Pages of one size larger than the read-ahead take one ReadAt each (the
// window takes the size of the last page), where they took two. The pages
// read are the ones the chunk holds.
func TestChunkReadOnce(t *testing.T) {
	col := Column{Path: "x", Type: meta.Int64, Codec: meta.Snappy}
	r := rand.New(rand.NewPCG(3, 4))
	for _, sizes := range [][]int{
		{100 << 10, 100 << 10, 100 << 10, 100 << 10, 100 << 10}, // cut by every window's end
		{300 << 10, 700 << 10, 300 << 10},                       // larger than a window
		{300 << 10, 300 << 10, 300 << 10, 300 << 10, 300 << 10, 300 << 10},
		{4 << 10, 600 << 10, 40 << 10, 255 << 10, 257 << 10, 1 << 10, 900 << 10, 120 << 10},
	} {
		var chunk []byte
		var want []string
		chunk = append(chunk, dictPage(t, col.Codec, 3, encode.AppendPlainInt64(nil, []int64{7, 8, 9}))...)
		for _, size := range sizes {
			v := make([]int64, size/8)
			for i := range v {
				v[i] = r.Int64() // incompressible: the page stays its size
			}
			chunk = append(chunk, v1(t, col.Codec, col, nil, nil, meta.EncodingPlain, encode.AppendPlainInt64(nil, v))...)
		}
		pad := []byte("PAR1 and some bytes")
		file := slices.Concat(pad, chunk, []byte("the footer"))
		var err error
		want, err = readChunkWith(new(ChunkReader), &memFile{b: file}, int64(len(pad)), int64(len(chunk)), col, ChunkOptions{}, false)
		if err != io.EOF || len(want) != len(sizes) {
			t.Fatalf("pages %v: %d pages read in memory, %v", sizes, len(want), err)
		}
		for _, sparse := range []bool{false, true} {
			for _, prefetch := range []bool{false, true} {
				f := &countingFile{r: bytes.NewReader(file), times: make([]int, len(file))}
				got, err := readChunkWith(new(ChunkReader), f, int64(len(pad)), int64(len(chunk)), col, ChunkOptions{Sparse: sparse}, prefetch)
				if err != io.EOF || !slices.Equal(got, want) {
					t.Fatalf("pages %v (sparse %v, prefetch %v): %d pages, %v; want the %d pages read in memory", sizes, sparse, prefetch, len(got), err, len(want))
				}
				if same := !slices.ContainsFunc(sizes, func(s int) bool { return s != sizes[0] }); same && int64(sizes[0]) > readAhead && !sparse && f.calls > len(sizes)+1 {
					t.Errorf("pages %v (prefetch %v): %d ReadAt calls, want one a page and one more", sizes, prefetch, f.calls)
				}
				for i, k := range f.times {
					inChunk := i >= len(pad) && i < len(pad)+len(chunk)
					if k > 1 || inChunk && k != 1 || !inChunk && k != 0 {
						t.Fatalf("pages %v (sparse %v, prefetch %v): byte %d of the file (%d of the chunk) read %d times", sizes, sparse, prefetch, i, i-len(pad), k)
					}
				}
			}
		}
	}
}

// TestChunkReadSmallWindows reads the prefetch tests' chunks (every
// codec, v1 and v2 pages, dictionaries, five pages growing by a third)
// through windows of 1 to 300 bytes, so that headers and bodies are cut
// by windows everywhere: the pages are the ones read whole, each byte of
// the chunk is read once, and a prefetch leaves the page Next returned as
// it was. So is an encrypted chunk (headers and bodies XORed by the test
// decryptor, each header after its length).
func TestChunkReadSmallWindows(t *testing.T) {
	defer func(r int64) { readAhead = r }(readAhead)
	check := func(name string, col Column, chunk []byte, opts ChunkOptions, pages int) {
		readAhead = 256 << 10
		want, err := readPrefetching(t, chunk, col, opts, false)
		if err != io.EOF || len(want) != pages {
			t.Fatalf("%s: %d pages, %v", name, len(want), err)
		}
		for _, ra := range []int64{1, 7, 64, 300} {
			readAhead = ra
			for _, prefetch := range []bool{false, true} {
				got, err := readPrefetching(t, chunk, col, opts, prefetch)
				if err != io.EOF || !slices.Equal(got, want) {
					t.Fatalf("%s, windows of %d (prefetch %v): %q, %v; want %q", name, ra, prefetch, got, err, want)
				}
				for _, sparse := range []bool{false, true} {
					f := &countingFile{r: bytes.NewReader(chunk), times: make([]int, len(chunk))}
					o := opts
					o.Sparse = sparse
					got, err := readChunkWith(new(ChunkReader), f, 0, int64(len(chunk)), col, o, prefetch)
					if err != io.EOF || !slices.Equal(got, want) {
						t.Fatalf("%s, windows of %d (prefetch %v, sparse %v): %q, %v; want %q", name, ra, prefetch, sparse, got, err, want)
					}
					for i, k := range f.times {
						if k != 1 {
							t.Fatalf("%s, windows of %d (prefetch %v, sparse %v): byte %d read %d times", name, ra, prefetch, sparse, i, k)
						}
					}
				}
			}
		}
	}
	forPrefetchChunks(t, func(name string, col Column, chunk []byte) {
		check(name, col, chunk, ChunkOptions{VerifyCRC: true}, 5)
	})
	col := Column{Path: "x", Type: meta.Int32, RowGroup: 1, Index: 4}
	var chunk []byte
	for i := range 6 {
		body := encode.AppendPlainInt32(nil, []int32{int32(i), 8, int32(-i)})
		h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
			DataPageHeader: &meta.DataPageHeader{NumValues: 3, Encoding: meta.EncodingPlain}}
		hb := h.AppendThrift(nil)
		chunk = append(chunk, byte(len(hb)), 0, 0, 0)
		for _, b := range slices.Concat(hb, body) {
			chunk = append(chunk, b^0x55)
		}
	}
	check("encrypted", col, chunk, ChunkOptions{Decryptor: &decryptor{}}, 6)
}
