// ByteArrays: the buffer + offsets representation of BYTE_ARRAY values used
// by the PLAIN, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encodings
// (https://parquet.apache.org/docs/file-format/data-pages/encodings/).

package encode

import "fmt"

// maxByteArraysData is the most data bytes a ByteArrays holds: its offsets
// are 32-bit. A variable so that tests can reach the limit without
// allocating 4 GiB.
var maxByteArraysData uint64 = 1<<32 - 1

// ByteArrays holds a sequence of byte strings in one buffer: value i is
// Data[Offsets[i]:Offsets[i+1]]. An empty sequence has len(Offsets) 0 or 1;
// a sequence of n > 0 values has len(Offsets) == n+1 and Offsets[0] is the
// start of the first value (normally 0). The zero value is an empty
// sequence ready to use.
//
// Data holds at most 4 GiB - 1 bytes. Append and AppendString do not panic
// beyond it: they append an empty value instead (so that Len still counts
// every appended value) and record the overflow, which Err reports until
// Reset.
type ByteArrays struct {
	Data    []byte
	Offsets []uint32
	// Values refused for lack of room (see Err): how many, and the
	// length and index of the first.
	overN   int
	overLen uint64
	overAt  int
}

// Len returns the number of values.
func (b *ByteArrays) Len() int {
	if len(b.Offsets) == 0 {
		return 0
	}
	return len(b.Offsets) - 1
}

// At returns value i, aliasing Data. Precondition: 0 <= i < Len().
func (b *ByteArrays) At(i int) []byte {
	return b.Data[b.Offsets[i]:b.Offsets[i+1]:b.Offsets[i+1]]
}

// Append appends v as a new value. If Data would exceed 4 GiB - 1 bytes,
// it appends an empty value instead and Err reports the overflow.
func (b *ByteArrays) Append(v []byte) {
	if len(b.Offsets) == 0 {
		b.Offsets = append(b.Offsets, uint32(len(b.Data)))
	}
	if uint64(len(b.Data))+uint64(len(v)) > maxByteArraysData {
		b.refuse(len(v))
		return
	}
	b.Data = append(b.Data, v...)
	b.Offsets = append(b.Offsets, uint32(len(b.Data)))
}

// AppendString appends s as a new value. If Data would exceed 4 GiB - 1
// bytes, it appends an empty value instead and Err reports the overflow.
func (b *ByteArrays) AppendString(s string) {
	if len(b.Offsets) == 0 {
		b.Offsets = append(b.Offsets, uint32(len(b.Data)))
	}
	if uint64(len(b.Data))+uint64(len(s)) > maxByteArraysData {
		b.refuse(len(s))
		return
	}
	b.Data = append(b.Data, s...)
	b.Offsets = append(b.Offsets, uint32(len(b.Data)))
}

// refuse appends an empty value in place of one of n bytes that does not
// fit, and records the overflow.
func (b *ByteArrays) refuse(n int) {
	if b.overN == 0 {
		b.overLen, b.overAt = uint64(n), len(b.Offsets)-1
	}
	b.overN++
	b.Offsets = append(b.Offsets, uint32(len(b.Data)))
}

// Err reports values that Append or AppendString refused since the last
// Reset because Data would have exceeded 4 GiB - 1 bytes (the offsets are
// 32-bit); such values were stored empty. The error wraps ErrLength.
func (b *ByteArrays) Err() error {
	if b.overN == 0 {
		return nil
	}
	return fmt.Errorf("%w: %d byte-array values (the first, value %d, of %d bytes) do not fit in the 4 GiB - 1 bytes one buffer holds",
		ErrLength, b.overN, b.overAt, b.overLen)
}

// Reset empties b, keeping its buffers for reuse, and clears Err.
func (b *ByteArrays) Reset() {
	b.Data = b.Data[:0]
	b.Offsets = b.Offsets[:0]
	b.overN, b.overLen, b.overAt = 0, 0, 0
}

// MoveTo moves b's values, and the values Err reports, into dst, in place
// of dst's and in dst's memory, which grows as needed, and empties b as
// Reset does, keeping its memory.
func (b *ByteArrays) MoveTo(dst *ByteArrays) {
	dst.Data = append(dst.Data[:0], b.Data...)
	dst.Offsets = append(dst.Offsets[:0], b.Offsets...)
	dst.overN, dst.overLen, dst.overAt = b.overN, b.overLen, b.overAt
	b.Reset()
}

// TotalLen returns the number of data bytes spanned by the values.
func (b *ByteArrays) TotalLen() int {
	if len(b.Offsets) < 2 {
		return 0
	}
	return int(b.Offsets[len(b.Offsets)-1] - b.Offsets[0])
}

// PlainLen returns the length of the PLAIN encoding of b's values (each a
// 4-byte length and its bytes): AppendPlainByteArray's output, and a
// dictionary page's body.
func (b *ByteArrays) PlainLen() int { return 4*b.Len() + b.TotalLen() }

// reset0 empties b and leaves Offsets == [0], as decoders produce.
func (b ByteArrays) reset0() ByteArrays {
	b.Data = b.Data[:0]
	b.Offsets = append(b.Offsets[:0], 0)
	b.overN, b.overLen, b.overAt = 0, 0, 0
	return b
}
