package bloom

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse, ReadAt and FromBytes: they must
// not panic, must agree, and a parsed filter must survive a round trip.
//
//	go test -run='^$' -fuzz='^FuzzParse$' -fuzztime=30s ./runtime/bloom
func FuzzParse(f *testing.F) {
	g := New(64)
	g.Insert(HashString("seed"))
	f.Add(g.AppendTo(nil))
	f.Add(New(32).AppendTo(nil))
	f.Add([]byte{0x15, 0x80, 0x10, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0})
	f.Add([]byte{0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	const limit = 1 << 16
	f.Fuzz(func(t *testing.T, b []byte) {
		p, n, err := Parse(b, limit)
		r, rerr := ReadAt(bytes.NewReader(b), 0, 0, limit)
		if (err == nil) != (rerr == nil) {
			t.Fatalf("Parse: %v; ReadAt: %v", err, rerr)
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSize) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("unexpected error class: %v", err)
			}
		} else {
			if n > len(b) || p.NumBytes() > limit || p.NumBytes()%BlockBytes != 0 || p.NumBytes() == 0 {
				t.Fatalf("bad filter: n=%d size=%d", n, p.NumBytes())
			}
			if !bytes.Equal(p.Bytes(), r.Bytes()) {
				t.Fatal("Parse and ReadAt disagree")
			}
			q, m, err := Parse(p.AppendTo(nil), limit)
			if err != nil || !bytes.Equal(q.Bytes(), p.Bytes()) || m != len(p.AppendTo(nil)) {
				t.Fatalf("round trip: %v", err)
			}
			// With the exact length as bloom_filter_length.
			if _, err := ReadAt(bytes.NewReader(b), 0, int64(n), limit); err != nil {
				t.Fatalf("ReadAt with length %d: %v", n, err)
			}
		}
		if fb, err := FromBytes(b); err == nil {
			h := HashBytes(b)
			fb.Insert(h)
			if !fb.Check(h) {
				t.Fatal("inserted hash missing")
			}
		} else if len(b) > 0 && len(b)%BlockBytes == 0 && len(b) <= MaxBytes {
			t.Fatalf("FromBytes(%d bytes): %v", len(b), err)
		}
	})
}
