// ByteArrays: the buffer + offsets representation of BYTE_ARRAY values used
// by the PLAIN, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encodings
// (https://parquet.apache.org/docs/file-format/data-pages/encodings/).

package encode

// ByteArrays holds a sequence of byte strings in one buffer: value i is
// Data[Offsets[i]:Offsets[i+1]]. An empty sequence has len(Offsets) 0 or 1;
// a sequence of n > 0 values has len(Offsets) == n+1 and Offsets[0] is the
// start of the first value (normally 0). The zero value is an empty
// sequence ready to use.
type ByteArrays struct {
	Data    []byte
	Offsets []uint32
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

// Append appends v as a new value. It panics if Data would exceed 4 GiB.
func (b *ByteArrays) Append(v []byte) {
	if len(b.Offsets) == 0 {
		b.Offsets = append(b.Offsets, uint32(len(b.Data)))
	}
	if uint64(len(b.Data))+uint64(len(v)) > 1<<32-1 {
		panic("encode: ByteArrays data exceeds 4 GiB")
	}
	b.Data = append(b.Data, v...)
	b.Offsets = append(b.Offsets, uint32(len(b.Data)))
}

// AppendString appends s as a new value.
func (b *ByteArrays) AppendString(s string) {
	if len(b.Offsets) == 0 {
		b.Offsets = append(b.Offsets, uint32(len(b.Data)))
	}
	if uint64(len(b.Data))+uint64(len(s)) > 1<<32-1 {
		panic("encode: ByteArrays data exceeds 4 GiB")
	}
	b.Data = append(b.Data, s...)
	b.Offsets = append(b.Offsets, uint32(len(b.Data)))
}

// Reset empties b, keeping its buffers for reuse.
func (b *ByteArrays) Reset() {
	b.Data = b.Data[:0]
	b.Offsets = b.Offsets[:0]
}

// TotalLen returns the number of data bytes spanned by the values.
func (b *ByteArrays) TotalLen() int {
	if len(b.Offsets) < 2 {
		return 0
	}
	return int(b.Offsets[len(b.Offsets)-1] - b.Offsets[0])
}

// reset0 empties b and leaves Offsets == [0], as decoders produce.
func (b ByteArrays) reset0() ByteArrays {
	b.Data = b.Data[:0]
	b.Offsets = append(b.Offsets[:0], 0)
	return b
}
