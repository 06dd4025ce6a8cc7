package encode

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

func eqBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Fatalf("%s:\n got % x\nwant % x", what, got, want)
	}
}

// The worked examples of the Encodings specification, byte for byte.

func TestSpecRLEBitPacking(t *testing.T) {
	// 0..7 at width 3: "10001000 11000110 11111010".
	vals := []uint8{0, 1, 2, 3, 4, 5, 6, 7}
	want := []byte{0b10001000, 0b11000110, 0b11111010}
	eqBytes(t, "pack", appendPackLevels(nil, vals, 3), want)
	enc := AppendRLELevels(nil, vals, 3)
	eqBytes(t, "hybrid", enc, append([]byte{1<<1 | 1}, want...))
	got, n, err := DecodeRLELevels(nil, enc, 3, 8)
	if err != nil || n != len(enc) || !slices.Equal(got, vals) {
		t.Fatalf("decode: %v %d %v", got, n, err)
	}
	i32 := AppendRLEInt32(nil, []int32{0, 1, 2, 3, 4, 5, 6, 7}, 3)
	eqBytes(t, "hybrid int32", i32, enc)
}

func TestSpecBitPackedDeprecated(t *testing.T) {
	vals := []uint8{0, 1, 2, 3, 4, 5, 6, 7}
	want := []byte{0b00000101, 0b00111001, 0b01110111}
	eqBytes(t, "encode", AppendBitPackedLevels(nil, vals, 3), want)
	got, n, err := DecodeBitPackedLevels(nil, want, 3, 8)
	if err != nil || n != 3 || !slices.Equal(got, vals) {
		t.Fatalf("decode: %v %d %v", got, n, err)
	}
	// 30 values at width 2 take 8 bytes.
	if got := AppendBitPackedLevels(nil, make([]uint8, 30), 2); len(got) != 8 {
		t.Fatalf("30 values at width 2: %d bytes", len(got))
	}
}

func TestSpecDeltaExample1(t *testing.T) {
	// Block size 8 (invalid outside the example), 1 miniblock.
	vals := []int64{1, 2, 3, 4, 5}
	want := []byte{8, 1, 5, 2 /* zigzag 1 */, 2 /* min delta 1 */, 0 /* width */}
	enc := appendDelta64(nil, vals, 8, 1)
	eqBytes(t, "int64", enc, want)
	enc32 := appendDelta32(nil, []uint32{1, 2, 3, 4, 5}, 8, 1)
	eqBytes(t, "int32", enc32, want)
	got, n, err := decodeDelta64(nil, want, false)
	if err != nil || n != len(want) || !slices.Equal(got, vals) {
		t.Fatalf("decode: %v %d %v", got, n, err)
	}
	if _, _, err := DecodeDeltaInt64(nil, want); err == nil {
		t.Fatal("strict decoder accepted block size 8")
	}
}

func TestSpecDeltaExample2(t *testing.T) {
	vals := []int64{7, 5, 3, 1, 2, 3, 4, 5}
	// relative deltas 0,0,0,3,3,3,3 (+ one zero of padding) on 2 bits
	want := []byte{8, 1, 8, 14 /* zigzag 7 */, 3 /* zigzag -2 */, 2, 0b11000000, 0b00111111}
	eqBytes(t, "int64", appendDelta64(nil, vals, 8, 1), want)
	got, n, err := decodeDelta64(nil, want, false)
	if err != nil || n != len(want) || !slices.Equal(got, vals) {
		t.Fatalf("decode: %v %d %v", got, n, err)
	}
	g32, n, err := decodeDelta32(nil, want, false, nil)
	if err != nil || n != len(want) || !slices.Equal(g32, []uint32{7, 5, 3, 1, 2, 3, 4, 5}) {
		t.Fatalf("decode32: %v %d %v", g32, n, err)
	}
}

// deltaLengths5566 is DeltaEncoding(5, 5, 6, 6) with the default layout:
// header 128/4/4/first 5, min delta 0, widths 1,0,0,0, then one 32-value
// miniblock of 1-bit relative deltas 0,1,0 (4 bytes).
var deltaLengths5566 = []byte{0x80, 0x01, 4, 4, 10, 0, 1, 0, 0, 0, 0b010, 0, 0, 0}

func TestSpecDeltaLengthByteArray(t *testing.T) {
	var in ByteArrays
	for _, s := range []string{"Hello", "World", "Foobar", "ABCDEF"} {
		in.AppendString(s)
	}
	want := append(slices.Clone(deltaLengths5566), "HelloWorldFoobarABCDEF"...)
	eqBytes(t, "lengths", AppendDeltaInt32(nil, []int32{5, 5, 6, 6}), deltaLengths5566)
	enc := AppendDeltaLengthByteArray(nil, in)
	eqBytes(t, "encode", enc, want)
	out, n, err := DecodeDeltaLengthByteArray(ByteArrays{}, enc)
	if err != nil || n != len(enc) || !equalBA(out, in) {
		t.Fatalf("decode: %v %d %v", out, n, err)
	}
}

func TestSpecDeltaByteArray(t *testing.T) {
	var in ByteArrays
	for _, s := range []string{"axis", "axle", "babble", "babyhood"} {
		in.AppendString(s)
	}
	var want []byte
	want = AppendDeltaInt32(want, []int32{0, 2, 0, 3})
	want = AppendDeltaInt32(want, []int32{4, 2, 6, 5})
	want = append(want, "axislebabbleyhood"...)
	// DeltaEncoding(0,2,0,3): first 0, deltas 2,-2,3 -> min -2, relative
	// 4,0,5 on 3 bits.
	eqBytes(t, "prefix lengths", want[:14], []byte{0x80, 0x01, 4, 4, 0, 3, 3, 0, 0, 0, 0b01000100, 0b00000001, 0, 0})
	enc := AppendDeltaByteArray(nil, in)
	eqBytes(t, "encode", enc, want)
	out, n, err := DecodeDeltaByteArray(ByteArrays{}, enc)
	if err != nil || n != len(enc) || !equalBA(out, in) {
		t.Fatalf("decode: %v %d %v", out, n, err)
	}
}

func TestSpecByteStreamSplit(t *testing.T) {
	raw := []byte{0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6}
	want := []byte{0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6}
	floats, _, err := DecodePlainFloat(nil, raw)
	if err != nil {
		t.Fatal(err)
	}
	enc := AppendByteStreamSplitFloat(nil, floats)
	eqBytes(t, "float", enc, want)
	eqBytes(t, "fixed4", AppendByteStreamSplitFixed(nil, raw, 4), want)
	got, n, err := DecodeByteStreamSplitFloat(nil, enc)
	if err != nil || n != 12 {
		t.Fatal(err)
	}
	eqBytes(t, "decode", AppendPlainFloat(nil, got), raw)
	fx, _, err := DecodeByteStreamSplitFixed(nil, enc, 4)
	if err != nil {
		t.Fatal(err)
	}
	eqBytes(t, "decode fixed", fx, raw)
}

func equalBA(a, b ByteArrays) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := 0; i < a.Len(); i++ {
		if !bytes.Equal(a.At(i), b.At(i)) {
			return false
		}
	}
	return true
}

// TestRLEOverDeclaredBitPackedRun: a final bit-packed run may declare more
// values than the page holds. DuckDB 1.5 writes 32 groups (256 values) for
// the last run of every page; the values needed are read and the padding
// skipped, as other readers do.
func TestRLEOverDeclaredBitPackedRun(t *testing.T) {
	const n, w = 238, 3
	want := make([]uint8, n)
	for i := range want {
		want[i] = uint8(i*5) & 7
	}
	padded := append(append([]uint8(nil), want...), make([]uint8, 256-n)...)
	src := append([]byte{32<<1 | 1}, packLevelsRef(padded, w)...)
	// All 256 values' bytes present, as DuckDB writes them.
	got, k, err := DecodeRLELevels(nil, src, w, n)
	if err != nil || k != len(src) || !bytes.Equal(got, want) {
		t.Fatalf("padded run: consumed %d of %d, err %v, values match %v", k, len(src), err, bytes.Equal(got, want))
	}
	// Only the needed values' bytes present.
	short := src[:1+(n*w+7)/8]
	got, k, err = DecodeRLELevels(nil, short, w, n)
	if err != nil || k != len(short) || !bytes.Equal(got, want) {
		t.Fatalf("cut run: consumed %d of %d, err %v", k, len(short), err)
	}
	idx, _, err := DecodeRLEInt32(nil, src, w, n)
	if err != nil || len(idx) != n || idx[n-1] != int32(want[n-1]) {
		t.Fatalf("int32 decode of the padded run: %v", err)
	}
	// One byte fewer than the needed values is still truncation.
	if _, _, err := DecodeRLELevels(nil, short[:len(short)-1], w, n); !errors.Is(err, ErrTruncated) {
		t.Fatalf("truncated run: %v", err)
	}
}

// packLevelsRef packs values LSB first at width w (the hybrid's bit-packing).
func packLevelsRef(vals []uint8, w int) []byte {
	out := make([]byte, (len(vals)*w+7)/8)
	for i, v := range vals {
		for b := 0; b < w; b++ {
			if v>>b&1 != 0 {
				bit := i*w + b
				out[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	return out
}
