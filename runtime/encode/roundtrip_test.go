package encode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refDecodeRLE is a plain reference decoder of the hybrid encoding (no
// prefix), one bit at a time, used as the twin of decodeRLE32 and decodeRLE8.
func refDecodeRLE(src []byte, w, n int) ([]uint64, error) {
	var out []uint64
	pos := 0
	for len(out) < n {
		if pos >= len(src) {
			if w == 0 {
				for len(out) < n {
					out = append(out, 0)
				}
				break
			}
			return nil, ErrTruncated
		}
		h, k, err := readUvarint(src[pos:])
		if err != nil {
			return nil, err
		}
		pos += k
		if h&1 == 0 {
			c := h >> 1
			if c == 0 || c > uint64(n-len(out)) {
				return nil, ErrRunLength
			}
			vb := (w + 7) / 8
			if len(src)-pos < vb {
				return nil, ErrTruncated
			}
			var v uint64
			for j := 0; j < vb; j++ {
				v |= uint64(src[pos+j]) << (8 * j)
			}
			if w < 64 && v>>w != 0 {
				return nil, ErrCorrupt
			}
			pos += vb
			for range c {
				out = append(out, v)
			}
			continue
		}
		g := int(h >> 1)
		if h>>1 > MaxRunLength/8 {
			return nil, ErrRunLength
		}
		need := min(8*g, n-len(out))
		if len(src)-pos < packedLen(need, w) {
			return nil, ErrTruncated
		}
		vals := make([]uint64, need)
		refUnpack(vals, src[pos:], w)
		out = append(out, vals...)
		pos += min(g*w, len(src)-pos)
	}
	return out, nil
}

func TestRLERoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for w := 0; w <= 32; w++ {
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 100, 1000, 5000} {
			vals := make([]int32, n)
			for i := 0; i < n; {
				v := int32(r.Uint64() & (1<<w - 1))
				run := 1 + r.IntN(20)
				for j := 0; j < run && i < n; j++ {
					vals[i] = v
					i++
				}
			}
			enc := AppendRLEInt32(nil, vals, w)
			got, k, err := DecodeRLEInt32(nil, enc, w, n)
			if err != nil || k != len(enc) || !slices.Equal(got, vals) {
				t.Fatalf("int32 w=%d n=%d: %v %d/%d", w, n, err, k, len(enc))
			}
			ref, err := refDecodeRLE(enc, w, n)
			if err != nil || len(ref) != n {
				t.Fatalf("ref w=%d n=%d: %v", w, n, err)
			}
			pre := AppendRLEInt32Prefixed([]byte{9}, vals, w)
			got, k, err = DecodeRLEInt32Prefixed(nil, pre[1:], w, n)
			if err != nil || k != len(pre)-1 || !slices.Equal(got, vals) {
				t.Fatalf("prefixed int32 w=%d n=%d: %v", w, n, err)
			}
			if w <= 8 {
				lv := make([]uint8, n)
				for i := range lv {
					lv[i] = uint8(vals[i])
				}
				enc8 := AppendRLELevels(nil, lv, w)
				if !slices.Equal(enc8, enc) {
					t.Fatalf("levels and int32 encodings differ w=%d n=%d", w, n)
				}
				g8, k, err := DecodeRLELevels(make([]uint8, 3), enc8, w, n)
				if err != nil || k != len(enc8) || !slices.Equal(g8, lv) {
					t.Fatalf("levels w=%d n=%d: %v", w, n, err)
				}
				pre := AppendRLELevelsPrefixed(nil, lv, w)
				g8, k, err = DecodeRLELevelsPrefixed(nil, pre, w, n)
				if err != nil || k != len(pre) || !slices.Equal(g8, lv) {
					t.Fatalf("prefixed levels w=%d n=%d: %v", w, n, err)
				}
			}
		}
	}
}

func TestRLERunChoice(t *testing.T) {
	// 8 repeats become one RLE run: header 8<<1, value.
	enc := AppendRLELevels(nil, []uint8{3, 3, 3, 3, 3, 3, 3, 3}, 2)
	eqBytes(t, "run of 8", enc, []byte{16, 3})
	// 7 repeats stay bit-packed.
	enc = AppendRLELevels(nil, []uint8{1, 1, 1, 1, 1, 1, 1}, 1)
	eqBytes(t, "run of 7", enc, []byte{3, 0x7f})
	// 3 literals then 13 repeats: the literal group borrows 5 of the run.
	vals := append([]uint8{0, 1, 0}, slices.Repeat([]uint8{1}, 13)...)
	enc = AppendRLELevels(nil, vals, 1)
	eqBytes(t, "borrow", enc, []byte{3, 0b11111010, 16, 1})
	// Width 0: runs without value bytes.
	enc = AppendRLELevels(nil, make([]uint8, 20), 0)
	eqBytes(t, "width 0", enc, []byte{40})
	// Width 32 value bytes.
	enc = AppendRLEInt32(nil, slices.Repeat([]int32{-1}, 9), 32)
	eqBytes(t, "width 32", enc, []byte{18, 0xff, 0xff, 0xff, 0xff})
	got, _, err := DecodeRLEInt32(nil, enc, 32, 9)
	if err != nil || got[8] != -1 {
		t.Fatal(got, err)
	}
}

func TestRLEBool(t *testing.T) {
	vals := []bool{true, false, true, true, true, true, true, true, true, true, true, false}
	enc := AppendRLEBool(nil, vals)
	got, k, err := DecodeRLEBool(nil, enc, len(vals))
	if err != nil || k != len(enc) || !slices.Equal(got, vals) {
		t.Fatal(got, err)
	}
	p := AppendPlainBool(nil, vals)
	eqBytes(t, "plain bool", p, []byte{0b11111101, 0b00000111})
	got, k, err = DecodePlainBool(nil, p, len(vals))
	if err != nil || k != 2 || !slices.Equal(got, vals) {
		t.Fatal(got, err)
	}
}

func TestWidthZeroDictionary(t *testing.T) {
	// A bit width of 0 with no runs at all: every index is 0.
	got, k, err := DecodeDictIndices(nil, []byte{0}, 5)
	if err != nil || k != 1 || !slices.Equal(got, make([]int32, 5)) {
		t.Fatal(got, k, err)
	}
	enc := AppendDictIndices(nil, make([]int32, 300), 0)
	got, k, err = DecodeDictIndices(nil, enc, 300)
	if err != nil || k != len(enc) || !slices.Equal(got, make([]int32, 300)) {
		t.Fatal(err)
	}
}

func TestDeltaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	gens := map[string]func(i int) int64{
		"random":    func(int) int64 { return int64(r.Uint64()) },
		"extremes":  func(i int) int64 { return []int64{math.MinInt64, math.MaxInt64, 0, -1}[r.IntN(4)] },
		"sorted":    func(i int) int64 { return int64(i * 3) },
		"smallstep": func(i int) int64 { return int64(i) + int64(r.IntN(5)) },
		"const":     func(int) int64 { return 42 },
	}
	for name, g := range gens {
		for _, n := range []int{0, 1, 2, 31, 32, 33, 127, 128, 129, 200, 1000, 4097} {
			v := make([]int64, n)
			v32 := make([]int32, n)
			for i := range v {
				v[i] = g(i)
				v32[i] = int32(v[i])
			}
			enc := AppendDeltaInt64(nil, v)
			got, k, err := DecodeDeltaInt64(nil, enc)
			if err != nil || k != len(enc) || !slices.Equal(got, v) {
				t.Fatalf("int64 %s n=%d: %v", name, n, err)
			}
			enc = AppendDeltaInt32(nil, v32)
			got32, k, err := DecodeDeltaInt32(nil, enc)
			if err != nil || k != len(enc) || !slices.Equal(got32, v32) {
				t.Fatalf("int32 %s n=%d: %v", name, n, err)
			}
		}
	}
	// INT32 deltas wrap at 32 bits: MinInt32 after MaxInt32 is delta 1.
	enc := AppendDeltaInt32(nil, []int32{math.MaxInt32, math.MinInt32})
	eqBytes(t, "int32 wrap", enc, []byte{0x80, 1, 4, 2, 0xfe, 0xff, 0xff, 0xff, 0x0f, 2, 0, 0, 0, 0})
}

func TestByteArraysRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 2, 100, 129, 1000} {
		var in ByteArrays
		prev := []byte{}
		for range n {
			p := r.IntN(len(prev) + 1)
			v := append(slices.Clone(prev[:p]), fmt.Sprint(r.IntN(1000))...)
			in.Append(v)
			prev = v
		}
		for name, f := range map[string]struct {
			enc func([]byte, ByteArrays) []byte
			dec func(ByteArrays, []byte) (ByteArrays, int, error)
		}{
			"plain":  {AppendPlainByteArray, DecodePlainByteArray},
			"dlba":   {AppendDeltaLengthByteArray, DecodeDeltaLengthByteArray},
			"dba":    {AppendDeltaByteArray, DecodeDeltaByteArray},
			"gather": {AppendPlainByteArray, DecodePlainByteArray},
		} {
			enc := f.enc(nil, in)
			got, k, err := f.dec(ByteArrays{Data: make([]byte, 3), Offsets: make([]uint32, 0, 2*n+1)}, enc)
			if err != nil || k != len(enc) || !equalBA(got, in) {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
		}
	}
	// Fixed-length values.
	const size = 5
	src := make([]byte, size*300)
	for i := range src {
		src[i] = byte(r.IntN(3))
	}
	enc := AppendDeltaByteArrayFixed(nil, src, size)
	got, k, err := DecodeDeltaByteArrayFixed(nil, enc, size, nil)
	if err != nil || k != len(enc) || !slices.Equal(got, src) {
		t.Fatal(err)
	}
	if _, _, err := DecodeDeltaByteArrayFixed(nil, enc, 4, nil); !errors.Is(err, ErrLength) {
		t.Fatal(err)
	}
	enc = AppendByteStreamSplitFixed(nil, src, size)
	got, _, err = DecodeByteStreamSplitFixed(nil, enc, size)
	if err != nil || !slices.Equal(got, src) {
		t.Fatal(err)
	}
}

func TestPlainRoundTrip(t *testing.T) {
	i32 := []int32{0, -1, math.MaxInt32, math.MinInt32}
	enc := AppendPlainInt32(nil, i32)
	eqBytes(t, "int32", enc, appendPlainInt32Ref(nil, i32))
	eqBytes(t, "int32 bytes", enc[:8], []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	g, _, err := DecodePlainInt32(nil, enc)
	r, _, err2 := decodePlainInt32Ref(nil, enc)
	if err != nil || err2 != nil || !slices.Equal(g, i32) || !slices.Equal(r, i32) {
		t.Fatal(g, err)
	}
	i64 := []int64{0, -1, math.MaxInt64, math.MinInt64, 1 << 40}
	enc = AppendPlainInt64(nil, i64)
	eqBytes(t, "int64", enc, appendPlainInt64Ref(nil, i64))
	g64, _, err := DecodePlainInt64(nil, enc)
	r64, _, err2 := decodePlainInt64Ref(nil, enc)
	if err != nil || err2 != nil || !slices.Equal(g64, i64) || !slices.Equal(r64, i64) {
		t.Fatal(err)
	}
	f := []float32{1.5, float32(math.Inf(-1)), float32(math.Copysign(0, -1))}
	enc = AppendPlainFloat(nil, f)
	eqBytes(t, "float", enc[:4], binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)))
	gf, _, err := DecodePlainFloat(nil, enc)
	if err != nil || math.Float32bits(gf[2]) != math.Float32bits(f[2]) {
		t.Fatal(err)
	}
	d := []float64{math.Pi, math.NaN()}
	enc = AppendPlainDouble(nil, d)
	gd, _, err := DecodePlainDouble(nil, enc)
	if err != nil || gd[0] != math.Pi || !math.IsNaN(gd[1]) {
		t.Fatal(err)
	}
	i96 := []Int96{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}
	enc = AppendPlainInt96(nil, i96)
	g96, _, err := DecodePlainInt96(nil, enc)
	if err != nil || !slices.Equal(g96, i96) {
		t.Fatal(err)
	}
	fx, _, err := DecodePlainFixed(nil, AppendPlainFixed(nil, []byte("abcdef")), 3)
	if err != nil || string(fx) != "abcdef" {
		t.Fatal(err)
	}
}

func TestBSSRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 7, 8, 9, 16, 100, 1001} {
		f := make([]float32, n)
		d := make([]float64, n)
		i := make([]int32, n)
		l := make([]int64, n)
		for k := range n {
			f[k], d[k], i[k], l[k] = r.Float32(), r.NormFloat64(), int32(r.Uint32()), int64(r.Uint64())
		}
		gf, _, _ := DecodeByteStreamSplitFloat(nil, AppendByteStreamSplitFloat(nil, f))
		gd, _, _ := DecodeByteStreamSplitDouble(nil, AppendByteStreamSplitDouble(nil, d))
		gi, _, _ := DecodeByteStreamSplitInt32(nil, AppendByteStreamSplitInt32(nil, i))
		gl, _, _ := DecodeByteStreamSplitInt64(nil, AppendByteStreamSplitInt64(nil, l))
		if !slices.Equal(gf, f) || !slices.Equal(gd, d) || !slices.Equal(gi, i) || !slices.Equal(gl, l) {
			t.Fatal(n)
		}
		raw4 := AppendPlainInt32(nil, i)
		eqBytes(t, "bss4 ref", AppendByteStreamSplitInt32(nil, i), appendBSSRef(nil, raw4, 4))
		back4 := make([]byte, len(raw4))
		decodeBSS4(back4, appendBSSRef(nil, raw4, 4))
		eqBytes(t, "bss4 decode vs ref", back4, raw4)
		raw := AppendPlainInt64(nil, l)
		eqBytes(t, "bss8 ref", AppendByteStreamSplitInt64(nil, l), appendBSSRef(nil, raw, 8))
		back := make([]byte, len(raw))
		decodeBSSRef(back, appendBSSRef(nil, raw, 8), 8)
		eqBytes(t, "bss8 ref decode", back, raw)
	}
}

func TestDictionaries(t *testing.T) {
	var d Dict32
	idx, n, full := d.InsertInt32(nil, []int32{5, 7, 5, 9, 7})
	if full || n != 5 || !slices.Equal(idx, []int32{0, 1, 0, 2, 1}) || d.Len() != 3 {
		t.Fatal(idx, n, full)
	}
	eqBytes(t, "dict32 page", d.AppendPlain(nil), AppendPlainInt32(nil, []int32{5, 7, 9}))
	// -0 and +0 are distinct entries.
	var f Dict32
	idx, _, _ = f.InsertFloat(nil, []float32{0, float32(math.Copysign(0, -1)), 0})
	if !slices.Equal(idx, []int32{0, 1, 0}) {
		t.Fatal(idx)
	}
	// Many values force rehashes.
	var d64 Dict64
	src := make([]int64, 100000)
	for i := range src {
		src[i] = int64(i % 5000 * 7919)
	}
	idx, n, full = d64.InsertInt64(nil, src)
	if full || n != len(src) || d64.Len() != 5000 {
		t.Fatal(n, full, d64.Len())
	}
	page := d64.AppendPlain(nil)
	dict, _, _ := DecodePlainInt64(nil, page)
	back, err := Gather(nil, dict, idx)
	if err != nil || !slices.Equal(back, src) {
		t.Fatal(err)
	}
	// Limits: the dictionary stops at MaxBytes and reports fallback.
	small := Dict64{Limits: DictLimits{MaxBytes: 80}}
	_, n, full = small.InsertInt64(nil, src)
	if !full || n != 10 || small.Size() != 80 {
		t.Fatal(n, full, small.Size())
	}
	var db DictBytes
	var in ByteArrays
	for i := range 3000 {
		in.AppendString(fmt.Sprint("value-", i%700))
	}
	idx, n, full = db.InsertByteArrays(nil, in)
	if full || n != 3000 || db.Len() != 700 {
		t.Fatal(n, full)
	}
	dictBA, _, err := DecodePlainByteArray(ByteArrays{}, db.AppendPlain(nil))
	if err != nil {
		t.Fatal(err)
	}
	out, err := GatherByteArrays(ByteArrays{}, dictBA, idx)
	if err != nil || !equalBA(out, in) {
		t.Fatal(err)
	}
	lim := DictBytes{Limits: DictLimits{MaxEntries: 2}}
	_, n, full = lim.InsertByteArrays(nil, in)
	if !full || n != 2 {
		t.Fatal(n, full)
	}
	var dfx DictBytes
	idx, _, _ = dfx.InsertFixed(nil, []byte("abcdabxy"), 2)
	g, err := GatherFixed(nil, dfx.AppendPlain(nil), 2, idx)
	if err != nil || string(g) != "abcdabxy" {
		t.Fatal(err)
	}
	if _, err := Gather(nil, []int32{1}, []int32{1}); !errors.Is(err, ErrIndexRange) {
		t.Fatal(err)
	}
	if DictBitWidth(1) != 0 || DictBitWidth(2) != 1 || DictBitWidth(256) != 8 || DictBitWidth(257) != 9 {
		t.Fatal("DictBitWidth")
	}
	enc := AppendDictIndices(nil, idx, 2)
	gi, _, err := DecodeDictIndices(nil, enc, len(idx))
	if err != nil || !slices.Equal(gi, idx) {
		t.Fatal(err)
	}
}
