// DELTA_LENGTH_BYTE_ARRAY (= 6) and DELTA_BYTE_ARRAY (= 7) encodings for
// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#delta-length-byte-array-delta_length_byte_array--6
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#delta-strings-delta_byte_array--7

package encode

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/pqgen/pqgen/runtime/internal/bufpool"
)

// AppendDeltaLengthByteArray appends the DELTA_LENGTH_BYTE_ARRAY encoding
// of src: the DELTA_BINARY_PACKED lengths followed by the concatenated
// values.
func AppendDeltaLengthByteArray(dst []byte, src ByteArrays) []byte {
	n := src.Len()
	var first int64
	if n > 0 {
		first = int64(src.Offsets[1] - src.Offsets[0])
	}
	dst = appendDeltaHeader(dst, DeltaBlockSize, DeltaMiniBlocks, n, first)
	var lens [DeltaBlockSize]uint32
	var sc deltaScratch32
	// Full blocks: the deltas of the lengths are the second differences
	// of the offsets, computed in one pass with the miniblock maxima and
	// the minimum instead of a pass for the lengths and another for their
	// deltas per miniblock.
	i := 1
	maxs := (*[DeltaMiniBlocks]int32)(sc.maxs[:])
	for ; i+DeltaBlockSize <= n; i += DeltaBlockSize {
		minD := delta2Block32(&sc.buf, (*[DeltaBlockSize + 2]uint32)(src.Offsets[i-1:]), maxs)
		dst = appendPackedBlock32(dst, &sc.buf, maxs, minD)
	}
	if i < n { // the last block, partial
		prev := src.Offsets[i] - src.Offsets[i-1]
		k := n - i
		off := src.Offsets[i : i+k+1]
		// The lengths are the deltas of the offsets: the SSE4.1 kernel
		// when it applies (its min/max are not needed).
		if _, _, ok := deltaMinMax32Fast(lens[:k], off[1:], off[0]); !ok {
			for j := range k {
				lens[j] = off[j+1] - off[j]
			}
		}
		dst = appendDeltaBlock32(dst, prev, lens[:k], DeltaMiniBlocks, DeltaBlockSize/DeltaMiniBlocks, &sc)
	}
	if n > 0 {
		dst = append(dst, src.Data[src.Offsets[0]:src.Offsets[n]]...)
	}
	return dst
}

// DecodeDeltaLengthByteArray decodes a DELTA_LENGTH_BYTE_ARRAY stream into
// dst (its buffers reused, grown if too short; the data is copied) and
// returns the values and the bytes consumed.
func DecodeDeltaLengthByteArray(dst ByteArrays, src []byte) (ByteArrays, int, error) {
	dst = dst.reset0()
	// Lengths land in Offsets[1:] and are turned into offsets in place.
	offs, pos, err := decodeDelta32(dst.Offsets, src, true, nil)
	dst.Offsets = offs
	if err != nil {
		dst.Offsets = dst.Offsets[:1]
		return dst, pos, fmt.Errorf("delta length byte array lengths: %w", err)
	}
	var total uint64
	for i := 1; i < len(offs); i++ {
		l := offs[i]
		if int32(l) < 0 {
			dst.Offsets = dst.Offsets[:1]
			return dst, pos, fmt.Errorf("delta length byte array: negative length %d of value %d: %w", int32(l), i-1, ErrLength)
		}
		total += uint64(l)
		offs[i] = uint32(total) // total <= len(src) checked below before use
		if total > uint64(len(src)-pos) {
			dst.Offsets = dst.Offsets[:1]
			return dst, pos, fmt.Errorf("delta length byte array: lengths need %d bytes or more, %d left: %w", total, len(src)-pos, ErrTruncated)
		}
	}
	dst.Data = append(dst.Data, src[pos:pos+int(total)]...)
	return dst, pos + int(total), nil
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
		if x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// GatheredLens returns, for the values of dict that idx names in that
// order, their total length and the total length of the suffixes
// DELTA_BYTE_ARRAY stores for them (each value less the prefix it shares
// with the one before), without gathering them: a dictionary page's
// values before they are turned back into a page, and a bound below which
// their DELTA_BYTE_ARRAY encoding does not go. Precondition: every index
// is in [0, dict.Len()).
func GatheredLens(dict ByteArrays, idx []int32) (total, suffixes int) {
	var prev []byte
	for _, i := range idx {
		v := dict.Data[dict.Offsets[i]:dict.Offsets[i+1]]
		total += len(v)
		suffixes += len(v) - commonPrefix(prev, v)
		prev = v
	}
	return total, suffixes
}

// AppendDeltaByteArray appends the DELTA_BYTE_ARRAY encoding of src: the
// DELTA_BINARY_PACKED prefix lengths (shared with the previous value),
// the DELTA_BINARY_PACKED suffix lengths, then the suffixes.
func AppendDeltaByteArray(dst []byte, src ByteArrays) []byte {
	return appendDeltaByteArray(dst, byteValues{data: src.Data, offs: src.Offsets, n: src.Len()})
}

// AppendDeltaByteArrayFixed appends the DELTA_BYTE_ARRAY encoding of the
// FIXED_LEN_BYTE_ARRAY values of size bytes held back to back in src.
// Preconditions: size > 0 and len(src) is a multiple of size.
func AppendDeltaByteArrayFixed(dst []byte, src []byte, size int) []byte {
	if size <= 0 || len(src)%size != 0 {
		panic("encode: AppendDeltaByteArrayFixed: bad size")
	}
	return appendDeltaByteArray(dst, byteValues{data: src, size: size, n: len(src) / size})
}

// byteValues addresses n values either through offsets (offs != nil) or
// as fixed-size slots: a predictable branch per access instead of an
// indirect call through a closure.
type byteValues struct {
	data []byte
	offs []uint32
	size int
	n    int
}

func (b *byteValues) at(i int) []byte {
	if b.offs != nil {
		return b.data[b.offs[i]:b.offs[i+1]]
	}
	return b.data[i*b.size : (i+1)*b.size]
}

// maxDelta32Len bounds the DELTA_BINARY_PACKED encoding of n 32-bit
// values with the default layout: a header of at most 25 bytes, then
// blocks of 128 deltas of at most maxDeltaBlock32Len bytes.
func maxDelta32Len(n int) int {
	return 25 + (n+DeltaBlockSize-1)/DeltaBlockSize*maxDeltaBlock32Len
}

// appendDeltaByteArray computes the shared prefixes once (recomputing
// them in each of the three passes dominated the encoder), keeping the
// prefix and suffix lengths in one pooled array, so that each length
// stream goes through appendDelta32 whole (its kernel takes full blocks)
// and nothing is allocated per call. dst is grown once, to the most the
// encoding can take.
func appendDeltaByteArray(dst []byte, vals byteValues) []byte {
	n := vals.n
	dataLen := n * vals.size
	if vals.offs != nil && n > 0 {
		dataLen = int(vals.offs[n] - vals.offs[0])
	}
	bound := 2*maxDelta32Len(n) + dataLen
	dst = grow(dst, bound)
	base := len(dst)
	// The prefix and suffix lengths, each stream encoded in one run of
	// appendDelta32 (its kernel for full blocks), then the suffixes.
	lens := bufpool.Grow(&poolKeys32, nil, 2*n)[:2*n]
	defer poolKeys32.Put(lens)
	pre, suf := lens[:n], lens[n:]
	if vals.offs != nil {
		prefixLens(pre, suf, vals.data, vals.offs[:n+1])
	} else {
		var prev []byte
		for i := range n {
			v := vals.at(i)
			p := commonPrefix(prev, v)
			pre[i], suf[i] = uint32(p), uint32(len(v)-p)
			prev = v
		}
	}
	dst = appendDelta32(dst, pre, DeltaBlockSize, DeltaMiniBlocks)
	dst = appendDelta32(dst, suf, DeltaBlockSize, DeltaMiniBlocks)
	if vals.offs != nil {
		// dst has room for the values' bytes (bound), so for the suffixes.
		dst = appendSuffixes(dst, vals.data, vals.offs[:n+1], pre)
	} else {
		for i := range n {
			dst = append(dst, vals.at(i)[pre[i]:]...)
		}
	}
	if len(dst) > base+bound {
		panic("encode: DELTA_BYTE_ARRAY bound exceeded") // unreachable
	}
	return dst
}

// prefixLens sets pre[i] to the length of the prefix value i shares with
// value i-1 (0 for the first) and suf[i] to the rest of its length, for
// the values data[offs[i]:offs[i+1]]. The values are compared a word at a
// time, loaded from data wherever the 8 bytes from the later value's
// position lie within it (past the shorter value's end, the result is
// capped at its length), instead of by commonPrefix, whose word loop
// stops short of each value's end and finishes byte by byte.
// Preconditions: len(pre) == len(suf) == len(offs)-1; offs is
// non-decreasing and offs[len(offs)-1] <= len(data).
func prefixLens(pre, suf []uint32, data []byte, offs []uint32) {
	suf = suf[:len(pre)]
	offs = offs[:len(pre)+1]
	prevStart, prevLen := 0, 0
	for i := range pre {
		s, e := int(offs[i]), int(offs[i+1])
		l := e - s
		m := min(l, prevLen)
		p := 0
		switch {
		case m == 0:
		case prevStart <= s:
			for {
				if s+p+8 > len(data) {
					p += commonPrefix(data[prevStart+p:prevStart+m], data[s+p:s+m])
					break
				}
				x := binary.LittleEndian.Uint64(data[prevStart+p:]) ^ binary.LittleEndian.Uint64(data[s+p:])
				if x != 0 {
					p = min(p+bits.TrailingZeros64(x)>>3, m)
					break
				}
				if p += 8; p >= m {
					p = m
					break
				}
			}
		default:
			p = commonPrefix(data[prevStart:prevStart+m], data[s:s+m])
		}
		pre[i], suf[i] = uint32(p), uint32(l-p)
		prevStart, prevLen = s, l
	}
}

// appendSuffixes appends each value data[offs[i]+pre[i]:offs[i+1]] to
// dst. A suffix of 16 bytes or less is copied as two words when 16 bytes
// can be read from its start within data and written within dst's
// capacity (the bytes past the suffix are overwritten by the next one, or
// lie beyond the returned length), instead of by a call to memmove.
// Preconditions: those of prefixLens, pre[i] <= offs[i+1]-offs[i], and
// dst has room for the suffixes (appendDeltaByteArray grew it for every
// value's bytes): a pass summing them would read every length again.
func appendSuffixes(dst, data []byte, offs, pre []uint32) []byte {
	offs = offs[:len(pre)+1]
	w := len(dst)
	out := dst[:cap(dst)]
	for i, p := range pre {
		s, e := int(offs[i])+int(p), int(offs[i+1])
		m := e - s
		if m <= 16 && s+16 <= len(data) && w+16 <= len(out) {
			d, v := out[w:w+16], data[s:s+16]
			binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(v))
			binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(v[8:]))
		} else {
			copy(out[w:], data[s:e])
		}
		w += m
	}
	return out[:w]
}

// DecodeDeltaByteArray decodes a DELTA_BYTE_ARRAY stream into dst (its
// buffers reused, grown if too short) and returns the values and the bytes
// consumed.
func DecodeDeltaByteArray(dst ByteArrays, src []byte) (ByteArrays, int, error) {
	return DecodeDeltaByteArrayBounded(dst, src, 1<<32-1)
}

// DecodeDeltaByteArrayBounded is DecodeDeltaByteArray for values of at most
// bound bytes in all: it fails with ErrBound, before it allocates their
// bytes, when they would take more (prefixes shared with the previous
// value are copied, so a few bytes of stream can stand for many).
func DecodeDeltaByteArrayBounded(dst ByteArrays, src []byte, bound uint64) (ByteArrays, int, error) {
	dst = dst.reset0()
	limit := min(bound, 1<<32-1)
	pre, pos, err := decodeDelta32(dst.Offsets, src, true, nil)
	if err != nil {
		return dst, pos, fmt.Errorf("delta byte array prefix lengths: %w", err)
	}
	n := len(pre) - 1
	// Suffix lengths go right after the prefix lengths, in the spare
	// capacity of the same array, which dst.Offsets keeps for the next call
	// (the bound n is checked: n values were just decoded).
	pre = growSlice(pre, n)
	// The suffix lengths must number n: checked on their header, before
	// zero-width miniblocks could expand a few bytes into billions of
	// values (a stream decodes to exactly its header's count or fails).
	if h, _, err := readDeltaHeader(src[pos:], true); err == nil && h.total != n {
		dst.Offsets = pre[:1]
		return dst, pos, fmt.Errorf("delta byte array: %d prefix lengths but %d suffix lengths: %w", n, h.total, ErrCorrupt)
	}
	suf, k, err := decodeDelta32(pre[len(pre):], src[pos:], true, nil)
	if err != nil {
		dst.Offsets = pre[:1]
		return dst, pos + k, fmt.Errorf("delta byte array suffix lengths: %w", err)
	}
	pos += k
	data := dst.Data[:0]
	// First pass: validate and size.
	var total, prevLen uint64
	var sufTotal uint64
	for i := range n {
		p, s := uint64(pre[i+1]), uint64(suf[i])
		if int32(s) < 0 {
			dst.Offsets = pre[:1]
			return dst, pos, fmt.Errorf("delta byte array: negative suffix length %d of value %d: %w", int32(s), i, ErrLength)
		}
		if p > prevLen {
			dst.Offsets = pre[:1]
			return dst, pos, fmt.Errorf("delta byte array: prefix length %d of value %d exceeds previous length %d: %w", int32(p), i, prevLen, ErrPrefixLength)
		}
		sufTotal += s
		if sufTotal > uint64(len(src)-pos) {
			dst.Offsets = pre[:1]
			return dst, pos, fmt.Errorf("delta byte array: suffixes need %d bytes or more, %d left: %w", sufTotal, len(src)-pos, ErrTruncated)
		}
		prevLen = p + s
		total += prevLen
		if total > limit {
			dst.Offsets = pre[:1]
			if total > 1<<32-1 {
				return dst, pos, fmt.Errorf("delta byte array: values exceed 4 GiB: %w", ErrLength)
			}
			return dst, pos, fmt.Errorf("delta byte array: values take %d bytes or more, above the bound of %d: %w", total, bound, ErrBound)
		}
	}
	// 32 bytes of slack past the values let short prefixes and suffixes
	// be copied in whole 16-byte chunks (the bytes written past a piece
	// are overwritten by the next piece or lie beyond len(data)).
	data = grow(data, int(total)+32)[:total]
	full := data[:int(total)+32]
	offs := pre
	sp := pos
	o, prevStart := 0, 0
	// Copies into the pre-sized buffer by index rather than two appends
	// per value.
	for i := range n {
		p, s := int(offs[i+1]), int(suf[i])
		start := o
		if p <= 32 && s <= 32 && len(src)-sp >= 32 {
			// Every prefix byte read lies below o (p <= the previous
			// value's length), so the chunk stores never clobber one.
			copyChunks((*[32]byte)(full[o:o+32]), (*[32]byte)(full[prevStart:prevStart+32]), p)
			o += p
			copyChunks((*[32]byte)(full[o:o+32]), (*[32]byte)(src[sp:sp+32]), s)
			o += s
		} else {
			o += copy(data[o:o+p], data[prevStart:prevStart+p])
			o += copy(data[o:o+s], src[sp:sp+s])
		}
		sp += s
		prevStart = start
		offs[i+1] = uint32(o)
	}
	dst.Data = data
	dst.Offsets = offs
	return dst, sp, nil
}

// DecodeDeltaByteArrayFixed decodes a DELTA_BYTE_ARRAY stream of
// FIXED_LEN_BYTE_ARRAY values of size bytes, appending them back to back
// to dst[:0]. scratch holds the intermediate offsets (reused across
// calls; it may be nil). Every value must be size bytes long.
func DecodeDeltaByteArrayFixed(dst []byte, src []byte, size int, scratch *ByteArrays) ([]byte, int, error) {
	var local ByteArrays
	if scratch == nil {
		scratch = &local
	}
	if size <= 0 {
		return dst[:0], 0, fmt.Errorf("delta byte array fixed: size %d: %w", size, ErrLength)
	}
	// The values are decoded straight into dst's buffer: back to back
	// they are already the flat layout, once their sizes are checked.
	v, k, err := DecodeDeltaByteArray(ByteArrays{Data: dst, Offsets: scratch.Offsets}, src)
	scratch.Offsets = v.Offsets
	if err != nil {
		return v.Data[:0], k, err
	}
	for i := 0; i < v.Len(); i++ {
		if l := v.Offsets[i+1] - v.Offsets[i]; int(l) != size {
			return v.Data[:0], k, fmt.Errorf("delta byte array fixed: value %d has %d bytes, want %d: %w", i, l, size, ErrLength)
		}
	}
	return v.Data, k, nil
}

// copyChunks copies the first n (<= 32) bytes of src to dst in 16-byte
// chunks, writing up to 15 bytes past n. Precondition: src[:n] does not
// overlap dst (src may overlap dst past n: those bytes are not needed).
func copyChunks(dst, src *[32]byte, n int) {
	le := binary.LittleEndian
	a, b := le.Uint64(src[0:]), le.Uint64(src[8:])
	le.PutUint64(dst[0:], a)
	le.PutUint64(dst[8:], b)
	if n > 16 {
		a, b = le.Uint64(src[16:]), le.Uint64(src[24:])
		le.PutUint64(dst[16:], a)
		le.PutUint64(dst[24:], b)
	}
}
