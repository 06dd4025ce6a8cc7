package runtime

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// MapEntry is one entry of a Go map, as MapEntries and MapEntriesFunc list
// them for generated writers.
type MapEntry[K comparable, V any] struct {
	Key   K
	Value V
}

// MapEntries returns the entries of m, in ascending key order when sorted
// is true (numbers by value, cmp.Compare: NaN first; strings by their
// bytes), else in map iteration order. Generated writers write map entries
// in this order, sorted unless WithSortedMaps(false), so that the same rows
// give the same bytes. The entries are stored in *buf, which is grown as
// needed and kept for the next call: a writer that reuses buf allocates
// nothing once it has seen its largest map. The result aliases *buf until
// the next call. For generated code.
//
// Maps of one entry are not sorted, maps of two are ordered by one
// comparison, maps of up to 12 by insertion. Keys that compare equal (only
// NaNs: one map may hold several) come out in map iteration order.
func MapEntries[M ~map[K]V, K cmp.Ordered, V any](m M, buf *[]MapEntry[K, V], sorted bool) []MapEntry[K, V] {
	s := fillEntries(m, buf)
	if !sorted {
		return s
	}
	if sb, ok := any(buf).(*[]MapEntry[string, V]); ok {
		// String keys, the common case: compared by their first bytes
		// before a call compares the rest.
		sortStringEntries(*sb)
		return s
	}
	switch n := len(s); {
	case n < 2:
	case n == 2:
		if cmp.Less(s[1].Key, s[0].Key) {
			s[0], s[1] = s[1], s[0]
		}
	case n <= insertionMax:
		for i := 1; i < n; i++ {
			for j := i; j > 0 && cmp.Less(s[j].Key, s[j-1].Key); j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
	default:
		slices.SortFunc(s, func(a, b MapEntry[K, V]) int { return cmp.Compare(a.Key, b.Key) })
	}
	return s
}

// MapEntriesFunc is MapEntries for keys that are not cmp.Ordered: compare
// orders them (generated writers pass CompareBool, CompareTime or a
// comparison of the key's encoded bytes). Keys that compare equal come out
// in map iteration order. For generated code.
func MapEntriesFunc[M ~map[K]V, K comparable, V any](m M, buf *[]MapEntry[K, V], sorted bool, compare func(a, b K) int) []MapEntry[K, V] {
	s := fillEntries(m, buf)
	if !sorted {
		return s
	}
	switch n := len(s); {
	case n < 2:
	case n == 2:
		if compare(s[1].Key, s[0].Key) < 0 {
			s[0], s[1] = s[1], s[0]
		}
	case n <= insertionMax:
		for i := 1; i < n; i++ {
			for j := i; j > 0 && compare(s[j].Key, s[j-1].Key) < 0; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
	default:
		slices.SortFunc(s, func(a, b MapEntry[K, V]) int { return compare(a.Key, b.Key) })
	}
	return s
}

// sortStringEntries sorts s by key as MapEntries does, comparing the keys'
// first bytes inline.
func sortStringEntries[V any](s []MapEntry[string, V]) {
	switch n := len(s); {
	case n < 2:
	case n <= insertionMax:
		for i := 1; i < n; i++ {
			for j := i; j > 0 && lessString(s[j].Key, s[j-1].Key); j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
	default:
		slices.SortFunc(s, func(a, b MapEntry[string, V]) int { return strings.Compare(a.Key, b.Key) })
	}
}

// lessString reports whether a < b, deciding by the first bytes when they
// differ.
func lessString(a, b string) bool {
	if len(a) > 0 && len(b) > 0 && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}

// insertionMax is the largest map MapEntries sorts by insertion.
const insertionMax = 12

// fillEntries copies the entries of m into *buf (grown as needed, then
// kept) and returns them.
func fillEntries[M ~map[K]V, K comparable, V any](m M, buf *[]MapEntry[K, V]) []MapEntry[K, V] {
	s := (*buf)[:0]
	if cap(s) < len(m) {
		s = make([]MapEntry[K, V], 0, len(m)+len(m)/4)
	}
	for k, v := range m {
		s = append(s, MapEntry[K, V]{k, v})
	}
	*buf = s
	return s
}

// CompareBool orders false before true.
func CompareBool[T ~bool](a, b T) int {
	switch {
	case a == b:
		return 0
	case !bool(a):
		return -1
	}
	return 1
}

// CompareTime orders times by instant, then (for equal instants, which a
// map can hold in different locations) by the location's name and offset.
func CompareTime(a, b time.Time) int {
	if c := a.Compare(b); c != 0 {
		return c
	}
	an, ao := a.Zone()
	bn, bo := b.Zone()
	if c := cmp.Compare(ao, bo); c != 0 {
		return c
	}
	return cmp.Compare(an, bn)
}
