package generated

import (
	"encoding/binary"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
)

// TestSpans round-trips INTERVAL as runtime.Interval and raw bytes, and
// TIME as time.Duration and raw counts, and reads the interval column
// back as raw bytes: months, days and milliseconds little-endian.
func TestSpans(t *testing.T) {
	var rows []Spans
	for i := range 40 {
		iv := runtime.Interval{Months: uint32(i), Days: uint32(i * 1000), Millis: 0xfffffff0 + uint32(i%16)}
		var raw [12]byte
		binary.LittleEndian.PutUint32(raw[0:], iv.Millis)
		binary.LittleEndian.PutUint32(raw[8:], iv.Months)
		s := Spans{
			Interval: iv, IntervalRaw: raw,
			ByInterval: map[runtime.Interval]string{iv: "a", {Days: 1}: "b", {Months: 1}: "c"},
			Time:       time.Duration(i) * 1500 * time.Millisecond, TimeRaw: int32(i) * 1500, TimeMicros: int64(i) * 7,
		}
		if i%2 == 0 {
			s.OptInterval = &runtime.Interval{Days: uint32(i)}
		}
		rows = append(rows, s)
	}
	path := filepath.Join(t.TempDir(), "spans.parquet")
	if err := WriteSpansFile(path, rows); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSpansFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rows, back); d != "" {
		t.Fatalf("read back (-want +got):\n%s", d)
	}
	raws, err := ReadSpansIntervalRawFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range raws {
		iv := rows[i].Interval
		if m, d, ms := binary.LittleEndian.Uint32(r.Interval[0:]), binary.LittleEndian.Uint32(r.Interval[4:]), binary.LittleEndian.Uint32(r.Interval[8:]); m != iv.Months || d != iv.Days || ms != iv.Millis {
			t.Fatalf("row %d: bytes % x, want %+v", i, r.Interval, iv)
		}
	}
}
