package encode

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// naiveFirstInvalidUTF8 is FirstInvalidUTF8's plain twin: each value on
// its own.
func naiveFirstInvalidUTF8(b ByteArrays) int {
	for i := range b.Len() {
		if !utf8.Valid(b.At(i)) {
			return i
		}
	}
	return -1
}

func byteArraysOf(vals ...string) ByteArrays {
	var b ByteArrays
	for _, v := range vals {
		b.AppendString(v)
	}
	return b
}

func TestFirstInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		vals []string
		want int
	}{
		{nil, -1},
		{[]string{""}, -1},
		{[]string{"", "", ""}, -1},
		{[]string{"ascii only, more than thirty-two bytes long", "x"}, -1},
		{[]string{"é", "日本語", "🙂", ""}, -1},
		{[]string{"ok", "a\xffb"}, 1},
		{[]string{"\x80"}, 0},
		// A rune split across two values: valid together, not apart.
		{[]string{"a\xc3", "\xa9b"}, 0},
		{[]string{"ok", "\xe6\x97", "\xa5"}, 1},
		{[]string{"ok", "x\xe6\x97", "\xa5"}, 1},
		// The split rune's tail alone at the start of a value.
		{[]string{"\xa9", "é"}, 0},
		// Surrogates and overlong forms are invalid.
		{[]string{"\xed\xa0\x80"}, 0},
		{[]string{"\xc0\xaf"}, 0},
		{[]string{"é", "", "truncated \xe2\x82"}, 2},
	} {
		b := byteArraysOf(tc.vals...)
		if got := FirstInvalidUTF8(b); got != tc.want {
			t.Errorf("%q: FirstInvalidUTF8 = %d, want %d", tc.vals, got, tc.want)
		}
		if got := naiveFirstInvalidUTF8(b); got != tc.want {
			t.Errorf("%q: the naive twin gives %d, want %d", tc.vals, got, tc.want)
		}
	}
	// Offsets that do not start at 0 (a slice of a larger buffer).
	b := byteArraysOf("\xff", "ok", "é")
	b.Offsets = b.Offsets[1:]
	if got := FirstInvalidUTF8(b); got != -1 {
		t.Errorf("values after an invalid one outside the slice: %d, want -1", got)
	}
}

// TestFirstInvalidUTF8Random compares FirstInvalidUTF8 with its twin on
// values cut at random from random mixes of ASCII, valid runes and stray
// bytes.
func TestFirstInvalidUTF8Random(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", "xyz", "é", "日", "🙂", "\x80", "\xff", "\xc3", "\xe6\x97"}
	bad := 0
	for range 20000 {
		var text []byte
		for range r.IntN(40) {
			p := pieces[r.IntN(len(pieces))]
			if r.IntN(8) != 0 {
				p = pieces[r.IntN(5)] // mostly valid
			}
			text = append(text, p...)
		}
		var b ByteArrays
		for i := 0; i < len(text); {
			k := min(len(text)-i, r.IntN(9))
			b.Append(text[i : i+k])
			i += k
		}
		want := naiveFirstInvalidUTF8(b)
		if want >= 0 {
			bad++
		}
		if got := FirstInvalidUTF8(b); got != want {
			t.Fatalf("%q: FirstInvalidUTF8 = %d, twin %d", text, got, want)
		}
	}
	if bad < 1000 || bad > 19000 {
		t.Fatalf("%d of 20000 cases had an invalid value: the mix does not test both outcomes", bad)
	}
}

func FuzzFirstInvalidUTF8(f *testing.F) {
	f.Add([]byte("a\xc3\xa9b"), []byte{1, 2})
	f.Add([]byte("plain ascii text of some length"), []byte{3})
	f.Fuzz(func(t *testing.T, text, cuts []byte) {
		var b ByteArrays
		i := 0
		for _, c := range cuts {
			k := min(len(text)-i, int(c%16))
			b.Append(text[i : i+k])
			i += k
		}
		b.Append(text[i:])
		if got, want := FirstInvalidUTF8(b), naiveFirstInvalidUTF8(b); got != want {
			t.Fatalf("%q cut %v: FirstInvalidUTF8 = %d, twin %d", text, cuts, got, want)
		}
	})
}

func BenchmarkFirstInvalidUTF8(b *testing.B) {
	for _, tc := range []struct{ name, word string }{{"ascii", "name-0042"}, {"accents", "café-über"}} {
		var v ByteArrays
		for range 100000 {
			v.AppendString(tc.word)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(v.TotalLen()))
			b.ReportAllocs()
			for b.Loop() {
				if FirstInvalidUTF8(v) != -1 {
					b.Fatal("invalid")
				}
			}
		})
	}
}
