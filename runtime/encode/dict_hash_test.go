package encode

import "testing"

// TestDictHashUsesEveryByte flips each bit of keys of every length up to
// 24 (both dictHash paths) and requires the hash to change, and requires
// keys differing only in length (trailing zero bytes) to hash apart.
func TestDictHashUsesEveryByte(t *testing.T) {
	for n := 0; n <= 24; n++ {
		key := make([]byte, n)
		for i := range key {
			key[i] = byte(i*37 + n)
		}
		h := dictHash(key)
		for i := range n {
			for bit := range 8 {
				key[i] ^= 1 << bit
				if dictHash(key) == h {
					t.Errorf("length %d: flipping bit %d of byte %d leaves the hash %#x", n, bit, i, h)
				}
				key[i] ^= 1 << bit
			}
		}
	}
	seen := map[uint64]int{}
	for n := 0; n <= 24; n++ {
		h := dictHash(make([]byte, n))
		if m, ok := seen[h]; ok {
			t.Errorf("%d and %d zero bytes hash alike (%#x)", m, n, h)
		}
		seen[h] = n
	}
}
