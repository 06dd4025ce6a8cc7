package runtime

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// unixRef is the count of t in units of 1/per second, computed with big
// integers, and whether it fits an int64.
func unixRef(t time.Time, per int64) (int64, bool) {
	v := new(big.Int).Mul(big.NewInt(t.Unix()), big.NewInt(per))
	v.Add(v, big.NewInt(int64(t.Nanosecond())/(1e9/per)))
	return v.Int64(), v.IsInt64()
}

// TestUnixUnits checks UnixMillis, UnixMicros and UnixNanos against big
// integers at the edges of each unit's range, around the fast paths'
// limits, at the zero time.Time and at random instants of every
// magnitude; a value that fits must equal time.Time's own count.
func TestUnixUnits(t *testing.T) {
	units := []struct {
		per int64
		f   func(time.Time) (int64, error)
		std func(time.Time) int64
	}{
		{1e3, UnixMillis, time.Time.UnixMilli},
		{1e6, UnixMicros, time.Time.UnixMicro},
		{1e9, UnixNanos, time.Time.UnixNano},
	}
	var times []time.Time
	for _, per := range []int64{1e3, 1e6, 1e9} {
		lim := math.MaxInt64 / per
		for _, s := range []int64{lim - 1, lim, lim + 1, -lim + 1, -lim, -lim - 1, -lim - 2} {
			for _, ns := range []int64{0, 1, 145224191, 145224192, 145224193, 854775807, 854775808, 999999999} {
				times = append(times, time.Unix(s, ns))
			}
		}
	}
	times = append(times, time.Time{}, time.Unix(0, 0), time.Unix(-1, 999999999), time.Unix(0, math.MaxInt64), time.Unix(0, math.MinInt64),
		time.Date(1677, 9, 21, 0, 12, 43, 145224192, time.UTC), time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC))
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		times = append(times, time.Unix(r.Int64N(1<<r.IntN(62))*int64(1-2*r.IntN(2)), r.Int64N(1e9)))
	}
	for _, tm := range times {
		for _, u := range units {
			want, fits := unixRef(tm, u.per)
			got, err := u.f(tm)
			switch {
			case fits && err != nil:
				t.Errorf("%v in 1/%d s: error %v, want %d", tm, u.per, err, want)
			case fits && (got != want || got != u.std(tm)):
				t.Errorf("%v in 1/%d s: %d, want %d (time.Time: %d)", tm, u.per, got, want, u.std(tm))
			case !fits && (err == nil || !errors.Is(err, ErrValue)):
				t.Errorf("%v in 1/%d s: %d, %v; want an error wrapping ErrValue", tm, u.per, got, err)
			}
		}
	}
}

// TestUnixDays checks UnixDays against DateDays inside the range of an
// int32 and its refusals beyond, at the edges and the zero time.Time.
func TestUnixDays(t *testing.T) {
	day := int64(86400)
	for _, tc := range []struct {
		s    int64
		want int64 // math.MinInt64: refused
	}{
		{0, 0}, {-1, -1}, {day - 1, 0}, {-day, -1}, {-day - 1, -2},
		{math.MaxInt32 * day, math.MaxInt32}, {(math.MaxInt32+1)*day - 1, math.MaxInt32}, {(math.MaxInt32 + 1) * day, math.MinInt64},
		{math.MinInt32 * day, math.MinInt32}, {math.MinInt32*day - 1, math.MinInt64},
		{time.Time{}.Unix(), -719162},
	} {
		tm := time.Unix(tc.s, 0)
		got, err := UnixDays(tm)
		if tc.want == math.MinInt64 {
			if !errors.Is(err, ErrValue) {
				t.Errorf("%d s: %d, %v; want an error wrapping ErrValue", tc.s, got, err)
			}
			continue
		}
		if err != nil || int64(got) != tc.want || got != DateDays(tm) {
			t.Errorf("%d s: %d, %v; want %d (DateDays %d)", tc.s, got, err, tc.want, DateDays(tm))
		}
	}
}

// TestTimeMillis checks TimeMillis at the edges of an int32 of
// milliseconds, truncating toward zero as the division does.
func TestTimeMillis(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		d    time.Duration
		want int64 // math.MinInt64: refused
	}{
		{0, 0}, {1500 * time.Microsecond, 1}, {-1500 * time.Microsecond, -1}, {25 * time.Hour, 90_000_000},
		{math.MaxInt32 * ms, math.MaxInt32}, {(math.MaxInt32+1)*ms - 1, math.MaxInt32}, {(math.MaxInt32 + 1) * ms, math.MinInt64},
		{math.MinInt32 * ms, math.MinInt32}, {(math.MinInt32-1)*ms + 1, math.MinInt32}, {(math.MinInt32 - 1) * ms, math.MinInt64},
		{math.MaxInt64, math.MinInt64},
	} {
		got, err := TimeMillis(tc.d)
		if tc.want == math.MinInt64 {
			if !errors.Is(err, ErrValue) {
				t.Errorf("%v: %d, %v; want an error wrapping ErrValue", tc.d, got, err)
			}
			continue
		}
		if err != nil || int64(got) != tc.want {
			t.Errorf("%v: %d, %v; want %d", tc.d, got, err, tc.want)
		}
	}
}

// TestDecimalDigits checks the digits allowed by each precision: 10^p - 1
// and its negation pass, 10^p and -10^p fail.
func TestDecimalDigits(t *testing.T) {
	for p := 1; p <= 18; p++ {
		max := pow10Big(p).Int64() - 1 // by big.Int, not the table the code uses
		for _, v := range []int64{0, max, -max, max + 1, -max - 1} {
			fits := v >= -max && v <= max
			got, err := DecimalDigits64(v, p)
			if fits != (err == nil) || fits && got != v || !fits && !errors.Is(err, ErrValue) {
				t.Errorf("DecimalDigits64(%d, %d) = %d, %v", v, p, got, err)
			}
			if p <= 9 {
				got, err := DecimalDigits32(int32(v), p)
				if fits != (err == nil) || fits && int64(got) != v || !fits && !errors.Is(err, ErrValue) {
					t.Errorf("DecimalDigits32(%d, %d) = %d, %v", v, p, got, err)
				}
			}
		}
	}
	if _, err := DecimalDigits32(math.MaxInt32, 9); err == nil {
		t.Error("DecimalDigits32(MaxInt32, 9): no error")
	}
	if _, err := DecimalDigits64(math.MinInt64, 18); err == nil {
		t.Error("DecimalDigits64(MinInt64, 18): no error")
	}
}
