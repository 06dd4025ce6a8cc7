// ULEB128 and zigzag varints, used by the RLE / bit-packing hybrid run
// headers and the DELTA_BINARY_PACKED headers:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#delta-encoding-delta_binary_packed--5

package encode

import "fmt"

// appendUvarint appends v as ULEB128.
func appendUvarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// appendZigzag appends v zigzag-encoded as ULEB128.
func appendZigzag(dst []byte, v int64) []byte {
	return appendUvarint(dst, uint64(v<<1)^uint64(v>>63))
}

// readUvarint reads a ULEB128 value of at most 64 bits from src and
// returns it with the number of bytes read.
func readUvarint(src []byte) (uint64, int, error) {
	var v uint64
	for i := 0; i < len(src) && i < 10; i++ {
		b := src[i]
		if i == 9 && b > 1 {
			return 0, 0, fmt.Errorf("varint overflows 64 bits: %w", ErrCorrupt)
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, i + 1, nil
		}
	}
	if len(src) >= 10 {
		return 0, 0, fmt.Errorf("varint longer than 10 bytes: %w", ErrCorrupt)
	}
	return 0, 0, fmt.Errorf("varint: %w", ErrTruncated)
}

// readZigzag reads a zigzag ULEB128 value.
func readZigzag(src []byte) (int64, int, error) {
	u, n, err := readUvarint(src)
	return int64(u>>1) ^ -int64(u&1), n, err
}
