package runtime

import (
	"bytes"
	"encoding/binary"
)

// Interval is an INTERVAL value (a FIXED_LEN_BYTE_ARRAY(12) with the
// INTERVAL converted type): three independent unsigned counts, which no
// single Go type holds without loss (a month has no fixed length, nor a
// day across a DST change). It is the Go type of INTERVAL columns in code
// generated from schema text and files; Go types may use it or a raw
// [12]byte with the interval tag.
type Interval struct {
	Months, Days, Millis uint32
}

// AppendInterval appends iv as the 12 bytes of an INTERVAL value: months,
// days and milliseconds, each a little-endian uint32.
func AppendInterval(dst []byte, iv Interval) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, iv.Months)
	dst = binary.LittleEndian.AppendUint32(dst, iv.Days)
	return binary.LittleEndian.AppendUint32(dst, iv.Millis)
}

// IntervalAt returns INTERVAL value i of vals, the values of a
// FIXED_LEN_BYTE_ARRAY(12) column.
func IntervalAt(vals []byte, i int) Interval {
	b := vals[12*i : 12*i+12]
	return Interval{
		Months: binary.LittleEndian.Uint32(b),
		Days:   binary.LittleEndian.Uint32(b[4:]),
		Millis: binary.LittleEndian.Uint32(b[8:]),
	}
}

// CompareInterval orders intervals as their 12 encoded bytes compare (the
// order of map keys in written files, as for other byte arrays).
func CompareInterval(a, b Interval) int {
	var x, y [12]byte
	return bytes.Compare(AppendInterval(x[:0], a), AppendInterval(y[:0], b))
}
