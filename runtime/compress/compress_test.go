package compress

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"

	"github.com/pqgen/pqgen/runtime/meta"
)

// writable lists the codecs Compress supports.
var writable = []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Gzip, meta.Brotli, meta.Zstd, meta.LZ4Raw}

// levels lists a few levels worth round-tripping per codec.
var levels = map[meta.CompressionCodec][]Level{
	meta.Uncompressed: {DefaultLevel},
	meta.Snappy:       {DefaultLevel, 2, 3},
	meta.Gzip:         {DefaultLevel, 1, 9},
	meta.Brotli:       {DefaultLevel, 1, 11},
	meta.Zstd:         {DefaultLevel, 1, 3, 7, 19},
	meta.LZ4Raw:       {DefaultLevel, 1, 9},
}

// inputs returns named test inputs: empty, 1 byte, incompressible,
// highly compressible and 1 MB of text-like data.
func inputs() []struct {
	name string
	data []byte
} {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	var text bytes.Buffer
	words := strings.Fields("parquet column chunk page header dictionary value level repetition definition zstd snappy")
	for text.Len() < 1<<20 {
		text.WriteString(words[rng.IntN(len(words))])
		text.WriteByte(' ')
		binary.Write(&text, binary.LittleEndian, rng.Int32N(1000))
	}
	return []struct {
		name string
		data []byte
	}{
		{"empty", []byte{}},
		{"one", []byte{'x'}},
		{"random64K", random},
		{"zeros1M", make([]byte, 1<<20)},
		{"text1M", text.Bytes()[:1<<20]},
	}
}

func TestRoundTrip(t *testing.T) {
	for _, in := range inputs() {
		for _, codec := range writable {
			for _, lv := range levels[codec] {
				// Brotli's quality 11 needs seconds per megabyte.
				if len(in.data) >= 1<<20 && (lv >= 10 || lv >= 9 && testing.Short()) {
					continue
				}
				name := fmt.Sprintf("%s/%s/L%d", codec.String(), in.name, lv)
				t.Run(name, func(t *testing.T) {
					prefix := []byte("prefix")
					enc, err := Compress(append([]byte(nil), prefix...), in.data, codec, lv)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.HasPrefix(enc, prefix) {
						t.Fatal("Compress clobbered dst")
					}
					enc = enc[len(prefix):]
					if codec != meta.Uncompressed && len(enc) == 0 {
						t.Fatal("empty input compressed to zero bytes")
					}
					dec, err := Decompress(append([]byte(nil), prefix...), enc, codec, len(in.data))
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(dec[:len(prefix)], prefix) || !bytes.Equal(dec[len(prefix):], in.data) {
						t.Fatal("round trip differs")
					}
					checkWrongSizes(t, enc, codec, len(in.data))
				})
			}
		}
	}
}

// checkWrongSizes checks that declaring a size other than the real one fails.
func checkWrongSizes(t *testing.T, enc []byte, codec meta.CompressionCodec, size int) {
	t.Helper()
	for _, wrong := range []int{size - 1, size + 1} {
		if wrong < 0 {
			continue
		}
		dst := []byte("keep")
		out, err := Decompress(dst, enc, codec, wrong)
		if err == nil {
			t.Fatalf("declared size %d (real %d): no error", wrong, size)
		}
		if string(out) != "keep" {
			t.Fatalf("on error Decompress returned %q, want dst", out)
		}
		// A bare LZ4 block cannot tell "corrupt" from "longer than the
		// buffer"; every other codec reports the mismatch as such.
		if codec == meta.LZ4Raw && wrong < size {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("declared %d: %v, want ErrCorrupt", wrong, err)
			}
			continue
		}
		if !errors.Is(err, ErrSizeMismatch) {
			t.Fatalf("declared size %d (real %d): %v, want ErrSizeMismatch", wrong, size, err)
		}
		if !strings.Contains(err.Error(), codec.String()) {
			t.Fatalf("error %q does not name the codec", err)
		}
	}
}

func TestHadoopLZ4RoundTrip(t *testing.T) {
	for _, in := range inputs() {
		t.Run(in.name, func(t *testing.T) {
			enc, err := CompressHadoopLZ4(nil, in.data)
			if err != nil {
				t.Fatal(err)
			}
			// Every frame holds at most HadoopLZ4BlockSize bytes.
			frames := 0
			for p := enc; len(p) > 0; frames++ {
				raw, c := binary.BigEndian.Uint32(p), binary.BigEndian.Uint32(p[4:])
				if raw > HadoopLZ4BlockSize {
					t.Fatalf("frame of %d bytes", raw)
				}
				p = p[8+c:]
			}
			if want := max(1, (len(in.data)+HadoopLZ4BlockSize-1)/HadoopLZ4BlockSize); frames != want {
				t.Fatalf("%d frames, want %d", frames, want)
			}
			dec, err := Decompress(nil, enc, meta.LZ4, len(in.data))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dec, in.data) {
				t.Fatal("round trip differs")
			}
			checkWrongSizes(t, enc, meta.LZ4, len(in.data))
		})
	}
}

func TestDecompressHadoopLZ4Vectors(t *testing.T) {
	be := func(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	hello := cat([]byte{0x50}, []byte("hello"))      // 5 literals
	world := cat([]byte{0x60}, []byte(" world"))     // 6 literals
	match := []byte{0x32, 'a', 'b', 'c', 0x03, 0x00, // 3 literals, match 6 at offset 3
		0x50, 'X', 'Y', 'Z', 'X', 'Y'} // final 5 literals
	for _, tc := range []struct {
		name string
		src  []byte
		want string
	}{
		{"one frame", cat(be(5), be(6), hello), "hello"},
		{"two frames", cat(be(5), be(6), hello, be(6), be(7), world), "hello world"},
		{"one block two chunks", cat(be(11), be(6), hello, be(7), world), "hello world"},
		{"match", cat(be(14), be(uint32(len(match))), match), "abcabcabcXYZXY"},
		{"empty frame then data", cat(be(0), be(1), []byte{0}, be(5), be(6), hello), "hello"},
		{"bare block fallback", match, "abcabcabcXYZXY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decompress(nil, tc.src, meta.LZ4, len(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
	// LZ4_RAW decodes the same bare blocks.
	if got, err := Decompress(nil, match, meta.LZ4Raw, 14); err != nil || string(got) != "abcabcabcXYZXY" {
		t.Fatalf("LZ4_RAW: %q, %v", got, err)
	}
	// A well-framed block whose data is corrupt (a match at offset 9 with
	// nothing before it) is corruption, not a size mismatch.
	bad := []byte{0x14, 'a', 0x09, 0x00, 0x10, 'b'}
	if _, err := Decompress(nil, cat(be(7), be(uint32(len(bad))), bad), meta.LZ4, 7); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("corrupt Hadoop block: %v, want ErrCorrupt", err)
	}
	// A well-framed stream declaring another size is a size mismatch.
	if _, err := Decompress(nil, cat(be(5), be(6), hello), meta.LZ4, 6); !errors.Is(err, ErrSizeMismatch) {
		t.Fatalf("Hadoop size 5 declared 6: %v, want ErrSizeMismatch", err)
	}
	// A truncated frame is neither Hadoop, frame nor block.
	if _, err := Decompress(nil, cat(be(5), be(6), hello[:4]), meta.LZ4, 5); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated: %v, want ErrCorrupt", err)
	}
}

func TestDecompressLZ4FrameFallback(t *testing.T) {
	data := bytes.Repeat([]byte("lz4 frame format fallback "), 5000)
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Decompress(nil, buf.Bytes(), meta.LZ4, len(data))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("differs")
	}
	checkWrongSizes(t, buf.Bytes(), meta.LZ4, len(data))
}

func TestDecompressGzipMultiMember(t *testing.T) {
	var buf bytes.Buffer
	parts := []string{"first member, ", "second member"}
	for _, p := range parts {
		w := stdgzip.NewWriter(&buf)
		w.Write([]byte(p))
		w.Close()
	}
	want := strings.Join(parts, "")
	got, err := Decompress(nil, buf.Bytes(), meta.Gzip, len(want))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("got %q", got)
	}
	checkWrongSizes(t, buf.Bytes(), meta.Gzip, len(want))
	// Garbage after the last member is corruption.
	bad := append(bytes.Clone(buf.Bytes()), 1, 2, 3)
	if _, err := Decompress(nil, bad, meta.Gzip, len(want)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("trailing garbage: %v", err)
	}
}

func TestDecompressLZOVectors(t *testing.T) {
	// LZO1X: a first byte of 17+n starts with n literals; 0x11 0x00 0x00 is
	// the end-of-stream marker.
	bare := []byte{17 + 5, 'h', 'e', 'l', 'l', 'o', 0x11, 0x00, 0x00}
	framed := binary.BigEndian.AppendUint32(nil, 5)
	framed = binary.BigEndian.AppendUint32(framed, uint32(len(bare)))
	framed = append(framed, bare...)
	for name, src := range map[string][]byte{"bare": bare, "hadoop": framed} {
		got, err := Decompress(nil, src, meta.LZO, 5)
		if err != nil || string(got) != "hello" {
			t.Fatalf("%s: %q, %v", name, got, err)
		}
		if _, err := Decompress(nil, src, meta.LZO, 6); !errors.Is(err, ErrSizeMismatch) {
			t.Fatalf("%s: declared 6: %v", name, err)
		}
		if _, err := Decompress(nil, src, meta.LZO, 4); !errors.Is(err, ErrSizeMismatch) {
			t.Fatalf("%s: declared 4: %v", name, err)
		}
	}
	if _, err := Decompress(nil, []byte{0xff, 0xff, 0xff, 0xff}, meta.LZO, 5); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("garbage: %v", err)
	}
}

func TestUnsupported(t *testing.T) {
	_, err := Compress(nil, []byte("x"), meta.LZO, DefaultLevel)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "writing LZO is not supported") {
		t.Fatalf("LZO: %v", err)
	}
	if _, err := Compress(nil, []byte("x"), meta.LZ4, DefaultLevel); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("LZ4: %v", err)
	}
	if _, err := Compress(nil, []byte("x"), 42, DefaultLevel); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("codec 42: %v", err)
	}
	if _, err := Decompress(nil, []byte("x"), 42, 1); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "CompressionCodec(42)") {
		t.Fatalf("codec 42: %v", err)
	}
	if _, err := Decompress(nil, []byte("x"), -1, 1); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("codec -1: %v", err)
	}
	for _, c := range writable {
		if !CanCompress(c) || !CanDecompress(c) {
			t.Fatalf("%s", c.String())
		}
	}
	if CanCompress(meta.LZO) || CanCompress(meta.LZ4) || !CanDecompress(meta.LZO) || !CanDecompress(meta.LZ4) {
		t.Fatal("LZO/LZ4 capabilities")
	}
}

func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		codec meta.CompressionCodec
		ok    []Level
		bad   []Level
	}{
		{meta.Uncompressed, []Level{0}, []Level{1, -1}},
		{meta.Snappy, []Level{0, 1, 3}, []Level{4, -1}},
		{meta.Gzip, []Level{0, 1, 9}, []Level{10, -1}},
		{meta.Brotli, []Level{0, 1, 11}, []Level{12, -2}},
		{meta.Zstd, []Level{0, 1, 22}, []Level{23, -5}},
		{meta.LZ4Raw, []Level{0, 1, 9}, []Level{10}},
	} {
		for _, lv := range tc.ok {
			if err := ValidLevel(tc.codec, lv); err != nil {
				t.Errorf("%s level %d: %v", tc.codec.String(), lv, err)
			}
		}
		for _, lv := range tc.bad {
			if err := ValidLevel(tc.codec, lv); !errors.Is(err, ErrInvalidLevel) {
				t.Errorf("%s level %d: %v, want ErrInvalidLevel", tc.codec.String(), lv, err)
			}
			if _, err := Compress(nil, []byte("x"), tc.codec, lv); !errors.Is(err, ErrInvalidLevel) {
				t.Errorf("Compress %s level %d: %v", tc.codec.String(), lv, err)
			}
		}
	}
	if err := ValidLevel(meta.LZO, 0); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
}

func TestDecompressEdgeCases(t *testing.T) {
	for c := meta.Uncompressed; c <= meta.LZ4Raw; c++ {
		// Zero bytes, zero size: never reaches the codec.
		out, err := Decompress([]byte("a"), nil, c, 0)
		if err != nil || string(out) != "a" {
			t.Fatalf("%s empty: %q, %v", c.String(), out, err)
		}
		// Zero bytes cannot produce data.
		if _, err := Decompress(nil, nil, c, 3); !errors.Is(err, ErrSizeMismatch) {
			t.Fatalf("%s empty with size 3: %v", c.String(), err)
		}
		if _, err := Decompress(nil, []byte{1}, c, -1); !errors.Is(err, ErrSizeMismatch) {
			t.Fatalf("%s negative size: %v", c.String(), err)
		}
	}
	// The valid empty ZSTD frame of page_v2_empty_compressed.parquet.
	empty, _ := Compress(nil, nil, meta.Zstd, DefaultLevel)
	if out, err := Decompress(nil, empty, meta.Zstd, 0); err != nil || len(out) != 0 {
		t.Fatalf("empty zstd frame: %v", err)
	}
	// Snappy: the preamble is checked before decoding.
	enc, _ := Compress(nil, make([]byte, 1000), meta.Snappy, DefaultLevel)
	if _, err := Decompress(nil, enc, meta.Snappy, 10); !errors.Is(err, ErrSizeMismatch) || !strings.Contains(err.Error(), "preamble") {
		t.Fatalf("snappy preamble: %v", err)
	}
	// Decompress reuses dst capacity without allocating.
	dst := make([]byte, 0, 2000)
	enc, _ = Compress(nil, bytes.Repeat([]byte("ab"), 500), meta.Zstd, DefaultLevel)
	out, err := Decompress(dst, enc, meta.Zstd, 1000)
	if err != nil || &out[0] != &dst[:1][0] {
		t.Fatalf("zstd did not decode in place: %v", err)
	}
}

// TestBombBounded checks that a stream expanding far beyond its declared
// size is stopped at the declared size without allocating the expansion.
func TestBombBounded(t *testing.T) {
	const real, declared = 64 << 20, 4096
	big := make([]byte, real)
	codecs := []meta.CompressionCodec{meta.Snappy, meta.Gzip, meta.Brotli, meta.Zstd, meta.LZ4Raw, meta.LZ4}
	for _, codec := range codecs {
		var enc []byte
		var err error
		if codec == meta.LZ4 {
			enc, err = CompressHadoopLZ4(nil, big)
		} else {
			enc, err = Compress(nil, big, codec, DefaultLevel)
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, 0, declared)
		// No collection between warming the pools and the measured call:
		// a GC empties sync.Pools, and a fresh Brotli reader's window
		// (4 MiB) would be counted against the bomb (the test failed so
		// about half of the time in -count=5 runs).
		// Under the race detector sync.Pool.Put drops a quarter of the
		// values on purpose, so a warm reader may still be missing: the
		// fewest bytes over a few calls is what the bomb costs (CI failed
		// once with a fresh 4 MiB window counted).
		gc := debug.SetGCPercent(-1)
		Decompress(dst, enc, codec, declared) // warm the pools
		least := uint64(math.MaxUint64)
		for range 6 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = Decompress(dst, enc, codec, declared)
			runtime.ReadMemStats(&after)
			if err == nil {
				debug.SetGCPercent(gc)
				t.Fatalf("%s: a %d-byte stream declared as %d decoded", codec.String(), real, declared)
			}
			if !errors.Is(err, ErrSizeMismatch) && !errors.Is(err, ErrCorrupt) {
				debug.SetGCPercent(gc)
				t.Fatalf("%s: %v", codec.String(), err)
			}
			least = min(least, after.TotalAlloc-before.TotalAlloc)
			if least <= 1<<20 {
				break
			}
		}
		debug.SetGCPercent(gc)
		if least > 1<<20 {
			t.Errorf("%s: allocated %d bytes for a %d-byte declared size", codec.String(), least, declared)
		}
	}
}

// lzoLiterals encodes src as one Hadoop-framed block of LZO1X chunks made of
// literal runs only (there is no LZO encoder here).
func lzoLiterals(src []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(src)))
	for len(src) > 0 {
		n := min(len(src), 238) // a first byte of 17+n, n <= 238
		chunk := append([]byte{byte(17 + n)}, src[:n]...)
		chunk = append(chunk, 0x11, 0, 0)
		out = binary.BigEndian.AppendUint32(out, uint32(len(chunk)))
		out = append(out, chunk...)
		src = src[n:]
	}
	return out
}

func TestLZOLiteralChunks(t *testing.T) {
	src := inputs()[4].data[:100000]
	got, err := Decompress(nil, lzoLiterals(src), meta.LZO, len(src))
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("multi-chunk Hadoop LZO: %v", err)
	}
}

// TestConcurrent exercises the pooled state from several goroutines (run
// with -race).
func TestConcurrent(t *testing.T) {
	src := inputs()[4].data[:64<<10]
	codecs := append([]meta.CompressionCodec{meta.LZ4}, writable...)
	done := make(chan error)
	for g := range 4 {
		go func() {
			var err error
			for i := range 8 {
				codec := codecs[(g+i)%len(codecs)]
				var enc, dec []byte
				if enc, err = compressAny(nil, src, codec); err != nil {
					break
				}
				if dec, err = Decompress(nil, enc, codec, len(src)); err != nil {
					break
				}
				if !bytes.Equal(dec, src) {
					err = errors.New(codec.String() + ": differs")
					break
				}
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestTrailingGarbage checks that bytes after a complete stream are refused.
func TestTrailingGarbage(t *testing.T) {
	src := []byte("some page bytes, some page bytes")
	for _, codec := range append([]meta.CompressionCodec{meta.LZ4}, writable[1:]...) {
		enc, err := compressAny(nil, src, codec)
		if err != nil {
			t.Fatal(err)
		}
		enc = append(enc, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a)
		if _, err := Decompress(nil, enc, codec, len(src)); err == nil {
			t.Errorf("%s: trailing garbage accepted", codec.String())
		}
	}
}

// TestZstdFramesWithoutChecksum: ZSTD pages are single frames without
// the optional content checksum (Content_Checksum_flag, bit 2 of the
// frame header descriptor), as libzstd writes by default (Arrow C++,
// parquet-java): the page needs no second hash of its bytes, 4 bytes
// smaller, and readers skip verifying one. Stored frames (stored.go)
// have none either.
func TestZstdFramesWithoutChecksum(t *testing.T) {
	for _, in := range inputs() {
		for _, lv := range levels[meta.Zstd] {
			c, err := Compress(nil, in.data, meta.Zstd, lv)
			if err != nil {
				t.Fatal(err)
			}
			if len(c) < 5 || binary.LittleEndian.Uint32(c) != 0xFD2FB528 {
				t.Fatalf("%s, level %d: not a zstd frame: % x", in.name, lv, c[:min(len(c), 8)])
			}
			if c[4]&0x04 != 0 {
				t.Errorf("%s, level %d: the frame carries a content checksum (descriptor %#02x)", in.name, lv, c[4])
			}
			if got, err := Decompress(nil, c, meta.Zstd, len(in.data)); err != nil || !bytes.Equal(got, in.data) {
				t.Fatalf("%s, level %d: round trip: %v", in.name, lv, err)
			}
		}
	}
}
