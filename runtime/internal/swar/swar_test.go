package swar

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func anyAbovePlain(b []uint8, m uint8) bool {
	return slices.ContainsFunc(b, func(x uint8) bool { return x > m })
}

// TestAnyAbove compares AnyAbove with its plain twin on every length up to
// 40 at every offset of a buffer, for every bound, on random bytes below
// a random ceiling (so that both answers occur), and on a byte above the
// bound at each position in turn.
func TestAnyAbove(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]uint8, 48)
	seen := [2]int{}
	for m := range 256 {
		for _, c := range []int{1, 2, 3, 129, 256} {
			for i := range buf {
				buf[i] = uint8(rng.IntN(c))
			}
			for off := range 8 {
				for n := 0; off+n <= 40; n++ {
					b := buf[off : off+n]
					got, want := AnyAbove(b, uint8(m)), anyAbovePlain(b, uint8(m))
					if got != want {
						t.Fatalf("AnyAbove(%v, %d) = %v, want %v", b, m, got, want)
					}
					if got {
						seen[1]++
					} else {
						seen[0]++
					}
				}
			}
		}
		if m == 255 {
			continue
		}
		for n := 1; n <= 24; n++ {
			for p := range n {
				b := make([]uint8, n)
				for i := range b {
					b[i] = uint8(rng.IntN(m + 1))
				}
				b[p] = uint8(m + 1 + rng.IntN(255-m))
				if !AnyAbove(b, uint8(m)) {
					t.Fatalf("AnyAbove(%v, %d) = false, byte %d is %d", b, m, p, b[p])
				}
			}
		}
	}
	if seen[0] == 0 || seen[1] == 0 {
		t.Fatalf("answers seen (false, true): %v: the test exercises one case only", seen)
	}
}
