package runtime

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Decimal is a DECIMAL value: an unscaled integer of up to 128 bits (two's
// complement, enough for 38 digits) times 10^-scale. It is the Go type of
// DECIMAL fields tagged decimal(scale,precision) in Go types, and of
// DECIMAL columns of INT32, INT64 and FIXED_LEN_BYTE_ARRAY(n ≤ 16) in code
// generated with -decimal=type. The zero value is 0 with scale 0 (and the
// null of an optional non-pointer field); == compares representations
// (1.0 and 1.00 differ), Equal and CompareDecimal compare values.
//
// Values read from a column have its scale. Writing one rescales it to
// the column's scale when that is exact (1.5 into a scale of 2 is 150);
// a value that would lose digits (1.234 into a scale of 2) or that has
// more digits than the column's precision is an error wrapping ErrValue,
// never rounded or truncated.
type Decimal struct {
	hi    int64  // the unscaled value's high 64 bits (with the sign)
	lo    uint64 // its low 64 bits
	scale int32
}

// MaxDecimalScale is the largest scale of a Decimal (scales are 0 to 38,
// as the digits a Decimal holds).
const MaxDecimalScale = 38

// NewDecimal returns unscaled × 10^-scale. It panics when scale is not
// between 0 and MaxDecimalScale (a programming error, like a constant
// out of range).
func NewDecimal(unscaled int64, scale int32) Decimal {
	checkScale(scale)
	return Decimal{hi: unscaled >> 63, lo: uint64(unscaled), scale: scale}
}

func checkScale(scale int32) {
	if scale < 0 || scale > MaxDecimalScale {
		panic(fmt.Sprintf("runtime: decimal scale %d out of range 0..%d", scale, MaxDecimalScale))
	}
}

func scaleError(scale int32) error {
	if scale < 0 || scale > MaxDecimalScale {
		return fmt.Errorf("%w: decimal scale %d out of range 0..%d", ErrValue, scale, MaxDecimalScale)
	}
	return nil
}

// NewDecimalBig returns unscaled × 10^-scale; an unscaled value of more
// than 127 bits and a sign, and a scale out of 0..MaxDecimalScale, are
// errors wrapping ErrValue.
func NewDecimalBig(unscaled *big.Int, scale int32) (Decimal, error) {
	if err := scaleError(scale); err != nil {
		return Decimal{}, err
	}
	if unscaled.BitLen() > 127 {
		return Decimal{}, fmt.Errorf("%w: decimal unscaled value %s exceeds 128 bits", ErrValue, unscaled)
	}
	var mag big.Int
	mag.Abs(unscaled)
	lo := mag.Uint64()
	mag.Rsh(&mag, 64)
	hi := mag.Uint64()
	d := Decimal{hi: int64(hi), lo: lo, scale: scale}
	if unscaled.Sign() < 0 {
		d.hi, d.lo = neg128(d.hi, d.lo)
	}
	return d, nil
}

// ParseDecimal reads a decimal number written as an optional sign, digits
// and an optional fraction ("-12.340": unscaled -12340, scale 3). Other
// forms (exponents, spaces, more than 38 digits after the point or 128
// bits) are errors wrapping ErrValue.
func ParseDecimal(s string) (Decimal, error) {
	t := strings.TrimLeft(s, "+-")
	if len(s)-len(t) > 1 {
		return Decimal{}, fmt.Errorf("%w: decimal %q: two signs", ErrValue, s)
	}
	intPart, frac, _ := strings.Cut(t, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return Decimal{}, fmt.Errorf("%w: decimal %q: want digits with an optional sign and fraction", ErrValue, s)
	}
	if len(frac) > MaxDecimalScale || len(digits) > 80 {
		return Decimal{}, fmt.Errorf("%w: decimal %.50q: too many digits", ErrValue, s)
	}
	u, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return Decimal{}, fmt.Errorf("%w: decimal %q", ErrValue, s)
	}
	if strings.HasPrefix(s, "-") {
		u.Neg(u)
	}
	return NewDecimalBig(u, int32(len(frac)))
}

// Scale returns the number of digits after the decimal point.
func (d Decimal) Scale() int32 { return d.scale }

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	switch {
	case d.hi < 0:
		return -1
	case d.hi == 0 && d.lo == 0:
		return 0
	}
	return 1
}

// Unscaled returns the unscaled value.
func (d Decimal) Unscaled() *big.Int {
	hi, lo := d.hi, d.lo
	if d.hi < 0 {
		hi, lo = neg128(hi, lo)
	}
	u := new(big.Int).SetUint64(uint64(hi))
	u.Lsh(u, 64)
	u.Or(u, new(big.Int).SetUint64(lo))
	if d.hi < 0 {
		u.Neg(u)
	}
	return u
}

// Unscaled64 returns the unscaled value and true when it fits an int64.
func (d Decimal) Unscaled64() (int64, bool) {
	return int64(d.lo), d.hi == int64(d.lo)>>63
}

// String returns the value in decimal notation with exactly Scale digits
// after the point ("-1.50", "0.05", "120").
func (d Decimal) String() string {
	var digits string
	if u, ok := d.Unscaled64(); ok {
		digits = strconv.FormatInt(u, 10)
	} else {
		digits = d.Unscaled().String()
	}
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if d.scale > 0 {
		if len(digits) <= int(d.scale) {
			digits = strings.Repeat("0", int(d.scale)-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-int(d.scale)] + "." + digits[len(digits)-int(d.scale):]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// Float64 returns the float64 nearest to the value (ties to even).
func (d Decimal) Float64() float64 {
	// Correctly rounded; 38 digits are far inside float64's range.
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// Int returns the integer part of the value, truncated toward zero.
func (d Decimal) Int() *big.Int {
	u := d.Unscaled()
	if d.scale > 0 {
		u.Quo(u, pow10Big(int(d.scale)))
	}
	return u
}

// Int64 returns the integer part of the value, truncated toward zero, and
// true when it fits an int64.
func (d Decimal) Int64() (int64, bool) {
	i := d.Int()
	return i.Int64(), i.IsInt64()
}

// Rescale returns the same value with scale digits after the point; it is
// an error wrapping ErrValue when that loses non-zero digits, needs more
// than 128 bits or scale is out of 0..MaxDecimalScale.
func (d Decimal) Rescale(scale int32) (Decimal, error) {
	if scale == d.scale {
		return d, nil
	}
	if err := scaleError(scale); err != nil {
		return Decimal{}, err
	}
	u := d.Unscaled()
	if scale > d.scale {
		u.Mul(u, pow10Big(int(scale-d.scale)))
	} else {
		var r big.Int
		u.QuoRem(u, pow10Big(int(d.scale-scale)), &r)
		if r.Sign() != 0 {
			return Decimal{}, fmt.Errorf("%w: decimal %s has more than %d digits after the point", ErrValue, d, scale)
		}
	}
	out, err := NewDecimalBig(u, scale)
	if err != nil {
		return Decimal{}, fmt.Errorf("%w: decimal %s at scale %d exceeds 128 bits", ErrValue, d, scale)
	}
	return out, nil
}

// CompareDecimal returns -1, 0 or +1 as a is less than, equal to or
// greater than b, by value (1.0 and 1.00 are equal).
func CompareDecimal(a, b Decimal) int {
	if a.scale == b.scale {
		switch {
		case a.hi != b.hi:
			if a.hi < b.hi {
				return -1
			}
			return 1
		case a.lo != b.lo:
			if a.lo < b.lo {
				return -1
			}
			return 1
		}
		return 0
	}
	x, y := a.Unscaled(), b.Unscaled()
	if a.scale < b.scale {
		x.Mul(x, pow10Big(int(b.scale-a.scale)))
	} else {
		y.Mul(y, pow10Big(int(a.scale-b.scale)))
	}
	return x.Cmp(y)
}

// Equal reports whether d and e are the same value (1.0 and 1.00 are),
// as CompareDecimal(d, e) == 0; like time.Time's, it is what go-cmp
// compares Decimals with.
func (d Decimal) Equal(e Decimal) bool { return CompareDecimal(d, e) == 0 }

// pow10Big returns 10^n.
func pow10Big(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// neg128 negates a two's complement 128-bit integer.
func neg128(hi int64, lo uint64) (int64, uint64) {
	lo2, borrow := bits.Sub64(0, lo, 0)
	hi2, _ := bits.Sub64(0, uint64(hi), borrow)
	return int64(hi2), lo2
}

// pow10u128 are 10^0 ... 10^38 as 128-bit unsigned integers (hi, lo).
var pow10u128 = func() (t [39][2]uint64) {
	t[0] = [2]uint64{0, 1}
	for i := 1; i < len(t); i++ {
		hi1, lo := bits.Mul64(t[i-1][1], 10)
		t[i] = [2]uint64{t[i-1][0]*10 + hi1, lo}
	}
	return t
}()

// decimalAt returns d's two's complement 128-bit unscaled value at the
// column scale, checking it has at most precision digits (when precision
// is 1 to 38; 0 checks nothing but the scale); errors wrap
// ErrValue.
func decimalAt(d Decimal, scale, precision int32) (int64, uint64, error) {
	if d.scale != scale {
		var err error
		if d, err = d.Rescale(scale); err != nil {
			return 0, 0, err
		}
	}
	if !digitsWithin(d.hi, d.lo, precision) {
		return 0, 0, fmt.Errorf("%w: decimal %s has more than %d digits", ErrValue, d, precision)
	}
	return d.hi, d.lo, nil
}

// digitsWithin reports whether the two's complement 128-bit integer
// (hi, lo) has at most precision digits: |x| < 10^precision. A precision
// outside 1 to 38 admits every value (the schema check refuses one below
// 1; every 128-bit value is within one above 38).
func digitsWithin(hi int64, lo uint64, precision int32) bool {
	if precision < 1 || precision > 38 {
		return true
	}
	if hi < 0 {
		hi, lo = neg128(hi, lo)
	}
	p := pow10u128[precision]
	return uint64(hi) < p[0] || uint64(hi) == p[0] && lo < p[1]
}

// DecimalUnscaled32 returns d's unscaled value at a column's scale for an
// INT32 DECIMAL(precision ≤ 9) column (generated writers call it); a value
// that loses digits or does not fit is an error wrapping ErrValue.
func DecimalUnscaled32(d Decimal, scale, precision int32) (int32, error) {
	hi, lo, err := decimalAt(d, scale, precision)
	if err != nil {
		return 0, err
	}
	if v := int64(lo); hi != v>>63 || v != int64(int32(v)) {
		return 0, fmt.Errorf("%w: decimal %s does not fit 32 bits", ErrValue, d)
	}
	return int32(lo), nil
}

// DecimalUnscaled64 is DecimalUnscaled32 for INT64 columns.
func DecimalUnscaled64(d Decimal, scale, precision int32) (int64, error) {
	hi, lo, err := decimalAt(d, scale, precision)
	if err != nil {
		return 0, err
	}
	if hi != int64(lo)>>63 {
		return 0, fmt.Errorf("%w: decimal %s does not fit 64 bits", ErrValue, d)
	}
	return int64(lo), nil
}

// AppendDecimalFixed appends d's unscaled value at a column's scale as the
// n (1 to 16) big-endian two's complement bytes of a
// FIXED_LEN_BYTE_ARRAY(n) DECIMAL(precision) value (generated writers
// call it); a value that loses digits or does not fit is an error
// wrapping ErrValue, and dst is returned unchanged.
func AppendDecimalFixed(dst []byte, d Decimal, scale, precision int32, n int) ([]byte, error) {
	hi, lo, err := decimalAt(d, scale, precision)
	if err != nil {
		return dst, err
	}
	if n < 1 || n > 16 {
		return dst, fmt.Errorf("%w: a decimal of %d bytes (runtime.Decimal holds 1 to 16)", ErrValue, n)
	}
	var b [16]byte
	for i := 0; i < 8; i++ {
		b[7-i] = byte(uint64(hi) >> (8 * i))
		b[15-i] = byte(lo >> (8 * i))
	}
	// The dropped bytes must be sign extension.
	sign := byte(0)
	if hi < 0 {
		sign = 0xff
	}
	for _, x := range b[:16-n] {
		if x != sign {
			return dst, fmt.Errorf("%w: decimal %s does not fit %d bytes", ErrValue, d, n)
		}
	}
	if b[16-n]&0x80 != sign&0x80 {
		return dst, fmt.Errorf("%w: decimal %s does not fit %d bytes", ErrValue, d, n)
	}
	return append(dst, b[16-n:]...), nil
}

// DecimalFromFixed returns the DECIMAL value of big-endian two's
// complement bytes b (a FIXED_LEN_BYTE_ARRAY value) at a scale (generated
// readers call it). b holds 1 to 16 bytes; of a longer b only the last 16
// count, and an empty b is 0. Like NewDecimal, it panics when scale is out
// of 0..MaxDecimalScale.
func DecimalFromFixed(b []byte, scale int32) Decimal {
	checkScale(scale)
	if len(b) > 16 {
		b = b[len(b)-16:]
	}
	if len(b) == 0 {
		return Decimal{scale: scale}
	}
	var hi, lo uint64
	if b[0]&0x80 != 0 {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, x := range b {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(x)
	}
	return Decimal{hi: int64(hi), lo: lo, scale: scale}
}
