//go:build pqgen_nobrotli

package compress

import (
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// TestBrotliLeftOut: under -tags pqgen_nobrotli BROTLI is neither offered
// nor decoded, and the error names the tag.
func TestBrotliLeftOut(t *testing.T) {
	if CanCompress(meta.Brotli) || CanDecompress(meta.Brotli) {
		t.Fatal("BROTLI offered in a build without it")
	}
	if _, err := Compress(nil, []byte("x"), meta.Brotli, DefaultLevel); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Compress: %v, want ErrUnsupported", err)
	}
	_, err := Decompress(nil, []byte{0x0b, 0x00, 0x80, 0x78, 0x03}, meta.Brotli, 1)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "pqgen_nobrotli") {
		t.Fatalf("Decompress: %v, want ErrUnsupported naming the tag", err)
	}
	if CanDecompress(meta.Snappy) != true {
		t.Fatal("SNAPPY missing")
	}
}
