// Formatting of statistics values: the PLAIN encoding of one value, shown
// per the column's physical and logical type (strings as text, decimals as
// decimals, timestamps as times). Value layouts:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#plain
// and https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.

package inspect

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// maxShown bounds how many bytes of a binary value are shown in hex.
const maxShown = 64

// FormatValue renders a statistics bound (the PLAIN encoding of a single
// value, without the BYTE_ARRAY length prefix) per the leaf's types. A
// value of the wrong size for its type is shown as such, never trusted.
func FormatValue(n *schema.Node, b []byte) string {
	l := n.Logical
	bad := func() string {
		return fmt.Sprintf("<%d bytes, invalid for %s>", len(b), schema.TypeName(n.Type, n.TypeLength))
	}
	switch n.Type {
	case meta.Boolean:
		if len(b) != 1 {
			return bad()
		}
		return strconv.FormatBool(b[0] != 0)
	case meta.Int32:
		if len(b) != 4 {
			return bad()
		}
		v := int32(binary.LittleEndian.Uint32(b))
		switch l.Kind {
		case meta.LogicalDate:
			return time.Unix(int64(v)*86400, 0).UTC().Format("2006-01-02")
		case meta.LogicalDecimal:
			return formatDecimal(big.NewInt(int64(v)), l.Decimal.Scale)
		case meta.LogicalTime:
			return formatTimeOfDay(int64(v), l.Time.Unit)
		case meta.LogicalInteger:
			if !l.Integer.IsSigned {
				return strconv.FormatUint(uint64(uint32(v)), 10)
			}
		}
		return strconv.FormatInt(int64(v), 10)
	case meta.Int64:
		if len(b) != 8 {
			return bad()
		}
		v := int64(binary.LittleEndian.Uint64(b))
		switch l.Kind {
		case meta.LogicalTimestamp:
			return formatTimestamp(v, l.Time.Unit, l.Time.IsAdjustedToUTC)
		case meta.LogicalDecimal:
			return formatDecimal(big.NewInt(v), l.Decimal.Scale)
		case meta.LogicalTime:
			return formatTimeOfDay(v, l.Time.Unit)
		case meta.LogicalInteger:
			if !l.Integer.IsSigned {
				return strconv.FormatUint(uint64(v), 10)
			}
		}
		return strconv.FormatInt(v, 10)
	case meta.Int96:
		if len(b) != 12 {
			return bad()
		}
		return formatInt96(b)
	case meta.Float:
		if len(b) != 4 {
			return bad()
		}
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 'g', -1, 32)
	case meta.Double:
		if len(b) != 8 {
			return bad()
		}
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', -1, 64)
	case meta.ByteArray, meta.FixedLenByteArray:
		if n.Type == meta.FixedLenByteArray && len(b) != int(n.TypeLength) {
			return bad()
		}
		switch l.Kind {
		case meta.LogicalString, meta.LogicalEnum, meta.LogicalJSON:
			if utf8.Valid(b) {
				return quoteShort(b)
			}
		case meta.LogicalDecimal:
			return formatDecimal(bigFromTwosComplement(b), l.Decimal.Scale)
		case meta.LogicalUUID:
			if len(b) == 16 {
				h := hex.EncodeToString(b)
				return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
			}
		case meta.LogicalFloat16:
			if len(b) == 2 {
				return strconv.FormatFloat(float64(runtime.Float16ToFloat32(binary.LittleEndian.Uint16(b))), 'g', -1, 32)
			}
		}
		if n.Converted.Set && n.Converted.Val == meta.ConvertedInterval && len(b) == 12 {
			return fmt.Sprintf("%d months %d days %d ms", binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:]))
		}
		return formatHex(b)
	}
	return formatHex(b)
}

// maxRunes bounds how many characters of a string value are shown.
const maxRunes = 100

// quoteShort quotes valid UTF-8 text, cut after maxRunes characters.
func quoteShort(b []byte) string {
	if utf8.RuneCount(b) <= maxRunes {
		return strconv.Quote(string(b))
	}
	cut, n := 0, 0
	for cut < len(b) && n < maxRunes {
		_, size := utf8.DecodeRune(b[cut:])
		cut += size
		n++
	}
	return strconv.Quote(string(b[:cut])) + fmt.Sprintf("… (%d bytes)", len(b))
}

func formatHex(b []byte) string {
	if len(b) > maxShown {
		return "0x" + hex.EncodeToString(b[:maxShown]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return "0x" + hex.EncodeToString(b)
}

// bigFromTwosComplement reads a big-endian two's complement integer.
func bigFromTwosComplement(b []byte) *big.Int {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(len(b))*8))
	}
	return v
}

// formatDecimal prints unscaled × 10^-scale exactly.
func formatDecimal(unscaled *big.Int, scale int32) string {
	s := new(big.Int).Abs(unscaled).String()
	neg := unscaled.Sign() < 0
	if scale > 0 {
		if sc := int(scale); sc > 1000 {
			return fmt.Sprintf("%se-%d", unscaled, scale)
		} else if len(s) <= sc {
			s = strings.Repeat("0", sc-len(s)+1) + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	} else if scale < 0 {
		return fmt.Sprintf("%se%d", unscaled, -scale)
	}
	if neg {
		return "-" + s
	}
	return s
}

func unitDuration(u meta.TimeUnit) (time.Duration, bool) {
	switch u {
	case meta.Millis:
		return time.Millisecond, true
	case meta.Micros:
		return time.Microsecond, true
	case meta.Nanos:
		return time.Nanosecond, true
	}
	return 0, false
}

// formatTimestamp prints an instant (UTC-adjusted, with Z) or a local
// date-time (without a zone).
func formatTimestamp(v int64, u meta.TimeUnit, utc bool) string {
	d, ok := unitDuration(u)
	if !ok {
		return strconv.FormatInt(v, 10)
	}
	perSec := int64(time.Second / d)
	sec, frac := v/perSec, v%perSec
	if frac < 0 {
		sec--
		frac += perSec
	}
	t := time.Unix(sec, frac*int64(d)).UTC()
	if utc {
		return t.Format("2006-01-02T15:04:05.999999999Z")
	}
	return t.Format("2006-01-02T15:04:05.999999999")
}

func formatTimeOfDay(v int64, u meta.TimeUnit) string {
	d, ok := unitDuration(u)
	if !ok || v < 0 {
		return strconv.FormatInt(v, 10)
	}
	t := time.Unix(0, 0).UTC().Add(time.Duration(v) * d)
	return t.Format("15:04:05.999999999")
}

// formatInt96 prints the legacy INT96 timestamp: 8 bytes of nanoseconds in
// the day, then 4 bytes of Julian day, both little-endian.
func formatInt96(b []byte) string {
	nanos := int64(binary.LittleEndian.Uint64(b))
	day := int64(int32(binary.LittleEndian.Uint32(b[8:])))
	const julianUnixEpoch = 2440588
	secs := (day-julianUnixEpoch)*86400 + nanos/1e9
	t := time.Unix(secs, nanos%1e9).UTC()
	return t.Format("2006-01-02T15:04:05.999999999Z")
}
