package encode

import (
	"bytes"
	"math/rand/v2"
	"slices"
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

// TestInsertByteArraysMatchesFind checks InsertByteArrays against find
// called value by value: the same indices after the caller's prefix, the
// same count, fullness, entries and size, for keys of every length up to
// 40 (repeated and new, some already in the dictionary), with the limits
// reached in the middle of a batch or not at all.
func TestInsertByteArraysMatchesFind(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := make([][]byte, 300)
	for i := range keys {
		k := make([]byte, r.IntN(41))
		for j := range k {
			k[j] = byte('a' + r.IntN(3)) // few bytes: many keys share lengths and prefixes
		}
		keys[i] = k
	}
	for _, lim := range []DictLimits{{}, {MaxEntries: 50}, {MaxBytes: 700}} {
		for _, prefix := range []int{0, 5} {
			var got, want DictBytes
			got.Limits, want.Limits = lim, lim
			for _, k := range keys[:20] { // entries present before the batch
				got.find(k, lim.norm())
				want.find(k, lim.norm())
			}
			var batch ByteArrays
			for range 2000 {
				batch.Append(keys[r.IntN(len(keys))])
			}
			idx := make([]int32, prefix, prefix+3)
			gotIdx, gotN, gotFull := got.InsertByteArrays(idx, batch)
			wantIdx, wantN, wantFull := append([]int32(nil), idx...), batch.Len(), false
			for i := range batch.Len() {
				j, ok := want.find(batch.At(i), lim.norm())
				if !ok {
					wantN, wantFull = i, true
					break
				}
				wantIdx = append(wantIdx, j)
			}
			if gotN != wantN || gotFull != wantFull || !slices.Equal(gotIdx, wantIdx) {
				t.Fatalf("limits %+v, prefix %d: got %d values (full %v), want %d (full %v); indices equal: %v",
					lim, prefix, gotN, gotFull, wantN, wantFull, slices.Equal(gotIdx, wantIdx))
			}
			if got.Size() != want.Size() || !equalBA(got.Values(), want.Values()) {
				t.Fatalf("limits %+v, prefix %d: entries differ", lim, prefix)
			}
		}
	}
}

// TestInsertByteArraysEmpty inserts batches without values, with and
// without offsets, into an empty and a filled dictionary.
func TestInsertByteArraysEmpty(t *testing.T) {
	var d DictBytes
	for _, b := range []ByteArrays{{}, {Offsets: []uint32{0}}} {
		for range 2 {
			idx, n, full := d.InsertByteArrays([]int32{7}, b)
			if n != 0 || full || !slices.Equal(idx, []int32{7}) {
				t.Fatalf("%+v: got %v, %d, %v", b, idx, n, full)
			}
			d.find([]byte("x"), d.Limits.norm())
		}
	}
}

// TestInsertByteArraysTags checks that the tags InsertByteArrays computes
// itself for keys of 8 to 16 bytes are dictTag's: keys inserted by find
// are found again, not inserted twice.
func TestInsertByteArraysTags(t *testing.T) {
	var d DictBytes
	var batch ByteArrays
	for n := 0; n <= 40; n++ {
		k := make([]byte, n)
		for i := range k {
			k[i] = byte(i*37 + n)
		}
		d.find(k, d.Limits.norm())
		batch.Append(k)
	}
	idx, _, _ := d.InsertByteArrays(nil, batch)
	for i, j := range idx {
		if int(j) != i {
			t.Fatalf("key of %d bytes: index %d, want %d (inserted twice)", i, j, i)
		}
	}
}

// TestInsertByteArraysTagCollision: a value whose tag, in its home slot or
// the next, names an entry of other bytes (a 32-bit tag shared by two
// keys, forced here) is not given that entry's index but inserted, for
// keys of each length class InsertByteArrays compares without a call (1
// to 3, 4 to 7, 8 to 16, 17 to 32 bytes) and beyond.
func TestInsertByteArraysTagCollision(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 24, 32, 33, 40} {
		for _, next := range []bool{false, true} {
			a := bytes.Repeat([]byte{'a'}, n)
			b := bytes.Repeat([]byte{'a'}, n)
			b[n/2] = 'b' // differs in the middle byte only
			var d DictBytes
			d.find(a, d.Limits.norm())
			// Point b's home slot (or, with next, the slot after a
			// foreign occupant of its home slot) at a's entry under b's
			// tag.
			tag := dictTag(b)
			h := tag >> d.shift
			mask := uint32(len(d.slots) - 1)
			clear(d.slots)
			if next {
				d.slots[h] = uint64(tag^1)<<32 | 1
				h = (h + 1) & mask
			}
			d.slots[h] = uint64(tag)<<32 | 1
			var batch ByteArrays
			batch.Append(b)
			idx, k, full := d.InsertByteArrays(nil, batch)
			if k != 1 || full || len(idx) != 1 || idx[0] != 1 || !bytes.Equal(d.values.At(1), b) {
				t.Errorf("%d bytes, next slot %v: index %v (%d added, full %v), want b inserted as entry 1", n, next, idx, k, full)
			}
		}
	}
}

// TestDictTableLoad checks the tables' fill limits (crowded): at most a
// quarter full up to sparseTableBytes, at most half full beyond, for the
// byte-array table (8-byte slots) and the fixed-width one (4-byte slots).
func TestDictTableLoad(t *testing.T) {
	for _, c := range []struct{ entries, wantSlots int }{
		{1, 256}, {64, 256}, {65, 512}, {1000, 4096}, {1024, 4096},
		{1025, 8192}, {4096, 8192}, {4097, 16384}, {30000, 65536},
	} {
		var d DictBytes
		var keys ByteArrays
		for i := range c.entries {
			keys.AppendString("key-" + string(rune('a'+i%26)) + string(rune(0x100+i)))
		}
		if _, added, full := d.InsertByteArrays(nil, keys); added != c.entries || full {
			t.Fatalf("%d keys: added %d, full %v", c.entries, added, full)
		}
		if d.Len() != c.entries || len(d.slots) != c.wantSlots {
			t.Errorf("DictBytes with %d entries: %d slots, want %d", d.Len(), len(d.slots), c.wantSlots)
		}
	}
	for _, c := range []struct{ entries, wantSlots int }{
		{64, 256}, {65, 512}, {2048, 8192}, {2049, 16384}, {8192, 16384}, {8193, 32768},
	} {
		var d Dict32
		vals := make([]int32, c.entries)
		for i := range vals {
			vals[i] = int32(i * 7919)
		}
		d.InsertInt32(nil, vals)
		if len(d.t.slots) != c.wantSlots {
			t.Errorf("Dict32 with %d entries: %d slots, want %d", c.entries, len(d.t.slots), c.wantSlots)
		}
	}
}
