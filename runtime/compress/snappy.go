package compress

import (
	"errors"
	"fmt"
	"slices"

	"github.com/klauspost/compress/s2"

	"github.com/pqgen/pqgen/runtime/meta"
)

// compressSnappy appends the Snappy block encoding of src to dst. Levels:
// 1 (and DefaultLevel) the fast encoder, 2 "better", 3 "best".
func compressSnappy(dst, src []byte, level Level) ([]byte, error) {
	bound := s2.MaxEncodedLen(len(src))
	if bound < 0 {
		return dst, fmt.Errorf("compress: SNAPPY: %w: input of %d bytes is too large for a Snappy block", ErrUnsupported, len(src))
	}
	n := len(dst)
	dst = slices.Grow(dst, bound)
	var enc []byte
	switch level {
	case 2:
		enc = s2.EncodeSnappyBetter(dst[n:cap(dst)], src)
	case 3:
		enc = s2.EncodeSnappyBest(dst[n:cap(dst)], src)
	default:
		enc = s2.EncodeSnappy(dst[n:cap(dst)], src)
	}
	return dst[:n+len(enc)], nil
}

// decompressSnappy decodes a Snappy block into out, checking the block's
// decoded-length preamble against len(out) before decoding anything.
func decompressSnappy(out, src []byte) error {
	n, err := s2.DecodedLen(src)
	if err != nil {
		return corrupt(meta.Snappy, err)
	}
	if n != len(out) {
		return mismatch(meta.Snappy, n, len(out), "block preamble")
	}
	dec, err := s2.Decode(out, src)
	if err != nil {
		return corrupt(meta.Snappy, err)
	}
	if len(dec) != len(out) || (len(out) > 0 && &dec[0] != &out[0]) {
		return corrupt(meta.Snappy, errors.New("decoder did not decode in place"))
	}
	return nil
}
