package bench

import (
	"math/rand/v2"
	"time"
)

// The high-entropy variants of the suite's data (issue 17): the same row
// types filled with values that neither DELTA nor a small dictionary makes
// vanish. Every generator starts from fixed PCG seeds, so that the rows of
// a given count are the same in every run and for every library.

// heKeys is the number of distinct keys the Zipf-distributed string
// columns draw from.
const heKeys = 50_000

// heAlphabet is the 64 bytes random strings are made of (6 bits a byte).
const heAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

// heKeyTable holds heKeys distinct random strings of 4 to 24 bytes.
var heKeyTable = func() []string {
	g := newHEGen(17, 0)
	seen := make(map[string]bool, heKeys)
	t := make([]string, 0, heKeys)
	for len(t) < heKeys {
		s := g.str(4, 24)
		if !seen[s] {
			seen[s] = true
			t = append(t, s)
		}
	}
	return t
}()

// heGen draws the values of the high-entropy rows.
type heGen struct {
	r    *rand.Rand
	zipf *rand.Zipf
	buf  []byte
}

// newHEGen returns a generator seeded with (seed, stream).
func newHEGen(seed, stream uint64) *heGen {
	r := rand.New(rand.NewPCG(seed, stream))
	// s = 1.1: the head key is drawn about one time in seven, and some
	// 42,000 of the 50,000 keys appear in a million draws.
	return &heGen{r: r, zipf: rand.NewZipf(r, 1.1, 1, heKeys-1)}
}

func (g *heGen) i64() int64 { return int64(g.r.Uint64()) }
func (g *heGen) i32() int32 { return int32(g.r.Uint32()) }

// f64 is normally distributed around 100 with a standard deviation of 15.
func (g *heGen) f64() float64 { return g.r.NormFloat64()*15 + 100 }
func (g *heGen) f32() float32 { return float32(g.r.NormFloat64()*15 + 100) }
func (g *heGen) bool() bool   { return g.r.Uint64()&1 == 1 }

// key is a Zipf-distributed key of heKeyTable.
func (g *heGen) key() string { return heKeyTable[g.zipf.Uint64()] }

// str is a random string of lo to hi bytes of heAlphabet.
func (g *heGen) str(lo, hi int) string {
	n := lo + g.r.IntN(hi-lo+1)
	g.buf = g.buf[:0]
	for range n {
		g.buf = append(g.buf, heAlphabet[g.r.Uint32()&63])
	}
	return string(g.buf)
}

// optI64 is nil a third of the time, else a random int64.
func (g *heGen) optI64() *int64 {
	if g.r.IntN(3) == 0 {
		return nil
	}
	v := g.i64()
	return &v
}

// flatRowsHE returns n high-entropy Flat rows: random int64 ids, names
// drawn from a Zipf distribution over 50,000 keys, normally distributed
// values, Opt null a third of the time and random otherwise, random counts,
// and times 1.237 ms apart jittered by up to ±1 s (not monotonic).
func flatRowsHE(n int) []Flat {
	g := newHEGen(17, 1)
	rows := make([]Flat, n)
	opts := make([]int32, n)
	for i := range rows {
		r := &rows[i]
		r.ID = g.i64()
		r.Name = g.key()
		r.Value = g.f64()
		if g.r.IntN(3) != 0 {
			opts[i] = g.i32()
			r.Opt = &opts[i]
		}
		r.Count = g.i32()
		jitter := g.r.Int64N(2_000_001) - 1_000_000
		r.At = epoch.Add(time.Duration(int64(i)*1237+jitter) * time.Microsecond)
	}
	return rows
}

// phoneKinds are the values of Phone.Kind in the high-entropy rows.
var phoneKinds = []string{"home", "work", "mobile", "fax", "pager", "other"}

// contactRowsHE returns n high-entropy Contact rows: random ids, random
// names and streets, cities from the Zipf keys, an address for three rows
// in four, zero to eight random emails, zero to five phones with random
// numbers and zero to six attributes with Zipf keys and random values.
func contactRowsHE(n int) []Contact {
	g := newHEGen(17, 2)
	rows := make([]Contact, n)
	for i := range rows {
		r := &rows[i]
		r.ID = g.i64()
		r.Name = g.str(3, 40)
		if g.r.IntN(4) != 0 {
			r.Address = &Address{Street: g.str(8, 48), City: g.key(), Zip: g.r.Int32N(100_000)}
		}
		if k := g.r.IntN(9); k > 0 {
			r.Emails = make([]string, k)
			for j := range r.Emails {
				r.Emails[j] = g.str(6, 40)
			}
		}
		if k := g.r.IntN(6); k > 0 {
			r.Phones = make([]Phone, k)
			for j := range r.Phones {
				r.Phones[j] = Phone{Kind: phoneKinds[g.r.IntN(len(phoneKinds))], Number: g.str(7, 16)}
			}
		}
		if k := g.r.IntN(7); k > 0 {
			r.Attrs = make(map[string]int64, k)
			for len(r.Attrs) < k {
				r.Attrs[g.key()] = g.i64()
			}
		}
	}
	return rows
}

// wideRowsHE returns n high-entropy Wide rows (fillWideHE).
func wideRowsHE(n int) []Wide {
	g := newHEGen(17, 3)
	rows := make([]Wide, n)
	for i := range rows {
		fillWideHE(g, &rows[i])
	}
	return rows
}
