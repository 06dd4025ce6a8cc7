package encode

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestDecodeDeltaByteArrayBounded: a bound of exactly the values' bytes
// decodes them as DecodeDeltaByteArray does; one byte less fails with
// ErrBound, before the values' bytes are allocated.
func TestDecodeDeltaByteArrayBounded(t *testing.T) {
	var vals ByteArrays
	for i := range 300 {
		vals.AppendString(fmt.Sprintf("shared prefix %03d", i/3))
	}
	src := AppendDeltaByteArray(nil, vals)
	total := uint64(len(vals.Data))
	got, k, err := DecodeDeltaByteArrayBounded(ByteArrays{}, src, total)
	if err != nil || k != len(src) || !bytes.Equal(got.Data, vals.Data) || !slices.Equal(got.Offsets, vals.Offsets) {
		t.Fatalf("bound %d: %d bytes consumed of %d, %v", total, k, len(src), err)
	}
	got, _, err = DecodeDeltaByteArrayBounded(ByteArrays{}, src, total-1)
	if !errors.Is(err, ErrBound) || got.Len() != 0 || cap(got.Data) != 0 {
		t.Fatalf("bound %d: %d values, %d bytes allocated, %v; want ErrBound and nothing allocated", total-1, got.Len(), cap(got.Data), err)
	}
}
