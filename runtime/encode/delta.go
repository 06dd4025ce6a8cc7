// DELTA_BINARY_PACKED encoding (DELTA_BINARY_PACKED = 5) for INT32 and
// INT64:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#delta-encoding-delta_binary_packed--5
//
// All arithmetic wraps (it is done on unsigned integers): INT64 deltas
// wrap at 64 bits and INT32 deltas at 32 bits, so every value, including
// the extremes, round-trips.

package encode

import (
	"fmt"
	"math"
	"math/bits"
)

// Default DELTA_BINARY_PACKED layout written by the encoders (the values
// parquet-java, arrow and parquet-go write).
const (
	DeltaBlockSize  = 128
	DeltaMiniBlocks = 4
)

// maxDeltaBlockSize bounds the block size a decoder accepts (the format
// sets no bound; every known writer uses 128).
const maxDeltaBlockSize = 1 << 20

// AppendDeltaInt32 appends the DELTA_BINARY_PACKED encoding of src, with
// deltas computed in 32-bit wrap-around arithmetic.
func AppendDeltaInt32(dst []byte, src []int32) []byte {
	return appendDelta32(dst, as32[uint32](src), DeltaBlockSize, DeltaMiniBlocks)
}

// AppendDeltaInt64 appends the DELTA_BINARY_PACKED encoding of src, with
// deltas computed in 64-bit wrap-around arithmetic.
func AppendDeltaInt64(dst []byte, src []int64) []byte {
	return appendDelta64(dst, src, DeltaBlockSize, DeltaMiniBlocks)
}

func appendDeltaHeader(dst []byte, blockSize, miniBlocks, n int, first int64) []byte {
	dst = appendUvarint(dst, uint64(blockSize))
	dst = appendUvarint(dst, uint64(miniBlocks))
	dst = appendUvarint(dst, uint64(n))
	return appendZigzag(dst, first)
}

// appendDelta32 encodes src (int32 values as uint32) with the given
// layout. Precondition: blockSize <= 128, blockSize%miniBlocks == 0.
func appendDelta32(dst []byte, src []uint32, blockSize, miniBlocks int) []byte {
	var first int64
	if len(src) > 0 {
		first = int64(int32(src[0]))
	}
	dst = appendDeltaHeader(dst, blockSize, miniBlocks, len(src), first)
	if len(src) < 2 {
		return dst
	}
	prev, rest := src[0], src[1:]
	var sc deltaScratch32
	if blockSize == DeltaBlockSize && miniBlocks == DeltaMiniBlocks {
		// Full blocks of the default layout: one kernel call computes the
		// deltas, miniblock maxima and minimum of a block (instead of a
		// call per miniblock) and appendPackedBlock32 packs it without
		// per-miniblock grow and padding checks.
		maxs := (*[DeltaMiniBlocks]int32)(sc.maxs[:])
		i := 1
		for ; i+DeltaBlockSize <= len(src); i += DeltaBlockSize {
			minD := deltaBlock32(&sc.buf, (*[DeltaBlockSize + 1]uint32)(src[i-1:]), maxs)
			dst = appendPackedBlock32(dst, &sc.buf, maxs, minD)
		}
		prev, rest = src[i-1], src[i:]
	}
	for len(rest) > 0 {
		k := min(len(rest), blockSize)
		dst = appendDeltaBlock32(dst, prev, rest[:k], miniBlocks, blockSize/miniBlocks, &sc)
		prev = rest[k-1]
		rest = rest[k:]
	}
	return dst
}

// deltaScratch32 is the per-block working memory of appendDeltaBlock32,
// owned by the caller for a whole stream so that it is not zeroed per
// block (every element read is written first in the same block).
type deltaScratch32 struct {
	buf  [128]uint32
	maxs [128]int32
}

// appendDeltaBlock32 appends one block holding the deltas of vals (at
// most miniBlocks*mbSize <= 128 values) from prev onwards.
//
// One pass computes the deltas with the per-miniblock maxima and the block
// minimum (four independent min/max chains: a single loop-carried chain
// per pass took over half of EncodeDeltaInt32 in pprof); the bit width of
// a miniblock is that of its max minus the min, and the packSub kernels
// subtract the min while packing, so no pass rewrites the block.
func appendDeltaBlock32(dst []byte, prev uint32, vals []uint32, miniBlocks, mbSize int, sc *deltaScratch32) []byte {
	buf, maxs := &sc.buf, &sc.maxs
	k := len(vals)
	minD := int32(math.MaxInt32)
	for mb := 0; mb*mbSize < k; mb++ {
		lo, hi := mb*mbSize, min((mb+1)*mbSize, k)
		v, b := vals[lo:hi], buf[lo:hi]
		if l, h, ok := deltaMinMax32Fast(b, v, prev); ok {
			prev = v[len(v)-1]
			minD = min(minD, l)
			maxs[mb] = h
			continue
		}
		n0, n1, n2, n3 := minD, minD, minD, minD
		x0, x1, x2, x3 := int32(math.MinInt32), int32(math.MinInt32), int32(math.MinInt32), int32(math.MinInt32)
		j := 0
		for ; j+4 <= len(v); j += 4 {
			q := (*[4]uint32)(v[j:])
			o := (*[4]uint32)(b[j:])
			o[0], o[1], o[2], o[3] = q[0]-prev, q[1]-q[0], q[2]-q[1], q[3]-q[2]
			prev = q[3]
			d0, d1, d2, d3 := int32(o[0]), int32(o[1]), int32(o[2]), int32(o[3])
			n0, n1, n2, n3 = min(n0, d0), min(n1, d1), min(n2, d2), min(n3, d3)
			x0, x1, x2, x3 = max(x0, d0), max(x1, d1), max(x2, d2), max(x3, d3)
		}
		for ; j < len(v); j++ {
			b[j] = v[j] - prev
			prev = v[j]
			n0, x0 = min(n0, int32(b[j])), max(x0, int32(b[j]))
		}
		minD = min(n0, n1, n2, n3)
		maxs[mb] = max(x0, x1, x2, x3)
	}
	m := uint32(minD)
	dst = appendZigzag(dst, int64(minD))
	wpos := len(dst)
	for range miniBlocks {
		dst = append(dst, 0)
	}
	for mb := 0; mb*mbSize < k; mb++ {
		w := bits.Len32(uint32(maxs[mb]) - m)
		dst[wpos+mb] = byte(w)
		part := buf[mb*mbSize : (mb+1)*mbSize]
		if cnt := k - mb*mbSize; cnt < mbSize {
			for j := cnt; j < mbSize; j++ {
				part[j] = m // packs as zero padding
			}
		}
		if w == 0 {
			continue
		}
		if mbSize%32 != 0 { // only the specification's examples
			for j := range part {
				part[j] -= m
			}
			dst = appendPack32(dst, part, w)
			continue
		}
		nb := mbSize * w / 8
		dst = grow(dst, nb)
		out := dst[len(dst) : len(dst)+nb]
		for c := 0; c < mbSize; c += 32 {
			packSub32Kernels(w, out[c/32*4*w:], part[c:], m)
		}
		dst = dst[:len(dst)+nb]
	}
	return dst
}

// maxDeltaBlock32Len bounds the bytes of a block of the default layout
// of 32-bit deltas: its min delta (<= 5 bytes), 4 widths and 4 miniblocks
// of at most 32*32/8 bytes.
const maxDeltaBlock32Len = 5 + DeltaMiniBlocks + DeltaBlockSize*4

// appendPackedBlock32 appends a full block of the default layout: the
// min delta minD of the 128 deltas d, the widths of the miniblocks (from
// their maxima maxs) and the miniblocks packed less minD, growing dst
// once for the most a block can take. Precondition: minD and maxs are the
// minimum and the miniblock maxima of d as int32.
func appendPackedBlock32(dst []byte, d *[DeltaBlockSize]uint32, maxs *[DeltaMiniBlocks]int32, minD int32) []byte {
	const mbSize = DeltaBlockSize / DeltaMiniBlocks
	dst = grow(dst, maxDeltaBlock32Len)
	dst = appendZigzag(dst, int64(minD))
	n := len(dst)
	out := dst[n : n+maxDeltaBlock32Len-5]
	m := uint32(minD)
	p := DeltaMiniBlocks
	for mb, x := range maxs {
		w := bits.Len32(uint32(x) - m)
		out[mb] = byte(w)
		if w != 0 {
			if !packSub32Fast(out[p:], (*[mbSize]uint32)(d[mb*mbSize:]), w, m) {
				packSub32Kernels(w, out[p:p+4*w], d[mb*mbSize:(mb+1)*mbSize], m)
			}
			p += 4 * w
		}
	}
	return dst[:n+p]
}

// deltaBlock32Go sets d[j] = s[j+1] - s[j] (wrapping) for the 128 deltas
// of a full block of the default layout, maxs[g] to the maximum of the
// deltas of miniblock g as int32, and returns their minimum as int32.
func deltaBlock32Go(d *[DeltaBlockSize]uint32, s *[DeltaBlockSize + 1]uint32, maxs *[DeltaMiniBlocks]int32) int32 {
	for j := range d {
		d[j] = s[j+1] - s[j]
	}
	return blockMinMax32(d, maxs)
}

// delta2Block32Go is deltaBlock32Go with the second differences d[j] =
// s[j+2] - 2*s[j+1] + s[j]: the deltas of the lengths of the byte arrays
// whose offsets are s.
func delta2Block32Go(d *[DeltaBlockSize]uint32, s *[DeltaBlockSize + 2]uint32, maxs *[DeltaMiniBlocks]int32) int32 {
	for j := range d {
		d[j] = s[j+2] - 2*s[j+1] + s[j]
	}
	return blockMinMax32(d, maxs)
}

// blockMinMax32 sets maxs[g] to the maximum of the deltas of miniblock g
// of d as int32 and returns the minimum of d (four chains each, as in
// appendDeltaBlock32).
func blockMinMax32(d *[DeltaBlockSize]uint32, maxs *[DeltaMiniBlocks]int32) int32 {
	const mbSize = DeltaBlockSize / DeltaMiniBlocks
	lo := int32(math.MaxInt32)
	for g := range maxs {
		n0, n1, n2, n3 := lo, lo, lo, lo
		x0, x1, x2, x3 := int32(math.MinInt32), int32(math.MinInt32), int32(math.MinInt32), int32(math.MinInt32)
		for j := g * mbSize; j < (g+1)*mbSize; j += 4 {
			q := (*[4]uint32)(d[j:])
			d0, d1, d2, d3 := int32(q[0]), int32(q[1]), int32(q[2]), int32(q[3])
			n0, n1, n2, n3 = min(n0, d0), min(n1, d1), min(n2, d2), min(n3, d3)
			x0, x1, x2, x3 = max(x0, d0), max(x1, d1), max(x2, d2), max(x3, d3)
		}
		lo = min(n0, n1, n2, n3)
		maxs[g] = max(x0, x1, x2, x3)
	}
	return lo
}

// appendDelta64 encodes src with the given layout. Precondition:
// blockSize <= 128, blockSize%miniBlocks == 0. Blocks are built as in
// appendDeltaBlock32.
func appendDelta64(dst []byte, src []int64, blockSize, miniBlocks int) []byte {
	var first int64
	if len(src) > 0 {
		first = src[0]
	}
	dst = appendDeltaHeader(dst, blockSize, miniBlocks, len(src), first)
	if len(src) < 2 {
		return dst
	}
	mbSize := blockSize / miniBlocks
	var buf [128]uint64
	var maxs [128]int64
	prev := uint64(src[0])
	for rest := src[1:]; len(rest) > 0; {
		k := min(len(rest), blockSize)
		minD := int64(math.MaxInt64)
		for mb := 0; mb*mbSize < k; mb++ {
			lo, hi := mb*mbSize, min((mb+1)*mbSize, k)
			v, b := rest[lo:hi], buf[lo:hi]
			n0, n1, n2, n3 := minD, minD, minD, minD
			x0, x1, x2, x3 := int64(math.MinInt64), int64(math.MinInt64), int64(math.MinInt64), int64(math.MinInt64)
			j := 0
			for ; j+4 <= len(v); j += 4 {
				q := (*[4]int64)(v[j:])
				o := (*[4]uint64)(b[j:])
				o[0], o[1], o[2], o[3] = uint64(q[0])-prev, uint64(q[1]-q[0]), uint64(q[2]-q[1]), uint64(q[3]-q[2])
				prev = uint64(q[3])
				d0, d1, d2, d3 := int64(o[0]), int64(o[1]), int64(o[2]), int64(o[3])
				n0, n1, n2, n3 = min(n0, d0), min(n1, d1), min(n2, d2), min(n3, d3)
				x0, x1, x2, x3 = max(x0, d0), max(x1, d1), max(x2, d2), max(x3, d3)
			}
			for ; j < len(v); j++ {
				b[j] = uint64(v[j]) - prev
				prev = uint64(v[j])
				n0, x0 = min(n0, int64(b[j])), max(x0, int64(b[j]))
			}
			minD = min(n0, n1, n2, n3)
			maxs[mb] = max(x0, x1, x2, x3)
		}
		m := uint64(minD)
		dst = appendZigzag(dst, minD)
		wpos := len(dst)
		for range miniBlocks {
			dst = append(dst, 0)
		}
		for mb := 0; mb*mbSize < k; mb++ {
			w := bits.Len64(uint64(maxs[mb]) - m)
			dst[wpos+mb] = byte(w)
			part := buf[mb*mbSize : (mb+1)*mbSize]
			if cnt := k - mb*mbSize; cnt < mbSize {
				for j := cnt; j < mbSize; j++ {
					part[j] = m
				}
			}
			if w == 0 {
				continue
			}
			if mbSize%32 != 0 {
				for j := range part {
					part[j] -= m
				}
				dst = appendPack64(dst, part, w)
				continue
			}
			nb := mbSize * w / 8
			dst = grow(dst, nb)
			out := dst[len(dst) : len(dst)+nb]
			for c := 0; c < mbSize; c += 32 {
				packSub64Kernels(w, out[c/32*4*w:], part[c:], m)
			}
			dst = dst[:len(dst)+nb]
		}
		rest = rest[k:]
	}
	return dst
}

// deltaHeader is a parsed DELTA_BINARY_PACKED header.
type deltaHeader struct {
	blockSize, miniBlocks, mbSize, total int
	first                                int64
}

// readDeltaHeader parses a header. strict=false admits the block sizes
// that are not multiples of 128 used by the specification's examples.
func readDeltaHeader(src []byte, strict bool) (deltaHeader, int, error) {
	var h deltaHeader
	pos := 0
	var v [3]uint64
	for i := range v {
		x, k, err := readUvarint(src[pos:])
		if err != nil {
			return h, pos, fmt.Errorf("delta header: %w", err)
		}
		v[i] = x
		pos += k
	}
	first, k, err := readZigzag(src[pos:])
	if err != nil {
		return h, pos, fmt.Errorf("delta header first value: %w", err)
	}
	pos += k
	bs, mbs, total := v[0], v[1], v[2]
	if total == 0 {
		// No value follows the header, so its block layout is never used:
		// arrow-go v18.8.0 writes the suffix lengths of an all-null
		// DELTA_BYTE_ARRAY page as a header of zeros (block size 0), and
		// its own reader accepts it.
		return deltaHeader{first: first}, pos, nil
	}
	if bs == 0 || bs > maxDeltaBlockSize || (strict && bs%128 != 0) {
		return h, pos, fmt.Errorf("delta block size %d is not a multiple of 128 in (0,%d]: %w", bs, maxDeltaBlockSize, ErrDeltaHeader)
	}
	if mbs == 0 || bs%mbs != 0 || (strict && (bs/mbs)%32 != 0) {
		return h, pos, fmt.Errorf("delta block size %d with %d miniblocks does not give a multiple of 32 values per miniblock: %w", bs, mbs, ErrDeltaHeader)
	}
	if total > math.MaxInt32 {
		return h, pos, fmt.Errorf("delta value count %d exceeds 2^31-1: %w", total, ErrLength)
	}
	h = deltaHeader{blockSize: int(bs), miniBlocks: int(mbs), mbSize: int(bs / mbs), total: int(total), first: first}
	return h, pos, nil
}

// DecodeDeltaInt32 decodes a DELTA_BINARY_PACKED stream of INT32 values
// into dst (reused, grown as values are produced) and returns the values
// and the number of bytes consumed (the stream's exact length, so data
// following it can be located).
func DecodeDeltaInt32(dst []int32, src []byte) ([]int32, int, error) {
	u, n, err := decodeDelta32(as32[uint32](dst[:0]), src, true, nil)
	return as32[int32](u), n, err
}

// DecodeDeltaInt32Wide is DecodeDeltaInt32 that also reads miniblocks of
// bit width 33 to 64, as written by writers that compute the deltas of
// INT32 values in 64-bit arithmetic (DuckDB 1.5 writes width 33 for
// deltas that span more than 2^32). Such a delta is taken modulo 2^32,
// which gives the value the writer meant, since every INT32 delta is
// exact modulo 2^32. wide reports whether any miniblock was wider than
// 32 bits: the stream deviates from the specification, which bounds the
// width of INT32 deltas by 32. Miniblocks of width 32 or less take the
// same path as in DecodeDeltaInt32.
func DecodeDeltaInt32Wide(dst []int32, src []byte) (vals []int32, n int, wide bool, err error) {
	u, n, err := decodeDelta32(as32[uint32](dst[:0]), src, true, &wide)
	return as32[int32](u), n, wide, err
}

// DecodeDeltaInt64 decodes a DELTA_BINARY_PACKED stream of INT64 values,
// as DecodeDeltaInt32.
func DecodeDeltaInt64(dst []int64, src []byte) ([]int64, int, error) {
	return decodeDelta64(dst[:0], src, true)
}

// decodeDelta32 appends the decoded values to dst. With wide not nil,
// miniblocks of width 33 to 64 are read and their deltas wrapped to 32
// bits, and *wide is set when one is met; with wide nil they are an
// error.
func decodeDelta32(dst []uint32, src []byte, strict bool, wide *bool) ([]uint32, int, error) {
	h, pos, err := readDeltaHeader(src, strict)
	if err != nil {
		return dst, pos, err
	}
	if h.total == 0 {
		return dst, pos, nil
	}
	dst = growSlice(dst, min(h.total, 8*len(src)+8))
	last := uint32(h.first)
	dst = append(dst, last)
	remaining := h.total - 1
	var buf [32]uint32
	for remaining > 0 {
		minD, k, err := readZigzag(src[pos:])
		if err != nil {
			return dst, pos, fmt.Errorf("delta block min delta at byte %d: %w", pos, err)
		}
		pos += k
		if len(src)-pos < h.miniBlocks {
			return dst, pos, fmt.Errorf("delta block bit widths at byte %d: %w", pos, ErrTruncated)
		}
		widths := src[pos : pos+h.miniBlocks]
		pos += h.miniBlocks
		m := uint32(minD)
		for mb := 0; mb < h.miniBlocks && remaining > 0; mb++ {
			w := int(widths[mb])
			if w > 32 && (wide == nil || w > 64) {
				return dst, pos, fmt.Errorf("delta int32 miniblock bit width %d: %w", w, ErrBitWidth)
			}
			nb := h.mbSize * w / 8
			if len(src)-pos < nb {
				return dst, pos, fmt.Errorf("delta miniblock of %d bytes at byte %d, %d left: %w", nb, pos, len(src)-pos, ErrTruncated)
			}
			c := min(h.mbSize, remaining)
			dst = growSlice(dst, c)
			if w > 32 {
				*wide = true
				dst, last = unpackWideDeltas32(dst, src[pos:pos+nb], c, w, last, m)
				pos += nb
				remaining -= c
				continue
			}
			p := src[pos:]
			for done := 0; done < c; done += 32 {
				cc := min(32, c-done)
				if cc == 32 && len(p) >= 4*w && cap(dst)-len(dst) >= 32 {
					out := dst[len(dst) : len(dst)+32]
					if w == 0 {
						for j := range out {
							last += m
							out[j] = last
						}
					} else {
						last = deltaUnpack32Kernels(w, out, p, last, m)
					}
					dst = dst[:len(dst)+32]
					p = p[4*w:]
					continue
				}
				unpack32(buf[:cc], p, w)
				out := dst[len(dst) : len(dst)+cc]
				for j, d := range buf[:cc] {
					last += d + m
					out[j] = last
				}
				dst = dst[:len(dst)+cc]
				p = p[min(len(p), 4*w):]
			}
			pos += nb
			remaining -= c
		}
	}
	return dst, pos, nil
}

// decodeDelta64 appends the decoded values to dst.
func decodeDelta64(dst []int64, src []byte, strict bool) ([]int64, int, error) {
	h, pos, err := readDeltaHeader(src, strict)
	if err != nil {
		return dst, pos, err
	}
	if h.total == 0 {
		return dst, pos, nil
	}
	dst = growSlice(dst, min(h.total, 8*len(src)+8))
	last := uint64(h.first)
	dst = append(dst, int64(last))
	remaining := h.total - 1
	var buf [32]uint64
	for remaining > 0 {
		minD, k, err := readZigzag(src[pos:])
		if err != nil {
			return dst, pos, fmt.Errorf("delta block min delta at byte %d: %w", pos, err)
		}
		pos += k
		if len(src)-pos < h.miniBlocks {
			return dst, pos, fmt.Errorf("delta block bit widths at byte %d: %w", pos, ErrTruncated)
		}
		widths := src[pos : pos+h.miniBlocks]
		pos += h.miniBlocks
		m := uint64(minD)
		for mb := 0; mb < h.miniBlocks && remaining > 0; mb++ {
			w := int(widths[mb])
			if w > 64 {
				return dst, pos, fmt.Errorf("delta int64 miniblock bit width %d: %w", w, ErrBitWidth)
			}
			nb := h.mbSize * w / 8
			if len(src)-pos < nb {
				return dst, pos, fmt.Errorf("delta miniblock of %d bytes at byte %d, %d left: %w", nb, pos, len(src)-pos, ErrTruncated)
			}
			c := min(h.mbSize, remaining)
			dst = growSlice(dst, c)
			p := src[pos:]
			for done := 0; done < c; done += 32 {
				cc := min(32, c-done)
				if cc == 32 && len(p) >= 4*w && cap(dst)-len(dst) >= 32 {
					out := dst[len(dst) : len(dst)+32]
					if w == 0 {
						for j := range out {
							last += m
							out[j] = int64(last)
						}
					} else {
						last = deltaUnpack64Kernels(w, out, p, last, m)
					}
					dst = dst[:len(dst)+32]
					p = p[4*w:]
					continue
				}
				unpack64(buf[:cc], p, w)
				out := dst[len(dst) : len(dst)+cc]
				for j, d := range buf[:cc] {
					last += d + m
					out[j] = int64(last)
				}
				dst = dst[:len(dst)+cc]
				p = p[min(len(p), 4*w):]
			}
			pos += nb
			remaining -= c
		}
	}
	return dst, pos, nil
}

// unpackWideDeltas32 appends the c values of a miniblock of 64-bit
// deltas of width w (33..64) packed in p, each delta wrapped to 32 bits
// (the INT32 value it leads to is the same), and returns the last value.
// Precondition: cap(dst)-len(dst) >= c, len(p) holds the miniblock.
func unpackWideDeltas32(dst []uint32, p []byte, c, w int, last, m uint32) ([]uint32, uint32) {
	var buf [32]uint64
	for done := 0; done < c; done += 32 {
		cc := min(32, c-done)
		unpack64(buf[:cc], p, w)
		for _, d := range buf[:cc] {
			last += uint32(d) + m
			dst = append(dst, last)
		}
		p = p[min(len(p), 4*w):]
	}
	return dst, last
}
