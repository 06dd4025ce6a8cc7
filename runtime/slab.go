package runtime

import "unsafe"

// Slab hands out the list elements and struct pointers that generated
// readers fill, carved from shared chunks: one allocation per chunk of
// elements instead of one or more per list or pointer (append's growth
// allocates 1, 2, 4, ... elements per list). A generated reader keeps one
// Slab per list and per nullable struct of its row type, for the life of
// the reader.
//
// Each slice Extend returns is capped at its length, so appending to it
// reallocates and never writes into a neighbour, and no two slices or
// pointers share an element. A kept row keeps alive the chunks its lists
// and pointers were carved from (at most slabChunkBytes each, or one
// list; takeChunkBytes for the runs of Take, or one run), as the strings
// of a batch keep its value bytes alive (see ByteArrayReader.String).
//
// Slabs cut the allocations of a nested read to those of its maps (two
// each); see the nested case of peers/bench for the figures.
//
// For generated code (see "For generated code" in the package doc).
type Slab[T any] struct {
	chunk []T
	pos   int // next free element of chunk
	start int // first element of the open list, which Extend grows in place
}

// slabChunkBytes is the size of a chunk of small elements.
const slabChunkBytes = 4096

// New returns a pointer to a new zero T.
func (s *Slab[T]) New() *T {
	if s.pos == len(s.chunk) {
		s.refill(1, 0)
	}
	p := &s.chunk[s.pos]
	s.pos++
	s.start = s.pos
	return p
}

// Extend returns x with one more element, zero. x must be empty (a list
// starts) or the slice the previous Extend call returned (the open list
// grows in place); for any other x, Extend appends as append does.
func (s *Slab[T]) Extend(x []T) []T {
	n := len(x)
	if n == 0 {
		s.start = s.pos
	} else if s.pos-s.start != n || &s.chunk[s.start] != &x[0] {
		var zero T
		return append(x, zero)
	}
	if s.pos == len(s.chunk) {
		s.refill(n+1, n)
	}
	s.pos++
	return s.chunk[s.start:s.pos:s.pos]
}

// Take returns n new zero elements, for the values one batch points at:
// cut from a chunk of takeChunkBytes when they take at most an eighth of
// one (small batches, or the tiles of a wide type's Read; see ReadTile),
// else allocated on their own. A later Extend starts a new list.
func (s *Slab[T]) Take(n int) []T {
	var zero T
	size := takeChunkBytes / max(int(unsafe.Sizeof(zero)), 1)
	if n > size/8 {
		return make([]T, n)
	}
	if len(s.chunk)-s.pos < n {
		s.chunk, s.pos = make([]T, size), 0
	}
	x := s.chunk[s.pos : s.pos+n : s.pos+n]
	s.pos += n
	s.start = s.pos
	return x
}

// takeChunkBytes is the size of a chunk Take cuts from.
const takeChunkBytes = 32 << 10

// refill starts a chunk of room for at least need elements, moving the
// open list's keep elements to its start.
func (s *Slab[T]) refill(need, keep int) {
	var zero T
	size := slabChunkBytes / max(int(unsafe.Sizeof(zero)), 1)
	size = max(size, 8, 2*need)
	c := make([]T, size)
	copy(c, s.chunk[s.pos-keep:s.pos])
	s.chunk, s.start, s.pos = c, 0, keep
}
