// Equality of Variant values.

package variant

import (
	"bytes"
	"math/big"
)

// Equal reports whether a and b are the same Variant value: objects with
// the same keys and equal values, arrays with equal elements in order, and
// primitives equal within their equivalence class of the specification's
// primitive table: the exact numerics (int8 to int64 and the decimals)
// compare by numeric value whatever their width and scale, a short and a
// long string compare by their bytes, the other kinds by kind and bytes
// (so NaN equals NaN of the same bits, and float never equals double).
func Equal(a, b Value) bool {
	ka, kb := a.Kind(), b.Kind()
	if exact(ka) && exact(kb) {
		return numericCmp(a, b) == 0
	}
	if ka != kb {
		return false
	}
	switch ka {
	case KindObject:
		if a.Len() != b.Len() {
			return false
		}
		// Fields stored out of key order (Unsorted) are compared in key
		// order.
		oa, ob := a.keyOrder(), b.keyOrder()
		for i := range a.Len() {
			na, fa := a.Field(fieldAt(oa, i))
			nb, fb := b.Field(fieldAt(ob, i))
			if na != nb || !Equal(fa, fb) {
				return false
			}
		}
		return true
	case KindArray:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !Equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case KindString, KindBinary:
		return bytes.Equal(a.Bytes(), b.Bytes())
	}
	return bytes.Equal(a.b[1:], b.b[1:])
}

// exact reports whether k is in the Exact Numeric equivalence class.
func exact(k Kind) bool {
	switch k {
	case KindInt8, KindInt16, KindInt32, KindInt64, KindDecimal4, KindDecimal8, KindDecimal16:
		return true
	}
	return false
}

// numericCmp compares two exact numerics by value.
func numericCmp(a, b Value) int {
	xa, sa := unscaled(a)
	xb, sb := unscaled(b)
	ten := big.NewInt(10)
	for ; sa < sb; sa++ {
		xa.Mul(xa, ten)
	}
	for ; sb < sa; sb++ {
		xb.Mul(xb, ten)
	}
	return xa.Cmp(xb)
}

func unscaled(v Value) (*big.Int, int) {
	switch v.Kind() {
	case KindInt8, KindInt16, KindInt32, KindInt64:
		return big.NewInt(v.Int()), 0
	}
	d := v.Decimal()
	return d.Big(), int(d.Scale)
}
