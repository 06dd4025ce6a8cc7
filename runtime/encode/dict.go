// Dictionary encoding (PLAIN_DICTIONARY = 2, RLE_DICTIONARY = 8): building
// dictionaries per physical type, the index pages (1-byte bit width then
// the RLE / bit-packing hybrid without length prefix) and the gather
// helpers that resolve indices:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#dictionary-encoding-plain_dictionary--2-and-rle_dictionary--8

package encode

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/cespare/xxhash/v2"

	"github.com/pqgen/pqgen/runtime/internal/bufpool"
)

// The pools the dictionaries' tables and entries grow through: a
// dictionary outgrows a table or entry buffer at each doubling, and
// Release gives all of them back when its writer is done, for the next
// columns and writers (a 200-column writer otherwise allocates some
// 10 MB of tables per file, most of them for dictionaries it abandons).
var (
	poolSlots32 bufpool.Pool[int32]  // fixedTable slots
	poolKeys32  bufpool.Pool[uint32] // Dict32 entries, DictBytes offsets
	poolKeys64  bufpool.Pool[uint64] // Dict64 entries, DictBytes slots
	poolBytes   bufpool.Pool[byte]   // DictBytes entry bytes
)

// keyPool returns the pool of K's entry buffers.
func keyPool[K uint32 | uint64]() *bufpool.Pool[K] {
	var k K
	if _, ok := any(k).(uint32); ok {
		return any(&poolKeys32).(*bufpool.Pool[K])
	}
	return any(&poolKeys64).(*bufpool.Pool[K])
}

// DefaultMaxDictBytes is the default limit on the PLAIN-encoded size of a
// dictionary (parquet-java's default dictionary page size, 1 MiB).
const DefaultMaxDictBytes = 1 << 20

// DictLimits bounds a dictionary. Zero fields take the defaults:
// MaxBytes DefaultMaxDictBytes and MaxEntries 2^31-1.
type DictLimits struct {
	// MaxBytes bounds the PLAIN-encoded size of the dictionary page.
	MaxBytes int
	// MaxEntries bounds the number of distinct values.
	MaxEntries int
}

func (l DictLimits) norm() DictLimits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxDictBytes
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = math.MaxInt32
	}
	return l
}

// DictBitWidth returns the bit width of the indices of a dictionary of n
// entries (0 for n <= 1).
func DictBitWidth(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// AppendDictIndices appends a dictionary-encoded data page body: the bit
// width as one byte then the RLE / bit-packed hybrid (no length prefix) of
// idx. Preconditions: 0 <= bitWidth <= 32 and every index fits it.
func AppendDictIndices(dst []byte, idx []int32, bitWidth int) []byte {
	dst = append(dst, byte(bitWidth))
	return AppendRLEInt32(dst, idx, bitWidth)
}

// DecodeDictIndices decodes n dictionary indices (1-byte bit width, at
// most 32, then the hybrid data) into dst (reused, grown if too short) and
// returns them with the bytes consumed. Indices are not range checked
// here; Gather* do that.
func DecodeDictIndices(dst []int32, src []byte, n int) ([]int32, int, error) {
	if len(src) < 1 {
		if n == 0 {
			return dst[:0], 0, nil
		}
		return dst[:0], 0, fmt.Errorf("dictionary indices: missing bit width: %w", ErrTruncated)
	}
	w := int(src[0])
	if w > 32 {
		return dst[:0], 1, fmt.Errorf("dictionary indices: bit width %d exceeds 32: %w", w, ErrBitWidth)
	}
	out, k, err := DecodeRLEInt32(dst, src[1:], w, n)
	if err != nil {
		err = fmt.Errorf("dictionary indices: %w", err)
	}
	return out, 1 + k, err
}

// Gather appends dict[i] for each index i of idx to dst[:0] (reused, grown
// if too short). It fails with ErrIndexRange on an index outside dict.
func Gather[T any](dst []T, dict []T, idx []int32) ([]T, error) {
	dst = growSlice(dst[:0], len(idx))[:len(idx)]
	for j, i := range idx {
		if uint(i) >= uint(len(dict)) {
			return dst[:j], fmt.Errorf("index %d of %d-entry dictionary at position %d: %w", i, len(dict), j, ErrIndexRange)
		}
		dst[j] = dict[i]
	}
	return dst, nil
}

// GatherByteArrays resolves idx against dict into dst (buffers reused).
func GatherByteArrays(dst ByteArrays, dict ByteArrays, idx []int32) (ByteArrays, error) {
	dst = dst.reset0()
	err := dst.AppendGathered(&dict, idx)
	return dst, err
}

// GatherFixed resolves idx against a dictionary of FIXED_LEN_BYTE_ARRAY
// values of size bytes held back to back, appending to dst[:0].
func GatherFixed(dst []byte, dict []byte, size int, idx []int32) ([]byte, error) {
	if size <= 0 {
		return dst[:0], fmt.Errorf("gather fixed: size %d: %w", size, ErrLength)
	}
	n := len(dict) / size
	dst = grow(dst[:0], len(idx)*size)
	for j, i := range idx {
		if uint(i) >= uint(n) {
			return dst, fmt.Errorf("index %d of %d-entry dictionary at position %d: %w", i, n, j, ErrIndexRange)
		}
		dst = append(dst, dict[int(i)*size:(int(i)+1)*size]...)
	}
	return dst, nil
}

// fixedTable is an open-addressing (linear probing) hash set of K values
// that maps each to its insertion index.
type fixedTable[K uint32 | uint64] struct {
	values []K
	slots  []int32 // index+1; 0 marks an empty slot
	shift  uint    // 64 - log2(len(slots))
}

const fibMul = 0x9E3779B97F4A7C15

func (t *fixedTable[K]) init() {
	t.slots = bufpool.Zeroed(&poolSlots32, 256)
	t.shift = 64 - 8
}

// home returns the index of k when k sits in its home slot, the common
// case of a value present, else -1: small enough to inline into the
// insert loops, which call find for the others. Precondition: t.slots is
// not nil (init).
func (t *fixedTable[K]) home(k K) int32 {
	if s := t.slots[(uint64(k)*fibMul)>>t.shift]; s != 0 && t.values[s-1] == k {
		return s - 1
	}
	return -1
}

// insertKeys appends to idx the index of each key of src, inserting those
// absent while the table holds fewer than limit entries: the Insert
// methods of Dict32 and Dict64 (by bit pattern). A key found in its home
// slot costs no call (home inlines); find takes the others. It returns
// idx, how many keys were added and whether the limit stopped it.
func (t *fixedTable[K]) insertKeys(limit int, idx []int32, src []K) ([]int32, int, bool) {
	idx = growSlice(idx, len(src))
	if t.slots == nil {
		t.init()
	}
	for i, v := range src {
		if j := t.home(v); j >= 0 {
			idx = append(idx, j)
			continue
		}
		j, ok := t.find(v, limit)
		if !ok {
			return idx, i, true
		}
		idx = append(idx, j)
	}
	return idx, len(src), false
}

// find returns the index of k, inserting it when absent and limit allows
// (ok=false when it would exceed limit entries).
func (t *fixedTable[K]) find(k K, limit int) (int32, bool) {
	if t.slots == nil {
		t.init()
	}
	mask := uint64(len(t.slots) - 1)
	h := (uint64(k) * fibMul) >> t.shift
	for {
		s := t.slots[h]
		if s == 0 {
			break
		}
		if t.values[s-1] == k {
			return s - 1, true
		}
		h = (h + 1) & mask
	}
	if len(t.values) >= limit {
		return 0, false
	}
	if len(t.values) == cap(t.values) {
		t.values = bufpool.Grow(keyPool[K](), t.values, 1)
	}
	t.values = append(t.values, k)
	idx := int32(len(t.values))
	t.slots[h] = idx
	if crowded(len(t.values), len(t.slots), 4) {
		t.rehash()
	}
	return idx - 1, true
}

func (t *fixedTable[K]) rehash() {
	poolSlots32.Put(t.slots) // placed again from t.values
	t.slots = bufpool.Zeroed(&poolSlots32, 2*len(t.slots))
	t.shift--
	mask := uint64(len(t.slots) - 1)
	for i, k := range t.values {
		h := (uint64(k) * fibMul) >> t.shift
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = int32(i + 1)
	}
}

func (t *fixedTable[K]) reset() {
	t.values = t.values[:0]
	clear(t.slots)
}

// release empties t and gives its buffers to the pools.
func (t *fixedTable[K]) release() {
	poolSlots32.Put(t.slots)
	keyPool[K]().Put(t.values)
	*t = fixedTable[K]{}
}

// Dict32 builds a dictionary of 4-byte values (INT32 or FLOAT, compared by
// bit pattern so that -0 and +0, or NaNs with different payloads, stay
// distinct). The zero value is ready to use with default limits.
type Dict32 struct {
	// Limits bounds the dictionary; change it only while the dictionary is
	// empty.
	Limits DictLimits
	t      fixedTable[uint32]
}

// InsertInt32 adds the values of src, appending their indices to idx. It
// stops at the first value that would make the dictionary exceed its
// limits and returns full=true with the number of values added; the caller
// then falls back to another encoding for src[added:].
func (d *Dict32) InsertInt32(idx []int32, src []int32) (_ []int32, added int, full bool) {
	return d.insert(idx, as32[uint32](src))
}

// InsertFloat adds the values of src by bit pattern, as InsertInt32.
func (d *Dict32) InsertFloat(idx []int32, src []float32) (_ []int32, added int, full bool) {
	return d.t.insertKeys(d.limit(), idx, as32[uint32](src))
}

func (d *Dict32) limit() int {
	l := d.Limits.norm()
	return min(l.MaxEntries, l.MaxBytes/4)
}

func (d *Dict32) insert(idx []int32, src []uint32) ([]int32, int, bool) {
	return d.t.insertKeys(d.limit(), idx, src)
}

// Len returns the number of entries.
func (d *Dict32) Len() int { return len(d.t.values) }

// Size returns the PLAIN-encoded size of the dictionary in bytes.
func (d *Dict32) Size() int { return 4 * len(d.t.values) }

// AppendPlain appends the dictionary page body (the entries, PLAIN).
func (d *Dict32) AppendPlain(dst []byte) []byte {
	return AppendPlainInt32(dst, as32[int32](d.t.values))
}

// Reset empties the dictionary, keeping its memory.
func (d *Dict32) Reset() { d.t.reset() }

// Release empties the dictionary and gives its memory to pools shared by
// the process, from which dictionaries grow; the dictionary stays usable
// and grows anew. Slices of it (Values) must not be used afterwards.
func (d *Dict32) Release() { d.t.release() }

// Values returns the entries' bit patterns in index order (aliasing the
// dictionary's memory).
func (d *Dict32) Values() []uint32 { return d.t.values }

// Dict64 builds a dictionary of 8-byte values (INT64 or DOUBLE, compared
// by bit pattern). The zero value is ready to use with default limits.
type Dict64 struct {
	// Limits bounds the dictionary; change it only while it is empty.
	Limits DictLimits
	t      fixedTable[uint64]
}

func (d *Dict64) limit() int {
	l := d.Limits.norm()
	return min(l.MaxEntries, l.MaxBytes/8)
}

// InsertInt64 adds the values of src, as Dict32.InsertInt32.
func (d *Dict64) InsertInt64(idx []int32, src []int64) (_ []int32, added int, full bool) {
	return d.t.insertKeys(d.limit(), idx, as64[uint64](src))
}

// InsertDouble adds the values of src by bit pattern, as
// Dict32.InsertInt32.
func (d *Dict64) InsertDouble(idx []int32, src []float64) (_ []int32, added int, full bool) {
	return d.t.insertKeys(d.limit(), idx, as64[uint64](src))
}

// Len returns the number of entries.
func (d *Dict64) Len() int { return len(d.t.values) }

// Size returns the PLAIN-encoded size of the dictionary in bytes.
func (d *Dict64) Size() int { return 8 * len(d.t.values) }

// AppendPlain appends the dictionary page body (the entries, PLAIN).
func (d *Dict64) AppendPlain(dst []byte) []byte {
	return AppendPlainInt64(dst, as64[int64](d.t.values))
}

// Reset empties the dictionary, keeping its memory.
func (d *Dict64) Reset() { d.t.reset() }

// Release empties the dictionary and gives its memory to the pools, as
// Dict32.Release.
func (d *Dict64) Release() { d.t.release() }

// Values returns the entries' bit patterns in index order (aliasing the
// dictionary's memory).
func (d *Dict64) Values() []uint64 { return d.t.values }

// DictBytes builds a dictionary of byte strings: BYTE_ARRAY,
// FIXED_LEN_BYTE_ARRAY or INT96 values (use one kind per dictionary).
// Values are hashed with dictHash into an open-addressing table; entries are
// held in one ByteArrays, so inserting allocates nothing per value. The
// zero value is ready to use with default limits.
type DictBytes struct {
	// Limits bounds the dictionary; change it only while it is empty.
	Limits DictLimits
	values ByteArrays
	// slots is the open-addressing table: 0 marks an empty slot, else
	// tag<<32 | index+1, where tag is the top 32 bits of the entry's
	// mixed hash. The home slot is tag>>shift, so growing the table needs
	// no rehashing of keys, and one load yields both the tag to filter
	// on and the entry.
	slots []uint64
	shift uint // 32 - log2(len(slots))
	fixed bool // entries are FIXED_LEN_BYTE_ARRAY/INT96: no length prefix
	size  int  // PLAIN-encoded size
}

// dictHash hashes a dictionary key. It is the table's own hash (bloom
// filters hash with xxhash, as the format requires): keys of up to 16
// bytes, the common case of categorical strings, are read as two
// overlapping words and mixed with one 64x64->128 multiply, which costs a
// fraction of xxhash on such keys; keys of 17 to 32 bytes as two such
// pairs whose mixes are mixed again; longer keys go to xxhash.
func dictHash(v []byte) uint64 {
	const k0, k1, k2, k3 = dictK0, dictK1, 0x8ebc6af09c88c6e3, 0x589965cc75374cc3
	n := len(v)
	var a, b uint64
	switch {
	case n > 32:
		return xxhash.Sum64(v)
	case n > 16:
		hi0, lo0 := bits.Mul64(binary.LittleEndian.Uint64(v)^k0, binary.LittleEndian.Uint64(v[8:])^k1^uint64(n))
		hi1, lo1 := bits.Mul64(binary.LittleEndian.Uint64(v[n-16:])^k2, binary.LittleEndian.Uint64(v[n-8:])^k3)
		a, b = hi0^lo0, hi1^lo1
	case n >= 8:
		return hashWords(v)
	case n >= 4:
		a, b = uint64(binary.LittleEndian.Uint32(v)), uint64(binary.LittleEndian.Uint32(v[n-4:]))
	case n > 0:
		a = uint64(v[0])<<16 | uint64(v[n/2])<<8 | uint64(v[n-1])
	}
	return dictMix(a, b, n)
}

// dictK0 and dictK1 are the constants of dictMix (and dictHash's first
// two).
const dictK0, dictK1 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db

// dictMix is dictHash's last step.
func dictMix(a, b uint64, n int) uint64 {
	hi, lo := bits.Mul64(a^dictK0, b^dictK1^uint64(n))
	return hi ^ lo
}

// hashWords is dictHash of a key of 8 to 16 bytes: its first and last 8
// bytes mixed (it inlines, where dictHash does not). Precondition:
// 8 <= len(v) <= 16.
func hashWords(v []byte) uint64 {
	n := len(v)
	return dictMix(binary.LittleEndian.Uint64(v), binary.LittleEndian.Uint64(v[n-8:]), n)
}

// find returns the index of v, inserting it when absent and the limits
// allow.
func (d *DictBytes) find(v []byte, lim DictLimits) (int32, bool) {
	return d.findTag(v, dictTag(v), lim)
}

// dictTag is the 32-bit tag of key v: the top bits of its mixed hash.
func dictTag(v []byte) uint32 { return tagOf(dictHash(v)) }

// tagOf is the tag of a key whose dictHash is h.
func tagOf(h uint64) uint32 { return uint32((h * fibMul) >> 32) }

// findTag is find with v's tag (dictTag) already computed.
func (d *DictBytes) findTag(v []byte, tag uint32, lim DictLimits) (int32, bool) {
	if d.slots == nil {
		d.init()
	}
	mask := uint32(len(d.slots) - 1)
	h := tag >> d.shift
	for {
		s := d.slots[h]
		if s == 0 {
			break
		}
		if uint32(s>>32) == tag {
			if i := int(uint32(s)) - 1; equalKey(d.values.At(i), v) {
				return int32(i), true
			}
		}
		h = (h + 1) & mask
	}
	add := len(v)
	if !d.fixed {
		add += 4
	}
	n := d.values.Len()
	if n >= lim.MaxEntries || d.size+add > lim.MaxBytes {
		return 0, false
	}
	d.size += add
	// Append's own growth would not be pooled: make the room first.
	d.values.Data = bufpool.Grow(&poolBytes, d.values.Data, len(v))
	d.values.Offsets = bufpool.Grow(&poolKeys32, d.values.Offsets, 2)
	d.values.Append(v)
	d.slots[h] = uint64(tag)<<32 | uint64(n+1)
	if crowded(n+1, len(d.slots), 8) {
		d.grow()
	}
	return int32(n), true
}

// init gives an empty dictionary its first table.
func (d *DictBytes) init() {
	d.slots = bufpool.Zeroed(&poolKeys64, 256)
	d.shift = 32 - 8
}

// equalKey reports whether a and b hold the same bytes. Keys of 4 to 16
// bytes, the common case, are compared as two overlapping words each
// without a call; others, and keys of different lengths, go to the
// runtime's comparison (which compares the lengths first). It is small
// enough to inline.
func equalKey(a, b []byte) bool {
	n := len(a)
	switch {
	case n != len(b) || n > 16 || n < 4:
		return string(a) == string(b)
	case n >= 8:
		return binary.LittleEndian.Uint64(a) == binary.LittleEndian.Uint64(b) &&
			binary.LittleEndian.Uint64(a[n-8:]) == binary.LittleEndian.Uint64(b[n-8:])
	}
	return binary.LittleEndian.Uint32(a) == binary.LittleEndian.Uint32(b) &&
		binary.LittleEndian.Uint32(a[n-4:]) == binary.LittleEndian.Uint32(b[n-4:])
}

// sparseTableBytes is the size up to which a dictionary's table is kept
// at most a quarter full, beyond which it fills up to half (crowded): the
// L1 data cache of most cores. A value present is looked up without a
// call only when it sits in its home slot. Half full (1,000 entries in
// 2,048 slots), the names of the suite's flat rows spent 41% of their
// dictionary's time in the calls for the others; a quarter full, 11%, and
// the dictionary's time fell by 38%. Larger tables stay at
// most half full, as before: kept a quarter full up to 256 KiB, the
// high-entropy 200-column write took 5% more CPU time in one run of three
// rounds (its tables miss the caches either way, and larger ones more).
const sparseTableBytes = 32 << 10

// crowded reports whether a dictionary table of slots slots of slotBytes
// bytes must grow to take its n-th entry.
func crowded(n, slots, slotBytes int) bool {
	if slots*slotBytes <= sparseTableBytes {
		return 4*n > slots
	}
	return 2*n > slots
}

// grow doubles the table, placing each entry by its stored tag.
func (d *DictBytes) grow() {
	old := d.slots
	d.slots = bufpool.Zeroed(&poolKeys64, 2*len(old))
	d.shift--
	mask := uint32(len(d.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		h := uint32(s>>32) >> d.shift
		for d.slots[h] != 0 {
			h = (h + 1) & mask
		}
		d.slots[h] = s
	}
	poolKeys64.Put(old)
}

// InsertByteArrays adds the values of src, as Dict32.InsertInt32.
func (d *DictBytes) InsertByteArrays(idx []int32, src ByteArrays) (_ []int32, added int, full bool) {
	n := src.Len()
	idx = growSlice(idx, n)
	if n == 0 {
		return idx, 0, false // Offsets may be empty
	}
	lim := d.Limits.norm()
	base := len(idx)
	out := idx[base : base+n]
	offs, data := src.Offsets[:n+1], src.Data
	if d.slots == nil {
		d.init()
	}
	for i := range out {
		v := data[offs[i]:offs[i+1]]
		var tag uint32
		if m := len(v); m >= 8 && m <= 16 {
			tag = tagOf(hashWords(v)) // dictTag without a call
		} else {
			tag = dictTag(v)
		}
		// Most values present sit in their home slot: found there without
		// a call; the others go to findTag.
		if s := d.slots[tag>>d.shift]; uint32(s>>32) == tag && s != 0 {
			if e, eo := uint32(s), d.values.Offsets; int(e) < len(eo) && equalKey(d.values.Data[eo[e-1]:eo[e]], v) {
				out[i] = int32(e - 1)
				continue
			}
		}
		j, ok := d.findTag(v, tag, lim)
		if !ok {
			return idx[:base+i], i, true
		}
		out[i] = j
	}
	return idx[:base+n], n, false
}

// InsertFixed adds the FIXED_LEN_BYTE_ARRAY values of size bytes held back
// to back in src, as Dict32.InsertInt32. Preconditions: size > 0 and
// len(src) is a multiple of size.
func (d *DictBytes) InsertFixed(idx []int32, src []byte, size int) (_ []int32, added int, full bool) {
	d.fixed = true
	n := len(src) / size
	idx = growSlice(idx, n)
	lim := d.Limits.norm()
	for i := range n {
		j, ok := d.find(src[i*size:(i+1)*size], lim)
		if !ok {
			return idx, i, true
		}
		idx = append(idx, j)
	}
	return idx, n, false
}

// Len returns the number of entries.
func (d *DictBytes) Len() int { return d.values.Len() }

// Size returns the PLAIN-encoded size of the dictionary in bytes.
func (d *DictBytes) Size() int { return d.size }

// Values returns the entries (aliasing the dictionary's memory).
func (d *DictBytes) Values() ByteArrays { return d.values }

// AppendPlain appends the dictionary page body: the entries PLAIN-encoded
// (length-prefixed for BYTE_ARRAY, back to back for FIXED_LEN_BYTE_ARRAY
// and INT96).
func (d *DictBytes) AppendPlain(dst []byte) []byte {
	if d.fixed {
		return append(dst, d.values.Data...)
	}
	return AppendPlainByteArray(dst, d.values)
}

// Reset empties the dictionary, keeping its memory.
func (d *DictBytes) Reset() {
	d.values.Reset()
	clear(d.slots)
	d.size = 0
	d.fixed = false
}

// Release empties the dictionary and gives its memory to the pools, as
// Dict32.Release; its Limits stay.
func (d *DictBytes) Release() {
	poolKeys64.Put(d.slots)
	poolBytes.Put(d.values.Data)
	poolKeys32.Put(d.values.Offsets)
	*d = DictBytes{Limits: d.Limits}
}
