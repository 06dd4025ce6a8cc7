package encode

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// firstSeen is the independent judge of the dictionaries: the index of
// each value is the order of its first occurrence, and the entries are
// the distinct values in that order.
func firstSeen[K comparable](src []K) (idx []int32, entries []K) {
	at := map[K]int32{}
	for _, v := range src {
		i, ok := at[v]
		if !ok {
			i = int32(len(entries))
			at[v] = i
			entries = append(entries, v)
		}
		idx = append(idx, i)
	}
	return idx, entries
}

// TestDictReleaseReuse: dictionaries that grow through the pools after
// other dictionaries released tables and entry buffers full of other
// values (which a pooled buffer holds past its length, and a table must
// not show) index every value as a map does, and so do released
// dictionaries used again. The test fails if a pooled table is not
// cleared.
func TestDictReleaseReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for round := range 6 {
		n, keys := 20000, uint64(300+round*1500)
		src32 := make([]uint32, n)
		src64 := make([]int64, n)
		var ba ByteArrays
		strs := make([]string, n)
		for i := range n {
			k := r.Uint64N(keys)
			src32[i] = uint32(k*2654435761 + uint64(round))
			src64[i] = int64(k<<33 | uint64(round))
			strs[i] = fmt.Sprintf("k%d-%d", k, round)
			ba.AppendString(strs[i])
		}
		var d32 Dict32
		var d64 Dict64
		var db DictBytes
		for use := range 2 { // a fresh dictionary, then the same one released
			idx, added, full := d32.insert(nil, src32)
			wantIdx, want32 := firstSeen(src32)
			if full || added != n || !slices.Equal(idx, wantIdx) || !slices.Equal(d32.Values(), want32) {
				t.Fatalf("round %d use %d: Dict32 differs from the map", round, use)
			}
			idx, added, full = d64.InsertInt64(nil, src64)
			wantIdx, want64 := firstSeen(src64)
			if full || added != n || !slices.Equal(idx, wantIdx) || len(d64.Values()) != len(want64) {
				t.Fatalf("round %d use %d: Dict64 differs from the map", round, use)
			}
			for i, v := range d64.Values() {
				if int64(v) != want64[i] {
					t.Fatalf("round %d use %d: Dict64 entry %d", round, use, i)
				}
			}
			idx, added, full = db.InsertByteArrays(nil, ba)
			wantIdx, wantS := firstSeen(strs)
			if full || added != n || !slices.Equal(idx, wantIdx) || db.Len() != len(wantS) {
				t.Fatalf("round %d use %d: DictBytes differs from the map", round, use)
			}
			vals := db.Values()
			for i, s := range wantS {
				if string(vals.At(i)) != s {
					t.Fatalf("round %d use %d: DictBytes entry %d", round, use, i)
				}
			}
			d32.Release()
			d64.Release()
			db.Release()
			if d32.Len() != 0 || d64.Len() != 0 || db.Len() != 0 || db.Size() != 0 {
				t.Fatalf("round %d: a released dictionary is not empty", round)
			}
		}
	}
}
