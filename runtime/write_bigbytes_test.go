package runtime

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	_ "unsafe" // go:linkname

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/schema"
)

// maxByteArraysData is encode's data limit of a ByteArrays (4 GiB - 1),
// lowered here so that the overflow path runs without allocating 4 GiB.
//
//go:linkname maxByteArraysData github.com/pqgen/pqgen/runtime/encode.maxByteArraysData
var maxByteArraysData uint64

// TestWriteByteArrayOverflow: a batch whose byte-array data exceeds what
// one buffer holds makes EndRows fail with an error naming the column,
// wrapping encode.ErrLength; nothing panics.
func TestWriteByteArrayOverflow(t *testing.T) {
	old := maxByteArraysData
	if old != 1<<32-1 {
		t.Fatalf("linkname: maxByteArraysData is %d", old)
	}
	maxByteArraysData = 100
	t.Cleanup(func() { maxByteArraysData = old })

	s, err := schema.Parse("message m { required binary name (STRING); }")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	fw, err := NewFileWriter(&out, s)
	if err != nil {
		t.Fatal(err)
	}
	c, err := fw.ByteArrayBuffer(0)
	if err != nil {
		t.Fatal(err)
	}
	c.Values.AppendString(strings.Repeat("a", 60))
	if err := fw.EndRows(1); err != nil {
		t.Fatal(err)
	}
	c.Values.AppendString(strings.Repeat("b", 60))
	c.Values.AppendString(strings.Repeat("c", 60)) // 120 bytes in one batch
	err = fw.EndRows(2)
	if !errors.Is(err, encode.ErrLength) || !strings.Contains(err.Error(), `column "name"`) {
		t.Fatalf("EndRows = %v, want encode.ErrLength naming the column", err)
	}
	if err := fw.Close(); err == nil {
		t.Fatal("Close after the failed EndRows succeeded")
	}
}
