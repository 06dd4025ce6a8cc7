package encode

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// appendDeltaByteArrayTwin is the first appendDeltaByteArray: prefix
// lengths in a scratch area of dst, each length stream encoded block by
// block through appendDeltaBlock32. TestDeltaByteArrayTwin holds the
// current one to its bytes.
func appendDeltaByteArrayTwin(dst []byte, vals byteValues) []byte {
	var buf [DeltaBlockSize]uint32
	var sc deltaScratch32
	const mbSize = DeltaBlockSize / DeltaMiniBlocks
	n := vals.n
	var pre []uint32
	var prevVal []byte
	for i := range n {
		v := vals.at(i)
		pre = append(pre, uint32(commonPrefix(prevVal, v)))
		prevVal = v
	}
	for pass := 0; pass < 2; pass++ {
		val := func(i int) uint32 {
			if pass == 0 {
				return pre[i]
			}
			return uint32(len(vals.at(i))) - pre[i]
		}
		var first uint32
		if n > 0 {
			first = val(0)
		}
		dst = appendDeltaHeader(dst, DeltaBlockSize, DeltaMiniBlocks, n, int64(first))
		prev := first
		for i := 1; i < n; {
			k := min(n-i, DeltaBlockSize)
			for j := range k {
				buf[j] = val(i + j)
			}
			dst = appendDeltaBlock32(dst, prev, buf[:k], DeltaMiniBlocks, mbSize, &sc)
			prev = buf[k-1]
			i += k
		}
	}
	for i := range n {
		dst = append(dst, vals.at(i)[pre[i]:]...)
	}
	return dst
}

// TestDeltaByteArrayTwin: AppendDeltaByteArray and
// AppendDeltaByteArrayFixed write the twin's bytes, after a prefix of dst,
// for value counts around the block size (0 to 1,000 values), values
// sharing prefixes of every length, empty values, and values of up to 300
// bytes.
func TestDeltaByteArrayTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{0, 1, 2, 3, 127, 128, 129, 130, 256, 257, 1000} {
		for _, maxLen := range []int{0, 4, 40, 300} {
			var src ByteArrays
			var prev []byte
			for range n {
				v := make([]byte, r.IntN(maxLen+1))
				for j := range v {
					v[j] = byte('a' + r.IntN(3))
				}
				if len(prev) > 0 && r.IntN(2) == 0 {
					k := r.IntN(len(prev) + 1)
					v = append(append([]byte(nil), prev[:k]...), v...)
				}
				src.Append(v)
				prev = v
			}
			head := []byte("prefix")
			got := AppendDeltaByteArray(append([]byte(nil), head...), src)
			want := appendDeltaByteArrayTwin(append([]byte(nil), head...), byteValues{data: src.Data, offs: src.Offsets, n: src.Len()})
			if !bytes.Equal(got, want) {
				t.Fatalf("%d values of up to %d bytes: %d bytes, the twin %d", n, maxLen, len(got), len(want))
			}
			// A slice of a page: its offsets start past 0 and its data
			// goes on after its last value (the word loads of prefixLens
			// and appendSuffixes read past a value's end within data).
			if a, b := n/3, 2*n/3; b > a {
				sub := ByteArrays{Data: src.Data, Offsets: src.Offsets[a : b+1]}
				got := AppendDeltaByteArray(nil, sub)
				want := appendDeltaByteArrayTwin(nil, byteValues{data: sub.Data, offs: sub.Offsets, n: sub.Len()})
				if !bytes.Equal(got, want) {
					t.Fatalf("values [%d, %d) of %d of up to %d bytes: %d bytes, the twin %d", a, b, n, maxLen, len(got), len(want))
				}
			}
			if size := 1 + maxLen/4; n > 0 {
				fixed := make([]byte, n*size)
				for i := range fixed {
					fixed[i] = byte('a' + r.IntN(2))
				}
				got := AppendDeltaByteArrayFixed(nil, fixed, size)
				want := appendDeltaByteArrayTwin(nil, byteValues{data: fixed, size: size, n: n})
				if !bytes.Equal(got, want) {
					t.Fatalf("%d fixed values of %d bytes: bytes differ", n, size)
				}
			}
		}
	}
}
