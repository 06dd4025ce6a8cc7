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

// julianUnixDay is the Julian day number of 1970-01-01.
const julianUnixDay = 2440588

// Time returns the instant v holds, in UTC. The Julian day is read as a
// signed 32-bit number, as Spark reads it; every value has an instant
// (time.Time spans far more than INT96's days).
func (v Int96) Time() time.Time {
	days := int64(int32(binary.LittleEndian.Uint32(v[8:]))) - julianUnixDay
	ns := int64(binary.LittleEndian.Uint64(v[:8]))
	return time.Unix(days*86400, 0).Add(time.Duration(ns)).UTC()
}

// Int96FromTime returns the INT96 timestamp of t: its day in UTC as a
// Julian day number and the nanoseconds since that day's midnight. ok is
// false, and v zero, when the day does not fit the 32-bit Julian day
// (years beyond about ±5,000,000).
func Int96FromTime(t time.Time) (v Int96, ok bool) {
	sec := t.Unix()
	days := sec / 86400
	if sec%86400 < 0 {
		days--
	}
	jd := days + julianUnixDay
	if jd < -1<<31 || jd >= 1<<31 {
		return Int96{}, false
	}
	ns := (sec-days*86400)*1e9 + int64(t.Nanosecond())
	binary.LittleEndian.PutUint64(v[:8], uint64(ns))
	binary.LittleEndian.PutUint32(v[8:], uint32(int32(jd)))
	return v, true
}
