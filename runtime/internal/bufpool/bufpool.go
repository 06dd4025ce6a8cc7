// Package bufpool holds size-classed pools of slices, shared by every
// writer of the process: the writer's page buffers (package runtime) and
// the dictionaries' tables and entries (package encode) grow through them
// by doubling, and what a writer outgrows or leaves when it closes serves
// the next columns and writers. Whole pools keep slices at their own
// capacity instead, for buffers that grow to sizes other than powers of
// two. The pools are sync.Pools, so the garbage collector empties what
// stays unused.
package bufpool

import (
	"math/bits"
	"slices"
	"sync"
)

const (
	// MinShift: the smallest pooled buffer holds 1<<MinShift elements;
	// Classes: the classes double from there, so the largest holds
	// 1<<(MinShift+Classes-1). Larger buffers are allocated and dropped
	// as without pools.
	MinShift = 8
	Classes  = 17
)

// Pool holds buffers of T of power-of-two capacities, class k holding
// those of capacity exactly 1<<(MinShift+k). The zero Pool is empty and
// ready to use.
type Pool[T any] struct {
	classes [Classes]sync.Pool // of *[]T
	boxes   boxes[T]
}

// Whole holds buffers of T kept whole, at their own capacity, handed out
// in no particular order. The zero Whole is empty and ready to use.
type Whole[T any] struct {
	items sync.Pool // of *[]T
	boxes boxes[T]
}

// Get returns an empty buffer from w, or nil when w holds none (it never
// allocates one).
func (w *Whole[T]) Get() []T { return w.boxes.take(&w.items) }

// Put gives s's buffer to w. The caller must not use s afterwards.
func (w *Whole[T]) Put(s []T) { w.boxes.keep(&w.items, s) }

// boxes holds empty boxes (*[]T), the items the pools hold a slice in, so
// that keeping a slice allocates nothing.
type boxes[T any] struct{ p sync.Pool }

// take returns an empty slice of the one a box of sp holds, the box going
// back to b, or nil when sp holds none.
func (b *boxes[T]) take(sp *sync.Pool) []T {
	x, _ := sp.Get().(*[]T)
	if x == nil {
		return nil
	}
	s := (*x)[:0]
	*x = nil
	b.p.Put(x)
	return s
}

// keep puts s, emptied, into sp in a box of b's.
func (b *boxes[T]) keep(sp *sync.Pool, s []T) {
	x, _ := b.p.Get().(*[]T)
	if x == nil {
		x = new([]T)
	}
	*x = s[:0]
	sp.Put(x)
}

// Class returns the class of buffers of capacity c, or -1 when c is not
// a pooled capacity.
func Class(c int) int {
	if c < 1<<MinShift || c&(c-1) != 0 {
		return -1
	}
	k := bits.Len(uint(c)) - 1 - MinShift
	if k >= Classes {
		return -1
	}
	return k
}

// Grow returns s with room for n more elements after its length: s
// itself when it has the room; else a buffer of the next power-of-two
// capacity at least twice s's (from p when it has one) holding s's
// elements, s's buffer going back to p. The elements past the length are
// unspecified (a pooled buffer holds old data there).
func Grow[T any](p *Pool[T], s []T, n int) []T {
	need := len(s) + n
	if need <= cap(s) {
		return s
	}
	want := max(need, 2*cap(s), 1<<MinShift)
	c := 1 << bits.Len(uint(want-1))
	k := Class(c)
	if k < 0 {
		return slices.Grow(s, n) // beyond the largest class: unpooled
	}
	b := p.boxes.take(&p.classes[k])
	if b == nil {
		b = make([]T, len(s), c)
	}
	b = b[:len(s)]
	copy(b, s)
	p.Put(s)
	return b
}

// Zeroed returns a slice of n zero elements of the next power-of-two
// capacity: a pooled buffer, cleared, when p holds one of that class, else
// a new one (which the allocator has zeroed: it is not cleared twice).
func Zeroed[T any](p *Pool[T], n int) []T {
	c := 1 << bits.Len(uint(max(n, 1<<MinShift)-1))
	k := Class(c)
	if k < 0 {
		return make([]T, n)
	}
	if b := p.TryGet(k); b != nil {
		b = b[:n]
		clear(b)
		return b
	}
	return make([]T, n, c)
}

// TryGet returns an empty buffer of class k from p, or nil when p holds
// none (it never allocates one). Precondition: 0 <= k < Classes.
func (p *Pool[T]) TryGet(k int) []T { return p.boxes.take(&p.classes[k]) }

// PutFloor gives s's buffer to p as one of the largest class its capacity
// holds (its capacity cut to that class's), if any. The caller must not
// use s afterwards. It returns the class, or -1 when s was not pooled.
func (p *Pool[T]) PutFloor(s []T) int {
	if cap(s) < 1<<MinShift {
		return -1
	}
	k := min(bits.Len(uint(cap(s)))-1-MinShift, Classes-1)
	p.Put(s[: 0 : 1<<(MinShift+k)])
	return k
}

// Put gives s's buffer to p, if its capacity is pooled. The caller must
// not use s afterwards.
func (p *Pool[T]) Put(s []T) {
	if k := Class(cap(s)); k >= 0 {
		p.boxes.keep(&p.classes[k], s)
	}
}
