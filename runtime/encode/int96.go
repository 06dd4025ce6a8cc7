// INT96 timestamps: the deprecated physical type that Impala, Hive and
// Spark (and parquet-java with its INT96 option) write timestamps in. The
// format defines INT96 only as 12 little-endian bytes
// (https://github.com/apache/parquet-format#types); as a timestamp, the
// layout those writers share is 8 bytes of nanoseconds within the day,
// then 4 of the Julian day number (day 2440588 is 1970-01-01).

package encode

import (
	"encoding/binary"
	"time"
)

// JulianUnixDay is the Julian day number of 1970-01-01.
const JulianUnixDay = 2440588

// UnixDay returns v's day counted from 1970-01-01 (its Julian day, read
// as a signed 32-bit number as Spark reads it, less JulianUnixDay) and
// its nanoseconds within that day, as stored (a writer may store any
// int64 there).
func (v Int96) UnixDay() (day, nanos int64) {
	return int64(int32(binary.LittleEndian.Uint32(v[8:]))) - JulianUnixDay, int64(binary.LittleEndian.Uint64(v[:8]))
}

// Time returns the instant v holds, in UTC. Every value has one
// (time.Time spans far more than INT96's days).
func (v Int96) Time() time.Time {
	day, nanos := v.UnixDay()
	return time.Unix(day*86400, 0).Add(time.Duration(nanos)).UTC()
}

// Int96FromUnixNanos returns the INT96 timestamp of ns nanoseconds since
// the epoch: its day and the nanoseconds since that day's midnight (every
// int64 has one).
func Int96FromUnixNanos(ns int64) Int96 {
	day := ns / 86400e9
	if ns%86400e9 < 0 {
		day--
	}
	return int96Of(day, ns-day*86400e9)
}

// Int96FromTime returns the INT96 timestamp of t: its day in UTC as a
// Julian day number and the nanoseconds since that day's midnight. ok is
// false, and v zero, when the day does not fit the 32-bit Julian day
// (years beyond about ±5,000,000).
func Int96FromTime(t time.Time) (v Int96, ok bool) {
	sec := t.Unix()
	day := sec / 86400
	if sec%86400 < 0 {
		day--
	}
	if jd := day + JulianUnixDay; jd < -1<<31 || jd >= 1<<31 {
		return Int96{}, false
	}
	return int96Of(day, (sec-day*86400)*1e9+int64(t.Nanosecond())), true
}

// int96Of is the INT96 timestamp of day (from 1970-01-01; its Julian day
// fits 32 bits) and nanos within it.
func int96Of(day, nanos int64) (v Int96) {
	binary.LittleEndian.PutUint64(v[:8], uint64(nanos))
	binary.LittleEndian.PutUint32(v[8:], uint32(int32(day+JulianUnixDay)))
	return v
}
