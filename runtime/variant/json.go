// Converting Variant values from and to JSON.

package variant

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// AppendJSON appends v as JSON text. Numbers keep their exact value
// (decimals as their decimal text, floats in the shortest form that
// round-trips; NaN and infinities as the strings "NaN", "Infinity" and
// "-Infinity"); dates, times and timestamps become strings in ISO 8601
// form (timestamps adjusted to UTC end in "Z", the others carry no zone;
// 6 or 9 fraction digits following the unit); binary becomes base64 and
// uuids their 36-character form. Object keys come in the encoding's
// sorted order.
func AppendJSON(dst []byte, v Value) []byte {
	switch k := v.Kind(); k {
	case KindNull:
		return append(dst, "null"...)
	case KindTrue:
		return append(dst, "true"...)
	case KindFalse:
		return append(dst, "false"...)
	case KindInt8, KindInt16, KindInt32, KindInt64:
		return strconv.AppendInt(dst, v.Int(), 10)
	case KindDouble:
		return appendFloat(dst, v.Float(), 64)
	case KindFloat:
		return appendFloat(dst, v.Float(), 32)
	case KindDecimal4, KindDecimal8, KindDecimal16:
		return v.Decimal().Append(dst)
	case KindDate:
		t := time.Unix(int64(v.Date())*86400, 0).UTC()
		return strconv.AppendQuote(dst, t.Format("2006-01-02"))
	case KindTimestamp, KindTimestampNTZ, KindTimestampNanos, KindTimestampNTZNanos:
		var t time.Time
		layout := "2006-01-02T15:04:05.000000"
		if k == KindTimestampNanos || k == KindTimestampNTZNanos {
			t = time.Unix(0, v.Timestamp()).UTC()
			layout = "2006-01-02T15:04:05.000000000"
		} else {
			t = time.UnixMicro(v.Timestamp()).UTC()
		}
		if k == KindTimestamp || k == KindTimestampNanos {
			layout += "Z"
		}
		return strconv.AppendQuote(dst, t.Format(layout))
	case KindTime:
		us := v.Timestamp()
		t := time.Unix(0, us*1000).UTC()
		return strconv.AppendQuote(dst, t.Format("15:04:05.000000"))
	case KindBinary:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v.Bytes())
		return append(dst, '"')
	case KindString:
		b, _ := json.Marshal(v.Str())
		return append(dst, b...)
	case KindUUID:
		u := v.UUID()
		var s [36]byte
		hex.Encode(s[0:8], u[0:4])
		s[8] = '-'
		hex.Encode(s[9:13], u[4:6])
		s[13] = '-'
		hex.Encode(s[14:18], u[6:8])
		s[18] = '-'
		hex.Encode(s[19:23], u[8:10])
		s[23] = '-'
		hex.Encode(s[24:36], u[10:16])
		return append(append(append(dst, '"'), s[:]...), '"')
	case KindObject:
		dst = append(dst, '{')
		order := v.keyOrder()
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			name, f := v.Field(fieldAt(order, i))
			b, _ := json.Marshal(name)
			dst = append(append(dst, b...), ':')
			dst = AppendJSON(dst, f)
		}
		return append(dst, '}')
	case KindArray:
		dst = append(dst, '[')
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, v.Index(i))
		}
		return append(dst, ']')
	}
	return append(dst, "null"...)
}

func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

// String returns the value as JSON text (see AppendJSON).
func (v Value) String() string { return string(AppendJSON(nil, v)) }

// Big returns the unscaled value as a big.Int.
func (d Decimal) Big() *big.Int {
	x := new(big.Int).SetInt64(d.Hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(d.Lo))
}

// Append appends the decimal's exact text, such as -12.340.
func (d Decimal) Append(dst []byte) []byte {
	x := d.Big()
	neg := x.Sign() < 0
	s := x.Abs(x).String()
	if neg {
		dst = append(dst, '-')
	}
	sc := int(d.Scale)
	if sc == 0 {
		return append(dst, s...)
	}
	if len(s) <= sc {
		s = strings.Repeat("0", sc-len(s)+1) + s
	}
	dst = append(dst, s[:len(s)-sc]...)
	return append(append(dst, '.'), s[len(s)-sc:]...)
}

// maxDecimal16 is 10^38 - 1, the largest unscaled decimal16.
var maxDecimal16 = new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))

// DecimalFromBig returns the decimal unscaled × 10^-scale; it reports
// false when unscaled needs more than 38 digits.
func DecimalFromBig(unscaled *big.Int, scale uint8) (Decimal, bool) {
	if new(big.Int).Abs(unscaled).Cmp(maxDecimal16) > 0 || scale > 38 {
		return Decimal{}, false
	}
	var b [16]byte
	x := new(big.Int).Set(unscaled)
	if x.Sign() < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), 128)) // two's complement
	}
	x.FillBytes(b[:])
	return Decimal{
		Hi:    int64(uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 | uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])),
		Lo:    uint64(b[8])<<56 | uint64(b[9])<<48 | uint64(b[10])<<40 | uint64(b[11])<<32 | uint64(b[12])<<24 | uint64(b[13])<<16 | uint64(b[14])<<8 | uint64(b[15]),
		Scale: scale,
	}, true
}

// FromJSON encodes one JSON value as a Variant and returns its metadata
// and value. Integers become the smallest integer kind that holds them;
// other numbers written without an exponent and with at most 38 digits
// become decimals (so 12.30 keeps its scale); the rest become doubles.
// Strings stay strings: FromJSON does not guess dates or timestamps.
// Duplicate object keys are an error.
func FromJSON(data []byte) (metadata, value []byte, err error) {
	var b Builder
	if err := b.AppendJSON(data); err != nil {
		return nil, nil, err
	}
	return b.Finish()
}

// AppendJSON appends the JSON value in data (see FromJSON).
func (b *Builder) AppendJSON(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := b.appendJSON(d, 0); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("%w: JSON: data after the value", ErrBuild)
	}
	return b.err
}

func (b *Builder) appendJSON(d *json.Decoder, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%w: JSON nested more than %d levels", ErrTooDeep, MaxDepth)
	}
	t, err := d.Token()
	if err != nil {
		return fmt.Errorf("variant: JSON: %w", err)
	}
	switch t := t.(type) {
	case nil:
		b.AppendNull()
	case bool:
		b.AppendBool(t)
	case string:
		b.AppendString(t)
	case json.Number:
		b.appendNumber(string(t))
	case json.Delim:
		switch t {
		case '{':
			b.StartObject()
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return fmt.Errorf("variant: JSON: %w", err)
				}
				b.Key(k.(string))
				if err := b.appendJSON(d, depth+1); err != nil {
					return err
				}
			}
		case '[':
			b.StartArray()
			for d.More() {
				if err := b.appendJSON(d, depth+1); err != nil {
					return err
				}
			}
		}
		if _, err := d.Token(); err != nil { // the closing delimiter
			return fmt.Errorf("variant: JSON: %w", err)
		}
		b.End()
	}
	return b.err
}

func (b *Builder) appendNumber(s string) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		b.AppendInt(i)
		return
	}
	if !strings.ContainsAny(s, "eE") {
		digits := strings.Replace(strings.TrimPrefix(s, "-"), ".", "", 1)
		scale := 0
		if dot := strings.IndexByte(s, '.'); dot >= 0 {
			scale = len(s) - dot - 1
		}
		if x, ok := new(big.Int).SetString(strings.TrimLeft(digits, "0")+"0", 10); ok && len(strings.TrimLeft(digits, "0")) <= 38 && scale <= 38 {
			x.Div(x, big.NewInt(10)) // drop the "0" appended to parse an all-zero string
			if strings.HasPrefix(s, "-") {
				x.Neg(x)
			}
			if dec, ok := DecimalFromBig(x, uint8(scale)); ok {
				b.AppendDecimal(dec)
				return
			}
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		b.fail("number %q: %v", s, err)
		return
	}
	b.AppendDouble(f)
}

// Describe renders v like AppendJSON but prefixes every scalar with its
// kind ("int8(42)", "string(\"a\")"), so that two renderings are equal
// only when kinds and values are: the form tests and debugging compare.
func Describe(v Value) string { return string(appendDescribe(nil, v)) }

func appendDescribe(dst []byte, v Value) []byte {
	switch v.Kind() {
	case KindObject:
		dst = append(dst, '{')
		order := v.keyOrder()
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			k, f := v.Field(fieldAt(order, i))
			dst = strconv.AppendQuote(dst, k)
			dst = appendDescribe(append(dst, ':'), f)
		}
		return append(dst, '}')
	case KindArray:
		dst = append(dst, '[')
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendDescribe(dst, v.Index(i))
		}
		return append(dst, ']')
	}
	dst = append(append(dst, v.Kind().String()...), '(')
	return append(AppendJSON(dst, v), ')')
}
