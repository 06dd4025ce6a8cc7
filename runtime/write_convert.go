// Checked conversions of generated writers: Go values whose Parquet
// representation is a narrower integer than the Go value can need. A
// TIMESTAMP is an INT64 count of its unit since the Unix epoch
// (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#timestamp),
// which a time.Time outside 1677-09-21 to 2262-04-11 overflows in
// nanoseconds (the zero time.Time among them); a DATE an INT32 count of
// days; a TIME(MILLIS) an INT32 count of milliseconds; a DECIMAL of
// precision p an unscaled integer of at most p digits. Each function
// returns the value or an error wrapping ErrValue, never a wrapped count:
// time.Time.UnixNano's result is undefined out of its range.

package runtime

import (
	"fmt"
	"math"
	"time"
)

// Seconds since the Unix epoch strictly between -S and S of which every
// time.Time converts to the INT64 count of a TIMESTAMP unit
// (math.MaxInt64 divided by the unit's count per second), and the seconds
// [DateSecondsMin, DateSecondsEnd) whose days fit a DATE's INT32.
// Generated writers compare a time's seconds with them and call
// UnixMillis, UnixMicros, UnixNanos or UnixDays only beyond, where some
// times of the edge second still fit.
const (
	SafeSecondsMillis = math.MaxInt64 / 1_000
	SafeSecondsMicros = math.MaxInt64 / 1_000_000
	SafeSecondsNanos  = math.MaxInt64 / 1_000_000_000
	DateSecondsMin    = math.MinInt32 * 86400
	DateSecondsEnd    = (math.MaxInt32 + 1) * 86400
)

// UnixMillis returns t as milliseconds since the Unix epoch (as
// time.Time.UnixMilli), or an error wrapping ErrValue when the count does
// not fit an INT64.
func UnixMillis(t time.Time) (int64, error) {
	if s := t.Unix(); s > -SafeSecondsMillis && s < SafeSecondsMillis {
		return s*1e3 + int64(t.Nanosecond()/1e6), nil
	}
	return unixEdge(t, 1e3, "MILLIS")
}

// UnixMicros returns t as microseconds since the Unix epoch (as
// time.Time.UnixMicro), or an error wrapping ErrValue when the count does
// not fit an INT64.
func UnixMicros(t time.Time) (int64, error) {
	if s := t.Unix(); s > -SafeSecondsMicros && s < SafeSecondsMicros {
		return s*1e6 + int64(t.Nanosecond()/1e3), nil
	}
	return unixEdge(t, 1e6, "MICROS")
}

// UnixNanos returns t as nanoseconds since the Unix epoch (as
// time.Time.UnixNano), or an error wrapping ErrValue when the count does
// not fit an INT64: before 1677-09-21T00:12:43.145224192Z or after
// 2262-04-11T23:47:16.854775807Z, such as the zero time.Time.
func UnixNanos(t time.Time) (int64, error) {
	if s := t.Unix(); s > -SafeSecondsNanos && s < SafeSecondsNanos {
		return s*1e9 + int64(t.Nanosecond()), nil
	}
	return unixEdge(t, 1e9, "NANOS")
}

// unixEdge is the exact count of t in units of 1/per second, for the
// seconds the fast paths leave out: those within a second of the int64
// range still fit, depending on their sub-second part.
func unixEdge(t time.Time, per int64, unit string) (int64, error) {
	if v, ok := unixUnits(t.Unix(), int64(t.Nanosecond())/(1e9/per), per); ok {
		return v, nil
	}
	return 0, fmt.Errorf("%w: %s is outside the range of TIMESTAMP(%s)", ErrValue, t.UTC().Format(time.RFC3339Nano), unit)
}

// unixUnits returns s*per + sub and whether it fits an int64.
// Preconditions: per > 0, 0 <= sub < per.
func unixUnits(s, sub, per int64) (int64, bool) {
	if s < 0 && sub > 0 {
		s, sub = s+1, sub-per // the same sum, with s*per nearer zero
	}
	v := s * per
	if v/per != s {
		return 0, false
	}
	r := v + sub
	if sub >= 0 {
		return r, r >= v
	}
	return r, r < v
}

// UnixDays returns the days from the Unix epoch to t's date in UTC (as
// DateDays: the time of day is dropped), or an error wrapping ErrValue
// when they do not fit a DATE's INT32.
func UnixDays(t time.Time) (int32, error) {
	if s := t.Unix(); s < DateSecondsMin || s >= DateSecondsEnd {
		return 0, fmt.Errorf("%w: %s is outside the range of DATE", ErrValue, t.UTC().Format(time.RFC3339))
	}
	return DateDays(t), nil
}

// TimeMillis returns d in whole milliseconds (truncated toward zero, as
// d / time.Millisecond), or an error wrapping ErrValue when they do not
// fit a TIME(MILLIS)'s INT32 (about ±24.8 days).
func TimeMillis(d time.Duration) (int32, error) {
	ms := d / time.Millisecond
	if ms != time.Duration(int32(ms)) {
		return 0, fmt.Errorf("%w: %v is outside the range of TIME(MILLIS)", ErrValue, d)
	}
	return int32(ms), nil
}

// DecimalDigits32 returns v, the unscaled value of an INT32 DECIMAL of
// the given precision (1 to 9), or an error wrapping ErrValue when v has
// more digits than the precision allows.
func DecimalDigits32(v int32, precision int) (int32, error) {
	if precision >= 1 && precision <= 9 {
		if p := int64(pow10u128[precision][1]); int64(v) >= p || int64(v) <= -p {
			return 0, decimalDigitsErr(int64(v), precision)
		}
	}
	return v, nil
}

// DecimalDigits64 returns v, the unscaled value of an INT64 DECIMAL of
// the given precision (1 to 18), or an error wrapping ErrValue when v has
// more digits than the precision allows.
func DecimalDigits64(v int64, precision int) (int64, error) {
	if precision >= 1 && precision <= 18 {
		if p := int64(pow10u128[precision][1]); v >= p || v <= -p {
			return 0, decimalDigitsErr(v, precision)
		}
	}
	return v, nil
}

func decimalDigitsErr(v int64, precision int) error {
	return fmt.Errorf("%w: unscaled decimal %d has more than %d digits", ErrValue, v, precision)
}
