package runtime

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestPageStore appends pages of random sizes to a store over several
// chunks, each started as after a small one, and checks that it gives
// back exactly the bytes appended; that a chunk of small pages holds a
// small block (a new one, or the one the store kept), not one of
// storeBlock bytes; that a small first block grows past half a
// storeBlock into one of storeBlock bytes; that every block but the
// first holds storeBlock bytes; that only those go back to the free
// list; and that a store whose chunks outgrow its spare gives it back.
func TestPageStore(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s pageStore
	var free [][]byte
	for chunk, size := range []int{100, 3000, 200 << 10, 50, 1 << 20, 40 << 10, 10, 20, 5000, 48 << 10, 33 << 10, 70 << 10} {
		var want bytes.Buffer
		for want.Len() < size {
			hdr := make([]byte, 1+r.IntN(30))
			body := make([]byte, r.IntN(min(size, 100<<10)))
			for _, p := range [][]byte{hdr, body} {
				for i := range p {
					p[i] = byte(r.Uint32())
				}
				want.Write(p)
			}
			s.appendPage(hdr, body, &free)
		}
		var got bytes.Buffer
		if err := s.writeTo(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) || s.n != int64(want.Len()) {
			t.Fatalf("chunk %d: %d bytes back of %d (n %d)", chunk, got.Len(), want.Len(), s.n)
		}
		held := 0
		for i, b := range s.blocks {
			held += cap(b)
			if i > 0 && cap(b) != storeBlock || i < len(s.blocks)-1 && len(b) != cap(b) {
				t.Fatalf("chunk %d: block %d of %d: len %d, cap %d", chunk, i, len(s.blocks), len(b), cap(b))
			}
		}
		if want.Len() < storeBlock/4 && held >= storeBlock {
			t.Fatalf("chunk %d of %d bytes holds %d bytes of blocks", chunk, want.Len(), held)
		}
		s.reset(&free)
		s.big = false // the next chunk starts small whatever this one held
		for _, b := range free {
			if cap(b) != storeBlock {
				t.Fatalf("chunk %d: a block of %d bytes on the free list", chunk, cap(b))
			}
		}
	}
	// A store whose chunks outgrow its spare gives the spare back.
	var o pageStore
	o.appendPage(make([]byte, 20), make([]byte, 1000), &free)
	o.reset(&free)
	if o.spare == nil {
		t.Fatal("a store of a small chunk kept no spare")
	}
	o.appendPage(make([]byte, 20), make([]byte, 40<<10), &free)
	if o.spare != nil || cap(o.blocks[0]) != storeBlock {
		t.Fatalf("a chunk of a large page: spare of %d bytes kept, first block of %d bytes", cap(o.spare), cap(o.blocks[0]))
	}
	// A small first block that a page fills past half a storeBlock
	// becomes one of storeBlock bytes.
	var g pageStore
	g.appendPage(make([]byte, 20), make([]byte, 1000), &free)
	g.appendPage(make([]byte, 20), make([]byte, 40<<10), &free)
	if len(g.blocks) != 1 || cap(g.blocks[0]) != storeBlock || g.n != 1040+40<<10 {
		t.Fatalf("grown first block: %d blocks, first of %d bytes, n %d", len(g.blocks), cap(g.blocks[0]), g.n)
	}
}
