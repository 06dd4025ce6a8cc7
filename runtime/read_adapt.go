// Reading a column laid out otherwise than the bound schema asks, when the
// two hold the same values (see Bind and read_evolve.go): a nullable
// field read from a required one (the missing definition levels are
// synthesized), a required field read from an optional one
// (WithOptionalAsRequired; a null is an error naming the row), and values
// widened exactly, page by page: integers to wider ones, integers of up
// to 32 bits to DOUBLE (of up to 16 to FLOAT), FLOAT and FLOAT16 to
// DOUBLE or FLOAT, DATE to TIMESTAMP, TIMESTAMP and TIME to
// finer units (INT32 to INT64 where needed), an INT64 TIMESTAMP to an
// INT96 (the legacy timestamp: nanoseconds of the day, then the Julian
// day) and an INT96 to an INT64 TIMESTAMP, and a DECIMAL to a larger
// precision and scale in any of its physical types (INT32, INT64, FIXED_LEN_BYTE_ARRAY of any width,
// BYTE_ARRAY). A value that does not fit the bound physical type (a
// DECIMAL stored in more bytes than its precision needs, a date past
// 2262 as nanoseconds) is an error.

package runtime

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
	"github.com/pqgen/pqgen/runtime/schema"
)

// adapter turns a file column's levels and values into those of the leaf
// it is bound to.
type adapter struct {
	path string
	// wantType and wantSize are the bound leaf's physical type and fixed
	// width; conv is set when they differ from the file's (a DECIMAL).
	wantType meta.Type
	wantSize int
	conv     bool
	// mul and div convert a time unit: value*mul/div (one of them is 1).
	mul, div int64
	// zext reads an unsigned INT32 into an INT64 (zero extension).
	zext bool
	// rescale is how many decimal digits a DECIMAL's scale grows by: the
	// unscaled values are multiplied by 10^rescale (mul, when it fits).
	rescale int
	// pow10 (10^rescale), rx, ry and rbuf are rescaleBE's reused state.
	pow10  *big.Int
	rx, ry big.Int
	rbuf   []byte
	// defMap maps a file definition level to the bound leaf's, -1 for a
	// null in a field the bound schema requires; nil when they agree.
	defMap     []int16
	wantMaxDef uint8
	fileMaxDef uint8
	// Converted values of the current page.
	i32   []int32
	i64   []int64
	i96   []encode.Int96
	fixed []byte
	bytes encode.ByteArrays
	f32   []float32
	f64   []float64
}

// misfit is the error of the page's value i, v, which the bound leaf's
// type cannot hold once converted (the caller names column, row group
// and page).
func (a *adapter) misfit(v any, i int) error {
	how := ""
	if a.mul > 1 {
		how = fmt.Sprintf(" once multiplied by %d (a finer unit or a larger scale)", a.mul)
	}
	return fmt.Errorf("%w: value %v (value %d of the page) does not fit %s%s",
		ErrValue, v, i, schema.TypeName(a.wantType, int32(a.wantSize)), how)
}

// pathNodes returns the nodes from the root's child down to n.
func pathNodes(n *schema.Node) []*schema.Node {
	var out []*schema.Node
	for ; n != nil && n.Parent != nil; n = n.Parent {
		out = append(out, n)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// appendDefs appends the bound leaf's levels of the n file levels defs
// (nil when the file's leaf has none: all n at level 0). rep holds the
// slots' repetition levels (nil when none) and row0 the index of the row
// the first slot belongs to, when it starts one, for naming the row of a
// null. On a null it returns the index of its slot with the error.
func (a *adapter) appendDefs(lv *Levels, defs []uint8, n int, rep []uint8, row0 int64) (int, error) {
	for i := range n {
		d := uint8(0)
		if defs != nil {
			d = defs[i]
		}
		if int(d) >= len(a.defMap) || a.defMap[d] < 0 {
			row := row0 + int64(i)
			if rep != nil {
				row = row0 - 1
				for _, r := range rep[:i+1] {
					if r == 0 {
						row++
					}
				}
			}
			return i, fmt.Errorf("%w: column %q, row %d: a null in a field the requested schema requires", ErrValue, a.path, row)
		}
		if a.wantMaxDef > 0 {
			lv.Def = append(lv.Def, uint8(a.defMap[d]))
		}
	}
	return n, nil
}

// convert replaces the values of p by those of the bound type.
func (a *adapter) convert(p *page.Page, h *schema.Node) error {
	if a.wantType == meta.Float || a.wantType == meta.Double {
		return a.convertFloats(p, h)
	}
	if h.Type == meta.Int96 {
		return a.convertInt96(p)
	}
	n := 0
	var at func(i int) []byte // big-endian two's complement of value i
	var ints func(i int) int64
	switch h.Type {
	case meta.Int32:
		n = len(p.Values.Int32)
		if a.zext {
			ints = func(i int) int64 { return int64(uint32(p.Values.Int32[i])) }
		} else {
			ints = func(i int) int64 { return int64(p.Values.Int32[i]) }
		}
	case meta.Int64:
		n = len(p.Values.Int64)
		ints = func(i int) int64 { return p.Values.Int64[i] }
	case meta.FixedLenByteArray:
		w := int(h.TypeLength)
		if w > 0 {
			n = len(p.Values.Fixed) / w
		}
		at = func(i int) []byte { return p.Values.Fixed[i*w : (i+1)*w] }
	case meta.ByteArray:
		if d := p.DictBytes; d != nil {
			n = len(p.Indices)
			at = func(i int) []byte { return d.At(int(p.Indices[i])) }
		} else {
			n = p.Values.Bytes.Len()
			at = p.Values.Bytes.At
		}
	}
	if ints == nil {
		ints = func(i int) int64 { return 0 }
	}
	bad := func(i int) error {
		var v any = ints(i)
		if at != nil {
			v = fmt.Sprintf("0x%x", at(i))
		}
		return a.misfit(v, i)
	}
	switch a.wantType {
	case meta.Int32, meta.Int64:
		a.i32, a.i64 = a.i32[:0], a.i64[:0]
		if at == nil && a.div == 1 && a.wantType == meta.Int64 {
			// Widening and finer units, in loops of their own.
			a.i64 = slices.Grow(a.i64, n)[:n]
			bad := -1
			switch {
			case h.Type == meta.Int32 && a.zext:
				for i, v := range p.Values.Int32[:n] {
					a.i64[i] = int64(uint32(v))
				}
			case h.Type == meta.Int32:
				bad = scaleInts(a.i64, p.Values.Int32[:n], a.mul)
			default:
				bad = scaleInts(a.i64, p.Values.Int64[:n], a.mul)
			}
			if bad >= 0 {
				return a.misfit(ints(bad), bad)
			}
			handOver(&p.Values.Int64, &a.i64)
			return nil
		}
		for i := 0; i < n; i++ {
			v := ints(i)
			if at != nil {
				var ok bool
				if v, ok = beInt64(at(i)); !ok {
					return bad(i)
				}
			}
			if a.div > 1 {
				if v%a.div != 0 {
					return fmt.Errorf("%w: time value %d is not a whole number of the requested unit", ErrValue, v)
				}
				v /= a.div
			} else if a.mul > 1 {
				if v > math.MaxInt64/a.mul || v < math.MinInt64/a.mul {
					return bad(i)
				}
				v *= a.mul
			}
			if a.wantType == meta.Int32 {
				if int64(int32(v)) != v {
					return bad(i)
				}
				a.i32 = append(a.i32, int32(v))
			} else {
				a.i64 = append(a.i64, v)
			}
		}
		if a.wantType == meta.Int32 {
			handOver(&p.Values.Int32, &a.i32)
		} else {
			handOver(&p.Values.Int64, &a.i64)
		}
	case meta.Int96:
		a.i96 = a.i96[:0]
		for i := 0; i < n; i++ {
			v := ints(i)
			if v > math.MaxInt64/a.mul || v < math.MinInt64/a.mul {
				return bad(i)
			}
			a.i96 = append(a.i96, encode.Int96FromUnixNanos(v*a.mul))
		}
		handOver(&p.Values.Int96, &a.i96)
	case meta.FixedLenByteArray, meta.ByteArray:
		a.fixed = a.fixed[:0]
		a.bytes.Data, a.bytes.Offsets = a.bytes.Data[:0], append(a.bytes.Offsets[:0], 0)
		var tmp [8]byte
		var scaled []byte
		for i := 0; i < n; i++ {
			var b []byte
			if at != nil {
				b = at(i)
			} else {
				v := ints(i)
				for k := 0; k < 8; k++ {
					tmp[7-k] = byte(v >> (8 * k))
				}
				b = tmp[:]
			}
			if a.rescale > 0 {
				scaled = a.rescaleBE(scaled[:0], b)
				b = scaled
			}
			if a.wantType == meta.ByteArray {
				a.bytes.Data = append(a.bytes.Data, b...)
				a.bytes.Offsets = append(a.bytes.Offsets, uint32(len(a.bytes.Data)))
				continue
			}
			var ok bool
			if a.fixed, ok = appendSignExtended(a.fixed, b, a.wantSize); !ok {
				return bad(i)
			}
		}
		if a.wantType == meta.ByteArray {
			p.Values.Bytes, a.bytes = a.bytes, p.Values.Bytes
		} else {
			handOver(&p.Values.Fixed, &a.fixed)
		}
		p.DictBytes = nil
	}
	return nil
}

// convertInt96 replaces the INT96 timestamps of p (little-endian: 8 bytes
// of nanoseconds within the day, then 4 of the signed Julian day) by INT64
// counts of the bound TIMESTAMP's unit, a.div nanoseconds. A value that
// is not a whole number of the unit, or whose count overflows an INT64
// (past 2262 in nanoseconds), is an error.
func (a *adapter) convertInt96(p *page.Page) error {
	src := p.Values.Int96
	a.i64 = slices.Grow(a.i64[:0], len(src))[:len(src)]
	perDay := 86400e9 / a.div
	for i, x := range src {
		days, ns := x.UnixDay()
		if ns%a.div != 0 {
			return fmt.Errorf("%w: INT96 timestamp %s (value %d of the page) is not a whole number of the requested unit", ErrValue, int96String(x), i)
		}
		// days*perDay + frac, with days and frac of one sign, so that
		// neither overflows where the sum does not (1677-09-21 is day
		// -106752 and 0:12:43 in nanoseconds).
		frac := ns / a.div
		days, frac = days+frac/perDay, frac%perDay
		if days < 0 && frac > 0 {
			days, frac = days+1, frac-perDay
		} else if days > 0 && frac < 0 {
			days, frac = days-1, frac+perDay
		}
		v := days * perDay // used once days is known to fit
		if days > math.MaxInt64/perDay || days < math.MinInt64/perDay ||
			frac > 0 && v > math.MaxInt64-frac || frac < 0 && v < math.MinInt64-frac {
			return fmt.Errorf("%w: INT96 timestamp %s (value %d of the page) is beyond an INT64 count of %s",
				ErrValue, int96String(x), i, unitName(a.div))
		}
		a.i64[i] = v + frac
	}
	handOver(&p.Values.Int64, &a.i64)
	return nil
}

// unitName names the time unit of n nanoseconds (with the span of an
// INT64 count of nanoseconds).
func unitName(n int64) string {
	switch n {
	case 1e3:
		return "microseconds"
	case 1e6:
		return "milliseconds"
	}
	return "nanoseconds (1677-09-21 to 2262-04-11)"
}

// int96String shows an INT96 timestamp as its Julian day and nanoseconds.
func int96String(x encode.Int96) string {
	day, ns := x.UnixDay()
	return fmt.Sprintf("(Julian day %d, %d ns)", day+encode.JulianUnixDay, ns)
}

// handOver makes out, the converted values, the page's values of their
// type, and gives the page's buffer of that type to the adapter for the
// next page: an exchange, not a copy of out into the page, so that the
// decoder, which decodes the next page into the page's buffers, never
// writes into the buffer the adapter converts into (a rescaled DECIMAL
// of the same physical type grows in place, ahead of the values it
// reads), and keeps a buffer of its own for the other type.
func handOver[T any](page, out *[]T) { *page, *out = *out, *page }

// scaleInts sets dst[i] to src[i]*mul and returns -1, or the index of
// the first product that overflows.
func scaleInts[T int32 | int64](dst []int64, src []T, mul int64) int {
	if mul == 1 {
		for i, v := range src {
			dst[i] = int64(v)
		}
		return -1
	}
	lo, hi := math.MinInt64/mul, math.MaxInt64/mul
	for i, v := range src {
		x := int64(v)
		if x > hi || x < lo {
			return i
		}
		dst[i] = x * mul
	}
	return -1
}

// convertFloats replaces the values of p (FLOAT, FLOAT16 in two
// little-endian bytes, or INT32 integers) by FLOAT or DOUBLE ones; each
// is exact.
func (a *adapter) convertFloats(p *page.Page, h *schema.Node) error {
	a.f32, a.f64 = a.f32[:0], a.f64[:0]
	switch {
	case h.Type == meta.Float && a.wantType == meta.Double:
		a.f64 = slices.Grow(a.f64, len(p.Values.Float))[:len(p.Values.Float)]
		for i, v := range p.Values.Float {
			a.f64[i] = float64(v)
		}
	case h.Type == meta.FixedLenByteArray && h.TypeLength == 2:
		n := len(p.Values.Fixed) / 2
		if a.wantType == meta.Float {
			a.f32 = slices.Grow(a.f32, n)[:n]
			for i := range a.f32 {
				a.f32[i] = Float16At(p.Values.Fixed, i)
			}
		} else {
			a.f64 = slices.Grow(a.f64, n)[:n]
			for i := range a.f64 {
				a.f64[i] = float64(Float16At(p.Values.Fixed, i))
			}
		}
	case h.Type == meta.Int32 && a.wantType == meta.Double:
		a.f64 = slices.Grow(a.f64, len(p.Values.Int32))[:len(p.Values.Int32)]
		if a.zext {
			for i, v := range p.Values.Int32 {
				a.f64[i] = float64(uint32(v))
			}
		} else {
			for i, v := range p.Values.Int32 {
				a.f64[i] = float64(v)
			}
		}
	case h.Type == meta.Int32 && a.wantType == meta.Float:
		// INT(8/16): their values fit the 24 bits of a float32's
		// significand; a value out of its type's range that does not is
		// an error, not rounded.
		a.f32 = slices.Grow(a.f32, len(p.Values.Int32))[:len(p.Values.Int32)]
		for i, v := range p.Values.Int32 {
			x := int64(v)
			if a.zext {
				x = int64(uint32(v))
			}
			if a.f32[i] = float32(x); int64(a.f32[i]) != x {
				return a.misfit(x, i)
			}
		}
	default:
		return fmt.Errorf("%w: no conversion from %s", ErrColumn, schema.TypeName(h.Type, h.TypeLength))
	}
	if a.wantType == meta.Float {
		handOver(&p.Values.Float, &a.f32)
	} else {
		handOver(&p.Values.Double, &a.f64)
	}
	return nil
}

// rescaleBE appends to dst the big-endian two's complement of b times
// 10^a.rescale, in the fewest bytes holding its sign, reusing a's big
// integers and buffer (no allocation per value once they have grown).
func (a *adapter) rescaleBE(dst, b []byte) []byte {
	if a.pow10 == nil {
		a.pow10 = pow10Big(a.rescale)
	}
	neg := len(b) > 0 && b[0]&0x80 != 0
	if neg {
		// |b| = ^b + 1.
		a.rbuf = append(a.rbuf[:0], b...)
		for i := range a.rbuf {
			a.rbuf[i] = ^a.rbuf[i]
		}
		a.rx.SetBytes(a.rbuf)
		a.rx.Add(&a.rx, bigOne)
	} else {
		a.rx.SetBytes(b)
	}
	a.ry.Mul(&a.rx, a.pow10) // |b| * 10^k
	m := (a.ry.BitLen() + 8) / 8
	dst = slices.Grow(dst, m)
	out := dst[len(dst) : len(dst)+m]
	a.ry.FillBytes(out)
	if neg {
		// Two's complement in m bytes: invert and add 1.
		for i := range out {
			out[i] = ^out[i]
		}
		for i := m - 1; i >= 0; i-- {
			out[i]++
			if out[i] != 0 {
				break
			}
		}
	}
	return dst[:len(dst)+m]
}

var bigOne = big.NewInt(1)

// beInt64 is the big-endian two's complement integer b, if it fits.
func beInt64(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, true
	}
	var v int64
	if b[0]&0x80 != 0 {
		v = -1
	}
	for i, x := range b {
		if len(b)-i > 8 && x != byte(v) {
			return 0, false
		}
		v = v<<8 | int64(x)
	}
	if len(b) > 8 && (v < 0) != (b[0]&0x80 != 0) {
		return 0, false
	}
	return v, true
}

// appendSignExtended appends b sign-extended (or cut, when the bytes cut
// are sign bytes) to w bytes.
func appendSignExtended(dst, b []byte, w int) ([]byte, bool) {
	var sign byte
	if len(b) > 0 && b[0]&0x80 != 0 {
		sign = 0xff
	}
	if len(b) > w {
		cut := b[:len(b)-w]
		for _, x := range cut {
			if x != sign {
				return dst, false
			}
		}
		b = b[len(b)-w:]
		if w > 0 && (b[0]&0x80 != 0) != (sign == 0xff) {
			return dst, false
		}
	}
	for k := len(b); k < w; k++ {
		dst = append(dst, sign)
	}
	return append(dst, b...), true
}

// unitNanos is the number of nanoseconds of a time unit.
func unitNanos(u meta.TimeUnit) int64 {
	switch u {
	case meta.Millis:
		return 1e6
	case meta.Micros:
		return 1e3
	}
	return 1
}
