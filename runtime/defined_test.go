package runtime

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDefined: Defined returns, for every stretch of a random level
// slice, the indexes whose level is the one asked for, as a test of each
// entry finds them: levels 0 to 3 and 255, stretches of 1 to 300 entries,
// from every position.
func TestDefined(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 200 {
		def := make([]uint8, r.IntN(700))
		for i := range def {
			if r.IntN(50) == 0 {
				def[i] = 255
			} else {
				def[i] = uint8(r.IntN(4))
			}
		}
		level := []uint8{0, 1, 2, 3, 255}[round%5]
		dst := make([]int32, 1+r.IntN(300))
		for from := 0; from <= len(def); from += len(dst) {
			var want []int32
			for i := from; i < min(from+len(dst), len(def)); i++ {
				if def[i] == level {
					want = append(want, int32(i))
				}
			}
			if got := Defined(dst, def, from, level); !slices.Equal(got, want) {
				t.Fatalf("round %d, level %d, from %d of %d, stretch %d: %v, want %v", round, level, from, len(def), len(dst), got, want)
			}
		}
	}
}

// BenchmarkDefined: a stretch of 256 levels, a third 0.
func BenchmarkDefined(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	def := make([]uint8, 1<<16)
	for i := range def {
		if r.IntN(3) > 0 {
			def[i] = 1
		}
	}
	var dst [256]int32
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	for i := range b.N {
		Defined(dst[:], def, i*len(dst)%len(def), 1)
	}
}

// TestMixed: both kinds at least a sixteenth of the rows.
func TestMixed(t *testing.T) {
	for _, c := range []struct {
		values, rows int
		want         bool
	}{{0, 0, true}, {0, 16, false}, {1, 16, true}, {15, 16, true}, {16, 16, false}, {8, 16, true}, {63, 1024, false}, {64, 1024, true}, {960, 1024, true}, {961, 1024, false}} {
		if got := Mixed(c.values, c.rows); got != c.want {
			t.Errorf("Mixed(%d, %d) = %v, want %v", c.values, c.rows, got, c.want)
		}
	}
}
