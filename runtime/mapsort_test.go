package runtime

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

func entryKeys[K comparable, V any](es []MapEntry[K, V]) []K {
	out := make([]K, len(es))
	for i, e := range es {
		out[i] = e.Key
	}
	return out
}

// TestMapEntries: every size from 0 to 64 (the two-entry, insertion and
// pdqsort paths) gives the entries in ascending key order, each with its
// value, and reuses the buffer.
func TestMapEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf []MapEntry[string, int]
	var ibuf []MapEntry[int16, string]
	for n := range 65 {
		for range 20 {
			m := map[string]int{}
			im := map[int16]string{}
			for len(m) < n {
				k := strconv.Itoa(r.IntN(1000) - 500)
				m[k] = len(k)
				im[int16(r.IntN(2000)-1000)] = k
			}
			es := MapEntries(m, &buf, true)
			if len(es) != n {
				t.Fatalf("n=%d: %d entries", n, len(es))
			}
			if !slices.IsSorted(entryKeys(es)) {
				t.Fatalf("n=%d: not sorted: %q", n, entryKeys(es))
			}
			for _, e := range es {
				if m[e.Key] != e.Value {
					t.Fatalf("n=%d: entry %q has value %d, want %d", n, e.Key, e.Value, m[e.Key])
				}
			}
			ies := MapEntries(im, &ibuf, true)
			if len(ies) != len(im) || !slices.IsSorted(entryKeys(ies)) {
				t.Fatalf("n=%d: int16 keys %v", n, entryKeys(ies))
			}
			for _, e := range ies {
				if im[e.Key] != e.Value {
					t.Fatalf("n=%d: int16 entry %d has value %q", n, e.Key, e.Value)
				}
			}
		}
	}
	// Strings sort by their bytes, not by rune or locale.
	es := MapEntries(map[string]bool{"b": true, "a": true, "\xff": true, "é": true, "B": true, "": true, "ab": true}, &[]MapEntry[string, bool]{}, true)
	if got, want := entryKeys(es), []string{"", "B", "a", "ab", "b", "é", "\xff"}; !slices.Equal(got, want) {
		t.Fatalf("string order %q, want %q", got, want)
	}
}

// TestMapEntriesNoAlloc: once the buffer is large enough, sorting
// allocates nothing.
func TestMapEntriesNoAlloc(t *testing.T) {
	ms := []map[string]int64{{}, {"a": 1}, {"b": 1, "a": 2}, {"c": 1, "b": 2, "a": 3, "d": 4, "e": 5}, {}}
	for i := range 40 {
		ms[4][strconv.Itoa(i)] = int64(i)
	}
	var buf []MapEntry[string, int64]
	MapEntries(ms[4], &buf, true)
	allocs := testing.AllocsPerRun(100, func() {
		for _, m := range ms {
			MapEntries(m, &buf, true)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run", allocs)
	}
}

// TestMapEntriesFloats: numbers sort by value, NaN first; -0 and +0 are one
// key.
func TestMapEntriesFloats(t *testing.T) {
	m := map[float64]int{math.Inf(1): 1, -1.5: 2, 0: 3, math.NaN(): 4, math.Inf(-1): 5, 1e-300: 6, 2: 7}
	es := MapEntries(m, new([]MapEntry[float64, int]), true)
	got := entryKeys(es)
	if !math.IsNaN(got[0]) {
		t.Fatalf("NaN not first: %v", got)
	}
	if want := []float64{math.Inf(-1), -1.5, 0, 1e-300, 2, math.Inf(1)}; !slices.Equal(got[1:], want) {
		t.Fatalf("order %v, want NaN then %v", got, want)
	}
}

// TestMapEntriesFunc: bool, time and byte-array keys in the orders the
// generated writers use.
func TestMapEntriesFunc(t *testing.T) {
	b := MapEntriesFunc(map[bool]int{true: 1, false: 0}, new([]MapEntry[bool, int]), true, CompareBool[bool])
	if got := entryKeys(b); !slices.Equal(got, []bool{false, true}) || b[0].Value != 0 || b[1].Value != 1 {
		t.Fatalf("bool order %v", b)
	}
	t0 := time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)
	paris := time.FixedZone("CET", 3600)
	tm := map[time.Time]int{t0.Add(time.Hour): 2, t0: 0, t0.In(paris): 1, t0.Add(-time.Nanosecond): -1}
	ts := MapEntriesFunc(tm, new([]MapEntry[time.Time, int]), true, CompareTime)
	for i, e := range ts {
		if e.Value != i-1 {
			t.Fatalf("time order: entry %d is %v (value %d)", i, e.Key, e.Value)
		}
	}
	type uuid [4]byte
	r := rand.New(rand.NewPCG(3, 4))
	var buf []MapEntry[uuid, int]
	for n := range 65 {
		m := map[uuid]int{}
		for len(m) < n {
			var k uuid
			for i := range k {
				k[i] = byte(r.IntN(4)) * 85
			}
			m[k] = int(k[0])
		}
		es := MapEntriesFunc(m, &buf, true, func(a, b uuid) int { return bytes.Compare(a[:], b[:]) })
		if len(es) != n || !slices.IsSortedFunc(es, func(a, b MapEntry[uuid, int]) int { return bytes.Compare(a.Key[:], b.Key[:]) }) {
			t.Fatalf("n=%d: not sorted", n)
		}
		for _, e := range es {
			if m[e.Key] != e.Value {
				t.Fatalf("n=%d: wrong value", n)
			}
		}
	}
}

func TestCompareBool(t *testing.T) {
	type flag bool
	for _, c := range []struct {
		a, b flag
		want int
	}{{false, false, 0}, {true, true, 0}, {false, true, -1}, {true, false, 1}} {
		if got := CompareBool(c.a, c.b); got != c.want {
			t.Errorf("CompareBool(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// BenchmarkMapEntries compares listing a map's entries in key order with
// ranging over it.
func BenchmarkMapEntries(b *testing.B) {
	for _, n := range []int{1, 2, 3, 8, 64} {
		m := map[string]int64{}
		for i := range n {
			m["key"+strconv.Itoa(i*7919%1000)] = int64(i)
		}
		b.Run("n="+strconv.Itoa(n)+"/range", func(b *testing.B) {
			var s int64
			for b.Loop() {
				for _, v := range m {
					s += v
				}
			}
			_ = s
		})
		b.Run("n="+strconv.Itoa(n)+"/entries", func(b *testing.B) {
			var buf []MapEntry[string, int64]
			var s int64
			for b.Loop() {
				for _, e := range MapEntries(m, &buf, false) {
					s += e.Value
				}
			}
			_ = s
		})
		b.Run("n="+strconv.Itoa(n)+"/sorted", func(b *testing.B) {
			var buf []MapEntry[string, int64]
			var s int64
			for b.Loop() {
				for _, e := range MapEntries(m, &buf, true) {
					s += e.Value
				}
			}
			_ = s
		})
	}
}

// TestMapEntriesUnsorted: with sorted false every entry is listed once,
// with its value, and the buffer is reused.
func TestMapEntriesUnsorted(t *testing.T) {
	var buf []MapEntry[int, string]
	for n := range 40 {
		m := map[int]string{}
		for i := range n {
			m[i*31%97] = strconv.Itoa(i)
		}
		es := MapEntries(m, &buf, false)
		if len(es) != n {
			t.Fatalf("n=%d: %d entries", n, len(es))
		}
		seen := map[int]bool{}
		for _, e := range es {
			if seen[e.Key] || m[e.Key] != e.Value {
				t.Fatalf("n=%d: entry %v listed twice or with a wrong value", n, e)
			}
			seen[e.Key] = true
		}
	}
	bs := MapEntriesFunc(map[bool]int{true: 1, false: 0}, new([]MapEntry[bool, int]), false, CompareBool[bool])
	if len(bs) != 2 || bs[0].Key == bs[1].Key {
		t.Fatalf("bool map listed as %v", bs)
	}
}

// TestLessString checks lessString against the < operator on every pair
// of strings of up to two bytes drawn from 0x00, 'a', 'b' and 0xff.
func TestLessString(t *testing.T) {
	strs := []string{""}
	for _, c := range []byte("\x00ab\xff") {
		strs = append(strs, string(c))
	}
	for _, a := range strs[1:] {
		for _, c := range []byte("\x00ab\xff") {
			strs = append(strs, a+string(c))
		}
	}
	for _, a := range strs {
		for _, b := range strs {
			if got, want := lessString(a, b), a < b; got != want {
				t.Errorf("lessString(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}
