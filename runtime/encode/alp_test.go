package encode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// qNaN is the canonical quiet NaN of binary64 (Go's math.NaN() sets the
// low bit as well).
var qNaN = math.Float64frombits(0x7FF8000000000000)

// specVector is the serialized vector of the specification's worked
// example "Exceptions and Non-Zero Factor": {1500.0, NaN, 2500.0, 333.5}
// with exponent 4 and factor 3 (31 bytes).
var specVector = []byte{
	4, 3, 1, 0, // AlpInfo: e=4, f=3, one exception
	0x07, 0x0d, 0, 0, 0, 0, 0, 0, 15, // ForInfo: FOR 3335, bit width 15
	0x91, 0xad, 0xc8, 0x56, 0x28, 0x15, 0x00, 0x00, // [11665, 11665, 21665, 0] at 15 bits
	1, 0, // exception position 1
	0, 0, 0, 0, 0, 0, 0xf8, 0x7f, // exception value NaN
}

// specPage wraps specVector in a page: header (mode 0, FOR, log 10, 4
// values) and the offset array (one vector at offset 4).
func specPage() []byte {
	p := []byte{0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0}
	return append(p, specVector...)
}

func TestALPSpecWorkedExampleDecode(t *testing.T) {
	got, k, err := DecodeALPDouble(nil, specPage(), 4)
	if err != nil || k != 7+4+31 {
		t.Fatalf("decode: %v, %d bytes", err, k)
	}
	want := []uint64{math.Float64bits(1500), 0x7FF8000000000000, math.Float64bits(2500), math.Float64bits(333.5)}
	for i := range want {
		if math.Float64bits(got[i]) != want[i] {
			t.Fatalf("value %d: %x, want %x", i, math.Float64bits(got[i]), want[i])
		}
	}
	h, vs, err := InspectALP(specPage(), true)
	if err != nil || h.NumElements != 4 || h.LogVectorSize != 10 || len(vs) != 1 {
		t.Fatalf("inspect: %+v %+v %v", h, vs, err)
	}
	if v := vs[0]; v != (ALPVector{Offset: 4, Size: 31, Len: 4, Exponent: 4, Factor: 3, Exceptions: 1, FrameOfReference: 3335, BitWidth: 15}) {
		t.Fatalf("vector %+v", v)
	}
}

func TestALPSpecWorkedExampleEncode(t *testing.T) {
	vals := []float64{1500, qNaN, 2500, 333.5}
	var sc alpScratch
	got := appendALPVector(nil, vals, alpCombo{4, 3}, &sc)
	if !bytes.Equal(got, specVector) {
		t.Fatalf("vector with (4, 3):\n got % x\nwant % x", got, specVector)
	}
	// The selection finds a pair of the same cost: every (e, e-1) that
	// round trips scales by ten, so only the AlpInfo bytes may differ.
	page := AppendALPDouble(nil, vals)
	want := specPage()
	if len(page) != len(want) || !bytes.Equal(page[:11], want[:11]) || !bytes.Equal(page[13:], want[13:]) || page[11] != page[12]+1 {
		t.Fatalf("page:\n got % x\nwant % x", page, want)
	}
}

func TestALPSpecFORExample(t *testing.T) {
	// Encoded [123, 456, 789, 12]: FOR 12, deltas [111, 444, 777, 0], 10
	// bits, 5 bytes.
	packed := []byte{0x6f, 0xf0, 0x96, 0x30, 0x00}
	wantD := append([]byte{0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 10}, packed...)
	if got := AppendALPDouble(nil, []float64{123, 456, 789, 12}); !bytes.Equal(got, wantD) {
		t.Fatalf("double:\n got % x\nwant % x", got, wantD)
	}
	wantF := append([]byte{0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 10}, packed...)
	if got := AppendALPFloat(nil, []float32{123, 456, 789, 12}); !bytes.Equal(got, wantF) {
		t.Fatalf("float:\n got % x\nwant % x", got, wantF)
	}
	d, _, err := DecodeALPDouble(nil, wantD, 4)
	if err != nil || d[0] != 123 || d[1] != 456 || d[2] != 789 || d[3] != 12 {
		t.Fatalf("decode double %v %v", d, err)
	}
	f, _, err := DecodeALPFloat(nil, wantF, 4)
	if err != nil || f[0] != 123 || f[1] != 456 || f[2] != 789 || f[3] != 12 {
		t.Fatalf("decode float %v %v", f, err)
	}
}

// alpAdversarialDoubles are values that must become exceptions or sit at
// the edges of the integer range.
var alpAdversarialDoubles = []float64{
	math.Copysign(0, -1), 0, qNaN, math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF8000000000123),
	math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	math.Float64frombits(0x000FFFFFFFFFFFFF), math.MaxFloat64, -math.MaxFloat64,
	1 << 62, -(1 << 63), 1 << 63, 9.223372036854775e18, 0.1, 1.0 / 3, 1e-18, 1e18, 123456789.123456789,
}

// alpCheckDouble encodes vals, decodes them with the fast decoder and the
// twin, and compares bits.
func alpCheckDouble(t *testing.T, vals []float64, page []byte) {
	t.Helper()
	got, k, err := DecodeALPDouble(nil, page, len(vals))
	if err != nil || k != len(page) {
		t.Fatalf("decode: %v (%d of %d bytes)", err, k, len(page))
	}
	twin, err := twinALP(page, true, len(vals))
	if err != nil {
		t.Fatalf("twin: %v", err)
	}
	for i, v := range vals {
		if math.Float64bits(got[i]) != math.Float64bits(v) || twin[i] != math.Float64bits(v) {
			t.Fatalf("value %d: %x (twin %x), want %x", i, math.Float64bits(got[i]), twin[i], math.Float64bits(v))
		}
	}
}

func alpCheckFloat(t *testing.T, vals []float32, page []byte) {
	t.Helper()
	got, k, err := DecodeALPFloat(nil, page, len(vals))
	if err != nil || k != len(page) {
		t.Fatalf("decode: %v (%d of %d bytes)", err, k, len(page))
	}
	twin, err := twinALP(page, false, len(vals))
	if err != nil {
		t.Fatalf("twin: %v", err)
	}
	for i, v := range vals {
		if math.Float32bits(got[i]) != math.Float32bits(v) || twin[i] != uint64(math.Float32bits(v)) {
			t.Fatalf("value %d: %x (twin %x), want %x", i, math.Float32bits(got[i]), twin[i], math.Float32bits(v))
		}
	}
}

// alpDataDouble returns n values of one of several shapes.
func alpDataDouble(r *rand.Rand, n, kind int) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch kind {
		case 0: // prices with two decimals
			v[i] = float64(r.IntN(1000000)) / 100
		case 1: // sensor readings with one to three decimals
			d := []float64{10, 100, 1000}[r.IntN(3)]
			v[i] = math.Round((20+10*r.NormFloat64())*d) / d
		case 2: // random doubles
			v[i] = r.Float64() * 1000
		case 3: // mostly decimals with adversarial values sprinkled in
			v[i] = float64(r.IntN(100000)) / 1000
			if r.IntN(8) == 0 {
				v[i] = alpAdversarialDoubles[r.IntN(len(alpAdversarialDoubles))]
			}
		case 4: // arbitrary bit patterns
			v[i] = math.Float64frombits(r.Uint64())
		default: // large integers and negatives
			v[i] = float64(r.Int64N(1<<60) - 1<<59)
		}
	}
	return v
}

func TestALPRoundTripDouble(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 1023, 1024, 1025, 3000, 9000} {
		for kind := range 6 {
			vals := alpDataDouble(r, n, kind)
			alpCheckDouble(t, vals, AppendALPDouble(nil, vals))
		}
	}
	alpCheckDouble(t, alpAdversarialDoubles, AppendALPDouble(nil, alpAdversarialDoubles))
}

func TestALPRoundTripFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	adv := []float32{float32(math.Copysign(0, -1)), 0, math.Float32frombits(0x7FC00000), math.Float32frombits(0x7F800001),
		math.Float32frombits(0xFFC00123), float32(math.Inf(1)), float32(math.Inf(-1)), math.SmallestNonzeroFloat32,
		math.Float32frombits(0x007FFFFF), math.MaxFloat32, -math.MaxFloat32, 1 << 30, -(1 << 31), 1 << 31, 0.1, 1.0 / 3}
	alpCheckFloat(t, adv, AppendALPFloat(nil, adv))
	for _, n := range []int{0, 1, 1023, 1024, 1025, 5000} {
		for kind := range 6 {
			d := alpDataDouble(r, n, kind)
			vals := make([]float32, n)
			for i := range d {
				vals[i] = float32(d[i])
				if kind == 4 {
					vals[i] = math.Float32frombits(uint32(math.Float64bits(d[i])))
				}
			}
			alpCheckFloat(t, vals, AppendALPFloat(nil, vals))
		}
	}
}

// TestALPVectorSizes writes and reads every vector size the encoder
// writes (8 to 1024) and reads the larger ones the format allows, built
// by hand, with partial last vectors.
func TestALPVectorSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for lg := uint8(ALPMinLogVectorSize); lg <= ALPDefaultLogVectorSize; lg++ {
		for _, n := range []int{1 << lg, 1<<lg + 1, 3<<lg - 1} {
			vals := alpDataDouble(r, n, 3)
			page := appendALP(nil, vals, lg, new(ALPEncoder))
			if page[2] != lg {
				t.Fatalf("log vector size %d", page[2])
			}
			alpCheckDouble(t, vals, page)
			fv := make([]float32, n)
			for i := range vals {
				fv[i] = float32(vals[i])
			}
			alpCheckFloat(t, fv, appendALP(nil, fv, lg, new(ALPEncoder)))
		}
	}
	for lg := uint8(11); lg <= ALPMaxLogVectorSize; lg++ {
		n := 1<<lg + 5
		vals := alpDataDouble(r, n, 0)
		alpCheckDouble(t, vals, alpHandPage(vals, lg))
	}
}

// alpHandPage builds a DOUBLE page with vectors of 1 << lg values, each
// encoded with (2, 0) and its own exceptions, with appendALPVector in
// chunks of 1024 re-packed: it is only used for sizes the encoder does
// not write.
func alpHandPage(vals []float64, lg uint8) []byte {
	vs := 1 << lg
	nvec := (len(vals) + vs - 1) / vs
	page := []byte{0, 0, lg, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(page[3:], uint32(len(vals)))
	body := make([]byte, 4*nvec)
	for i := range nvec {
		binary.LittleEndian.PutUint32(body[4*i:], uint32(len(body)))
		v := vals[i*vs : min(len(vals), (i+1)*vs)]
		c := alpConstsOf[float64](alpCombo{2, 0})
		enc := make([]uint64, len(v))
		var pos []uint16
		lo := int64(math.MaxInt64)
		for j, x := range v {
			q, ok := alpEncodeOne(x, &c)
			if !ok {
				pos = append(pos, uint16(j))
				q = 0
			}
			enc[j] = uint64(q)
			lo = min(lo, q)
		}
		var hi uint64
		for j := range enc {
			enc[j] -= uint64(lo)
			hi = max(hi, enc[j])
		}
		bw := 0
		for hi>>bw != 0 {
			bw++
		}
		body = append(body, 2, 0, byte(len(pos)), byte(len(pos)>>8))
		body = binary.LittleEndian.AppendUint64(body, uint64(lo))
		body = append(body, byte(bw))
		body = refPack(body, enc, bw)
		for _, p := range pos {
			body = binary.LittleEndian.AppendUint16(body, p)
		}
		for _, p := range pos {
			body = binary.LittleEndian.AppendUint64(body, math.Float64bits(v[p]))
		}
	}
	return append(page, body...)
}

// TestALPHostile corrupts a valid page field by field: every fault is an
// error wrapping a sentinel, and the twin rejects the same pages.
func TestALPHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	vals := alpDataDouble(r, 2100, 3)
	good := AppendALPDouble(nil, vals)
	_, vs, err := InspectALP(good, true)
	if err != nil || len(vs) != 3 || vs[0].Exceptions == 0 {
		t.Fatalf("setup: %v %+v", err, vs)
	}
	v1 := 7 + vs[1].Offset // second vector
	cases := []struct {
		name string
		edit func(p []byte) []byte
		n    int
		want error
	}{
		{"short header", func(p []byte) []byte { return p[:6] }, 2100, ErrTruncated},
		{"mode", func(p []byte) []byte { p[0] = 1; return p }, 2100, ErrCorrupt},
		{"integer encoding", func(p []byte) []byte { p[1] = 1; return p }, 2100, ErrCorrupt},
		{"log vector size 2", func(p []byte) []byte { p[2] = 2; return p }, 2100, ErrCorrupt},
		{"log vector size 16", func(p []byte) []byte { p[2] = 16; return p }, 2100, ErrCorrupt},
		{"count disagrees", func(p []byte) []byte { return p }, 2101, ErrLength},
		{"negative count", func(p []byte) []byte { binary.LittleEndian.PutUint32(p[3:], 0x80000000); return p }, -1, ErrLength},
		{"huge count", func(p []byte) []byte { binary.LittleEndian.PutUint32(p[3:], 0x7FFFFFFF); return p }, 0x7FFFFFFF, ErrTruncated},
		{"first offset", func(p []byte) []byte { p[7]++; return p }, 2100, ErrCorrupt},
		{"second offset", func(p []byte) []byte { p[11]--; return p }, 2100, ErrCorrupt},
		{"offset far", func(p []byte) []byte { binary.LittleEndian.PutUint32(p[15:], 0xFFFFFFF0); return p }, 2100, ErrCorrupt},
		{"exponent", func(p []byte) []byte { p[v1] = 19; return p }, 2100, ErrCorrupt},
		{"factor", func(p []byte) []byte { p[v1+1] = p[v1] + 1; return p }, 2100, ErrCorrupt},
		{"bit width", func(p []byte) []byte { p[v1+12] = 65; return p }, 2100, ErrBitWidth},
		{"bit width long", func(p []byte) []byte { p[v1+12] = 64; return p }, 2100, ErrTruncated},
		{"exceptions", func(p []byte) []byte { binary.LittleEndian.PutUint16(p[v1+2:], 1025); return p }, 2100, ErrCorrupt},
		{"exceptions long", func(p []byte) []byte { binary.LittleEndian.PutUint16(p[v1+2:], 1000); return p }, 2100, ErrTruncated},
		{"exception position", func(p []byte) []byte {
			at := 7 + vs[2].Offset + 13 + packedLen(vs[2].Len, vs[2].BitWidth)
			binary.LittleEndian.PutUint16(p[at:], uint16(vs[2].Len))
			return p
		}, 2100, ErrCorrupt},
		{"truncated", func(p []byte) []byte { return p[:len(p)-1] }, 2100, ErrTruncated},
	}
	for _, c := range cases {
		p := c.edit(bytes.Clone(good))
		_, _, err := DecodeALPDouble(nil, p, c.n)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if _, terr := twinALP(p, true, c.n); terr == nil {
			t.Errorf("%s: the twin accepts the page", c.name)
		}
		if _, _, err := DecodeALPFloat(nil, p, c.n); err == nil {
			t.Errorf("%s: accepted as FLOAT", c.name)
		}
	}
	// A huge count that its caller vouches for allocates nothing before
	// the bytes are checked.
	p := bytes.Clone(good)
	binary.LittleEndian.PutUint32(p[3:], 0x7FFFFFFF)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err = DecodeALPDouble(nil, p, 0x7FFFFFFF)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTruncated) || after.TotalAlloc-before.TotalAlloc > 1<<16 {
		t.Fatalf("lying count: %v, %d bytes allocated", err, after.TotalAlloc-before.TotalAlloc)
	}
}

func FuzzALPDecode(f *testing.F) {
	f.Add(specPage(), true, uint32(4))
	f.Add(AppendALPDouble(nil, alpAdversarialDoubles), true, uint32(len(alpAdversarialDoubles)))
	f.Add(AppendALPFloat(nil, []float32{1.5, 2.25, float32(math.Inf(1))}), false, uint32(3))
	f.Add(appendALP(nil, alpDataDouble(rand.New(rand.NewPCG(1, 1)), 40, 3), 3, new(ALPEncoder)), true, uint32(40))
	f.Fuzz(func(t *testing.T, src []byte, double bool, n uint32) {
		n %= 1 << 16
		twin, terr := twinALP(src, double, int(n))
		var bits []uint64
		var err error
		if double {
			var d []float64
			d, _, err = DecodeALPDouble(nil, src, int(n))
			for _, x := range d {
				bits = append(bits, math.Float64bits(x))
			}
		} else {
			var d []float32
			d, _, err = DecodeALPFloat(nil, src, int(n))
			for _, x := range d {
				bits = append(bits, uint64(math.Float32bits(x)))
			}
		}
		if (err == nil) != (terr == nil) {
			t.Fatalf("decoder %v, twin %v", err, terr)
		}
		if err != nil {
			return
		}
		if len(bits) != len(twin) {
			t.Fatalf("%d values, twin %d", len(bits), len(twin))
		}
		for i := range bits {
			if bits[i] != twin[i] {
				t.Fatalf("value %d: %x, twin %x", i, bits[i], twin[i])
			}
		}
	})
}

func FuzzALPRoundTrip(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8}, true, uint8(10))
	f.Add(binary.LittleEndian.AppendUint64(nil, 0x8000000000000000), true, uint8(3))
	f.Add([]byte{0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0xff}, false, uint8(5))
	f.Fuzz(func(t *testing.T, raw []byte, double bool, lg uint8) {
		lg = ALPMinLogVectorSize + lg%(ALPDefaultLogVectorSize-ALPMinLogVectorSize+1)
		if double {
			vals := make([]float64, len(raw)/8)
			for i := range vals {
				vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			alpCheckDouble(t, vals, appendALP(nil, vals, lg, new(ALPEncoder)))
			return
		}
		vals := make([]float32, len(raw)/4)
		for i := range vals {
			vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		alpCheckFloat(t, vals, appendALP(nil, vals, lg, new(ALPEncoder)))
	})
}

// TestALPEncoderChunk: an ALPEncoder keeps the preset of its first page;
// later pages of other data still round trip (through exceptions or
// another pair of the preset), and Reset chooses anew: the same page
// then encodes as AppendALPDouble does.
func TestALPEncoderChunk(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var e ALPEncoder
	prices := alpDataDouble(r, 5000, 0)
	first := e.AppendDouble(nil, prices)
	if !bytes.Equal(first, AppendALPDouble(nil, prices)) {
		t.Fatal("the first page differs from AppendALPDouble's")
	}
	alpCheckDouble(t, prices, first)
	preset := slices.Clone(e.preset)
	for kind := range 6 {
		vals := alpDataDouble(r, 3000, kind)
		alpCheckDouble(t, vals, e.AppendDouble(nil, vals))
		if !slices.Equal(preset, e.preset) {
			t.Fatalf("page %d changed the preset %v to %v", kind, preset, e.preset)
		}
	}
	sensor := alpDataDouble(r, 3000, 1)
	e.Reset()
	if got := e.AppendDouble(nil, sensor); !bytes.Equal(got, AppendALPDouble(nil, sensor)) {
		t.Fatal("after Reset, a page differs from AppendALPDouble's")
	}
	var ef ALPEncoder
	fv := []float32{1.5, 2.25, 3}
	alpCheckFloat(t, fv, ef.AppendFloat(nil, fv))
}
