// The split-block bloom filter bitset: z blocks of eight little-endian
// 32-bit words; a hash's upper half picks the block, its lower half times
// each SALT constant picks one bit per word. Specification:
// https://parquet.apache.org/docs/file-format/bloomfilter/ ("Technical
// Approach": split block Bloom filters, Algorithm, Build a Bloom filter).

package bloom

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Size bounds of a bitset.
const (
	// BlockBytes is the size of one block: eight 32-bit words.
	BlockBytes = 32
	// MinBytes is the smallest bitset: one block.
	MinBytes = BlockBytes
	// MaxBytes is the largest bitset this package creates or accepts by
	// default (128 MiB, the cap of the reference implementations).
	MaxBytes = 128 << 20
)

// Errors. Errors of this package wrap one of them (test with errors.Is).
var (
	// ErrSize reports a bitset length that is not a positive multiple of
	// 32 bytes or exceeds the size limit.
	ErrSize = errors.New("bloom: invalid bitset size")
	// ErrUnsupported reports a header naming an algorithm, hash or
	// compression other than BLOCK, XXHASH and UNCOMPRESSED.
	ErrUnsupported = errors.New("bloom: unsupported bloom filter")
	// ErrUnset reports, with ErrUnsupported, a header whose algorithm,
	// hash or compression union has no member set (parquetjs writes
	// empty structs there): it names no hashing, so the bitset cannot be
	// probed.
	ErrUnset = errors.New("bloom: header union with no member set")
	// ErrCorrupt reports an undecodable header, or fewer bytes than the
	// header announces.
	ErrCorrupt = errors.New("bloom: corrupt bloom filter")
)

// Filter is a split-block bloom filter. Its bitset is kept in the on-disk
// layout, so [Filter.Bytes] is free.
type Filter struct {
	bits    []byte
	nblocks uint64
}

// OptimalNumBytes returns the bitset size in bytes for ndv distinct values
// and the false-positive probability fpp: ndv * c bits with
// c = -8 / ln(1 - fpp^(1/8)) (the format's sizing formula), rounded up to a
// power of two and clamped to [MinBytes, MaxBytes]. An fpp at or above 1
// (or NaN), or ndv 0, gives MinBytes; an fpp at or below 0 gives MaxBytes.
//
// The formula is the one of a classic bloom filter with eight hash
// functions; a split-block filter filled to exactly ndv values does a little
// worse, and the rounding up to a power of two usually more than makes up
// for it (TestFalsePositiveRate checks the rate).
func OptimalNumBytes(ndv uint64, fpp float64) int {
	switch {
	case ndv == 0 || !(fpp < 1):
		return MinBytes
	case fpp <= 0:
		return MaxBytes
	}
	bitsPerValue := -8 / math.Log1p(-math.Pow(fpp, 1.0/8))
	nbytes := math.Ceil(float64(ndv) * bitsPerValue / 8)
	if !(nbytes < MaxBytes) {
		return MaxBytes
	}
	n := MinBytes
	for float64(n) < nbytes {
		n <<= 1
	}
	return n
}

// New returns an empty filter of numBytes bytes, rounded up to a multiple
// of BlockBytes and clamped to [MinBytes, MaxBytes]. Use [OptimalNumBytes]
// to size it (the reference writers use powers of two).
func New(numBytes int) *Filter {
	n := min(max(numBytes, MinBytes), MaxBytes)
	n = (n + BlockBytes - 1) &^ (BlockBytes - 1)
	return &Filter{bits: make([]byte, n), nblocks: uint64(n / BlockBytes)}
}

// FromBytes returns the filter whose bitset is b, without copying: b must
// not be modified while the filter is used, and Insert writes into b. The
// length must be a positive multiple of BlockBytes, at most MaxBytes.
func FromBytes(b []byte) (*Filter, error) {
	if err := checkSize(len(b), MaxBytes); err != nil {
		return nil, err
	}
	return &Filter{bits: b, nblocks: uint64(len(b) / BlockBytes)}, nil
}

func checkSize(n, limit int) error {
	if n <= 0 || n%BlockBytes != 0 || n > limit {
		return fmt.Errorf("%w: %d bytes (want a positive multiple of %d, at most %d)", ErrSize, n, BlockBytes, limit)
	}
	return nil
}

// NumBytes returns the size of the bitset in bytes.
func (f *Filter) NumBytes() int { return len(f.bits) }

// Bytes returns the bitset in its on-disk layout (not a copy).
func (f *Filter) Bytes() []byte { return f.bits }

// Reset clears every bit, so that a writer can reuse the filter for the
// next column chunk.
func (f *Filter) Reset() { clear(f.bits) }

// block returns the 32-byte block that hash h maps to.
func (f *Filter) block(h uint64) *[BlockBytes]byte {
	i := (((h >> 32) * f.nblocks) >> 32) * BlockBytes
	return (*[BlockBytes]byte)(f.bits[i : i+BlockBytes])
}

// The eight SALT constants of the format (one per word of a block).
const (
	salt0 = 0x47b6137b
	salt1 = 0x44974d91
	salt2 = 0x8824ad5b
	salt3 = 0xa2b7289d
	salt4 = 0x705495c7
	salt5 = 0x2df1424b
	salt6 = 0x9efc4947
	salt7 = 0x5c6bfb31
)

// or sets bit (x * s) >> 27 of the little-endian word at b[o:o+4].
func or(b *[BlockBytes]byte, o int, x, s uint32) {
	w := binary.LittleEndian.Uint32(b[o : o+4])
	binary.LittleEndian.PutUint32(b[o:o+4], w|1<<((x*s)>>27))
}

// has reports whether bit (x * s) >> 27 of the word at b[o:o+4] is set.
func has(b *[BlockBytes]byte, o int, x, s uint32) bool {
	return binary.LittleEndian.Uint32(b[o:o+4])&(1<<((x*s)>>27)) != 0
}

// Insert adds the value whose hash is h.
func (f *Filter) Insert(h uint64) {
	b := f.block(h)
	x := uint32(h)
	or(b, 0, x, salt0)
	or(b, 4, x, salt1)
	or(b, 8, x, salt2)
	or(b, 12, x, salt3)
	or(b, 16, x, salt4)
	or(b, 20, x, salt5)
	or(b, 24, x, salt6)
	or(b, 28, x, salt7)
}

// InsertMany adds every hash of hashes.
func (f *Filter) InsertMany(hashes []uint64) {
	for _, h := range hashes {
		f.Insert(h)
	}
}

// Check reports whether the value whose hash is h may have been inserted:
// false means certainly not.
func (f *Filter) Check(h uint64) bool {
	b := f.block(h)
	x := uint32(h)
	return has(b, 0, x, salt0) && has(b, 4, x, salt1) &&
		has(b, 8, x, salt2) && has(b, 12, x, salt3) &&
		has(b, 16, x, salt4) && has(b, 20, x, salt5) &&
		has(b, 24, x, salt6) && has(b, 28, x, salt7)
}
