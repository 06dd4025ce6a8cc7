// Resolving dictionary indices of BYTE_ARRAY values (RLE_DICTIONARY /
// PLAIN_DICTIONARY pages) into a ByteArrays: the values of a dictionary of
// short strings are copied in fixed-size moves instead of one memmove call
// each.

package encode

import "fmt"

// AppendGathered appends dict's value i for each index i of idx to b. It
// fails with ErrIndexRange on an index outside dict and with ErrLength
// when Data would exceed 4 GiB - 1 bytes, with ErrCorrupt on a value whose
// offsets are out of order or past dict.Data; b is then unchanged.
//
// Values of at most 32 bytes are copied as one or two 16-byte moves where
// b.Data's capacity has room for the whole move (it may write up to 32
// bytes past the values into spare capacity) and dict.Data's capacity
// holds 16 or 32 bytes from the value; the others, the last few of a
// buffer sized to the values, are copied. So b.Data grows only when its
// capacity is short of the values themselves: a caller that sized it from
// a pool keeps that buffer. appendGatheredPlain is the one-copy-per-value
// twin the tests compare it with.
func (b *ByteArrays) AppendGathered(dict *ByteArrays, idx []int32) error {
	n := dict.Len()
	offs := dict.Offsets
	var total uint64
	for j, i := range idx {
		if uint(i) >= uint(n) {
			return fmt.Errorf("index %d of %d-entry dictionary at position %d: %w", i, n, j, ErrIndexRange)
		}
		lo, hi := offs[i], offs[i+1]
		if hi < lo || int(hi) > len(dict.Data) {
			return fmt.Errorf("%w: dictionary value %d spans [%d, %d) of %d bytes", ErrCorrupt, i, lo, hi, len(dict.Data))
		}
		total += uint64(hi - lo)
	}
	if uint64(len(b.Data))+total > maxByteArraysData {
		return fmt.Errorf("%w: %d dictionary values of %d bytes after %d do not fit in the 4 GiB - 1 bytes one buffer holds", ErrLength, len(idx), total, len(b.Data))
	}
	if len(idx) == 0 {
		return nil
	}
	if len(b.Offsets) == 0 {
		b.Offsets = append(b.Offsets, uint32(len(b.Data)))
	}
	data := grow(b.Data, int(total))
	out := data[:cap(data)]
	src := dict.Data[:cap(dict.Data)]
	o := growSlice(b.Offsets, len(idx))
	pos := len(data)
	for _, i := range idx {
		lo, hi := int(offs[i]), int(offs[i+1])
		l := hi - lo
		switch {
		case l <= 16 && lo+16 <= len(src) && pos+16 <= len(out):
			*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(src[lo : lo+16])
		case l <= 32 && lo+32 <= len(src) && pos+32 <= len(out):
			// Two 16-byte moves: the compiler calls memmove for a [32]byte.
			*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(src[lo : lo+16])
			*(*[16]byte)(out[pos+16 : pos+32]) = *(*[16]byte)(src[lo+16 : lo+32])
		default:
			copy(out[pos:pos+l], src[lo:hi])
		}
		pos += l
		o = append(o, uint32(pos))
	}
	b.Data, b.Offsets = out[:pos], o
	return nil
}

// appendGatheredPlain is AppendGathered with one copy per value and no
// spare-capacity writes: the reference of the differential tests.
func (b *ByteArrays) appendGatheredPlain(dict *ByteArrays, idx []int32) error {
	n := dict.Len()
	var total uint64
	for j, i := range idx {
		if uint(i) >= uint(n) {
			return fmt.Errorf("index %d of %d-entry dictionary at position %d: %w", i, n, j, ErrIndexRange)
		}
		lo, hi := dict.Offsets[i], dict.Offsets[i+1]
		if hi < lo || int(hi) > len(dict.Data) {
			return fmt.Errorf("%w: dictionary value %d spans [%d, %d) of %d bytes", ErrCorrupt, i, lo, hi, len(dict.Data))
		}
		total += uint64(hi - lo)
	}
	if uint64(len(b.Data))+total > maxByteArraysData {
		return fmt.Errorf("%w: %d dictionary values of %d bytes after %d do not fit in the 4 GiB - 1 bytes one buffer holds", ErrLength, len(idx), total, len(b.Data))
	}
	for _, i := range idx {
		b.Append(dict.At(int(i)))
	}
	return nil
}
