package encode

import (
	"bytes"
	"testing"
)

// TestDictHashUsesEveryByte flips each bit of keys of every length up to
// 40 (every dictHash path) and requires the hash to change, and requires
// keys differing only in length (trailing zero bytes) to hash apart.
func TestDictHashUsesEveryByte(t *testing.T) {
	for n := 0; n <= 40; n++ {
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
	for n := 0; n <= 40; n++ {
		h := dictHash(make([]byte, n))
		if m, ok := seen[h]; ok {
			t.Errorf("%d and %d zero bytes hash alike (%#x)", m, n, h)
		}
		seen[h] = n
	}
}

// TestEqualKey checks equalKey against bytes.Equal on keys of every length
// up to 40 (every equalKey path): equal keys, keys differing in any one
// byte, and keys of different lengths sharing a prefix.
func TestEqualKey(t *testing.T) {
	for n := 0; n <= 40; n++ {
		a := make([]byte, n, n+8)
		for i := range a {
			a[i] = byte(i*53 + n)
		}
		b := append([]byte(nil), a...)
		check := func(x, y []byte) {
			t.Helper()
			if got, want := equalKey(x, y), bytes.Equal(x, y); got != want {
				t.Errorf("equalKey(%x, %x) = %v, want %v", x, y, got, want)
			}
		}
		check(a, b)
		for i := range n {
			b[i] ^= 0x80
			check(a, b)
			check(b, a)
			b[i] ^= 0x80
		}
		check(a, a[:n+1]) // longer by a byte beyond a's end
		if n > 0 {
			check(a, b[:n-1])
		}
	}
}
