package encode

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// gatherCase builds, from fuzz bytes, a dictionary (value lengths 0 to 63,
// with garbage in Data's spare capacity that must never show), indices
// (some out of range when wild) and a prefix already in the destination.
func gatherCase(data []byte, wild bool) (dict ByteArrays, idx []int32, prefix ByteArrays) {
	for len(data) > 0 {
		l := int(data[0] % 64)
		data = data[1:]
		l = min(l, len(data))
		dict.Append(data[:l])
		data = data[l:]
		if len(idx) < 300 && l > 0 {
			// Indices derived from the bytes seen.
			for _, c := range data[:min(len(data), 3)] {
				k := int32(c)
				if !wild && dict.Len() > 0 {
					k %= int32(dict.Len())
				}
				idx = append(idx, k)
			}
		}
	}
	dict.Data = append(dict.Data, bytes.Repeat([]byte{0xEE}, 40)...)
	dict.Data = dict.Data[:len(dict.Data)-40]
	prefix.AppendString("prefix")
	return dict, idx, prefix
}

// checkGather compares AppendGathered with appendGatheredPlain on one case.
func checkGather(t *testing.T, dict ByteArrays, idx []int32, prefix ByteArrays) {
	t.Helper()
	a := ByteArrays{Data: slices.Clone(prefix.Data), Offsets: slices.Clone(prefix.Offsets)}
	b := ByteArrays{Data: slices.Clone(prefix.Data), Offsets: slices.Clone(prefix.Offsets)}
	errA := a.AppendGathered(&dict, idx)
	errB := b.appendGatheredPlain(&dict, idx)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("errors differ: fast %v, plain %v", errA, errB)
	}
	for _, s := range []error{ErrIndexRange, ErrCorrupt, ErrLength} {
		if errors.Is(errA, s) != errors.Is(errB, s) {
			t.Fatalf("errors differ: fast %v, plain %v", errA, errB)
		}
	}
	if errA != nil {
		if !bytes.Equal(a.Data, prefix.Data) || !slices.Equal(a.Offsets, prefix.Offsets) {
			t.Fatalf("failed AppendGathered changed the destination: %v", errA)
		}
		return
	}
	if !bytes.Equal(a.Data, b.Data) || !slices.Equal(a.Offsets, b.Offsets) {
		t.Fatalf("fast %q %v\nplain %q %v", a.Data, a.Offsets, b.Data, b.Offsets)
	}
	for j, i := range idx {
		if got, want := a.At(j+prefix.Len()), dict.At(int(i)); !bytes.Equal(got, want) {
			t.Fatalf("value %d: %q, want %q", j, got, want)
		}
	}
}

// randomDict returns a dictionary of 1 to 40 random values of 0 to maxLen
// bytes.
func randomDict(r *rand.Rand, maxLen int) ByteArrays {
	var dict ByteArrays
	for range 1 + r.IntN(40) {
		v := make([]byte, r.IntN(maxLen+1))
		for k := range v {
			v[k] = byte(r.Uint32())
		}
		dict.Append(v)
	}
	return dict
}

// TestAppendGatheredTwin: the fixed-size moves of AppendGathered give the
// bytes and offsets of one copy per value, for values of every length from
// 0 to 70 placed anywhere in the dictionary (including its last bytes,
// where the moves must fall back), into destinations with and without
// spare capacity.
func TestAppendGatheredTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		dict := randomDict(r, 70)
		if round%2 == 0 {
			dict.Data = slices.Clip(dict.Data) // no spare capacity to read into
		}
		idx := make([]int32, r.IntN(500))
		for k := range idx {
			idx[k] = int32(r.IntN(dict.Len()))
		}
		var prefix ByteArrays
		if round%3 == 0 {
			prefix.AppendString("abc")
			prefix.Data = slices.Clip(prefix.Data)
		}
		checkGather(t, dict, idx, prefix)
	}
	// An empty dictionary value repeated, and no indices at all.
	var dict ByteArrays
	dict.Append(nil)
	checkGather(t, dict, []int32{0, 0, 0}, ByteArrays{})
	checkGather(t, dict, nil, ByteArrays{})
}

// TestAppendGatheredErrors: an index outside the dictionary, offsets out of
// order or past Data, and a result above the 4 GiB - 1 limit are errors
// that leave the destination unchanged.
func TestAppendGatheredErrors(t *testing.T) {
	var dict ByteArrays
	dict.AppendString("one")
	dict.AppendString("two")
	var dst ByteArrays
	dst.AppendString("x")
	for _, c := range []struct {
		idx  []int32
		dict ByteArrays
		want error
	}{
		{[]int32{0, 2}, dict, ErrIndexRange},
		{[]int32{-1}, dict, ErrIndexRange},
		{[]int32{1}, ByteArrays{Data: []byte("onetwo"), Offsets: []uint32{0, 5, 3}}, ErrCorrupt},
		{[]int32{1}, ByteArrays{Data: []byte("onetwo"), Offsets: []uint32{0, 3, 9}}, ErrCorrupt},
	} {
		d := dst
		d.Data, d.Offsets = slices.Clone(dst.Data), slices.Clone(dst.Offsets)
		if err := d.AppendGathered(&c.dict, c.idx); !errors.Is(err, c.want) {
			t.Errorf("%v: %v, want %v", c.idx, err, c.want)
		}
		if !bytes.Equal(d.Data, dst.Data) || !slices.Equal(d.Offsets, dst.Offsets) {
			t.Errorf("%v: destination changed", c.idx)
		}
		checkGather(t, c.dict, c.idx, dst)
	}
	old := maxByteArraysData
	maxByteArraysData = 6
	t.Cleanup(func() { maxByteArraysData = old })
	if err := dst.AppendGathered(&dict, []int32{0, 1}); !errors.Is(err, ErrLength) || dst.Len() != 1 {
		t.Errorf("6-byte limit: %v, %d values", err, dst.Len())
	}
	if err := dst.AppendGathered(&dict, []int32{0}); err != nil || string(dst.At(1)) != "one" {
		t.Errorf("within the limit: %v", err)
	}
}

// FuzzAppendGathered compares AppendGathered with its plain twin on
// dictionaries and indices made from the input.
func FuzzAppendGathered(f *testing.F) {
	f.Add([]byte("\x03abc\x10abcdefghijklmnopq\x00\x21xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), false)
	f.Add([]byte("\x05hello\x05world"), true)
	f.Fuzz(func(t *testing.T, data []byte, wild bool) {
		dict, idx, prefix := gatherCase(data, wild)
		checkGather(t, dict, idx, prefix)
	})
}

// BenchmarkAppendGathered resolves batches of 4,096 Zipf-distributed
// indices into a dictionary of 50,000 strings of 4 to 24 bytes (the name
// column of peers/bench's flat-he), with AppendGathered and its plain twin.
func BenchmarkAppendGathered(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var dict ByteArrays
	for range 50_000 {
		v := make([]byte, 4+r.IntN(21))
		for k := range v {
			v[k] = 'a' + byte(r.IntN(26))
		}
		dict.Append(v)
	}
	z := rand.NewZipf(r, 1.1, 1, 49_999)
	idx := make([]int32, 1<<20)
	for k := range idx {
		idx[k] = int32(z.Uint64())
	}
	for _, c := range []struct {
		name string
		f    func(*ByteArrays, *ByteArrays, []int32) error
	}{{"fast", (*ByteArrays).AppendGathered}, {"plain", (*ByteArrays).appendGatheredPlain}} {
		b.Run(c.name, func(b *testing.B) {
			var dst ByteArrays
			b.SetBytes(4096 * 4)
			k := 0
			for b.Loop() {
				dst.Reset()
				if err := c.f(&dst, &dict, idx[k:k+4096]); err != nil {
					b.Fatal(err)
				}
				k = (k + 4096) % len(idx)
			}
		})
	}
}

// TestAppendGatheredSizedKeepsBuffer: a destination whose capacity holds
// exactly the values gathered (as a caller sizes one from a pool) is
// filled in place, with the values of one copy each: the 16-byte moves
// stop short of its end instead of growing it for their overrun.
func TestAppendGatheredSizedKeepsBuffer(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		dict := randomDict(r, 39)
		idx := make([]int32, 1+r.IntN(300))
		total := 0
		for k := range idx {
			idx[k] = int32(r.IntN(dict.Len()))
			total += len(dict.At(int(idx[k])))
		}
		dst := ByteArrays{Data: make([]byte, 0, total), Offsets: make([]uint32, 0, len(idx)+1)}
		room := dst.Data[:cap(dst.Data)]
		if err := dst.AppendGathered(&dict, idx); err != nil {
			t.Fatal(err)
		}
		if total > 0 && &dst.Data[0] != &room[0] {
			t.Fatalf("%d values of %d bytes in a buffer of exactly that size: it was replaced", len(idx), total)
		}
		var want ByteArrays
		if err := want.appendGatheredPlain(&dict, idx); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dst.Data, want.Data) || !slices.Equal(dst.Offsets, want.Offsets) {
			t.Fatalf("gathered %q %v\nwant %q %v", dst.Data, dst.Offsets, want.Data, want.Offsets)
		}
	}
}
