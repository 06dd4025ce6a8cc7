package geninterop

// Deterministic row sets of the example types. Each starts with rows of
// extremes and nulls at every level, then goes on with seeded random rows,
// so that files have several pages and row groups under the writer
// configurations of configs.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pqgen/pqgen/examples/generated"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/encode"
)

// numRows is the number of rows of every example row set.
const numRows = 2000

// maxDecimal18 is the largest unscaled value of a DECIMAL of precision
// 18 (Line.Price): writers refuse more digits.
const maxDecimal18 = 999_999_999_999_999_999

func ptr[T any](v T) *T { return &v }

// words are valid UTF-8 strings, empty and multi-byte included.
var words = []string{"", "a", "é", "日本語", "hello world", "zzzz", "O'Brien", `q"uote`, "tab\there", "🦆"}

// blobs are binary values, invalid UTF-8 and NUL bytes included.
var blobs = [][]byte{{}, {0}, {0xff, 0xfe, 0xfd}, []byte("plain"), {0xc3, 0x28}, {0x80, 0, 0x80}}

func word(r *rand.Rand) string { return words[r.IntN(len(words))] }

func blob(r *rand.Rand) []byte {
	b := blobs[r.IntN(len(blobs))]
	if r.IntN(3) == 0 {
		b = make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
	if len(b) == 0 {
		return nil // an empty required []byte reads back as nil, the zero value
	}
	return append([]byte{}, b...)
}

// instant is a UTC time between 1900 and 2100 truncated to unit.
func instant(r *rand.Rand, unit time.Duration) time.Time {
	return time.Unix(r.Int64N(200*365*86400)-70*365*86400, r.Int64N(1e9)).UTC().Truncate(unit)
}

// floats are double extremes.
var floats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, 0.1, 1e300, -1e-300}

// floats32 are float extremes.
var floats32 = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0,
	math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 0.1, 3.5}

func float64At(r *rand.Rand, i int) float64 {
	if i < len(floats) {
		return floats[i]
	}
	if r.IntN(50) == 0 {
		return floats[r.IntN(len(floats))]
	}
	return r.NormFloat64() * 1e4
}

func float32At(r *rand.Rand, i int) float32 {
	if i < len(floats32) {
		return floats32[i]
	}
	if r.IntN(50) == 0 {
		return floats32[r.IntN(len(floats32))]
	}
	return float32(r.NormFloat64() * 100)
}

func eventRows() []generated.Event { return eventRowsN(numRows) }

// eventRowsN returns n Event rows (eventRows' first rows when n is more).
func eventRowsN(n int) []generated.Event {
	r := rand.New(rand.NewPCG(1, 1))
	ids := []int64{math.MinInt64, math.MaxInt64, 0, -1}
	out := make([]generated.Event, n)
	for i := range out {
		e := generated.Event{
			ID:      int64(i)*7919 - 1e7,
			At:      instant(r, time.Microsecond),
			Kind:    generated.Kind([]string{"view", "click", "buy", ""}[r.IntN(4)]),
			User:    word(r),
			Latency: time.Duration(r.Int64N(1e12) - 1e11),
			Score:   float64At(r, i),
			Success: r.IntN(3) == 0,
			Country: []string{"", "fr", "us", "日本"}[r.IntN(4)],
			Payload: blob(r),
		}
		if i < len(ids) {
			e.ID = ids[i]
			e.Latency = time.Duration(ids[i])
		}
		for j := range e.Session {
			e.Session[j] = byte(r.Uint32())
		}
		if r.IntN(3) > 0 {
			e.Referrer = ptr(word(r))
		}
		switch r.IntN(5) {
		case 0:
			e.Retries = ptr(int32(math.MinInt32))
		case 1:
			e.Retries = ptr(int32(math.MaxInt32))
		case 2:
			e.Retries = ptr(r.Int32N(10))
		}
		out[i] = e
	}
	return out
}

func orderRows() []generated.Order { return orderRowsN(numRows) }

// orderRowsN returns n Order rows (orderRows' first rows when n is more).
func orderRowsN(n int) []generated.Order {
	r := rand.New(rand.NewPCG(2, 2))
	out := make([]generated.Order, n)
	for i := range out {
		o := generated.Order{
			ID:       int64(i),
			PlacedAt: instant(r, time.Millisecond),
			Shipping: generated.Address{Street: word(r), City: word(r)},
			Audit:    generated.Audit{CreatedBy: word(r), Version: []uint32{0, math.MaxUint32, 1 << 31, 7}[r.IntN(4)]},
		}
		if r.IntN(2) == 0 {
			o.Shipping.Zip = ptr(word(r))
		}
		if r.IntN(4) > 0 {
			o.Customer = &generated.Customer{ID: r.Int64() - math.MaxInt64/2, Name: word(r)}
			if r.IntN(2) == 0 {
				o.Customer.Email = ptr(word(r))
			}
		}
		for range r.IntN(4) {
			l := generated.Line{SKU: word(r), Quantity: r.Int32N(100) - 50, Price: []int64{maxDecimal18, -maxDecimal18, 0, r.Int64N(1e9)}[r.IntN(4)]}
			if n := r.IntN(3); n > 0 {
				l.Options = map[string]int64{}
				for k := range n {
					l.Options[word(r)+string(rune('a'+k))] = r.Int64()
				}
			}
			for range r.IntN(3) {
				p := generated.Part{Name: word(r)}
				if r.IntN(2) == 0 {
					p.Weight = ptr(float32At(r, r.IntN(20)))
				}
				l.Parts = append(l.Parts, p)
			}
			o.Lines = append(o.Lines, l)
		}
		switch r.IntN(3) {
		case 0: // null
		case 1:
			o.Tags = []string{}
		default:
			for range 1 + r.IntN(3) {
				o.Tags = append(o.Tags, word(r))
			}
		}
		if n := r.IntN(3); n > 0 {
			o.Attrs = map[string]string{}
			for k := range n {
				o.Attrs[string(rune('k'+k))+word(r)] = word(r)
			}
		}
		switch r.IntN(3) {
		case 0: // null
		case 1:
			o.Discounts = map[string][]int32{}
		default:
			o.Discounts = map[string][]int32{}
			for k := range 1 + r.IntN(3) {
				var v []int32
				for range r.IntN(3) {
					v = append(v, []int32{math.MinInt32, math.MaxInt32, r.Int32N(100)}[r.IntN(3)])
				}
				o.Discounts[string(rune('d'+k))] = v
			}
		}
		for range r.IntN(4) {
			if r.IntN(2) == 0 {
				o.Notes = append(o.Notes, nil)
			} else {
				o.Notes = append(o.Notes, ptr(word(r)))
			}
		}
		out[i] = o
	}
	return out
}

func deepB(r *rand.Rand) generated.DeepB {
	var b generated.DeepB
	if r.IntN(2) == 0 {
		b.C = ptr([]int32{math.MinInt32, math.MaxInt32, r.Int32()}[r.IntN(3)])
	}
	switch r.IntN(3) {
	case 0: // null
	case 1:
		b.D = []string{}
	default:
		for range 1 + r.IntN(2) {
			b.D = append(b.D, word(r))
		}
	}
	return b
}

func deepRows() []generated.Deep {
	r := rand.New(rand.NewPCG(3, 3))
	out := make([]generated.Deep, numRows)
	for i := range out {
		d := generated.Deep{ID: int64(i)}
		if r.IntN(4) > 0 {
			d.A = &generated.DeepA{}
			switch r.IntN(3) {
			case 0: // null
			case 1:
				d.A.B = []*generated.DeepB{}
			default:
				for range 1 + r.IntN(3) {
					if r.IntN(3) == 0 {
						d.A.B = append(d.A.B, nil)
					} else {
						d.A.B = append(d.A.B, ptr(deepB(r)))
					}
				}
			}
			if r.IntN(2) == 0 {
				d.A.N = ptr(float64At(r, r.IntN(20)))
			}
		}
		switch r.IntN(3) {
		case 0: // null
		case 1:
			d.L = [][]*string{}
		default:
			for range 1 + r.IntN(3) {
				var inner []*string
				for range r.IntN(3) {
					if r.IntN(3) == 0 {
						inner = append(inner, nil)
					} else {
						inner = append(inner, ptr(word(r)))
					}
				}
				d.L = append(d.L, inner)
			}
		}
		switch r.IntN(3) {
		case 0: // null
		case 1:
			d.M = map[int32][]map[string]*int64{}
		default:
			d.M = map[int32][]map[string]*int64{}
			for range 1 + r.IntN(3) {
				var v []map[string]*int64
				for range r.IntN(3) {
					var m map[string]*int64
					for k := range r.IntN(3) {
						if m == nil {
							m = map[string]*int64{}
						}
						if r.IntN(3) == 0 {
							m[string(rune('a'+k))] = nil
						} else {
							m[string(rune('a'+k))] = ptr([]int64{math.MinInt64, math.MaxInt64, r.Int64()}[r.IntN(3)])
						}
					}
					v = append(v, m)
				}
				d.M[r.Int32()-math.MaxInt32/2] = v
			}
		}
		for range r.IntN(3) {
			d.S = append(d.S, deepB(r))
		}
		out[i] = d
	}
	return out
}

// int96 is the INT96 timestamp of t (encode.Int96FromTime: the peers'
// readings of these values check it).
func int96(t time.Time) encode.Int96 {
	v, ok := encode.Int96FromTime(t)
	if !ok {
		panic(fmt.Sprintf("%v has no INT96 timestamp", t))
	}
	return v
}

func logicalRows() []generated.Logical {
	r := rand.New(rand.NewPCG(4, 4))
	out := make([]generated.Logical, numRows)
	f16 := [][2]byte{{0x00, 0x3c}, {0x00, 0x7c}, {0x00, 0xfc}, {0x00, 0x80}, {0xff, 0x7b}, {0x01, 0x00}, {0x55, 0x35}}
	for i := range out {
		ext := i % 3 // 0: minimums, 1: maximums, 2: random
		l := generated.Logical{
			I8: int8(r.Uint32()), I16: int16(r.Uint32()), I32: r.Int32() - math.MaxInt32/2, I64: r.Int64() - math.MaxInt64/2,
			U8: uint8(r.Uint32()), U16: uint16(r.Uint32()), U32: r.Uint32(), U64: r.Uint64(),
			Int: int(r.Int64()) - math.MaxInt64/2, Uint: uint(r.Uint64()),
			F32: float32At(r, i), F64: float64At(r, i), Bool: r.IntN(2) == 0,
			Str: word(r), Enum: []string{"RED", "GREEN", "BLUE"}[r.IntN(3)], JSON: `{"k":` + []string{"1", "null", `"é"`, "[]"}[r.IntN(4)] + `}`,
			BSON: blob(r), Bin: blob(r), Float16: f16[r.IntN(len(f16))],
			Dec32: r.Int32N(2e9-1) - (1e9 - 1), Dec64: r.Int64N(2e18-1) - (1e18 - 1),
			TsMillis: instant(r, time.Millisecond), TsMicros: instant(r, time.Microsecond), TsNanos: instant(r, time.Nanosecond),
			TsLocal: instant(r, time.Microsecond), Date: instant(r, 24*time.Hour),
			TimeOfDay32: time.Duration(r.Int64N(86400e3)) * time.Millisecond, TimeOfDay64: time.Duration(r.Int64N(86400e6)) * time.Microsecond,
			TimeOfDayFine: time.Duration(r.Int64N(86400e9)), Duration: time.Duration(r.Int64()),
			Int96:     int96(instant(r, time.Microsecond)),
			Temp:      generated.Celsius(float64At(r, r.IntN(30))),
			Level:     generated.Level(int16(r.Uint32())),
			Count:     r.Uint64(),
			DaysRaw:   r.Int32N(200000) - 100000,
			MicrosRaw: r.Int64N(4e18) - 2e18,
			ID:        int64(i),
		}
		// WKB points: byte order 1, type 1, x, y.
		l.Geometry = []byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40}
		l.Geography = []byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x24, 0x40, 0, 0, 0, 0, 0, 0, 0x34, 0x40}
		l.Geometry[5] = byte(i) // the low byte of x
		for j := range l.UUID {
			l.UUID[j] = byte(r.Uint32())
		}
		for j := range l.Interval {
			l.Interval[j] = byte(r.IntN(100))
		}
		for j := range l.Fixed {
			l.Fixed[j] = byte(r.Uint32())
		}
		for j := range l.DecFixed {
			l.DecFixed[j] = byte(r.Uint32())
		}
		// within ±10^38 (0x4b3b4ca8...)
		if r.IntN(2) == 0 {
			l.DecFixed[0] = byte(r.IntN(0x4b))
		} else {
			l.DecFixed[0] = 0xff - byte(r.IntN(0x4b))
		}
		l.DecBytes = decBytes(r, i)
		switch ext {
		case 0:
			l.I8, l.I16, l.I32, l.I64 = math.MinInt8, math.MinInt16, math.MinInt32, math.MinInt64
			l.U8, l.U16, l.U32, l.U64, l.Uint, l.Count = 0, 0, 0, 0, 0, 0
			l.Int = math.MinInt64
			l.Dec32, l.Dec64 = -999999999, -999999999999999999
			l.Level = math.MinInt16
		case 1:
			l.I8, l.I16, l.I32, l.I64 = math.MaxInt8, math.MaxInt16, math.MaxInt32, math.MaxInt64
			l.U8, l.U16, l.U32, l.U64, l.Uint, l.Count = math.MaxUint8, math.MaxUint16, math.MaxUint32, math.MaxUint64, math.MaxUint64, math.MaxUint64
			l.Int = math.MaxInt64
			l.Dec32, l.Dec64 = 999999999, 999999999999999999
			l.Level = math.MaxInt16
		}
		if r.IntN(3) > 0 {
			l.OptTime = ptr(instant(r, time.Millisecond))
		}
		if r.IntN(3) > 0 {
			var u [16]byte
			for j := range u {
				u[j] = byte(r.Uint32())
			}
			l.OptUUID = &u
		}
		switch r.IntN(3) {
		case 0: // null
		case 1:
			l.OptBytes = []byte{}
		default:
			l.OptBytes = blob(r)
		}
		if r.IntN(2) == 0 {
			l.OptLevel = ptr(generated.Level(int16(r.Uint32())))
		}
		if r.IntN(3) > 0 { // else zero: null
			l.ZeroNullI32 = r.Int32() | 1
		}
		if r.IntN(3) > 0 {
			l.ZeroNullTs = instant(r, time.Microsecond)
		}
		out[i] = l
	}
	return out
}

// decBytes is a big-endian two's complement DECIMAL(40,2) value of 1 to
// 17 bytes (precision 40 needs 17).
func decBytes(r *rand.Rand, i int) []byte {
	n := 1 + r.IntN(16)
	if i%7 == 0 {
		n = 17
	}
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(r.Uint32())
	}
	if n == 17 {
		// Within ±10^40 (0x1d6329f1..., -0xe29cd60e... in 17 bytes), the
		// digits of DECIMAL(40), which writers check.
		b[0] = []byte{0x1d, 0xe2}[r.IntN(2)]
		if b[0] == 0xe2 {
			b[1] = 0x9d + byte(r.IntN(0x100-0x9d))
		} else {
			b[1] = byte(r.IntN(0x63))
		}
	}
	return b
}

func metricRows() []generated.Metric {
	r := rand.New(rand.NewPCG(5, 5))
	out := make([]generated.Metric, numRows)
	for i := range out {
		m := generated.Metric{
			Name: word(r), TS: instant(r, time.Millisecond), Value: float64At(r, i),
			Day: instant(r, 24*time.Hour),
		}
		switch r.IntN(3) {
		case 0: // null
		case 1:
			m.Labels = map[string]*string{}
		default:
			m.Labels = map[string]*string{}
			for k := range 1 + r.IntN(3) {
				if r.IntN(3) == 0 {
					m.Labels[string(rune('a'+k))] = nil
				} else {
					m.Labels[string(rune('a'+k))] = ptr(word(r))
				}
			}
		}
		switch r.IntN(3) {
		case 0: // null
		case 1:
			m.Samples = []float64{}
		default:
			for range 1 + r.IntN(4) {
				m.Samples = append(m.Samples, float64At(r, r.IntN(30)))
			}
		}
		if r.IntN(2) == 0 {
			var u [16]byte
			for j := range u {
				u[j] = byte(r.Uint32())
			}
			m.Trace = &u
		}
		switch r.IntN(4) {
		case 0: // null
		case 1:
			m.Level = ptr(int8(math.MinInt8))
		case 2:
			m.Level = ptr(int8(math.MaxInt8))
		default:
			m.Level = ptr(int8(r.Uint32()))
		}
		out[i] = m
	}
	return out
}

// halfRows are FLOAT16 values as float32 (generated.Half): every binary16
// value, signalling NaNs made quiet (the writer makes them so), and a
// null every 61 rows.
func halfRows() []generated.Half {
	out := make([]generated.Half, 1<<16)
	for i := range out {
		if i%61 == 0 {
			continue
		}
		h := uint16(i)
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			h |= 0x200
		}
		out[i].X = ptr(runtime.Float16ToFloat32(h))
	}
	return out
}
