// Stored forms: src wrapped, byte for byte, in a valid stream of the codec,
// for pages whose data the codec cannot shrink (packed dictionary indices,
// bit-packed deltas, random bytes), so that writing them costs a copy and
// reading them a copy, where the codec would search them for matches and
// then store them anyway.
//
//   - SNAPPY (https://github.com/google/snappy/blob/main/format_description.txt):
//     the uncompressed length as a varint, then literal elements: a tag
//     byte (len-1)<<2 for lengths up to 60, else 60..63<<2 followed by
//     len-1 in 1 to 4 little-endian bytes.
//   - ZSTD (RFC 8878, section 3.1.1): the magic number, a frame header
//     descriptor with Single_Segment_Flag set and the content size in 1, 2,
//     4 or 8 bytes, then Raw_Blocks of at most 128 KiB, each behind a
//     3-byte block header (Last_Block, Block_Type 0, Block_Size).

package compress

import (
	"encoding/binary"

	"github.com/pqgen/pqgen/runtime/meta"
)

// CanStore reports whether [AppendStored] has a stored form for codec.
func CanStore(codec meta.CompressionCodec) bool {
	return codec == meta.Snappy || codec == meta.Zstd
}

// AppendStored appends src, uncompressed, in codec's stream format to dst:
// any reader of the codec decodes it to src. Precondition:
// CanStore(codec); for other codecs it returns dst unchanged and false.
func AppendStored(dst, src []byte, codec meta.CompressionCodec) ([]byte, bool) {
	switch codec {
	case meta.Snappy:
		return appendStoredSnappy(dst, src), true
	case meta.Zstd:
		return appendStoredZstd(dst, src), true
	}
	return dst, false
}

// snappyMaxLiteral is the longest literal element written (one holds up
// to 4 GiB); larger inputs are split.
const snappyMaxLiteral = 1 << 30

func appendStoredSnappy(dst, src []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(src)))
	for len(src) > 0 {
		n := min(len(src), snappyMaxLiteral)
		m := uint64(n - 1)
		switch {
		case n <= 60:
			dst = append(dst, byte(m)<<2)
		case m < 1<<8:
			dst = append(dst, 60<<2, byte(m))
		case m < 1<<16:
			dst = append(dst, 61<<2, byte(m), byte(m>>8))
		case m < 1<<24:
			dst = append(dst, 62<<2, byte(m), byte(m>>8), byte(m>>16))
		default:
			dst = append(dst, 63<<2, byte(m), byte(m>>8), byte(m>>16), byte(m>>24))
		}
		dst = append(dst, src[:n]...)
		src = src[n:]
	}
	return dst
}

// zstdMaxBlock is the largest block a frame may hold (Block_Maximum_Size).
const zstdMaxBlock = 128 << 10

func appendStoredZstd(dst, src []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, 0xFD2FB528)
	const single = 1 << 5 // Single_Segment_Flag: the window is the content
	n := uint64(len(src))
	switch {
	case n < 256:
		dst = append(dst, 0<<6|single, byte(n))
	case n < 65536+256:
		dst = append(dst, 1<<6|single)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(n-256))
	case n < 1<<32:
		dst = append(dst, 2<<6|single)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	default:
		dst = append(dst, 3<<6|single)
		dst = binary.LittleEndian.AppendUint64(dst, n)
	}
	for {
		k := min(len(src), zstdMaxBlock)
		h := uint32(k) << 3 // Block_Type 0 (Raw_Block)
		last := k == len(src)
		if last {
			h |= 1
		}
		dst = append(dst, byte(h), byte(h>>8), byte(h>>16))
		dst = append(dst, src[:k]...)
		src = src[k:]
		if last {
			return dst
		}
	}
}
