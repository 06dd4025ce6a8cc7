package runtime

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Plain twins of the kernels of levels.go.

func countLevelPlain(b []uint8, v uint8) int {
	n := 0
	for _, x := range b {
		if x == v {
			n++
		}
	}
	return n
}

func anyAbovePlain(b []uint8, m uint8) bool {
	return slices.ContainsFunc(b, func(x uint8) bool { return x > m })
}

func takeRowsPlain(rep []uint8, from, k int) (end, rows int) {
	end = from
	for end < len(rep) {
		if rep[end] == 0 {
			if rows == k {
				break
			}
			rows++
		}
		end++
	}
	return end, rows
}

func firstBrokenListPlain(rep, def []uint8, d uint8) int {
	for i := 1; i < len(rep); i++ {
		if rep[i] != 0 && (def[i] < d || def[i-1] < d) {
			return i
		}
	}
	return -1
}

func rowEndPlain(rep []uint8, from, k int) int {
	i := from + 1
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

// TestLevelKernels checks the SWAR kernels against their plain twins on
// random levels of every length up to 70 and several value ranges,
// including bytes of 128 and more (which the carry tricks must not
// misread) and maxima of 128 and more (the byte-loop path).
func TestLevelKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, top := range []int{1, 2, 3, 4, 8, 127, 128, 256} {
		for n := 0; n <= 70; n++ {
			for range 20 {
				b := make([]uint8, n)
				for i := range b {
					b[i] = uint8(r.IntN(top))
				}
				for _, v := range []uint8{0, 1, 2, 3, 4, 5, 126, 127, 128, 129, 200, 254, 255} {
					if got, want := countLevel(b, v), countLevelPlain(b, v); got != want {
						t.Fatalf("countLevel(%v, %d) = %d, want %d", b, v, got, want)
					}
					if anyAbovePlain(b, v) && firstAbove(b, v) != b[slices.IndexFunc(b, func(x uint8) bool { return x > v })] {
						t.Fatalf("firstAbove(%v, %d) = %d", b, v, firstAbove(b, v))
					}
				}
				for maxL := 0; maxL < 8; maxL++ {
					if top > maxL+1 {
						continue // addHistogram's precondition
					}
					got, want := make([]int64, maxL+1), make([]int64, maxL+1)
					got[0], want[0] = 5, 5 // adds to what is there
					addHistogram(got, b)
					for _, x := range b {
						want[x]++
					}
					if !slices.Equal(got, want) {
						t.Fatalf("addHistogram(%v) max %d = %v, want %v", b, maxL, got, want)
					}
				}
				if top <= 4 && n > 0 {
					for from := 0; from < n; from++ {
						for k := 1; k <= n+1; k++ {
							if got, want := rowEnd(b, from, k), rowEndPlain(b, from, k); got != want {
								t.Fatalf("rowEnd(%v, %d, %d) = %d, want %d", b, from, k, got, want)
							}
						}
					}
				}
				if top <= 4 {
					for from := 0; from <= n; from++ {
						for k := 0; k <= n+1; k++ {
							ge, gr := takeRows(b, from, k)
							we, wr := takeRowsPlain(b, from, k)
							if ge != we || gr != wr {
								t.Fatalf("takeRows(%v, %d, %d) = %d, %d, want %d, %d", b, from, k, ge, gr, we, wr)
							}
						}
					}
				}
				// Definition levels for firstBrokenList: mostly at or
				// above d, so that the word loop runs, with a broken
				// slot here and there; and bytes of 128 and more.
				def := make([]uint8, n)
				for i := range def {
					def[i] = uint8(r.IntN(top)) + uint8(r.IntN(3))
					if r.IntN(16) == 0 {
						def[i] = 0
					}
				}
				for _, d := range []uint8{0, 1, 2, 3, 4, 127, 128, 129, 200} {
					if got, want := firstBrokenList(b, def, d), firstBrokenListPlain(b, def, d); got != want {
						t.Fatalf("firstBrokenList(%v, %v, %d) = %d, want %d", b, def, d, got, want)
					}
				}
			}
		}
	}
}
