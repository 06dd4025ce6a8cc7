// Reading a column laid out otherwise than the bound schema asks, when the
// two are compatible layouts of the same values (see Bind): a DECIMAL
// stored in another physical type (INT32, INT64, FIXED_LEN_BYTE_ARRAY of
// any width, BYTE_ARRAY) with the same scale and no greater precision; a
// TIMESTAMP or TIME in another unit (or INT32 for INT64), values converted
// exactly (a value that is not a whole number of the bound unit, or does
// not fit, is an error); an INT64 TIMESTAMP for an INT96 (the legacy
// timestamp: nanoseconds of the day, then the Julian day); and a field
// OPTIONAL in the file but REQUIRED in
// the bound schema (as DuckDB writes every column), which reads as long as
// it holds no null.

package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

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
	// defMap maps a file definition level to the bound leaf's, -1 for a
	// null in a field the bound schema requires; nil when they agree.
	defMap     []int16
	wantMaxDef uint8
	// Converted values of the current page.
	i32   []int32
	i64   []int64
	i96   []encode.Int96
	fixed []byte
	bytes encode.ByteArrays
}

func isDecimal(n *schema.Node) bool { return n.Logical.Kind == meta.LogicalDecimal }

// newAdapter returns the adapter of file leaf h bound to leaf w (nil when
// none is needed), or an error when the layouts are not compatible. hs and
// ws are the nodes from the root's child down to the leaves.
func newAdapter(h, w *schema.Node, hs, ws []*schema.Node) (*adapter, error) {
	path := w.PathString()
	a := &adapter{path: path, wantType: w.Type, wantSize: int(w.TypeLength), wantMaxDef: w.MaxDef, mul: 1, div: 1}
	hk, wk := h.Logical.Kind, w.Logical.Kind
	isTime := func(k meta.LogicalKind) bool { return k == meta.LogicalTime || k == meta.LogicalTimestamp }
	if hk == wk && isTime(hk) && (h.Logical.Time.Unit != w.Logical.Time.Unit || h.Type != w.Type) &&
		(h.Type == meta.Int32 || h.Type == meta.Int64) && (w.Type == meta.Int32 || w.Type == meta.Int64) {
		hn, wn := unitNanos(h.Logical.Time.Unit), unitNanos(w.Logical.Time.Unit)
		if hn > wn {
			a.mul = hn / wn
		} else {
			a.div = wn / hn
		}
		a.conv = true
	} else if w.Type == meta.Int96 && h.Type == meta.Int64 && hk == meta.LogicalTimestamp {
		a.mul = unitNanos(h.Logical.Time.Unit)
		a.conv = true
	} else if h.Type != w.Type || h.Type == meta.FixedLenByteArray && h.TypeLength != w.TypeLength {
		hd, wd := h.Logical.Decimal, w.Logical.Decimal
		if !isDecimal(h) || !isDecimal(w) || hd.Scale != wd.Scale || hd.Precision > wd.Precision ||
			h.Type == meta.Boolean || h.Type == meta.Float || h.Type == meta.Double || h.Type == meta.Int96 {
			if h.Type != w.Type {
				return nil, fmt.Errorf("%w: column %q: physical type %s in the file, %s requested", ErrBind, path,
					schema.TypeName(h.Type, h.TypeLength), schema.TypeName(w.Type, w.TypeLength))
			}
			return nil, fmt.Errorf("%w: column %q: fixed length %d in the file, %d requested", ErrBind, path, h.TypeLength, w.TypeLength)
		}
		a.conv = true
	}
	if len(hs) != len(ws) {
		return nil, fmt.Errorf("%w: column %q: depth %d in the file, %d requested", ErrBind, path, len(hs), len(ws))
	}
	relaxed := false
	for i := range hs {
		hr, wr := hs[i].Repetition, ws[i].Repetition
		if hr == wr {
			continue
		}
		if hr == meta.Optional && wr == meta.Required {
			relaxed = true
			continue
		}
		return nil, fmt.Errorf("%w: column %q: field %q is %s in the file, %s requested", ErrBind, path,
			hs[i].PathString(), strings.ToLower(hr.String()), strings.ToLower(wr.String()))
	}
	if relaxed {
		// File level d: the first d non-required fields of the path are
		// defined. The bound level counts those the bound schema does not
		// require; the field where a null starts must not be required.
		var wantReq []bool
		for i := range hs {
			if hs[i].Repetition != meta.Required {
				wantReq = append(wantReq, ws[i].Repetition == meta.Required)
			}
		}
		a.defMap = make([]int16, len(wantReq)+1)
		for d := range a.defMap {
			m := int16(0)
			for _, req := range wantReq[:d] {
				if !req {
					m++
				}
			}
			if d < len(wantReq) && wantReq[d] {
				m = -1
			}
			a.defMap[d] = m
		}
	}
	if !a.conv && !relaxed {
		return nil, nil
	}
	return a, nil
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

// appendDefs appends the bound leaf's levels of the file levels defs.
func (a *adapter) appendDefs(lv *Levels, defs []uint8) error {
	for _, d := range defs {
		if int(d) >= len(a.defMap) || a.defMap[d] < 0 {
			return fmt.Errorf("%w: column %q: a null in a field the requested schema requires", ErrValue, a.path)
		}
		if a.wantMaxDef > 0 {
			lv.Def = append(lv.Def, uint8(a.defMap[d]))
		}
	}
	return nil
}

// convert replaces the values of p by those of the bound physical type.
func (a *adapter) convert(p *page.Page, h *schema.Node) error {
	n := 0
	var at func(i int) []byte // big-endian two's complement of value i
	var ints func(i int) int64
	switch h.Type {
	case meta.Int32:
		n = len(p.Values.Int32)
		ints = func(i int) int64 { return int64(p.Values.Int32[i]) }
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
		return fmt.Errorf("%w: column %q: value %d does not fit %s", ErrValue, a.path, i, schema.TypeName(a.wantType, int32(a.wantSize)))
	}
	switch a.wantType {
	case meta.Int32, meta.Int64:
		a.i32, a.i64 = a.i32[:0], a.i64[:0]
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
					return fmt.Errorf("%w: column %q: time value %d is not a whole number of the requested unit", ErrValue, a.path, v)
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
		p.Values.Int32, p.Values.Int64 = a.i32, a.i64
	case meta.Int96:
		a.i96 = a.i96[:0]
		for i := 0; i < n; i++ {
			v := ints(i)
			if v > math.MaxInt64/a.mul || v < math.MinInt64/a.mul {
				return bad(i)
			}
			v *= a.mul
			days := v / 86400e9
			if v%86400e9 < 0 {
				days--
			}
			var x encode.Int96
			binary.LittleEndian.PutUint64(x[:8], uint64(v-days*86400e9))
			binary.LittleEndian.PutUint32(x[8:], uint32(days+2440588))
			a.i96 = append(a.i96, x)
		}
		p.Values.Int96 = a.i96
	case meta.FixedLenByteArray, meta.ByteArray:
		a.fixed = a.fixed[:0]
		a.bytes.Data, a.bytes.Offsets = a.bytes.Data[:0], append(a.bytes.Offsets[:0], 0)
		var tmp [8]byte
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
		p.Values.Fixed, p.Values.Bytes, p.DictBytes = a.fixed, a.bytes, nil
	}
	return nil
}

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
