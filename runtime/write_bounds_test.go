package runtime

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
)

// TestAddBytesMatchesNaive: bytesBounds.addBytes, which skips the full
// comparisons of a value strictly between the bounds by its first 16
// bytes, keeps the same bounds as comparing every value with
// bytes.Compare, over batches of random strings of up to 24 bytes that
// share first bytes and prefixes (a third are a prefix of the previous
// value, maybe extended; a quarter start with the same 8 or 12 bytes),
// include empty values and the bytes 0x00 and 0xff; half the batches are
// sorted, rising or falling.
func TestAddBytesMatchesNaive(t *testing.T) {
	rnd := newRand(9)
	alphabet := []byte{0x00, 0x01, 'a', 'b', 'c', 0x7f, 0xfe, 0xff}
	for trial := range 2000 {
		var b bytesBounds
		var mn, mx []byte
		has := false
		for range 1 + rnd.IntN(5) {
			var batch encode.ByteArrays
			var prev []byte
			var vals [][]byte
			for range rnd.IntN(12) {
				v := make([]byte, 1+rnd.IntN(24))
				if rnd.IntN(50) == 0 {
					v = v[:0]
				}
				for j := range v {
					v[j] = alphabet[rnd.IntN(len(alphabet))]
				}
				if rnd.IntN(4) == 0 {
					v = append([]byte("contact \xffabc")[:8+4*rnd.IntN(2)], v...)
				}
				if len(prev) > 0 && rnd.IntN(3) == 0 {
					// A prefix of the previous value, maybe extended.
					v = append(bytes.Clone(prev[:rnd.IntN(len(prev)+1)]), v[:rnd.IntN(len(v)+1)]...)
				}
				prev = v
				vals = append(vals, v)
			}
			// Runs of rising and of falling values (a new bound each).
			switch rnd.IntN(4) {
			case 0:
				slices.SortFunc(vals, bytes.Compare)
			case 1:
				slices.SortFunc(vals, func(a, b []byte) int { return bytes.Compare(b, a) })
			}
			for _, v := range vals {
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

// BenchmarkAddBytes: the bounds of 64 batches of 256 strings shaped like
// the suite's nested rows (e-mail addresses, street names, phone numbers
// and random strings of 6 to 40 bytes), of names sharing their first 8
// bytes ("contact 123"), and of rising ids written as text (each value a
// new maximum).
func BenchmarkAddBytes(b *testing.B) {
	b.Run("mixed", func(b *testing.B) { benchAddBytes(b, "mixed") })
	b.Run("shared-prefix", func(b *testing.B) { benchAddBytes(b, "shared") })
	b.Run("rising", func(b *testing.B) { benchAddBytes(b, "rising") })
}

func benchAddBytes(b *testing.B, shape string) {
	rnd := newRand(5)
	var batches []encode.ByteArrays
	for i := range 64 {
		var ba encode.ByteArrays
		for j := range 256 {
			n := i*256 + j
			switch shape {
			case "shared":
				ba.AppendString("contact " + strconv.Itoa(rnd.IntN(1_000_000)))
				continue
			case "rising":
				ba.AppendString("order-" + strconv.Itoa(1_000_000+n))
				continue
			}
			switch j % 4 {
			case 0:
				ba.AppendString("user" + strconv.Itoa(n) + ".1@example.com")
			case 1:
				ba.AppendString(strconv.Itoa(rnd.IntN(999)) + " Main Street")
			case 2:
				ba.AppendString("+1-555-" + strconv.Itoa(rnd.IntN(10_000_000)))
			default:
				v := make([]byte, 6+rnd.IntN(35))
				for k := range v {
					v[k] = 'a' + byte(rnd.IntN(26))
				}
				ba.Append(v)
			}
		}
		batches = append(batches, ba)
	}
	b.ReportAllocs()
	for b.Loop() {
		var bb bytesBounds
		for _, ba := range batches {
			bb.addBytes(ba)
		}
	}
}
