// Counting kernels over repetition and definition levels (one byte per
// slot), eight slots per step (SWAR). The writer scans every column's
// levels to check a batch, split it into pages and fill the size
// statistics' level histograms; byte loops did that at one slot per step
// and were a large share of a nested write's CPU time.
//
// Each kernel has a plain twin in levels_test.go, checked against it on
// random levels of every length and offset.

package runtime

import (
	"encoding/binary"
	"math/bits"
)

const (
	lsb8 = 0x0101010101010101
	msb8 = 0x8080808080808080
)

// nonZeroBytes returns a word whose byte i has its high bit set exactly
// when byte i of x is not zero (the low seven bits are unspecified): the
// low seven bits of each byte plus 0x7f carry into the high bit unless
// they are zero, and cannot carry out of the byte.
func nonZeroBytes(x uint64) uint64 {
	return ((x &^ msb8) + ^uint64(msb8)) | x
}

// countLevel returns how many levels of b equal v.
func countLevel(b []uint8, v uint8) int {
	pat := lsb8 * uint64(v)
	nz := 0
	n := len(b)
	for len(b) >= 8 {
		nz += bits.OnesCount64(nonZeroBytes(binary.LittleEndian.Uint64(b)^pat) & msb8)
		b = b[8:]
	}
	for _, x := range b {
		if x != v {
			nz++
		}
	}
	return n - nz
}

// firstAbove returns the first level of b that exceeds m (the error
// path of swar.AnyAbove).
func firstAbove(b []uint8, m uint8) uint8 {
	for _, x := range b {
		if x > m {
			return x
		}
	}
	return m
}

// addHistogram adds the levels of b to h, whose length is the maximum
// level + 1. Precondition: no level of b exceeds len(h)-1 (checkRows). For
// the usual small maxima it counts each level but the last with
// countLevel; the last is what remains.
func addHistogram(h []int64, b []uint8) {
	if len(h) > 5 {
		for _, x := range b {
			h[x]++
		}
		return
	}
	rest := len(b)
	last := len(h) - 1
	for l := range last {
		k := countLevel(b, uint8(l))
		h[l] += int64(k)
		rest -= k
	}
	h[last] += int64(rest)
}

// rowEnd returns the slot index after k >= 1 rows starting at slot from
// (a slot whose repetition level is 0 starts a row), or len(rep) when the
// levels end first.
func rowEnd(rep []uint8, from, k int) int {
	i := from + 1
	for i+8 <= len(rep) {
		z := 8 - bits.OnesCount64(nonZeroBytes(binary.LittleEndian.Uint64(rep[i:]))&msb8)
		if z >= k {
			break
		}
		k -= z
		i += 8
	}
	for ; i < len(rep); i++ {
		if rep[i] == 0 {
			k--
			if k == 0 {
				return i
			}
		}
	}
	return i
}

// rowCut returns where row rows starts in a leaf's levels lv (maxima
// maxDef and maxRep), whose first slot starts a row: its level slot (the
// rows-th repetition level 0 counting from 0, or slot rows without
// repetition, 0 without levels) and the leaf's values before it (the
// definition levels at maxDef before that slot, or rows when the leaf is
// required).
func rowCut(lv *Levels, maxDef, maxRep uint8, rows int) (slot, val int) {
	switch {
	case maxRep > 0:
		slot, _ = takeRows(lv.Rep, 0, rows)
	case maxDef > 0:
		slot = rows
	}
	if maxDef == 0 {
		return slot, rows
	}
	return slot, countLevel(lv.Def[:slot], maxDef)
}

// takeRows returns the end of the longest run of slots of rep from slot
// from on that starts at most k rows (a slot whose repetition level is 0
// starts a row): the index of the (k+1)th such slot at or after from, or
// len(rep) when there are no more; and the rows the run starts.
func takeRows(rep []uint8, from, k int) (end, rows int) {
	i := from
	for i+8 <= len(rep) {
		z := 8 - bits.OnesCount64(nonZeroBytes(binary.LittleEndian.Uint64(rep[i:]))&msb8)
		if rows+z > k {
			break
		}
		rows += z
		i += 8
	}
	for ; i < len(rep); i++ {
		if rep[i] == 0 {
			if rows == k {
				return i, rows
			}
			rows++
		}
	}
	return i, rows
}

// belowBytes returns a word whose byte i has its high bit set exactly when
// byte i of x is below d (the low seven bits are
// clear), for 0 <= d <= 128: a byte is at least d when its high bit is set
// or its low seven bits plus 128-d carry into the high bit.
func belowBytes(x uint64, d uint8) uint64 {
	return ^(((x &^ msb8) + lsb8*uint64(0x80-d)) | x) & msb8
}

// firstBrokenList returns the first slot i >= 1 of rep whose repetition
// level is not 0 while def[i] or def[i-1] is below d, or -1: with one
// repetition level, a slot that continues a list which is empty or null
// there or at the slot before. len(def) == len(rep).
func firstBrokenList(rep, def []uint8, d uint8) int {
	if len(rep) < 2 {
		return -1
	}
	def = def[:len(rep)]
	i := 1
	for d <= 0x80 && i+8 <= len(rep) {
		r := nonZeroBytes(binary.LittleEndian.Uint64(rep[i:])) & msb8
		below := belowBytes(binary.LittleEndian.Uint64(def[i:]), d) | belowBytes(binary.LittleEndian.Uint64(def[i-1:]), d)
		if r&below != 0 {
			break // the byte loop below finds the slot
		}
		i += 8
	}
	for ; i < len(rep); i++ {
		if rep[i] != 0 && (def[i] < d || def[i-1] < d) {
			return i
		}
	}
	return -1
}

// firstListPadding returns the first slot of a page's levels that
// dropListPadding drops, or -1. repDef[r-1] is the definition level of
// the leaf's repeated node at repetition level r (len(repDef) is the
// leaf's maximum repetition level, at least 1); prev is the definition
// level of the slot before rep[0] (the last of the page before), or -1
// when there is none or it is unknown. len(def) == len(rep).
func firstListPadding(rep, def, repDef []uint8, prev int) int {
	if len(rep) == 0 {
		return -1
	}
	if r := rep[0]; r > 0 && int(r) <= len(repDef) && int(def[0]) == prev && def[0] < repDef[r-1] {
		return 0
	}
	// A padding slot continues a list at a level whose repeated node's
	// definition level is at most the deepest one: firstBrokenList
	// passes over the slots that cannot be padding eight at a time.
	i := firstBrokenList(rep, def, repDef[len(repDef)-1])
	if i < 0 {
		return -1
	}
	for ; i < len(rep); i++ {
		if r := rep[i]; r > 0 && int(r) <= len(repDef) && def[i] == def[i-1] && def[i] < repDef[r-1] {
			return i
		}
	}
	return -1
}

// dropListPadding removes from rep and def, from slot from on (a slot
// firstListPadding found), the slots that continue a list which is null
// or empty with the same marker: a slot of repetition level r > 0 whose
// definition level is below repDef[r-1], where the list at level r holds
// no element, and equal to that of the slot before. DuckDB 1.5 writes a
// NULL fixed-size ARRAY (INTEGER[3]) as one such slot per element
// (DeviationListPadding); arrow-rs, Polars and DuckDB read them as the
// one null or empty list the first slot says. A dropped slot holds no
// value (its definition level is below the maximum), so the values stay
// as they are. prev is as for firstListPadding. It returns the number of
// slots kept, which are moved to the front of rep and def in order.
func dropListPadding(rep, def, repDef []uint8, prev, from int) int {
	if from > 0 {
		prev = int(def[from-1])
	}
	w := from
	for i := from; i < len(rep); i++ {
		r, d := rep[i], def[i]
		if r > 0 && int(r) <= len(repDef) && int(d) == prev && d < repDef[r-1] {
			continue // prev stays d
		}
		rep[w], def[w] = r, d
		w++
		prev = int(d)
	}
	return w
}
