// Error values shared by every encoding of this package
// (https://parquet.apache.org/docs/file-format/data-pages/encodings/).

package encode

import "errors"

// Sentinel errors returned (wrapped with fmt.Errorf("...: %w")) by the
// decoders of this package. Callers test them with errors.Is.
var (
	// ErrTruncated reports that the input ended before the encoded data did.
	ErrTruncated = errors.New("encode: truncated input")
	// ErrBitWidth reports a bit width outside the range the encoding allows.
	ErrBitWidth = errors.New("encode: invalid bit width")
	// ErrCorrupt reports structurally invalid encoded data (a malformed
	// varint, a value that does not fit its bit width, a bad header, ...).
	ErrCorrupt = errors.New("encode: corrupt data")
	// ErrRunLength reports a run (RLE or bit-packed) that is empty, exceeds
	// 2^31-1 values, or extends past the declared number of values.
	ErrRunLength = errors.New("encode: invalid run length")
	// ErrLength reports a negative, oversized or inconsistent byte length or
	// value count.
	ErrLength = errors.New("encode: invalid length")
	// ErrDeltaHeader reports a DELTA_BINARY_PACKED header whose block size is
	// not a positive multiple of 128 or whose miniblocks do not hold a
	// multiple of 32 values.
	ErrDeltaHeader = errors.New("encode: invalid delta header")
	// ErrPrefixLength reports a DELTA_BYTE_ARRAY prefix longer than the
	// previous value.
	ErrPrefixLength = errors.New("encode: invalid prefix length")
	// ErrIndexRange reports a dictionary index outside the dictionary.
	ErrIndexRange = errors.New("encode: dictionary index out of range")
	// ErrBound reports decoded values that would take more bytes than the
	// bound the caller set (DecodeDeltaByteArrayBounded).
	ErrBound = errors.New("encode: decoded values exceed the bound")
)
