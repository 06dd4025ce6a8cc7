// Package bloom implements the split-block bloom filter (SBBF) of Apache
// Parquet: building a filter for a column chunk, writing it with its Thrift
// header, and reading and probing the filters stored in files.
//
// Format (https://parquet.apache.org/docs/file-format/bloomfilter/, the
// "Technical Approach" section of BloomFilter.md in parquet-format): the
// bitset is z blocks of 256 bits (1 <= z < 2^31), each eight little-endian
// 32-bit words. A value is hashed with XXH64 (seed 0) over its PLAIN
// encoding; the upper 32 bits of the hash h select block
// ((h >> 32) * z) >> 32, and the lower 32 bits x set or check, in each word
// i of that block, bit (x * SALT[i]) >> 27 (32-bit multiplication) with
//
//	SALT = 0x47b6137b 0x44974d91 0x8824ad5b 0xa2b7289d
//	       0x705495c7 0x2df1424b 0x9efc4947 0x5c6bfb31
//
// In a file the bitset follows a Thrift compact BloomFilterHeader (numBytes,
// algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED) at the column
// chunk's bloom_filter_offset; bloom_filter_length, when present, covers
// header and bitset.
//
// Hash inputs (the PLAIN encoding without any length prefix): INT32 and
// FLOAT 4 bytes little-endian, INT64 and DOUBLE 8 bytes little-endian, INT96
// its 12 bytes, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY the value's bytes alone.
// Floating-point values are hashed by their bit pattern (-0 and +0, and
// NaNs with different payloads, hash differently), as the PLAIN encoding
// stores them. The hash helpers ([HashInt32], [HashBytes], ...) compute
// exactly these hashes; [Filter.Insert] and [Filter.Check] take the hash.
//
// A Filter is not safe for concurrent mutation; concurrent Check calls on a
// filter nobody mutates are safe.
package bloom
