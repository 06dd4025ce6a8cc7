package evolution

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	pqrt "github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/encode"
)

// sparkFile writes SparkV1 rows holding the INT96 timestamps of ts (Opt
// null every third row) and returns the file.
func sparkFile(t testing.TB, ts []time.Time, opts ...pqrt.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewSparkV1Writer(&buf, opts...)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]SparkV1, len(ts))
	for i, x := range ts {
		v, ok := encode.Int96FromTime(x)
		if !ok {
			t.Fatalf("%v has no INT96", x)
		}
		rows[i] = SparkV1{ID: int64(i), At: v}
		if i%3 != 0 {
			rows[i].Opt = &v
		}
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sparkTimes returns the edges of TIMESTAMP(NANOS) and n random instants
// between 1700 and 2200, at nanosecond precision or, with micros, whole
// microseconds.
func sparkTimes(n int, micros bool) []time.Time {
	ts := []time.Time{time.Unix(0, 0), time.Unix(0, -1000), time.Unix(-86400, 1000), time.Date(2000, 2, 29, 23, 59, 59, 999999000, time.UTC),
		time.Unix(0, -1<<63/1000*1000), time.Unix(0, (1<<63-1)/1000*1000)} // the whole microseconds nearest the ends
	if !micros {
		ts = append(ts, time.Unix(0, -1<<63), time.Unix(0, 1<<63-1))
	}
	r := rand.New(rand.NewPCG(96, 1))
	lo, hi := time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for range n {
		ns := r.Int64N(1e9)
		if micros {
			ns -= ns % 1000
		} else if ns%1000 == 0 {
			ns++
		}
		ts = append(ts, time.Unix(lo+r.Int64N(hi-lo), ns))
	}
	return ts
}

// TestInt96IntoTime reads the legacy INT96 timestamps of Spark, Impala
// and Hive files into time.Time fields, exactly, filters included.
func TestInt96IntoTime(t *testing.T) {
	ts := sparkTimes(3000, false)
	file := sparkFile(t, ts)
	r, err := NewSparkV2Reader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for row, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		if row.ID != int64(i) || !row.At.Equal(ts[i]) || row.At.Location() != time.UTC || (row.Opt == nil) != (i%3 == 0) || row.Opt != nil && !row.Opt.Equal(ts[i]) {
			t.Fatalf("row %d: %+v, want %v", i, row, ts[i])
		}
		i++
	}
	if i != len(ts) {
		t.Fatalf("%d rows, want %d", i, len(ts))
	}

	// A filter compares the instants.
	t0, t1 := ts[10], ts[20]
	if t1.Before(t0) {
		t0, t1 = t1, t0
	}
	r, err = NewSparkV2Reader(bytes.NewReader(file), int64(len(file)),
		pqrt.WithFilter(pqrt.And(SparkV2Where.At.Between(t0, t1), SparkV2Where.Opt.NotNull())))
	if err != nil {
		t.Fatal(err)
	}
	var want, got []int64
	for i, x := range ts {
		if !x.Before(t0) && !x.After(t1) && i%3 != 0 {
			want = append(want, int64(i))
		}
	}
	for row, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, row.ID)
	}
	if len(want) < 100 || !slices.Equal(got, want) {
		t.Errorf("filtered: %d rows %v, want %d %v", len(got), head(got), len(want), head(want))
	}

	// Microseconds are a coarser unit: refused at open, and with
	// WithCoarserTimeUnits a value that is not a whole number of them
	// fails the read.
	if _, err := NewSparkMicrosReader(bytes.NewReader(file), int64(len(file))); !errors.Is(err, pqrt.ErrBind) ||
		!strings.Contains(err.Error(), `column "at": int96 in the file, int64 (TIMESTAMP(MICROS,true)) requested: a coarser unit`) {
		t.Errorf("micros without WithCoarserTimeUnits: %v", err)
	}
	rm, err := NewSparkMicrosReader(bytes.NewReader(file), int64(len(file)), pqrt.WithCoarserTimeUnits(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rm.Read(make([]SparkMicros, 100)); !errors.Is(err, pqrt.ErrValue) || !strings.Contains(err.Error(), "is not a whole number of the requested unit") {
		t.Errorf("micros of nanosecond values: %v", err)
	}
}

// TestInt96BeyondNanos: INT96 timestamps of whole microseconds read into
// microseconds past TIMESTAMP(NANOS)'s 1677–2262, which reading them into
// nanoseconds refuses with an error naming the value.
func TestInt96BeyondNanos(t *testing.T) {
	ts := append(sparkTimes(500, true), time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1582, 10, 4, 12, 0, 0, 0, time.UTC))
	file := sparkFile(t, ts)
	r, err := NewSparkMicrosReader(bytes.NewReader(file), int64(len(file)), pqrt.WithCoarserTimeUnits(true))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]SparkMicros, len(ts)+1)
	n, err := r.Read(rows)
	if n != len(ts) || err != nil && n == 0 {
		t.Fatalf("%d rows, %v", n, err)
	}
	for i, row := range rows[:n] {
		if !row.At.Equal(ts[i]) || row.Opt != nil && !row.Opt.Equal(ts[i]) {
			t.Fatalf("row %d: %+v, want %v", i, row, ts[i])
		}
	}
	r2, err := NewSparkV2Reader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r2.Read(make([]SparkV2, len(ts)))
	const msg = `INT96 timestamp (Julian day 5373484, 86399999999000 ns) (value 506 of the page) is beyond an INT64 count of nanoseconds (1677-09-21 to 2262-04-11)`
	if !errors.Is(err, pqrt.ErrValue) || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), `column "at"`) {
		t.Errorf("year 9999 in nanoseconds: %v\nwant %s", err, msg)
	}
}

func head(s []int64) []int64 { return s[:min(len(s), 5)] }
