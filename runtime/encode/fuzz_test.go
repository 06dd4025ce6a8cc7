package encode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
)

// Decoder fuzz targets: arbitrary input must give values or an error,
// never a panic; the RLE decoders are also compared with the reference.

func FuzzDecodeRLELevels(f *testing.F) {
	f.Add([]byte{3, 0x88, 0xc6, 0xfa}, uint8(3), uint16(8))
	f.Add([]byte{16, 3}, uint8(2), uint16(8))
	f.Add([]byte{}, uint8(0), uint16(5))
	f.Fuzz(func(t *testing.T, src []byte, w uint8, n uint16) {
		got, k, err := DecodeRLELevels(nil, src, int(w%10), int(n))
		ref, rerr := refDecodeRLE(src, int(w%10), int(n))
		if w%10 > 8 {
			return
		}
		if (err == nil) != (rerr == nil) {
			t.Fatalf("err %v, reference %v", err, rerr)
		}
		if err != nil {
			return
		}
		if k > len(src) || len(got) != int(n) {
			t.Fatalf("consumed %d of %d, %d values", k, len(src), len(got))
		}
		for i := range got {
			if uint64(got[i]) != ref[i] {
				t.Fatalf("value %d: %d vs %d", i, got[i], ref[i])
			}
		}
	})
}

func FuzzDecodeRLEInt32(f *testing.F) {
	f.Add([]byte{3, 0x88, 0xc6, 0xfa}, uint8(3), uint16(8))
	f.Add([]byte{18, 0xff, 0xff, 0xff, 0xff}, uint8(32), uint16(9))
	f.Fuzz(func(t *testing.T, src []byte, w uint8, n uint16) {
		got, k, err := DecodeRLEInt32(nil, src, int(w%34), int(n))
		ref, rerr := refDecodeRLE(src, int(w%34), int(n))
		if w%34 > 32 {
			return
		}
		if (err == nil) != (rerr == nil) {
			t.Fatalf("err %v, reference %v", err, rerr)
		}
		if err != nil {
			return
		}
		if k > len(src) || len(got) != int(n) {
			t.Fatalf("consumed %d of %d", k, len(src))
		}
		for i := range got {
			if uint64(uint32(got[i])) != ref[i] {
				t.Fatalf("value %d", i)
			}
		}
	})
}

func FuzzDecodeRLEBool(f *testing.F) {
	f.Add(AppendRLEBool(nil, []bool{true, false, true}), uint16(3))
	f.Fuzz(func(t *testing.T, src []byte, n uint16) {
		got, _, err := DecodeRLEBool(nil, src, int(n))
		if err == nil {
			for _, b := range boolsAsBytes(got) {
				if b > 1 {
					t.Fatal("bool byte > 1")
				}
			}
		}
	})
}

func FuzzDecodeBitPackedLevels(f *testing.F) {
	f.Add([]byte{0b00000101, 0b00111001, 0b01110111}, uint8(3), uint16(8))
	f.Fuzz(func(t *testing.T, src []byte, w uint8, n uint16) {
		got, k, err := DecodeBitPackedLevels(nil, src, int(w%10), int(n))
		if err == nil && (k > len(src) || len(got) != int(n)) {
			t.Fatal("bad result")
		}
		if err == nil {
			re := AppendBitPackedLevels(nil, got, int(w%10))
			if !bytes.Equal(re, src[:k]) && w%10 != 0 {
				// Only padding bits of the last byte may differ.
				if !bytes.Equal(re[:len(re)-1], src[:k-1]) {
					t.Fatal("re-encoding differs")
				}
			}
		}
	})
}

func FuzzDecodeDictIndices(f *testing.F) {
	f.Add([]byte{0}, uint16(5))
	f.Add(AppendDictIndices(nil, []int32{1, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 2), uint16(11))
	f.Fuzz(func(t *testing.T, src []byte, n uint16) {
		got, k, err := DecodeDictIndices(nil, src, int(n))
		if err == nil && (k > len(src) || len(got) != int(n)) {
			t.Fatal("bad result")
		}
	})
}

func FuzzDecodeDeltaInt32(f *testing.F) {
	f.Add(deltaLengths5566)
	f.Add(AppendDeltaInt32(nil, []int32{math.MaxInt32, math.MinInt32, 0, 5}))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, k, err := DecodeDeltaInt32(nil, src)
		if err != nil {
			return
		}
		if k > len(src) {
			t.Fatal("consumed too much")
		}
		// Re-encoding and decoding is stable.
		again, _, err := DecodeDeltaInt32(nil, AppendDeltaInt32(nil, got))
		if err != nil || !slices.Equal(again, got) {
			t.Fatal("round trip", err)
		}
	})
}

func FuzzDecodeDeltaInt64(f *testing.F) {
	f.Add(AppendDeltaInt64(nil, []int64{math.MinInt64, math.MaxInt64, 0, 5}))
	f.Add([]byte{0x80, 1, 4, 3, 2, 0, 1, 200, 255, 7, 0xfe, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, src []byte) {
		got, k, err := DecodeDeltaInt64(nil, src)
		if err != nil {
			return
		}
		if k > len(src) {
			t.Fatal("consumed too much")
		}
		again, _, err := DecodeDeltaInt64(nil, AppendDeltaInt64(nil, got))
		if err != nil || !slices.Equal(again, got) {
			t.Fatal("round trip", err)
		}
	})
}

func seedBA() ByteArrays {
	var in ByteArrays
	for _, s := range []string{"axis", "axle", "babble", "babyhood", ""} {
		in.AppendString(s)
	}
	return in
}

func FuzzDecodePlainByteArray(f *testing.F) {
	f.Add(AppendPlainByteArray(nil, seedBA()))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, k, err := DecodePlainByteArray(ByteArrays{}, src)
		if err == nil && (k != len(src) || !bytes.Equal(AppendPlainByteArray(nil, got), src)) {
			t.Fatal("round trip")
		}
	})
}

func FuzzDecodeDeltaLengthByteArray(f *testing.F) {
	f.Add(AppendDeltaLengthByteArray(nil, seedBA()))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, k, err := DecodeDeltaLengthByteArray(ByteArrays{}, src)
		if err != nil {
			return
		}
		if k > len(src) {
			t.Fatal("consumed too much")
		}
		again, _, err := DecodeDeltaLengthByteArray(ByteArrays{}, AppendDeltaLengthByteArray(nil, got))
		if err != nil || !equalBA(again, got) {
			t.Fatal("round trip", err)
		}
	})
}

func FuzzDecodeDeltaByteArray(f *testing.F) {
	f.Add(AppendDeltaByteArray(nil, seedBA()))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, k, err := DecodeDeltaByteArray(ByteArrays{}, src)
		if err != nil {
			return
		}
		if k > len(src) {
			t.Fatal("consumed too much")
		}
		again, _, err := DecodeDeltaByteArray(ByteArrays{}, AppendDeltaByteArray(nil, got))
		if err != nil || !equalBA(again, got) {
			t.Fatal("round trip", err)
		}
		// A bound of exactly the values' bytes admits them; one less
		// does not.
		bound := uint64(len(got.Data))
		if b, _, err := DecodeDeltaByteArrayBounded(ByteArrays{}, src, bound); err != nil || !equalBA(b, got) {
			t.Fatal("bound of the values' size", err)
		}
		if bound > 0 {
			if _, _, err := DecodeDeltaByteArrayBounded(ByteArrays{}, src, bound-1); !errors.Is(err, ErrBound) {
				t.Fatal("bound below the values' size:", err)
			}
		}
	})
}

func FuzzDecodeDeltaByteArrayFixed(f *testing.F) {
	f.Add(AppendDeltaByteArrayFixed(nil, []byte("abcdabce"), 4), uint8(4))
	f.Fuzz(func(t *testing.T, src []byte, size uint8) {
		got, _, err := DecodeDeltaByteArrayFixed(nil, src, int(size), nil)
		if err == nil && size > 0 && len(got)%int(size) != 0 {
			t.Fatal("bad size")
		}
	})
}

func FuzzDecodeByteStreamSplit(f *testing.F) {
	f.Add([]byte{0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6}, uint8(4))
	f.Fuzz(func(t *testing.T, src []byte, size uint8) {
		if v, _, err := DecodeByteStreamSplitFloat(nil, src); err == nil && !bytes.Equal(AppendByteStreamSplitFloat(nil, v), src) {
			t.Fatal("float")
		}
		if v, _, err := DecodeByteStreamSplitInt32(nil, src); err == nil && !bytes.Equal(AppendByteStreamSplitInt32(nil, v), src) {
			t.Fatal("int32")
		}
		if v, _, err := DecodeByteStreamSplitDouble(nil, src); err == nil && !bytes.Equal(AppendByteStreamSplitDouble(nil, v), src) {
			t.Fatal("double")
		}
		if v, _, err := DecodeByteStreamSplitInt64(nil, src); err == nil && !bytes.Equal(AppendByteStreamSplitInt64(nil, v), src) {
			t.Fatal("int64")
		}
		if v, _, err := DecodeByteStreamSplitFixed(nil, src, int(size)); err == nil && !bytes.Equal(AppendByteStreamSplitFixed(nil, v, int(size)), src) {
			t.Fatal("fixed")
		}
	})
}

func FuzzDecodePlain(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(3))
	f.Fuzz(func(t *testing.T, src []byte, size uint8) {
		if v, _, err := DecodePlainInt32(nil, src); err == nil && !bytes.Equal(AppendPlainInt32(nil, v), src) {
			t.Fatal("int32")
		}
		if v, _, err := DecodePlainInt64(nil, src); err == nil && !bytes.Equal(AppendPlainInt64(nil, v), src) {
			t.Fatal("int64")
		}
		if v, _, err := DecodePlainFloat(nil, src); err == nil && !bytes.Equal(AppendPlainFloat(nil, v), src) {
			t.Fatal("float")
		}
		if v, _, err := DecodePlainDouble(nil, src); err == nil && !bytes.Equal(AppendPlainDouble(nil, v), src) {
			t.Fatal("double")
		}
		if v, _, err := DecodePlainInt96(nil, src); err == nil && !bytes.Equal(AppendPlainInt96(nil, v), src) {
			t.Fatal("int96")
		}
		if v, _, err := DecodePlainFixed(nil, src, int(size)); err == nil && !bytes.Equal(AppendPlainFixed(nil, v), src) {
			t.Fatal("fixed")
		}
		n := int(size)
		if v, k, err := DecodePlainBool(nil, src, n); err == nil {
			re := AppendPlainBool(nil, v)
			if k != len(re) || (n%8 == 0 && !bytes.Equal(re, src[:k])) {
				t.Fatal("bool")
			}
		}
	})
}

// Round-trip fuzz targets: encode -> decode == input.

func FuzzRoundTripRLE(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3}, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, w uint8) {
		bw := int(w % 33)
		vals := make([]int32, len(data))
		lv := make([]uint8, len(data))
		for i, b := range data {
			if bw > 0 {
				vals[i] = int32(uint32(b) * 0x01010101 & (1<<bw - 1))
			}
			lv[i] = uint8(vals[i])
		}
		enc := AppendRLEInt32(nil, vals, bw)
		got, k, err := DecodeRLEInt32(nil, enc, bw, len(vals))
		if err != nil || k != len(enc) || !slices.Equal(got, vals) {
			t.Fatal("int32", err)
		}
		if bw <= 8 {
			enc := AppendRLELevelsPrefixed(nil, lv, bw)
			got, k, err := DecodeRLELevelsPrefixed(nil, enc, bw, len(lv))
			if err != nil || k != len(enc) || !slices.Equal(got, lv) {
				t.Fatal("levels", err)
			}
		}
	})
}

func FuzzRoundTripDelta(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		v64 := make([]int64, len(data)/8)
		v32 := make([]int32, len(data)/4)
		for i := range v64 {
			v64[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
		}
		for i := range v32 {
			v32[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
		}
		enc := AppendDeltaInt64(nil, v64)
		got, k, err := DecodeDeltaInt64(nil, enc)
		if err != nil || k != len(enc) || !slices.Equal(got, v64) {
			t.Fatal("int64", err)
		}
		enc = AppendDeltaInt32(nil, v32)
		got32, k, err := DecodeDeltaInt32(nil, enc)
		if err != nil || k != len(enc) || !slices.Equal(got32, v32) {
			t.Fatal("int32", err)
		}
	})
}

func FuzzRoundTripByteArrays(f *testing.F) {
	f.Add([]byte("axis\x00axle\x00babble\x00babyhood"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in ByteArrays
		for _, p := range bytes.Split(data, []byte{0}) {
			in.Append(p)
		}
		for _, c := range []struct {
			enc func([]byte, ByteArrays) []byte
			dec func(ByteArrays, []byte) (ByteArrays, int, error)
		}{
			{AppendPlainByteArray, DecodePlainByteArray},
			{AppendDeltaLengthByteArray, DecodeDeltaLengthByteArray},
			{AppendDeltaByteArray, DecodeDeltaByteArray},
		} {
			enc := c.enc(nil, in)
			got, k, err := c.dec(ByteArrays{}, enc)
			if err != nil || k != len(enc) || !equalBA(got, in) {
				t.Fatal(err)
			}
		}
		// The encoder against its plain twin, whole and on the values
		// after the first (offsets past 0).
		for _, sub := range []ByteArrays{in, {Data: in.Data, Offsets: in.Offsets[1:]}} {
			want := appendDeltaByteArrayTwin(nil, byteValues{data: sub.Data, offs: sub.Offsets, n: sub.Len()})
			if got := AppendDeltaByteArray(nil, sub); !bytes.Equal(got, want) {
				t.Fatalf("DELTA_BYTE_ARRAY of %d values differs from its twin", sub.Len())
			}
		}
		var d DictBytes
		idx, _, _ := d.InsertByteArrays(nil, in)
		dict, _, err := DecodePlainByteArray(ByteArrays{}, d.AppendPlain(nil))
		if err != nil {
			t.Fatal(err)
		}
		enc := AppendDictIndices(nil, idx, DictBitWidth(d.Len()))
		idx2, _, err := DecodeDictIndices(nil, enc, len(idx))
		if err != nil {
			t.Fatal(err)
		}
		back, err := GatherByteArrays(ByteArrays{}, dict, idx2)
		if err != nil || !equalBA(back, in) {
			t.Fatal("dictionary", err)
		}
	})
}

func FuzzRoundTripByteStreamSplit(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		s := int(size%16) + 1
		data = data[:len(data)/s*s]
		got, _, err := DecodeByteStreamSplitFixed(nil, AppendByteStreamSplitFixed(nil, data, s), s)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatal(err)
		}
		got, _, err = DecodeDeltaByteArrayFixed(nil, AppendDeltaByteArrayFixed(nil, data, s), s, nil)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatal(err)
		}
	})
}

// FuzzDecodeDeltaInt32Wide checks the 64-bit-delta reading of INT32
// streams against the INT64 decoder: the same stream read as INT64 values
// and truncated to 32 bits gives the same values, and both accept or
// refuse it alike.
func FuzzDecodeDeltaInt32Wide(f *testing.F) {
	f.Add(AppendDeltaInt64(nil, []int64{math.MinInt32, math.MaxInt32, 0, math.MinInt32, 5}))
	f.Add(AppendDeltaInt32(nil, []int32{math.MaxInt32, math.MinInt32, 0, 5}))
	f.Add([]byte{0x80, 1, 4, 2, 0, 0, 33, 0, 0, 0})
	f.Fuzz(func(t *testing.T, src []byte) {
		got, k, _, err := DecodeDeltaInt32Wide(nil, src)
		want, k64, err64 := DecodeDeltaInt64(nil, src)
		if (err == nil) != (err64 == nil) {
			t.Fatalf("int32 wide: %v, int64: %v", err, err64)
		}
		if err != nil {
			return
		}
		if k != k64 || len(got) != len(want) {
			t.Fatalf("consumed %d/%d bytes, %d/%d values", k, k64, len(got), len(want))
		}
		for i := range got {
			if got[i] != int32(want[i]) {
				t.Fatalf("value %d: %d, int64 reading %d", i, got[i], want[i])
			}
		}
	})
}
