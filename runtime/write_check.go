// The values a logical type admits, checked by EndRows before they are
// written (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md):
// STRING, ENUM and JSON hold UTF-8 text, JSON one JSON document (RFC
// 8259), GEOMETRY and GEOGRAPHY one WKB geometry, a FIXED_LEN_BYTE_ARRAY
// or BYTE_ARRAY DECIMAL of precision p an unscaled integer of at most p
// digits (INT32 and INT64 ones are checked as generated writers convert
// them: DecimalDigits32, DecimalDigits64, DecimalUnscaled32,
// DecimalUnscaled64), a TIME a time of day (from 0 to 24 hours, in its
// unit). Other readers refuse whole files holding other
// values (DuckDB, Polars and arrow-rs text that is not UTF-8; DuckDB and
// hyparquet JSON that is not JSON and bytes that are not WKB) or misread
// them (DuckDB wraps a TIME of 25 hours to 1 hour, Polars reads it as
// null; DuckDB reads a DECIMAL(5,2) of 7 digits as a value its type
// cannot hold).

package runtime

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/meta"
)

// checkValuesOn is false only in tests that write the faulty values of
// other writers' files, to read them.
var checkValuesOn = true

// checkValues refuses a buffered value its column's logical type does not
// admit (see the file comment) with an error wrapping ErrValue that names
// the column and the row. base is the number of rows written before the
// buffered ones. Precondition: checkRows passed.
func (c *leafWriter) checkValues(base int64) error {
	if !checkValuesOn {
		return nil
	}
	lt := c.node.Logical
	switch v := c.vals.(type) {
	case *byteArrayValues:
		vals := v.buf.Values
		switch {
		case c.opt.utf8: // STRING, ENUM, JSON
			if i := encode.FirstInvalidUTF8(vals); i >= 0 {
				return c.valueError(base, vals.At(i), i, fmt.Sprintf("is not valid UTF-8, which %s values must be (bytes that are not text go in []byte fields, BYTE_ARRAY columns without STRING)", lt.Kind))
			}
			if lt.Kind != meta.LogicalJSON {
				return nil
			}
			for i := range vals.Len() {
				if !json.Valid(vals.At(i)) {
					return c.valueError(base, vals.At(i), i, "is not one valid JSON document (RFC 8259), which JSON values must be (an empty string is not JSON: write null as a null, or the text null)")
				}
			}
		case lt.Kind == meta.LogicalGeometry || lt.Kind == meta.LogicalGeography:
			for i := range vals.Len() {
				if err := geo.Check(vals.At(i), &v.wkbCheck); err != nil {
					return c.valueError(base, vals.At(i), i, fmt.Sprintf("is not one WKB geometry, which %s values must be: %v", lt.Kind, err))
				}
			}
		case lt.Kind == meta.LogicalDecimal:
			for i := range vals.Len() {
				if b := vals.At(i); !decimalBytesFit(b, lt.Decimal.Precision) {
					return c.valueError(base, b, i, decimalWhy(b, lt.Decimal.Precision))
				}
			}
		}
	case *fixedValues:
		if lt.Kind != meta.LogicalDecimal || v.buf == nil {
			return nil
		}
		for i := range len(v.buf.Values) / v.size {
			if b := v.buf.Values[i*v.size : (i+1)*v.size]; !decimalBytesFit(b, lt.Decimal.Precision) {
				return c.valueError(base, b, i, decimalWhy(b, lt.Decimal.Precision))
			}
		}
	case *numValues[int32]:
		if lt.Kind == meta.LogicalTime {
			if i, ok := outside(*v.vals, 0, timeOfDayEnd(lt.Time.Unit)); !ok {
				return c.timeError(base, int64((*v.vals)[i]), i, lt.Time.Unit)
			}
		}
	case *numValues[int64]:
		if lt.Kind == meta.LogicalTime {
			if i, ok := outside(*v.vals, 0, timeOfDayEnd(lt.Time.Unit)); !ok {
				return c.timeError(base, (*v.vals)[i], i, lt.Time.Unit)
			}
		}
	}
	return nil
}

// timeOfDayEnd is 24 hours in a TIME unit: the largest TIME value (24:00,
// which SQL engines such as DuckDB take for the end of a day).
func timeOfDayEnd(u meta.TimeUnit) int64 { return 86_400e9 / unitNanos(u) }

// outside returns the index of the first of vals outside [lo, hi] and
// false, or true when all are within. The bounds of the whole batch are
// taken first: a loop without branches that the compiler keeps simple.
func outside[T int32 | int64](vals []T, lo, hi int64) (int, bool) {
	if len(vals) == 0 {
		return 0, true
	}
	mn, mx := vals[0], vals[0]
	for _, x := range vals {
		mn = min(mn, x)
		mx = max(mx, x)
	}
	if int64(mn) >= lo && int64(mx) <= hi {
		return 0, true
	}
	for i, x := range vals {
		if int64(x) < lo || int64(x) > hi {
			return i, false
		}
	}
	return 0, true // unreachable
}

// decimalBytesFit reports whether big-endian two's complement bytes b
// (an empty b is 0) hold an integer of at most precision digits. A
// precision below 1 admits every value (the schema check refuses it).
func decimalBytesFit(b []byte, precision int32) bool {
	if precision < 1 || len(b) == 0 {
		return true
	}
	if precision > 38 {
		return new(big.Int).Abs(bigFromTwos(b)).Cmp(pow10Big(int(precision))) < 0
	}
	neg := b[0]&0x80 != 0
	if len(b) > 16 { // beyond 16 bytes, only sign extension fits 38 digits
		ext := byte(0)
		if neg {
			ext = 0xff
		}
		for _, x := range b[:len(b)-16] {
			if x != ext {
				return false
			}
		}
		if b[len(b)-16]&0x80 != ext&0x80 {
			return false
		}
		b = b[len(b)-16:]
	}
	d := DecimalFromFixed(b, 0)
	return digitsWithin(d.hi, d.lo, precision)
}

// bigFromTwos returns the integer of big-endian two's complement bytes b.
func bigFromTwos(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

// decimalWhy is the error text of a decimal with too many digits.
func decimalWhy(b []byte, precision int32) string {
	return fmt.Sprintf("(the unscaled integer %s) has more than the %d digits of its DECIMAL precision", bigFromTwos(b), precision)
}

// valueError is checkValues' error for the buffer's i-th value val.
func (c *leafWriter) valueError(base int64, val []byte, i int, why string) error {
	show := val[:min(len(val), 64)]
	more := ""
	if len(show) < len(val) {
		more = fmt.Sprintf("… (%d bytes)", len(val))
	}
	return fmt.Errorf("column %q: row %d: %w: %q%s %s",
		c.node.PathString(), base+int64(c.rowOfValue(i)), ErrValue, show, more, why)
}

// timeError is checkValues' error for the buffer's i-th value x of a
// TIME column of unit u.
func (c *leafWriter) timeError(base int64, x int64, i int, u meta.TimeUnit) error {
	return fmt.Errorf("column %q: row %d: %w: TIME(%s) value %d is not a time of day (0 to 24 hours, at most %d)",
		c.node.PathString(), base+int64(c.rowOfValue(i)), ErrValue, u, x, timeOfDayEnd(u))
}

// rowOfValue returns the row, among the buffered ones, of the buffer's
// i-th value. Precondition: checkRows passed and i is below the number
// of values.
func (c *leafWriter) rowOfValue(i int) int {
	lv := c.lv
	if c.maxDef == 0 {
		return i
	}
	row := -1
	for k, d := range lv.Def {
		if c.maxRep == 0 || lv.Rep[k] == 0 {
			row++
		}
		if d == c.maxDef {
			if i == 0 {
				return row
			}
			i--
		}
	}
	return row
}
