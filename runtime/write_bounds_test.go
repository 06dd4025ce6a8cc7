package runtime

import (
	"bytes"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
)

// TestAddBytesMatchesNaive: bytesBounds.addBytes, which skips the full
// comparisons of a value strictly between the bounds by its first byte,
// keeps the same bounds as comparing every value with bytes.Compare, over
// batches of random strings that share first bytes and prefixes, include
// empty values and the bytes 0x00 and 0xff.
func TestAddBytesMatchesNaive(t *testing.T) {
	rnd := newRand(9)
	alphabet := []byte{0x00, 0x01, 'a', 'b', 'c', 0x7f, 0xfe, 0xff}
	for trial := range 2000 {
		var b bytesBounds
		var mn, mx []byte
		has := false
		for range 1 + rnd.IntN(5) {
			var batch encode.ByteArrays
			for range rnd.IntN(12) {
				v := make([]byte, 1+rnd.IntN(4))
				if rnd.IntN(50) == 0 {
					v = v[:0]
				}
				for j := range v {
					v[j] = alphabet[rnd.IntN(len(alphabet))]
				}
				batch.Append(v)
				if !has || bytes.Compare(v, mn) < 0 {
					mn = v
				}
				if !has || bytes.Compare(v, mx) > 0 {
					mx = v
				}
				has = true
			}
			b.addBytes(batch)
		}
		if b.has != has || has && (!bytes.Equal(b.mn, mn) || !bytes.Equal(b.mx, mx)) {
			t.Fatalf("trial %d: bounds %v [%x, %x], want %v [%x, %x]", trial, b.has, b.mn, b.mx, has, mn, mx)
		}
	}
}
