// Bloom filter data in a file: a Thrift compact BloomFilterHeader followed
// by the bitset, at ColumnMetaData.bloom_filter_offset. Specification:
// https://parquet.apache.org/docs/file-format/bloomfilter/ ("File Format").

package bloom

import (
	"errors"
	"fmt"
	"io"

	"github.com/pqgen/pqgen/runtime/meta"
)

// headerLimits bounds the Thrift decoding of a BloomFilterHeader: it has no
// strings or lists, so anything long is hostile.
var headerLimits = meta.Limits{MaxStringLen: 1 << 10, MaxContainerLen: 1 << 10, MaxDepth: 8}

// Header returns the BloomFilterHeader describing f.
func (f *Filter) Header() meta.BloomFilterHeader {
	return meta.BloomFilterHeader{
		NumBytes:    int32(len(f.bits)),
		Algorithm:   meta.BloomBlock,
		Hash:        meta.BloomXXHash,
		Compression: meta.BloomUncompressed,
	}
}

// AppendTo appends f as stored in a file, its Thrift compact
// BloomFilterHeader followed by the bitset, to dst. The length appended is
// what ColumnMetaData.bloom_filter_length records.
func (f *Filter) AppendTo(dst []byte) []byte {
	h := f.Header()
	dst = h.AppendThrift(dst)
	return append(dst, f.bits...)
}

// CheckHeader validates a decoded header: algorithm BLOCK, hash XXHASH,
// compression UNCOMPRESSED (another member, or none, is ErrUnsupported;
// none is ErrUnset too) and a bitset size that is a positive multiple of
// BlockBytes no larger than maxBytes (0 means MaxBytes).
func CheckHeader(h *meta.BloomFilterHeader, maxBytes int) error {
	if maxBytes <= 0 {
		maxBytes = MaxBytes
	}
	switch {
	case h.Algorithm == 0 || h.Hash == 0 || h.Compression == 0:
		return fmt.Errorf("%w: %w: algorithm %d, hash %d, compression %d", ErrUnsupported, ErrUnset, h.Algorithm, h.Hash, h.Compression)
	case h.Algorithm != meta.BloomBlock:
		return fmt.Errorf("%w: algorithm %d (want BLOCK)", ErrUnsupported, h.Algorithm)
	case h.Hash != meta.BloomXXHash:
		return fmt.Errorf("%w: hash %d (want XXHASH)", ErrUnsupported, h.Hash)
	case h.Compression != meta.BloomUncompressed:
		return fmt.Errorf("%w: compression %d (want UNCOMPRESSED)", ErrUnsupported, h.Compression)
	}
	return checkSize(int(h.NumBytes), maxBytes)
}

// ParseHeader decodes and validates the BloomFilterHeader at the start of b
// (see [CheckHeader]) and returns it with its encoded length.
func ParseHeader(b []byte, maxBytes int) (meta.BloomFilterHeader, int, error) {
	var h meta.BloomFilterHeader
	n, err := h.DecodeThrift(b, &headerLimits)
	if err != nil {
		if errors.Is(err, meta.ErrTruncated) {
			return h, n, fmt.Errorf("%w: header: %w: %w", ErrCorrupt, io.ErrUnexpectedEOF, err)
		}
		return h, n, fmt.Errorf("%w: header: %w", ErrCorrupt, err)
	}
	return h, n, CheckHeader(&h, maxBytes)
}

// Parse reads a bloom filter as stored in a file (header, then bitset) from
// the start of b, the bytes at the column chunk's bloom_filter_offset, and
// returns the filter and the number of bytes it occupies. The filter's
// bitset aliases b (see [FromBytes]). maxBytes bounds the bitset size
// (0 means MaxBytes); b must hold the whole bitset.
func Parse(b []byte, maxBytes int) (*Filter, int, error) {
	h, n, err := ParseHeader(b, maxBytes)
	if err != nil {
		return nil, n, err
	}
	size := int(h.NumBytes)
	if len(b)-n < size {
		return nil, n, fmt.Errorf("%w: header announces %d bitset bytes, %d available: %w", ErrCorrupt, size, len(b)-n, io.ErrUnexpectedEOF)
	}
	bits := b[n : n+size : n+size]
	return &Filter{bits: bits, nblocks: uint64(size / BlockBytes)}, n + size, nil
}

// headerProbe is how many bytes ReadAt reads first for a header of unknown
// length; a valid header is about 15 bytes.
const headerProbe = 64

// maxHeader is the longest header ReadAt accepts (unknown fields included).
const maxHeader = 4096

// ReadAt reads the bloom filter at offset in r: the BloomFilterHeader and
// the bitset after it, into a new buffer. length is the column chunk's
// bloom_filter_length, or 0 when the file does not record it; when given,
// header and bitset must fit in it. maxBytes bounds the bitset size
// (0 means MaxBytes); nothing larger is allocated.
func ReadAt(r io.ReaderAt, offset, length int64, maxBytes int) (*Filter, error) {
	if maxBytes <= 0 {
		maxBytes = MaxBytes
	}
	if offset < 0 || length < 0 {
		return nil, fmt.Errorf("%w: offset %d, length %d", ErrCorrupt, offset, length)
	}
	// Read a probe that holds any ordinary header (and maybe the bitset's
	// start); retry once with a large probe for a header padded with
	// unknown fields.
	var small [headerProbe]byte
	buf := small[:]
	var h meta.BloomFilterHeader
	var n, m int
	for {
		probe := int64(len(buf))
		if length > 0 {
			probe = min(probe, length)
		}
		var err error
		m, err = r.ReadAt(buf[:probe], offset)
		if m < int(probe) && err != nil && err != io.EOF {
			return nil, fmt.Errorf("bloom: reading the header: %w", err)
		}
		h, n, err = ParseHeader(buf[:m], maxBytes)
		if err == nil {
			break
		}
		if m < len(buf) || len(buf) > headerProbe || !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, err
		}
		buf = make([]byte, maxHeader)
	}
	size := int64(h.NumBytes)
	if length > 0 && int64(n)+size > length {
		// length is bloom_filter_length, or what the caller bounds the
		// filter by when the file does not record it (the rest of the file).
		return nil, fmt.Errorf("%w: header and %d-byte bitset exceed the %d bytes the filter may occupy", ErrCorrupt, size, length)
	}
	bits := make([]byte, size)
	copied := copy(bits, buf[n:m])
	if copied < len(bits) {
		k, err := r.ReadAt(bits[copied:], offset+int64(n)+int64(copied))
		if k < len(bits)-copied {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("%w: reading the %d-byte bitset: %w", ErrCorrupt, size, err)
		}
	}
	return &Filter{bits: bits, nblocks: uint64(size / BlockBytes)}, nil
}
