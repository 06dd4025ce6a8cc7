package encode

import (
	"errors"
	"strings"
	"testing"
)

// withMaxData lowers the data limit of ByteArrays for the test.
func withMaxData(t *testing.T, n uint64) {
	old := maxByteArraysData
	maxByteArraysData = n
	t.Cleanup(func() { maxByteArraysData = old })
}

// TestByteArraysOverflow: values past the data limit are refused without
// a panic, stored empty so that Len counts them, and reported by Err until
// Reset.
func TestByteArraysOverflow(t *testing.T) {
	withMaxData(t, 10)
	var b ByteArrays
	b.Append([]byte("abcd"))
	b.AppendString("efghij") // exactly 10 bytes: fits
	if err := b.Err(); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	b.AppendString("k") // 11 bytes: refused
	b.Append([]byte("lm"))
	b.Append(nil) // an empty value always fits
	if b.Len() != 5 {
		t.Fatalf("Len %d, want 5", b.Len())
	}
	want := []string{"abcd", "efghij", "", "", ""}
	for i, w := range want {
		if got := string(b.At(i)); got != w {
			t.Fatalf("value %d = %q, want %q", i, got, w)
		}
	}
	if len(b.Data) != 10 {
		t.Fatalf("%d data bytes, want 10", len(b.Data))
	}
	err := b.Err()
	if !errors.Is(err, ErrLength) {
		t.Fatalf("Err = %v, want ErrLength", err)
	}
	if !strings.Contains(err.Error(), "2 byte-array values (the first, value 2, of 1 bytes)") {
		t.Fatalf("Err = %v", err)
	}
	b.Reset()
	if err := b.Err(); err != nil {
		t.Fatalf("after Reset: %v", err)
	}
	b.AppendString("0123456789")
	if err := b.Err(); err != nil || b.Len() != 1 {
		t.Fatalf("after Reset: %v, Len %d", err, b.Len())
	}
	b.AppendString("x")
	if b.Err() == nil {
		t.Fatal("overflow after Reset not reported")
	}
	b = b.reset0()
	if b.Err() != nil {
		t.Fatal("reset0 kept the overflow")
	}
}

// TestByteArraysOverflowStartOffset: the limit applies to Data, whatever
// the first offset.
func TestByteArraysOverflowStartOffset(t *testing.T) {
	withMaxData(t, 8)
	b := ByteArrays{Data: []byte("xxxxxx")} // 6 bytes before the first value
	b.AppendString("ab")
	b.AppendString("c")
	if b.Len() != 2 || string(b.At(0)) != "ab" || len(b.At(1)) != 0 || b.Err() == nil {
		t.Fatalf("Len %d, %q %q, Err %v", b.Len(), b.At(0), b.At(1), b.Err())
	}
}

// TestPlainLen: PlainLen is the length AppendPlainByteArray writes, for no
// values, empty values and a slice of a larger buffer.
func TestPlainLen(t *testing.T) {
	var b ByteArrays
	if b.PlainLen() != 0 {
		t.Fatalf("no values: PlainLen %d", b.PlainLen())
	}
	for _, v := range []string{"", "a", "", "longer value", strings.Repeat("x", 300)} {
		b.AppendString(v)
	}
	for _, s := range []ByteArrays{b, {Data: b.Data, Offsets: b.Offsets[1:4]}} {
		if got, want := s.PlainLen(), len(AppendPlainByteArray(nil, s)); got != want {
			t.Errorf("%d values: PlainLen %d, encoded %d bytes", s.Len(), got, want)
		}
	}
}

// TestByteArraysMoveTo: MoveTo gives dst the values and the overflow Err
// reports, in dst's memory, and empties the source, which keeps its own.
func TestByteArraysMoveTo(t *testing.T) {
	withMaxData(t, 6)
	var src, dst ByteArrays
	dst.AppendString("old")
	dstData := &dst.Data[0]
	src.AppendString("abc")
	src.AppendString("defg") // refused: 7 bytes
	src.AppendString("")
	srcData := &src.Data[0]
	src.MoveTo(&dst)
	if dst.Len() != 3 || string(dst.At(0)) != "abc" || len(dst.At(1)) != 0 || &dst.Data[0] != dstData {
		t.Fatalf("dst after MoveTo: %d values, data %q", dst.Len(), dst.Data)
	}
	if err := dst.Err(); !errors.Is(err, ErrLength) || !strings.Contains(err.Error(), "value 1, of 4 bytes") {
		t.Fatalf("dst.Err() = %v, want the refused value 1 of 4 bytes", err)
	}
	if src.Len() != 0 || src.Err() != nil || &src.Data[:1][0] != srcData {
		t.Fatalf("src after MoveTo: %d values, Err %v, memory kept %t", src.Len(), src.Err(), &src.Data[:1][0] == srcData)
	}
}
