// Value hashing: XXH64 with seed 0 over the PLAIN encoding of a value.
// Specification: https://parquet.apache.org/docs/file-format/bloomfilter/
// ("Hash Function"); XXH64: https://github.com/Cyan4973/xxHash/blob/v0.7.0/doc/xxhash_spec.md.

package bloom

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// XXH64 primes (xxHash specification).
const (
	prime1 uint64 = 0x9E3779B185EBCA87
	prime2 uint64 = 0xC2B2AE3D27D4EB4F
	prime3 uint64 = 0x165667B19E3779F9
	prime4 uint64 = 0x85EBCA77C2B2AE63
	prime5 uint64 = 0x27D4EB2F165667C5
)

// The fixed-width helpers compute XXH64 (seed 0) of short inputs inline;
// tests check them against github.com/cespare/xxhash/v2.

func mix8(acc, lane uint64) uint64 {
	k := bits.RotateLeft64(lane*prime2, 31) * prime1
	return bits.RotateLeft64(acc^k, 27)*prime1 + prime4
}

func mix4(acc uint64, lane uint32) uint64 {
	return bits.RotateLeft64(acc^uint64(lane)*prime1, 23)*prime2 + prime3
}

func avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

// HashInt32 returns the hash of an INT32 value (4 bytes little-endian).
func HashInt32(v int32) uint64 { return avalanche(mix4(prime5+4, uint32(v))) }

// HashInt64 returns the hash of an INT64 value (8 bytes little-endian).
func HashInt64(v int64) uint64 { return avalanche(mix8(prime5+8, uint64(v))) }

// HashFloat returns the hash of a FLOAT value (its IEEE 754 bits, 4 bytes
// little-endian).
func HashFloat(v float32) uint64 { return HashInt32(int32(math.Float32bits(v))) }

// HashDouble returns the hash of a DOUBLE value (its IEEE 754 bits, 8 bytes
// little-endian).
func HashDouble(v float64) uint64 { return HashInt64(int64(math.Float64bits(v))) }

// HashInt96 returns the hash of an INT96 value given as its 12 PLAIN bytes.
func HashInt96(v [12]byte) uint64 {
	h := mix8(prime5+12, binary.LittleEndian.Uint64(v[:8]))
	return avalanche(mix4(h, binary.LittleEndian.Uint32(v[8:])))
}

// HashBytes returns the hash of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value:
// XXH64 of its bytes, without the PLAIN length prefix.
func HashBytes(v []byte) uint64 { return xxhash.Sum64(v) }

// HashString is HashBytes for a value held in a string.
func HashString(v string) uint64 { return xxhash.Sum64String(v) }
