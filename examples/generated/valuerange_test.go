package generated

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pqgen/pqgen/runtime"
)

// TestValueOutOfRange: a value its column cannot hold fails Write with an
// error wrapping runtime.ErrValue that names the column, where the
// conversion used to wrap it silently (the zero time.Time in a
// TIMESTAMP(NANOS) column read back as 1754-08-30); the extreme values
// that fit are written and read back exactly. Text that is not UTF-8 in a
// STRING, ENUM or JSON column, JSON that is not JSON, a TIME outside a day
// and DECIMAL bytes over the precision are refused by the runtime's
// EndRows.
func TestValueOutOfRange(t *testing.T) {
	base := logicals(1)[0]
	write := func(rows ...Logical) ([]byte, error) {
		var b bytes.Buffer
		w, err := NewLogicalWriter(&b)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(rows); err != nil {
			return nil, err
		}
		err = w.Close()
		return b.Bytes(), err
	}
	for _, c := range []struct {
		name   string
		set    func(*Logical)
		column string // "": the row must be written and read back
	}{
		{"zero time in nanoseconds", func(l *Logical) { l.TsNanos = time.Time{} }, "ts_nanos"},
		{"year 2263 in nanoseconds", func(l *Logical) { l.TsNanos = time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC) }, "ts_nanos"},
		{"last nanosecond", func(l *Logical) { l.TsNanos = time.Unix(0, math.MaxInt64).UTC() }, ""},
		{"first nanosecond", func(l *Logical) { l.TsNanos = time.Unix(0, math.MinInt64).UTC() }, ""},
		{"one before the first nanosecond", func(l *Logical) { l.TsNanos = time.Unix(0, math.MinInt64).Add(-1).UTC() }, "ts_nanos"},
		{"zero time in micros", func(l *Logical) { l.TsMicros = time.Time{} }, ""},
		{"year 300,000 in micros", func(l *Logical) { l.TsMicros = time.Date(300_000, 1, 1, 0, 0, 0, 0, time.UTC) }, "ts_micros"},
		{"year 6,000,000 as a date", func(l *Logical) { l.Date = time.Date(6_000_000, 1, 1, 0, 0, 0, 0, time.UTC) }, "date"},
		{"25 days in TIME(MILLIS)", func(l *Logical) { l.TimeOfDay32 = 25 * 24 * time.Hour }, "time_millis"},
		{"19 digits in DECIMAL(18,4)", func(l *Logical) { l.Dec64 = 1e18 }, "dec64"},
		{"18 digits in DECIMAL(18,4)", func(l *Logical) { l.Dec64 = -999_999_999_999_999_999 }, ""},
		{"10 digits in DECIMAL(9,2)", func(l *Logical) { l.Dec32 = -1_000_000_000 }, "dec32"},
		{"25 hours in TIME(MICROS)", func(l *Logical) { l.TimeOfDay64 = 25 * time.Hour }, "time_micros"},
		{"a negative TIME(NANOS)", func(l *Logical) { l.TimeOfDayFine = -time.Nanosecond }, "time_nanos"},
		{"24:00 and midnight", func(l *Logical) { l.TimeOfDay32, l.TimeOfDay64, l.TimeOfDayFine = 24*time.Hour, 0, 24*time.Hour }, ""},
		{"10^38 in DECIMAL(38) bytes", func(l *Logical) {
			l.DecFixed = [16]byte{0x4b, 0x3b, 0x4c, 0xa8, 0x5a, 0x86, 0xc4, 0x7a, 0x09, 0x8a, 0x22, 0x40}
		}, "dec_fixed"},
		{"10^38 - 1 in DECIMAL(38) bytes", func(l *Logical) {
			l.DecFixed = [16]byte{0x4b, 0x3b, 0x4c, 0xa8, 0x5a, 0x86, 0xc4, 0x7a, 0x09, 0x8a, 0x22, 0x3f, 0xff, 0xff, 0xff, 0xff}
		}, ""},
		{"41 digits in DECIMAL(40) bytes", func(l *Logical) { l.DecBytes = append([]byte{0x01}, make([]byte, 17)...) }, "dec_bytes"},
		{"a stray byte in a STRING", func(l *Logical) { l.Str = "caf\xe9" }, "str"},
		{"a rune cut short in an ENUM", func(l *Logical) { l.Enum = "\xe6\x97" }, "enum"},
		{"a surrogate in a JSON", func(l *Logical) { l.JSON = "\"\xed\xa0\x80\"" }, "json"},
		{"an empty JSON", func(l *Logical) { l.JSON = "" }, "json"},
		{"a JSON document cut short", func(l *Logical) { l.JSON = `{"a":[` }, "json"},
		{"text of every UTF-8 width", func(l *Logical) { l.Str, l.Enum, l.JSON = "aé日🙂", "ü", `"🙂"` }, ""},
	} {
		l := base
		c.set(&l)
		if c.column != "" {
			// After two good rows: the error names the third, row 2,
			// whether the generated writer or EndRows refuses it.
			_, err := write(base, base, l)
			want := fmt.Sprintf("column %q: row 2: ", c.column)
			if !errors.Is(err, runtime.ErrValue) || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s: %v, want an error wrapping ErrValue that starts %q", c.name, err, want)
			}
			continue
		}
		data, err := write(l)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		rows, err := readLogicalRows(data)
		if err != nil || len(rows) != 1 || !rows[0].TsNanos.Equal(l.TsNanos) || !rows[0].TsMicros.Equal(l.TsMicros) || rows[0].Dec64 != l.Dec64 || rows[0].Str != l.Str || rows[0].Enum != l.Enum || rows[0].JSON != l.JSON ||
			rows[0].DecFixed != l.DecFixed || rows[0].TimeOfDay32 != l.TimeOfDay32 || rows[0].TimeOfDayFine != l.TimeOfDayFine {
			t.Errorf("%s: read back %v (%v), want TsNanos %v TsMicros %v Dec64 %d", c.name, rows, err, l.TsNanos, l.TsMicros, l.Dec64)
		}
		// The counts stored are time.Time's own, read as raw INT64s: not
		// only what the generated reader makes of them.
		for col, want := range map[string]int64{"ts_nanos": l.TsNanos.UnixNano(), "ts_micros": l.TsMicros.UnixMicro(), "dec64": l.Dec64} {
			if got, err := rawInt64(data, col); err != nil || got != want {
				t.Errorf("%s: column %s stores %d (%v), want %d", c.name, col, got, err, want)
			}
		}
	}
}

// rawInt64 returns the first value of the INT64 column at path, read with
// the runtime's column reader.
func rawInt64(data []byte, path string) (int64, error) {
	fr, err := runtime.NewFileReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, err
	}
	c, err := fr.Int64Reader(fr.File().Schema.Leaf(path).Column)
	if err != nil {
		return 0, err
	}
	if _, err := c.ReadRows(1); err != nil {
		return 0, err
	}
	return c.Values[0], nil
}

// readLogicalRows reads every row of a Logical file held in data.
func readLogicalRows(data []byte) ([]Logical, error) {
	r, err := NewLogicalReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var out []Logical
	for row, err := range r.All() {
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

// TestValueErrorRow: the error of a value its column cannot hold names
// the row's index in the file, however the rows came in Write calls and
// batches before it, sequentially and under WithParallelism(2).
func TestValueErrorRow(t *testing.T) {
	rows := logicals(3000)
	for _, bad := range []struct {
		row    int
		set    func(*Logical)
		column string
	}{
		{2500, func(l *Logical) { l.TsNanos = time.Time{} }, "ts_nanos"}, // refused while shredding
		{1999, func(l *Logical) { l.Str = "caf\xe9" }, "str"},            // refused by EndRows
	} {
		rs := slices.Clone(rows)
		bad.set(&rs[bad.row])
		want := fmt.Sprintf("column %q: row %d: ", bad.column, bad.row)
		for _, par := range []int{1, 2} {
			w, err := NewLogicalWriter(io.Discard, runtime.WithParallelism(par))
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range [][]Logical{rs[:700], rs[700:1500], rs[1500:]} {
				if _, err = w.Write(part); err != nil {
					break
				}
			}
			if err == nil {
				err = w.Close()
			}
			if !errors.Is(err, runtime.ErrValue) || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("parallelism %d: %v, want an error wrapping ErrValue that starts %q", par, err, want)
			}
		}
	}
}

// TestPredicateValueOutOfRange: a predicate's value its column cannot
// hold fails the reader's open with an error wrapping runtime.ErrConfig
// and runtime.ErrValue that names the column as the writer's errors do
// (without a row).
func TestPredicateValueOutOfRange(t *testing.T) {
	data, err := func() ([]byte, error) {
		var b bytes.Buffer
		w, err := NewLogicalWriter(&b)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(logicals(3)); err != nil {
			return nil, err
		}
		return b.Bytes(), w.Close()
	}()
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewLogicalReader(bytes.NewReader(data), int64(len(data)), runtime.WithFilter(LogicalWhere.TsNanos.Eq(time.Time{})))
	if want := `column "ts_nanos": `; !errors.Is(err, runtime.ErrConfig) || !errors.Is(err, runtime.ErrValue) || !strings.Contains(err.Error(), want) {
		t.Fatalf("a zero time.Time against TIMESTAMP(NANOS): %v, want an error wrapping ErrConfig and ErrValue naming %s", err, want)
	}
}
