package encode

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"
)

func rawInt96(day int32, nanos int64) Int96 {
	var v Int96
	binary.LittleEndian.PutUint64(v[:8], uint64(nanos))
	binary.LittleEndian.PutUint32(v[8:], uint32(day))
	return v
}

// TestInt96Time: the INT96 timestamps Spark 3.4 wrote in the corpus's
// int96_from_spark.parquet (their Julian days and nanoseconds) are the
// instants its description lists, as DuckDB reads them too (microseconds
// since the epoch); and a few worked by hand.
func TestInt96Time(t *testing.T) {
	for _, c := range []struct {
		v    Int96
		want time.Time
	}{
		{rawInt96(2460311, 74096123456000), time.UnixMicro(1704141296123456)},
		{rawInt96(2460311, 3600000000000), time.UnixMicro(1704070800000000)},
		{rawInt96(5373484, 10800000000000), time.UnixMicro(253402225200000000)},
		{rawInt96(2460675, 82800000000000), time.UnixMicro(1735599600000000)},
		{rawInt96(2440588, 0), time.Unix(0, 0)},
		{rawInt96(2440587, 86400e9-1), time.Unix(0, -1)},
		{rawInt96(1721426, 0), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}, // Julian day of 0001-01-01 (proleptic Gregorian)
		{rawInt96(2451604, 43200e9), time.Date(2000, 2, 29, 12, 0, 0, 0, time.UTC)},
	} {
		got := c.v.Time()
		if !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("%x: %v, want %v", c.v, got, c.want.UTC())
		}
		if v, ok := Int96FromTime(c.want); !ok || v != c.v {
			t.Errorf("Int96FromTime(%v) = %x %v, want %x", c.want, v, ok, c.v)
		}
	}
}

// TestInt96FromTime: every instant whose day fits the 32-bit Julian day
// makes an INT96 (nanoseconds within the day in [0, 86400e9)) that
// reads back as itself; the days beyond do not.
func TestInt96FromTime(t *testing.T) {
	r := rand.New(rand.NewPCG(96, 2))
	for range 100_000 {
		sec := (r.Int64N(1<<32)-1<<31-2440588)*86400 + r.Int64N(86400) // within the Julian days
		x := time.Unix(sec, r.Int64N(1e9)).In(time.FixedZone("", r.IntN(100_000)-50_000))
		v, ok := Int96FromTime(x)
		if !ok {
			t.Fatalf("%v: no INT96", x)
		}
		if ns := int64(binary.LittleEndian.Uint64(v[:8])); ns < 0 || ns >= 86400e9 {
			t.Fatalf("%v: %d ns within the day", x, ns)
		}
		if got := v.Time(); !got.Equal(x) {
			t.Fatalf("%v: reads back as %v", x, got)
		}
	}
	first := time.Unix((-1<<31-2440588)*86400, 0)
	if _, ok := Int96FromTime(first); !ok {
		t.Errorf("the first Julian day %v: no INT96", first)
	}
	if _, ok := Int96FromTime(first.Add(-1)); ok {
		t.Errorf("the day before the first Julian day has an INT96")
	}
	last := time.Unix((1<<31-1-2440588)*86400+86399, 999999999)
	if _, ok := Int96FromTime(last); !ok {
		t.Errorf("the last Julian day %v: no INT96", last)
	}
	if _, ok := Int96FromTime(last.Add(1)); ok {
		t.Errorf("the day after the last Julian day has an INT96")
	}
}

// TestInt96FromUnixNanos: every int64 of nanoseconds makes the INT96 that
// Int96FromTime makes of the same instant.
func TestInt96FromUnixNanos(t *testing.T) {
	r := rand.New(rand.NewPCG(96, 3))
	for i := range 100_000 {
		ns := int64(r.Uint64())
		switch i {
		case 0, 1, 2, 3:
			ns = []int64{0, -1, -1 << 63, 1<<63 - 1}[i]
		}
		want, ok := Int96FromTime(time.Unix(0, ns))
		if got := Int96FromUnixNanos(ns); !ok || got != want {
			t.Fatalf("%d ns: %x, want %x", ns, got, want)
		}
	}
}
