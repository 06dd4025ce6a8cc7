package compress

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// TestAppendStored: the stored forms of inputs around every length
// boundary of the formats (literal tag sizes, frame content size fields,
// the 128 KiB block limit) decode, through the codecs' own decoders, to
// the input, after whatever dst held.
func TestAppendStored(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	src := make([]byte, 3<<20)
	for i := range src {
		src[i] = byte(rnd.Uint32())
	}
	sizes := []int{0, 1, 59, 60, 61, 255, 256, 257, 65535, 65536, 65537, 65791, 65792, 65793,
		zstdMaxBlock - 1, zstdMaxBlock, zstdMaxBlock + 1, 2*zstdMaxBlock + 7, 1 << 24, 1<<24 + 1, 3 << 20}
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd} {
		if !CanStore(codec) {
			t.Fatalf("%v: no stored form", codec)
		}
		for _, n := range sizes {
			n = min(n, len(src))
			in := src[:n]
			out, ok := AppendStored([]byte("prefix"), in, codec)
			if !ok || string(out[:6]) != "prefix" {
				t.Fatalf("%v/%d: ok %v, prefix %q", codec, n, ok, out[:6])
			}
			if over := len(out) - 6 - n; over > 16+3*(n/zstdMaxBlock) {
				t.Errorf("%v/%d: %d bytes of framing", codec, n, over)
			}
			got, err := Decompress(nil, out[6:], codec, n)
			if err != nil || !bytes.Equal(got, in) {
				t.Fatalf("%v/%d: decoded %d bytes (%v), want the input", codec, n, len(got), err)
			}
		}
	}
	for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Gzip, meta.Brotli, meta.LZ4Raw} {
		if CanStore(codec) {
			t.Errorf("%v: CanStore", codec)
		}
		if out, ok := AppendStored([]byte("x"), src[:10], codec); ok || string(out) != "x" {
			t.Errorf("%v: AppendStored = %q, %v", codec, out, ok)
		}
	}
}
