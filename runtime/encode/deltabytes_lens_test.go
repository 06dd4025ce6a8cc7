package encode

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestGatheredLens: the lengths GatheredLens returns are those of the
// values gathered from the dictionary and of the suffixes the values keep
// after the prefixes they share with the one before, counted byte by byte
// here; the suffixes bound the DELTA_BYTE_ARRAY encoding of the gathered
// values from below.
func TestGatheredLens(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, entries := range []int{1, 2, 17, 300} {
		var dict ByteArrays
		for i := range entries {
			// Shared prefixes of every length, including none and whole values.
			v := fmt.Sprintf("%.*s%d", r.IntN(12), "prefix/path/x", i%7)
			dict.AppendString(v[:min(len(v), r.IntN(14))])
		}
		idx := make([]int32, 2000)
		for i := range idx {
			idx[i] = int32(r.IntN(entries))
		}
		total, suffixes := GatheredLens(dict, idx)
		vals, err := GatherByteArrays(ByteArrays{}, dict, idx)
		if err != nil {
			t.Fatal(err)
		}
		wantSuffixes, prev := 0, []byte(nil)
		for i := range vals.Len() {
			v := vals.At(i)
			k := 0
			for k < len(v) && k < len(prev) && v[k] == prev[k] {
				k++
			}
			wantSuffixes += len(v) - k
			prev = v
		}
		if total != len(vals.Data) || suffixes != wantSuffixes {
			t.Errorf("%d entries: GatheredLens = %d, %d; want %d, %d", entries, total, suffixes, len(vals.Data), wantSuffixes)
		}
		if enc := AppendDeltaByteArray(nil, vals); len(enc) < suffixes {
			t.Errorf("%d entries: DELTA_BYTE_ARRAY of %d bytes, below the %d bytes of suffixes", entries, len(enc), suffixes)
		}
	}
}
