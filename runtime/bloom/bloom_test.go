package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
)

// corpusWords are the strings inserted into bloom_filter*.bin (data/README.md).
var corpusWords = []string{"hello", "parquet", "bloom", "filter"}

func readCorpus(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Dir(t), "data", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomWords returns n random strings that are none of corpusWords.
func randomWords(n int) []string {
	rng := rand.New(rand.NewPCG(7, 11))
	out := make([]string, n)
	for i := range out {
		b := make([]byte, 1+rng.IntN(16))
		for j := range b {
			b[j] = 'a' + byte(rng.IntN(26))
		}
		out[i] = string(b) + "~" // never one of the corpus words
	}
	return out
}

// TestCorpusXXHash reads bloom_filter.xxhash.bin: a Thrift compact
// BloomFilterHeader (numBytes 1024, BLOCK, XXHASH, UNCOMPRESSED; 16 bytes)
// followed by the 1024-byte bitset, built by parquet-mr from the four
// strings of corpusWords hashed without a length prefix.
func TestCorpusXXHash(t *testing.T) {
	b := readCorpus(t, "bloom_filter.xxhash.bin")
	f, n, err := Parse(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(b) || f.NumBytes() != 1024 || n-f.NumBytes() != 16 {
		t.Fatalf("consumed %d of %d bytes, bitset %d", n, len(b), f.NumBytes())
	}
	for _, w := range corpusWords {
		if !f.Check(HashString(w)) || !f.Check(HashBytes([]byte(w))) {
			t.Errorf("%q is missing", w)
		}
	}
	fp := 0
	others := randomWords(1000)
	for _, w := range others {
		if f.Check(HashString(w)) {
			fp++
		}
	}
	// 4 values in 32 blocks: a false positive needs 8 matching bits.
	if fp > len(others)/100 {
		t.Errorf("%d false positives among %d absent strings", fp, len(others))
	}
	// Our filter built from the same strings is bit-identical, and
	// re-encoding reproduces the file byte for byte.
	g := New(1024)
	for _, w := range corpusWords {
		g.Insert(HashString(w))
	}
	if !bytes.Equal(g.Bytes(), f.Bytes()) {
		t.Error("bitset differs from the one built here")
	}
	if enc := g.AppendTo(nil); !bytes.Equal(enc, b) {
		t.Errorf("AppendTo differs from the corpus file:\n%x\n%x", enc[:20], b[:20])
	}
	// The same through ReadAt, with and without bloom_filter_length.
	for _, length := range []int64{0, int64(len(b))} {
		r, err := ReadAt(bytes.NewReader(b), 0, length, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(r.Bytes(), f.Bytes()) {
			t.Fatalf("ReadAt(length %d) differs", length)
		}
	}
	// A limit below the size is refused.
	if _, _, err := Parse(b, 512); !errors.Is(err, ErrSize) {
		t.Fatalf("limit 512: %v", err)
	}
	// A length shorter than header + bitset is refused.
	if _, err := ReadAt(bytes.NewReader(b), 0, int64(len(b)-1), 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short length: %v", err)
	}
	// A truncated bitset is refused.
	if _, _, err := Parse(b[:len(b)-1], 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated: %v", err)
	}
	if _, err := ReadAt(bytes.NewReader(b[:len(b)-1]), 0, 0, 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("ReadAt truncated: %v", err)
	}
}

// TestCorpusLegacy documents bloom_filter.bin: the pre-release format with
// a 12-byte binary header (little-endian int32 numBytes 1024, algorithm 0,
// hash 0 = MURMUR3_X64_128) and the 1024-byte bitset. It is not a Thrift
// header, so Parse refuses it.
func TestCorpusLegacy(t *testing.T) {
	b := readCorpus(t, "bloom_filter.bin")
	if len(b) != 12+1024 || binary.LittleEndian.Uint32(b) != 1024 || binary.LittleEndian.Uint64(b[4:]) != 0 {
		t.Fatalf("unexpected layout: %d bytes, header %x", len(b), b[:12])
	}
	if _, _, err := Parse(b, 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Parse of the legacy format: %v, want ErrCorrupt", err)
	}
	// The bitset itself is a valid split-block bitset, but built with
	// Murmur3: the XXH64 hashes of the words are (almost surely) absent.
	f, err := FromBytes(b[12:])
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, w := range corpusWords {
		if f.Check(HashString(w)) {
			found++
		}
	}
	if found == len(corpusWords) {
		t.Error("legacy Murmur3 filter matches every XXH64 hash")
	}
}

// TestPlacement checks the block and bit positions against values computed
// by hand from the format's definition.
func TestPlacement(t *testing.T) {
	for _, tc := range []struct {
		h     uint64
		block int
		bits  [8]uint // bit set in each word
	}{
		// x = 1: bit i is SALT[i] >> 27.
		{0x80000000_00000001, 2, [8]uint{8, 8, 17, 20, 14, 5, 19, 11}},
		{0x00000000_00000001, 0, [8]uint{8, 8, 17, 20, 14, 5, 19, 11}},
		// x = 0xffffffff: bit i is (2^32 - SALT[i]) >> 27.
		{0xffffffff_ffffffff, 3, [8]uint{23, 23, 14, 11, 17, 26, 12, 20}},
		// x = 0: bit 0 in every word; top 0x3fffffff * 4 >> 32 = 0.
		{0x3fffffff_00000000, 0, [8]uint{0, 0, 0, 0, 0, 0, 0, 0}},
		{0x40000000_00000000, 1, [8]uint{0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		f := New(4 * BlockBytes)
		if f.Check(tc.h) {
			t.Fatalf("%#x in an empty filter", tc.h)
		}
		f.Insert(tc.h)
		if !f.Check(tc.h) {
			t.Fatalf("%#x missing after Insert", tc.h)
		}
		want := make([]byte, 4*BlockBytes)
		for i, bit := range tc.bits {
			binary.LittleEndian.PutUint32(want[tc.block*BlockBytes+4*i:], 1<<bit)
		}
		if !bytes.Equal(f.Bytes(), want) {
			t.Errorf("%#x:\n got %x\nwant %x", tc.h, f.Bytes(), want)
		}
	}
	// A one-block filter: every hash lands in block 0.
	f := New(1)
	if f.NumBytes() != BlockBytes {
		t.Fatalf("New(1) has %d bytes", f.NumBytes())
	}
	f.Insert(math.MaxUint64)
	if !f.Check(math.MaxUint64) {
		t.Fatal("one block")
	}
}

// TestHashes checks the inline fixed-width hashes against the xxhash package
// on the PLAIN encodings.
func TestHashes(t *testing.T) {
	if got := HashBytes(nil); got != 0xEF46DB3751D8E999 {
		t.Fatalf("XXH64 of nothing = %#x", got)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	vals := []uint64{0, 1, math.MaxUint64, 1 << 63, 0x0123456789abcdef}
	for range 1000 {
		vals = append(vals, rng.Uint64())
	}
	for _, v := range vals {
		var b [12]byte
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		if got, want := HashInt32(int32(v)), xxhash.Sum64(b[:4]); got != want {
			t.Fatalf("HashInt32(%d) = %#x, want %#x", int32(v), got, want)
		}
		if got, want := HashFloat(math.Float32frombits(uint32(v))), xxhash.Sum64(b[:4]); got != want {
			t.Fatalf("HashFloat: %#x, want %#x", got, want)
		}
		binary.LittleEndian.PutUint64(b[:], v)
		if got, want := HashInt64(int64(v)), xxhash.Sum64(b[:8]); got != want {
			t.Fatalf("HashInt64(%d) = %#x, want %#x", int64(v), got, want)
		}
		if got, want := HashDouble(math.Float64frombits(v)), xxhash.Sum64(b[:8]); got != want {
			t.Fatalf("HashDouble: %#x, want %#x", got, want)
		}
		binary.LittleEndian.PutUint32(b[8:], uint32(v>>17))
		if got, want := HashInt96(b), xxhash.Sum64(b[:]); got != want {
			t.Fatalf("HashInt96(%x) = %#x, want %#x", b, got, want)
		}
		s := fmt.Sprint(v)
		if HashString(s) != xxhash.Sum64([]byte(s)) || HashBytes([]byte(s)) != HashString(s) {
			t.Fatal("HashString/HashBytes")
		}
	}
	// Floating point: hashed by bit pattern.
	if HashDouble(0) == HashDouble(math.Copysign(0, -1)) {
		t.Error("+0 and -0 hash alike")
	}
}

func TestOptimalNumBytes(t *testing.T) {
	for _, tc := range []struct {
		ndv  uint64
		fpp  float64
		want int
	}{
		{0, 0.01, MinBytes},
		{1, 0.5, MinBytes},
		{10, 1, MinBytes},
		{10, math.NaN(), MinBytes},
		{10, 0, MaxBytes},
		{10, -1, MaxBytes},
		// c = -8/ln(1-p^(1/8)): 5.77 bits at 10%, 9.68 at 1%, 16.9 at 0.1%.
		{10_000, 0.1, 8 << 10},       // 7,213 bytes -> 8 KiB
		{10_000, 0.01, 16 << 10},     // 12,100 bytes -> 16 KiB
		{100_000, 0.01, 128 << 10},   // 121,000 bytes -> 128 KiB
		{1_000_000, 0.01, 2 << 20},   // 1.21 MB -> 2 MiB
		{1_000_000, 0.001, 2 << 20},  // 14.6 bits: 1.83 MB -> 2 MiB
		{1_000_000, 0.0001, 4 << 20}, // 21.0 bits: 2.63 MB -> 4 MiB
		{1 << 40, 0.001, MaxBytes},   // capped
		{math.MaxUint64, 0.5, MaxBytes},
	} {
		if got := OptimalNumBytes(tc.ndv, tc.fpp); got != tc.want {
			t.Errorf("OptimalNumBytes(%d, %g) = %d, want %d", tc.ndv, tc.fpp, got, tc.want)
		}
	}
	for ndv := uint64(1); ndv < 1<<30; ndv *= 3 {
		n := OptimalNumBytes(ndv, 0.01)
		if n < MinBytes || n > MaxBytes || n&(n-1) != 0 {
			t.Fatalf("ndv %d: %d is not a power of two in range", ndv, n)
		}
	}
}

// TestFalsePositiveRate fills a filter sized for 1% with its design count,
// chosen so that the size is not rounded up (the worst case), and checks
// the measured rate on absent values.
func TestFalsePositiveRate(t *testing.T) {
	const ndv = 27_000 // 27,000 * 9.68 bits = 32,670 bytes: 32 KiB
	f := New(OptimalNumBytes(ndv, 0.01))
	if f.NumBytes() != 32<<10 {
		t.Fatalf("%d bytes", f.NumBytes())
	}
	hashes := make([]uint64, ndv)
	for i := range hashes {
		hashes[i] = HashInt64(int64(i))
	}
	f.InsertMany(hashes)
	for i := range ndv {
		if !f.Check(HashInt64(int64(i))) {
			t.Fatalf("%d missing", i)
		}
	}
	fp := 0
	const probes = 200_000
	for i := range probes {
		if f.Check(HashInt64(int64(ndv + i))) {
			fp++
		}
	}
	rate := float64(fp) / probes
	t.Logf("false-positive rate %.4f at the design count for 1%%", rate)
	if rate > 0.02 {
		t.Errorf("false-positive rate %.4f, want about 0.01", rate)
	}
}

func TestFromBytes(t *testing.T) {
	for _, n := range []int{0, 1, 31, 33, 48} {
		if _, err := FromBytes(make([]byte, n)); !errors.Is(err, ErrSize) {
			t.Errorf("%d bytes: %v", n, err)
		}
	}
	b := make([]byte, 96) // three blocks: any positive count is valid
	f, err := FromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	f.Insert(HashString("x"))
	if !f.Check(HashString("x")) || bytes.Equal(b, make([]byte, 96)) {
		t.Fatal("FromBytes does not alias its input")
	}
	if New(100).NumBytes() != 128 || New(MaxBytes*2).NumBytes() != MaxBytes {
		t.Fatal("New rounding")
	}
	f.Reset()
	if f.Check(HashString("x")) || !bytes.Equal(b, make([]byte, 96)) {
		t.Fatal("Reset left bits set")
	}
}

func TestHeaderValidation(t *testing.T) {
	good := meta.BloomFilterHeader{NumBytes: 64, Algorithm: meta.BloomBlock, Hash: meta.BloomXXHash, Compression: meta.BloomUncompressed}
	// Members this package does not know (a later format's; the Thrift
	// encoder writes only known ones) are unsupported, not unset.
	for _, edit := range []func(*meta.BloomFilterHeader){
		func(h *meta.BloomFilterHeader) { h.Algorithm = 2 },
		func(h *meta.BloomFilterHeader) { h.Hash = 2 },
		func(h *meta.BloomFilterHeader) { h.Compression = 2 },
	} {
		h := good
		edit(&h)
		if err := CheckHeader(&h, 0); !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrUnset) {
			t.Errorf("%+v: %v, want ErrUnsupported alone", h, err)
		}
	}
	for _, tc := range []struct {
		name string
		edit func(*meta.BloomFilterHeader)
		want error
	}{
		{"ok", func(*meta.BloomFilterHeader) {}, nil},
		{"algorithm", func(h *meta.BloomFilterHeader) { h.Algorithm = 0 }, ErrUnset},
		{"hash", func(h *meta.BloomFilterHeader) { h.Hash = 0 }, ErrUnset},
		{"compression", func(h *meta.BloomFilterHeader) { h.Compression = 0 }, ErrUnset},
		{"zero size", func(h *meta.BloomFilterHeader) { h.NumBytes = 0 }, ErrSize},
		{"negative size", func(h *meta.BloomFilterHeader) { h.NumBytes = -32 }, ErrSize},
		{"odd size", func(h *meta.BloomFilterHeader) { h.NumBytes = 40 }, ErrSize},
		{"huge size", func(h *meta.BloomFilterHeader) { h.NumBytes = math.MaxInt32 &^ 31 }, ErrSize},
	} {
		h := good
		tc.edit(&h)
		b := h.AppendThrift(nil)
		b = append(b, make([]byte, 64)...)
		_, _, err := Parse(b, 0)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		} else if !errors.Is(err, tc.want) || tc.want == ErrUnset && !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if _, err := ReadAt(bytes.NewReader(b), 0, 0, 0); (err == nil) != (tc.want == nil) {
			t.Errorf("ReadAt %s: %v", tc.name, err)
		}
	}
	// Garbage and an empty input.
	for _, b := range [][]byte{nil, {0}, {0xff, 0xff, 0xff}} {
		if _, _, err := Parse(b, 0); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Parse(%x): %v", b, err)
		}
	}
	// ReadAt at an offset.
	f := New(64)
	f.Insert(HashInt32(42))
	file := append(bytes.Repeat([]byte{0xAA}, 10), f.AppendTo(nil)...)
	g, err := ReadAt(bytes.NewReader(file), 10, int64(len(file)-10), 0)
	if err != nil || !g.Check(HashInt32(42)) {
		t.Fatalf("ReadAt at offset: %v", err)
	}
	// Reader errors are reported.
	if _, err := ReadAt(errReader{}, 0, 0, 0); err == nil {
		t.Fatal("reader error swallowed")
	}
}

type errReader struct{}

func (errReader) ReadAt([]byte, int64) (int, error) { return 0, io.ErrClosedPipe }

// TestLongHeader checks that ReadAt accepts a header carrying an unknown
// field that makes it longer than its first probe.
func TestLongHeader(t *testing.T) {
	f := New(32)
	f.Insert(HashString("long"))
	enc := f.AppendTo(nil)
	// Insert field 5 (binary, 200 bytes) before the header's stop byte:
	// header = fields 1..4 then 0x00. Field 5 after field 4: delta 1, type 8.
	hdrLen := len(enc) - 32
	long := append([]byte{}, enc[:hdrLen-1]...)
	long = append(long, 0x18, 0xc8, 0x01) // delta 1, binary; varint 200
	long = append(long, make([]byte, 200)...)
	long = append(long, 0x00)
	long = append(long, f.Bytes()...)
	g, err := ReadAt(bytes.NewReader(long), 0, 0, 0)
	if err != nil || !g.Check(HashString("long")) {
		t.Fatalf("long header: %v", err)
	}
	h, n, err := ParseHeader(long, 0)
	if err != nil || n != len(long)-32 || h.NumBytes != 32 {
		t.Fatalf("ParseHeader: %+v %d %v", h, n, err)
	}
}
