// Assembly in two parts (WithReadParallelism of 2 or more): a generated
// reader builds the first half of a batch's rows on its own goroutine and
// the second half on another, each from its own level slots and values of
// every leaf. Leaves.Split finds where the second half starts in each
// leaf: the slot of its first row (the m-th repetition level 0, or slot m
// of a leaf without repetition) and the values before it (the definition
// levels at the leaf's maximum before that slot; see
// https://parquet.apache.org/docs/file-format/nested-encoding/).

package runtime

import (
	"fmt"
	"slices"
	"sync"

	"github.com/pqgen/pqgen/runtime/encode"
)

// splitMinRows is the fewest rows a batch must have to be assembled in
// two parts, so that starting the second goroutine (about a microsecond)
// stays small against the half it builds.
const splitMinRows = 256

// splitMinSlots is the least rows × leaves a batch must have to be split:
// readParallelMinSlots, for the same reason (tests lower it).
var splitMinSlots = readParallelMinSlots

// LeafBytes is Leaf for a BYTE_ARRAY leaf whose values the generated code
// takes with ByteArrayReader.Bytes rather than String, so that Split makes
// the batch's copy those calls share before the two parts read it.
//
// For generated code (see "For generated code" in the package doc).
func LeafBytes(dst **ByteArrayReader, col int) LeafSlot {
	s := Leaf(dst, col)
	s.bytes = true
	return s
}

// Split decides how to assemble the rows of the batch the open leaves
// hold after ReadColumns and Check. It sets ep[c] and eq[c], for every
// open leaf c, to the number of its level slots and values, the ends of
// the batch. Under WithReadParallelism(n ≥ 2), for a batch of at least
// 256 rows and 16,384 rows × leaves while no batch is being decoded
// ahead (ReadColumns: its goroutines hold the other processors, and a
// part on a goroutine of its own waited for one), it returns m = rows/2
// and sets mp[c] and mq[c] to the level slot and value where row m
// starts: rows [0, m) are built from the slots and values before those,
// rows [m, rows) from the rest, at once (Both). Otherwise it returns 0:
// one part. Split
// also makes the byte-array readers' lazily built state (the strings'
// shared buffer, the Bytes copy) so that both parts only read it.
//
// Precondition: Check returned nil (rows counts the batch's rows, every
// repeated leaf's levels start a row), and the slices have an entry per
// leaf of the bound schema.
//
// For generated code (see "For generated code" in the package doc).
func (s *Leaves) Split(rows int, mp, mq, ep, eq []int) int {
	for i := range s.leaves {
		l := &s.leaves[i]
		ep[l.col], eq[l.col] = l.slots(), l.r.numValues()
	}
	if s.fr.cfg.ReadParallelism < 2 || rows < splitMinRows || rows*len(s.leaves) < splitMinSlots || s.fr.readingAhead() {
		return 0
	}
	m := rows / 2
	for i := range s.leaves {
		l := &s.leaves[i]
		mp[l.col], mq[l.col] = rowCut(l.r.levels(), l.maxDef, l.maxRep, m)
		if b, ok := l.r.(*ByteArrayReader); ok {
			b.shareBatch(l.bytes)
		}
	}
	return m
}

// readingAhead reports whether goroutines are decoding the batch after
// the one ReadColumns returned (see read_pipe.go).
func (r *FileReader) readingAhead() bool { return r.pipe != nil && r.pipe.ahead }

// shareBatch builds now what String (asBytes false) or Bytes would build
// on first use for the current batch, so that two goroutines may call it
// at once: the string of the batch's value bytes when some value was not
// dictionary-encoded, or the copy Bytes hands out slices of.
func (c *ByteArrayReader) shareBatch(asBytes bool) {
	if asBytes {
		if c.copied == nil {
			c.copyBatch()
		}
		return
	}
	c.strs.share(&c.Values)
}

// Both runs a and b at once, b on a new goroutine, and returns a's error,
// else b's: the error of the earlier rows when a builds the first part.
//
// For generated code (see "For generated code" in the package doc).
func Both(a, b func() error) error {
	var wg sync.WaitGroup
	var errB error
	wg.Go(func() { errB = b() })
	errA := a()
	wg.Wait()
	if errA != nil {
		return errA
	}
	return errB
}

// UsedTo checks, after the assembly of one part of a batch (see Split),
// that it used every level slot and value of the open leaves up to the
// part's end: p[c] == pe[c] (for leaves with levels) and q[c] == qe[c] for
// every open leaf c. It is Used for a part: the generated code's own
// consistency, which Check makes hold for any input.
//
// For generated code (see "For generated code" in the package doc).
func (s *Leaves) UsedTo(p, q, pe, qe []int) error {
	for i := range s.leaves {
		l := &s.leaves[i]
		c := l.col
		if q[c] != qe[c] || (l.maxDef > 0 || l.maxRep > 0) && p[c] != pe[c] {
			return fmt.Errorf("%w: %s: column %q: assembly ended at value %d of %d and level slot %d of %d", ErrChunk, s.typ, l.path, q[c], qe[c], p[c], pe[c])
		}
	}
	return nil
}

// share builds all now when get would build it on first use (some value
// of the batch was not dictionary-encoded), so that get only reads.
func (s *stringRefs) share(v *encode.ByteArrays) {
	n := v.Len()
	if s.hasAll || n == 0 {
		return
	}
	if len(s.refs) >= n && !slices.ContainsFunc(s.refs[:n], func(e int32) bool { return e < 0 }) {
		return // every value is a substring of a dictionary
	}
	s.makeAll(v)
}
