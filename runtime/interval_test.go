package runtime

import (
	"bytes"
	"testing"
)

func TestInterval(t *testing.T) {
	iv := Interval{Months: 14, Days: 0x01020304, Millis: 86400000}
	b := AppendInterval([]byte{0xaa}, iv)
	want := []byte{0xaa, 14, 0, 0, 0, 4, 3, 2, 1, 0x00, 0x5c, 0x26, 0x05}
	if !bytes.Equal(b, want) {
		t.Fatalf("AppendInterval: % x, want % x", b, want)
	}
	if got := IntervalAt(append(make([]byte, 12), b[1:]...), 1); got != iv {
		t.Fatalf("IntervalAt = %+v, want %+v", got, iv)
	}
	// The order of the encoded bytes: the low byte of Months first.
	for _, c := range []struct {
		a, b Interval
		want int
	}{
		{Interval{Months: 1}, Interval{Months: 256}, 1}, {Interval{Days: 1}, Interval{Months: 1}, -1},
		{iv, iv, 0}, {Interval{Millis: 2}, Interval{Millis: 1}, 1},
	} {
		if got := CompareInterval(c.a, c.b); got != c.want {
			t.Errorf("CompareInterval(%+v, %+v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
