package interop

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// testSchema covers every physical type but INT96, required, optional and
// repeated columns (a LIST<int64> with optional elements), unsigned and
// decimal orders.
const testSchema = `message m {
  required int64 id;
  optional binary name (STRING);
  optional group tags (LIST) {
    repeated group list {
      optional int64 element;
    }
  }
  required int32 i32;
  optional double d;
  required float f;
  required boolean b;
  required fixed_len_byte_array(4) fx;
  required int32 u32 (INTEGER(32,false));
  optional binary dec (DECIMAL(18,2));
}`

// Leaf indexes of testSchema.
const (
	cID = iota
	cName
	cTags
	cI32
	cD
	cF
	cB
	cFx
	cU32
	cDec
	numCols
)

// column is the expected content of one leaf: levels and the PLAIN
// encoding (without length prefix) of every non-null value.
type column struct {
	def, rep []uint8
	vals     [][]byte
	// rowSlot[i] and rowVal[i] are the first slot and value of row i.
	rowSlot, rowVal []int
}

type dataset struct {
	rows int
	cols [numCols]column
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

var words = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"}

// genRows writes rows rows to w (EndRows every batch rows) and returns what
// was written. distinct spreads the names over so many values that a small
// dictionary overflows.
func genRows(t testing.TB, w *runtime.FileWriter, rows, batch int, seed uint64) *dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	ds := &dataset{rows: rows}
	id, _ := w.Int64Buffer(cID)
	name, _ := w.ByteArrayBuffer(cName)
	tags, _ := w.Int64Buffer(cTags)
	i32, _ := w.Int32Buffer(cI32)
	d, _ := w.DoubleBuffer(cD)
	f, _ := w.FloatBuffer(cF)
	b, _ := w.BoolBuffer(cB)
	fx, err := w.FixedBuffer(cFx)
	if err != nil {
		t.Fatal(err)
	}
	u32, _ := w.Int32Buffer(cU32)
	dec, _ := w.ByteArrayBuffer(cDec)
	pending := 0
	for r := 0; r < rows; r++ {
		for c := range ds.cols {
			col := &ds.cols[c]
			col.rowSlot = append(col.rowSlot, len(col.def))
			col.rowVal = append(col.rowVal, len(col.vals))
		}
		add := func(c int, def, rep uint8, v []byte) {
			col := &ds.cols[c]
			col.def = append(col.def, def)
			col.rep = append(col.rep, rep)
			if v != nil {
				col.vals = append(col.vals, v)
			}
		}
		// id: ascending.
		v := int64(r)*3 - 1000
		id.Values = append(id.Values, v)
		add(cID, 0, 0, le64(uint64(v)))
		// name: null every 4th row; mostly words, sometimes long text.
		if r%4 == 3 {
			name.Def = append(name.Def, 0)
			add(cName, 0, 0, nil)
		} else {
			var s string
			switch rng.IntN(10) {
			case 0:
				s = strings.Repeat("é", 40) + fmt.Sprint(rng.IntN(1000)) // 80+ bytes of UTF-8
			case 1:
				s = fmt.Sprintf("w%06d", rng.IntN(100000))
			default:
				s = words[rng.IntN(len(words))]
			}
			name.Def = append(name.Def, 1)
			name.Values.AppendString(s)
			add(cName, 1, 0, []byte(s))
		}
		// tags: null list, empty list, or 1-4 elements, some null.
		switch k := rng.IntN(6); k {
		case 0:
			tags.Def, tags.Rep = append(tags.Def, 0), append(tags.Rep, 0)
			add(cTags, 0, 0, nil)
		case 1:
			tags.Def, tags.Rep = append(tags.Def, 1), append(tags.Rep, 0)
			add(cTags, 1, 0, nil)
		default:
			for j := 0; j < k-1; j++ {
				rep := uint8(1)
				if j == 0 {
					rep = 0
				}
				if rng.IntN(5) == 0 {
					tags.Def, tags.Rep = append(tags.Def, 2), append(tags.Rep, rep)
					add(cTags, 2, rep, nil)
					continue
				}
				x := rng.Int64N(2000) - 1000
				tags.Def, tags.Rep = append(tags.Def, 3), append(tags.Rep, rep)
				tags.Values = append(tags.Values, x)
				add(cTags, 3, rep, le64(uint64(x)))
			}
		}
		// i32: small range (dictionary friendly) around zero.
		x32 := int32(rng.IntN(200) - 100)
		i32.Values = append(i32.Values, x32)
		add(cI32, 0, 0, le32(uint32(x32)))
		// d: optional double with nulls, NaN, -0 and +0.
		switch rng.IntN(12) {
		case 0:
			d.Def = append(d.Def, 0)
			add(cD, 0, 0, nil)
		default:
			var xd float64
			switch rng.IntN(20) {
			case 0:
				xd = math.NaN()
			case 1:
				xd = math.Copysign(0, -1)
			case 2:
				xd = 0
			default:
				xd = rng.NormFloat64() * 100
			}
			d.Def = append(d.Def, 1)
			d.Values = append(d.Values, xd)
			add(cD, 1, 0, le64(math.Float64bits(xd)))
		}
		// f: float.
		xf := float32(rng.IntN(1000)) / 8
		f.Values = append(f.Values, xf)
		add(cF, 0, 0, le32(math.Float32bits(xf)))
		// b: bool.
		xb := rng.IntN(3) == 0
		b.Values = append(b.Values, xb)
		bb := []byte{0}
		if xb {
			bb[0] = 1
		}
		add(cB, 0, 0, bb)
		// fx: 4 bytes.
		fv := le32(uint32(rng.IntN(50)) * 0x01010101)
		fx.Values = append(fx.Values, fv...)
		add(cFx, 0, 0, fv)
		// u32: unsigned, spanning the sign bit.
		xu := uint32(rng.Uint32())
		u32.Values = append(u32.Values, int32(xu))
		add(cU32, 0, 0, le32(xu))
		// dec: big-endian two's complement, minimal length, signed.
		if r%7 == 0 {
			dec.Def = append(dec.Def, 0)
			add(cDec, 0, 0, nil)
		} else {
			bv := decimalBytes(rng.Int64N(2_000_000) - 1_000_000)
			dec.Def = append(dec.Def, 1)
			dec.Values.Append(bv)
			add(cDec, 1, 0, bv)
		}
		pending++
		if pending == batch {
			if err := w.EndRows(pending); err != nil {
				t.Fatal(err)
			}
			pending = 0
		}
	}
	if pending > 0 {
		if err := w.EndRows(pending); err != nil {
			t.Fatal(err)
		}
	}
	return ds
}

// decimalBytes returns the minimal big-endian two's complement of v.
func decimalBytes(v int64) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(v))
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	return b
}

func decimalValue(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

// less orders two PLAIN values of column c by the column's order.
func less(c int, a, b []byte) bool {
	switch c {
	case cID, cTags:
		return int64(binary.LittleEndian.Uint64(a)) < int64(binary.LittleEndian.Uint64(b))
	case cI32:
		return int32(binary.LittleEndian.Uint32(a)) < int32(binary.LittleEndian.Uint32(b))
	case cU32:
		return binary.LittleEndian.Uint32(a) < binary.LittleEndian.Uint32(b)
	case cD:
		x, y := math.Float64frombits(binary.LittleEndian.Uint64(a)), math.Float64frombits(binary.LittleEndian.Uint64(b))
		if x == y { // -0 before +0
			return math.Signbit(x) && !math.Signbit(y)
		}
		return x < y
	case cF:
		return math.Float32frombits(binary.LittleEndian.Uint32(a)) < math.Float32frombits(binary.LittleEndian.Uint32(b))
	case cDec:
		return decimalValue(a).Cmp(decimalValue(b)) < 0
	default:
		return bytes.Compare(a, b) < 0
	}
}

// expectedStats computes the statistics of rows [from, to) of column c by
// the format's rules: NaN excluded (and counted), zero min as -0 and zero
// max as +0, byte arrays truncated to 64 bytes.
type expStats struct {
	nulls, nans int64
	min, max    []byte
	has         bool
	minExact    bool
	maxExact    bool
}

// chunkStats is stats for a whole column chunk: one holding NaN has no
// min and max (runtime/write_footer.go: DuckDB takes them as the bounds
// of NaN too).
func (ds *dataset) chunkStats(c, from, to int) expStats {
	e := ds.stats(c, from, to)
	if e.nans > 0 {
		e.has, e.min, e.max = false, nil, nil
	}
	return e
}

func (ds *dataset) stats(c, from, to int) expStats {
	col := &ds.cols[c]
	s0, s1 := col.rowSlot[from], len(col.def)
	v0, v1 := col.rowVal[from], len(col.vals)
	if to < ds.rows {
		s1, v1 = col.rowSlot[to], col.rowVal[to]
	}
	var e expStats
	maxDef := uint8(0)
	switch c {
	case cName, cD, cDec:
		maxDef = 1
	case cTags:
		maxDef = 3
	}
	for _, d := range col.def[s0:s1] {
		if d != maxDef {
			e.nulls++
		}
	}
	for _, v := range col.vals[v0:v1] {
		if c == cD && math.IsNaN(math.Float64frombits(binary.LittleEndian.Uint64(v))) {
			e.nans++
			continue
		}
		if !e.has {
			e.min, e.max, e.has = v, v, true
			continue
		}
		if less(c, v, e.min) {
			e.min = v
		}
		if less(c, e.max, v) {
			e.max = v
		}
	}
	e.minExact, e.maxExact = true, true
	if c == cF && e.has {
		if math.Float32frombits(binary.LittleEndian.Uint32(e.min)) == 0 {
			e.min = le32(math.Float32bits(float32(math.Copysign(0, -1))))
		}
		if math.Float32frombits(binary.LittleEndian.Uint32(e.max)) == 0 {
			e.max = le32(0)
		}
	}
	if c == cD && e.has {
		if math.Float64frombits(binary.LittleEndian.Uint64(e.min)) == 0 {
			e.min = le64(math.Float64bits(math.Copysign(0, -1)))
		}
		if math.Float64frombits(binary.LittleEndian.Uint64(e.max)) == 0 {
			e.max = le64(0)
		}
	}
	if c == cName && e.has {
		if len(e.min) > 64 {
			e.min, e.minExact = e.min[:64], false // "é" is 2 bytes: 64 is a rune boundary
		}
		if len(e.max) > 64 {
			m := append([]byte(nil), e.max[:64]...)
			// increment the last rune: é (U+00E9) becomes ê (U+00EA)
			m[63]++
			e.max, e.maxExact = m, false
		}
	}
	return e
}
