package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

func mustSchema(t testing.TB, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func openBytes(t testing.TB, b []byte) *File {
	t.Helper()
	f, err := OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func f32b(v float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)) }
func f64b(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }
func i32b(v int32) []byte   { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }

var negZero = math.Copysign(0, -1)

// writeOne writes the rows fill buffers (returning how many) in one
// EndRows call to a file of schema text and opens it.
func writeOne(t *testing.T, text string, fill func(w *FileWriter) int, opts ...WriterOption) *File {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, text), opts...)
	if err != nil {
		t.Fatal(err)
	}
	n := fill(w)
	if err := w.EndRows(n); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return openBytes(t, buf.Bytes())
}

func columnIndexOf(t *testing.T, f *File, rg, col int) *meta.ColumnIndex {
	t.Helper()
	cc := f.Meta.RowGroups[rg].Columns[col]
	if !cc.ColumnIndexOffset.Set {
		return nil
	}
	b := make([]byte, cc.ColumnIndexLength.Val)
	if _, err := f.ReaderAt().ReadAt(b, cc.ColumnIndexOffset.Val); err != nil {
		t.Fatal(err)
	}
	var ci meta.ColumnIndex
	if _, err := ci.DecodeThrift(b, nil); err != nil {
		t.Fatal(err)
	}
	return &ci
}

func offsetIndexOf(t *testing.T, f *File, rg, col int) *meta.OffsetIndex {
	t.Helper()
	cc := f.Meta.RowGroups[rg].Columns[col]
	b := make([]byte, cc.OffsetIndexLength.Val)
	if _, err := f.ReaderAt().ReadAt(b, cc.OffsetIndexOffset.Val); err != nil {
		t.Fatal(err)
	}
	var oi meta.OffsetIndex
	if _, err := oi.DecodeThrift(b, nil); err != nil {
		t.Fatal(err)
	}
	return &oi
}

type wantStats struct {
	min, max []byte // nil: absent
	nulls    int64
	nans     int64 // -1: absent
	minExact bool
	maxExact bool
	colIndex bool
}

func checkStats(t *testing.T, f *File, col int, w wantStats) {
	t.Helper()
	s := f.Meta.RowGroups[0].Columns[col].MetaData.Statistics
	if s == nil {
		t.Fatal("no statistics")
	}
	if w.min == nil && (s.Min != nil || s.Max != nil) {
		t.Errorf("deprecated min/max = %x/%x, want none", s.Min, s.Max)
	}
	if !bytes.Equal(s.MinValue, w.min) || !bytes.Equal(s.MaxValue, w.max) || (s.MinValue == nil) != (w.min == nil) {
		t.Errorf("min/max = %x/%x, want %x/%x", s.MinValue, s.MaxValue, w.min, w.max)
	}
	if s.NullCount != meta.Some(w.nulls) {
		t.Errorf("null_count = %+v, want %d", s.NullCount, w.nulls)
	}
	if w.nans >= 0 && s.NanCount != meta.Some(w.nans) || w.nans < 0 && s.NanCount.Set {
		t.Errorf("nan_count = %+v, want %d", s.NanCount, w.nans)
	}
	if w.min != nil && (s.IsMinValueExact != meta.Some(w.minExact) || s.IsMaxValueExact != meta.Some(w.maxExact)) {
		t.Errorf("exact = %+v/%+v, want %v/%v", s.IsMinValueExact, s.IsMaxValueExact, w.minExact, w.maxExact)
	}
	if w.min == nil && (s.IsMinValueExact.Set || s.IsMaxValueExact.Set) {
		t.Errorf("exactness set without bounds")
	}
	ci := columnIndexOf(t, f, 0, col)
	if (ci != nil) != w.colIndex {
		t.Errorf("column index present = %v, want %v", ci != nil, w.colIndex)
	}
	if ci != nil && w.min != nil && (!bytes.Equal(ci.MinValues[0], w.min) || !bytes.Equal(ci.MaxValues[0], w.max)) {
		t.Errorf("column index bounds %x/%x, want %x/%x", ci.MinValues[0], ci.MaxValues[0], w.min, w.max)
	}
	if ci != nil && w.nans >= 0 && (len(ci.NanCounts) != 1 || ci.NanCounts[0] != w.nans) {
		t.Errorf("column index nan counts %v, want [%d]", ci.NanCounts, w.nans)
	}
}

func TestStatsFloatRules(t *testing.T) {
	nan := float32(math.NaN())
	negNaN := math.Float32frombits(0xffc00001)
	cases := []struct {
		name  string
		vals  []float32
		total bool
		want  wantStats
	}{
		{"mixed", []float32{nan, 1.5, -2, nan}, false, wantStats{nans: 2, colIndex: false}},
		{"zero min is -0", []float32{0, 3}, false, wantStats{min: f32b(float32(negZero)), max: f32b(3), nans: 0, minExact: true, maxExact: true, colIndex: true}},
		{"zero max is +0", []float32{float32(negZero), -1}, false, wantStats{min: f32b(-1), max: f32b(0), nans: 0, minExact: true, maxExact: true, colIndex: true}},
		{"only zeros", []float32{0, 0}, false, wantStats{min: f32b(float32(negZero)), max: f32b(0), nans: 0, minExact: true, maxExact: true, colIndex: true}},
		{"all NaN: no bounds, no column index", []float32{nan, nan}, false, wantStats{nans: 2, colIndex: false}},
		{"total order keeps +0", []float32{0, 0}, true, wantStats{min: f32b(0), max: f32b(0), nans: 0, minExact: true, maxExact: true, colIndex: true}},
		{"total order -0 < +0", []float32{0, float32(negZero), nan}, true, wantStats{min: f32b(float32(negZero)), max: f32b(0), nans: 1, minExact: true, maxExact: true, colIndex: true}},
		{"total order all NaN", []float32{nan, negNaN}, true, wantStats{min: f32b(negNaN), max: f32b(nan), nans: 2, minExact: true, maxExact: true, colIndex: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts []WriterOption
			if c.total {
				opts = append(opts, WithColumnOrder("v", meta.IEEE754TotalOrder))
			}
			f := writeOne(t, "message m { required float v; }", func(w *FileWriter) int {
				b, _ := w.FloatBuffer(0)
				b.Values = append(b.Values, c.vals...)
				return len(c.vals)
			}, opts...)
			checkStats(t, f, 0, c.want)
			wantOrder := meta.TypeDefinedOrder
			if c.total {
				wantOrder = meta.IEEE754TotalOrder
			}
			if f.ColumnOrder(0) != wantOrder {
				t.Errorf("column order %v, want %v", f.ColumnOrder(0), wantOrder)
			}
		})
	}
}

func TestStatsDoubleNulls(t *testing.T) {
	f := writeOne(t, "message m { optional double v; }", func(w *FileWriter) int {
		b, _ := w.DoubleBuffer(0)
		b.Def = []uint8{0, 1, 1, 0, 1}
		b.Values = []float64{math.NaN(), 2.5, 0}
		return 5
	})
	checkStats(t, f, 0, wantStats{nulls: 2, nans: 1, colIndex: false})
}

func TestStatsIntOrders(t *testing.T) {
	vals := []int32{1, -1, 5, math.MinInt32}
	for _, c := range []struct {
		schema   string
		min, max []byte
	}{
		{"message m { required int32 v; }", i32b(math.MinInt32), i32b(5)},
		{"message m { required int32 v (INTEGER(32,false)); }", i32b(1), i32b(-1)},
		{"message m { required int32 v (UINT_16); }", i32b(1), i32b(-1)},
	} {
		f := writeOne(t, c.schema, func(w *FileWriter) int {
			b, _ := w.Int32Buffer(0)
			b.Values = append(b.Values, vals...)
			return len(vals)
		})
		checkStats(t, f, 0, wantStats{min: c.min, max: c.max, nans: -1, minExact: true, maxExact: true, colIndex: true})
	}
	f := writeOne(t, "message m { required int64 v (INTEGER(64,false)); }", func(w *FileWriter) int {
		b, _ := w.Int64Buffer(0)
		b.Values = []int64{-1, 7, 3}
		return 3
	})
	checkStats(t, f, 0, wantStats{
		min: binary.LittleEndian.AppendUint64(nil, 3), max: binary.LittleEndian.AppendUint64(nil, math.MaxUint64),
		nans: -1, minExact: true, maxExact: true, colIndex: true})
}

// TestStatsBool: the bounds of a BOOLEAN chunk and of each of its pages
// (false is 0x00, true 0x01), for pages of false alone, of true alone and
// of both (each value first in turn), the chunk's from all of them.
func TestStatsBool(t *testing.T) {
	pages := [][]bool{
		{false, false, false},
		{true, true},
		{false, true, true, false},
		{true, false, false},
		{true},
	}
	f := writeOne(t, "message m { required boolean v; }", func(w *FileWriter) int {
		b, _ := w.BoolBuffer(0)
		for _, p := range pages {
			b.Values = append(b.Values, p...)
		}
		return len(b.Values)
	}, WithPageRowLimit(3))
	if s := f.Meta.RowGroups[0].Columns[0].MetaData.Statistics; s == nil || !bytes.Equal(s.MinValue, []byte{0}) || !bytes.Equal(s.MaxValue, []byte{1}) {
		t.Fatalf("chunk statistics %+v, want bounds 00/01", s)
	}
	// Pages of 3 rows: [f f f] [t t f] [t t f] [t f f] [t].
	ci := columnIndexOf(t, f, 0, 0)
	want := [][2]byte{{0, 0}, {0, 1}, {0, 1}, {0, 1}, {1, 1}}
	if len(ci.MinValues) != len(want) {
		t.Fatalf("%d pages, want %d", len(ci.MinValues), len(want))
	}
	for i, w := range want {
		if !bytes.Equal(ci.MinValues[i], w[:1]) || !bytes.Equal(ci.MaxValues[i], w[1:]) {
			t.Errorf("page %d: bounds %x/%x, want %x/%x", i, ci.MinValues[i], ci.MaxValues[i], w[:1], w[1:])
		}
	}
}

func TestStatsDecimal(t *testing.T) {
	// -300 = fe d4, -5 = fb, 3 = 03, 200 = 00 c8.
	vals := [][]byte{{0x03}, {0xfe, 0xd4}, {0xfb}, {0x00, 0xc8}}
	f := writeOne(t, "message m { required binary v (DECIMAL(9,2)); }", func(w *FileWriter) int {
		b, _ := w.ByteArrayBuffer(0)
		for _, v := range vals {
			b.Values.Append(v)
		}
		return len(vals)
	})
	checkStats(t, f, 0, wantStats{min: []byte{0xfe, 0xd4}, max: []byte{0x00, 0xc8}, nans: -1, minExact: true, maxExact: true, colIndex: true})
	// 0x2700 = 9984, four digits.
	f = writeOne(t, "message m { required fixed_len_byte_array(2) v (DECIMAL(4,2)); }", func(w *FileWriter) int {
		b, _ := w.FixedBuffer(0)
		b.Values = append(b.Values, 0x00, 0x03, 0xfe, 0xd4, 0xff, 0xfb, 0x27, 0x00)
		return 4
	})
	checkStats(t, f, 0, wantStats{min: []byte{0xfe, 0xd4}, max: []byte{0x27, 0x00}, nans: -1, minExact: true, maxExact: true, colIndex: true})
	// Without DECIMAL the same bytes compare unsigned.
	f = writeOne(t, "message m { required fixed_len_byte_array(2) v; }", func(w *FileWriter) int {
		b, _ := w.FixedBuffer(0)
		b.Values = append(b.Values, 0x00, 0x03, 0xfe, 0xd4, 0xff, 0xfb, 0x7f, 0x00)
		return 4
	})
	checkStats(t, f, 0, wantStats{min: []byte{0x00, 0x03}, max: []byte{0xff, 0xfb}, nans: -1, minExact: true, maxExact: true, colIndex: true})
}

func TestStatsNoOrder(t *testing.T) {
	f := writeOne(t, "message m { optional int96 v; optional fixed_len_byte_array(12) i (INTERVAL); }", func(w *FileWriter) int {
		b, _ := w.Int96Buffer(0)
		b.Def = []uint8{1, 0}
		b.Values = append(b.Values, [12]byte{1})
		fb, _ := w.FixedBuffer(1)
		fb.Def = []uint8{0, 1}
		fb.Values = append(fb.Values, make([]byte, 12)...)
		return 2
	})
	checkStats(t, f, 0, wantStats{nulls: 1, nans: -1})
	checkStats(t, f, 1, wantStats{nulls: 1, nans: -1})
	// INT96 with the timestamp order: days, then nanoseconds.
	f = writeOne(t, "message m { required int96 v; }", func(w *FileWriter) int {
		b, _ := w.Int96Buffer(0)
		var x, y, z [12]byte
		binary.LittleEndian.PutUint64(x[:], 5)
		binary.LittleEndian.PutUint32(x[8:], 100)
		binary.LittleEndian.PutUint64(y[:], 9)
		binary.LittleEndian.PutUint32(y[8:], 99)
		binary.LittleEndian.PutUint64(z[:], 1)
		binary.LittleEndian.PutUint32(z[8:], 100)
		b.Values = append(b.Values, x, y, z)
		return 3
	}, WithColumnOrder("v", meta.Int96TimestampOrder))
	mn := make([]byte, 12)
	binary.LittleEndian.PutUint64(mn, 9)
	binary.LittleEndian.PutUint32(mn[8:], 99)
	mx := make([]byte, 12)
	binary.LittleEndian.PutUint64(mx, 5)
	binary.LittleEndian.PutUint32(mx[8:], 100)
	checkStats(t, f, 0, wantStats{min: mn, max: mx, nans: -1, minExact: true, maxExact: true, colIndex: true})
	if f.ColumnOrder(0) != meta.Int96TimestampOrder {
		t.Errorf("column order %v", f.ColumnOrder(0))
	}
}

func TestStatsTruncation(t *testing.T) {
	long := strings.Repeat("a", 70)
	ff := string(bytes.Repeat([]byte{0xff}, 70))
	for _, c := range []struct {
		name               string
		schema             string
		vals               []string
		n                  int
		min, max           string
		minExact, maxExact bool
	}{
		{"short", "binary v", []string{"b", "a"}, 64, "a", "b", true, true},
		{"long", "binary v", []string{long + "z", long}, 64, long[:64], long[:63] + "b", false, false},
		{"max not incrementable", "binary v", []string{ff, "a"}, 64, "a", ff, true, true},
		{"increment before 0xff", "binary v", []string{"ab" + string(bytes.Repeat([]byte{0xff}, 5))}, 4, "ab\xff\xff", "ac", false, false},
		{"off", "binary v", []string{long + "z"}, 0, long + "z", long + "z", true, true},
		{"utf8 boundary", "binary v (STRING)", []string{"aéé"}, 4, "aé", "aê", false, false},
		{"utf8 max rune", "binary v (STRING)", []string{"a\U0010FFFF\U0010FFFF"}, 6, "a\U0010FFFF", "b", false, false},
		{"decimal never truncated", "binary v (DECIMAL(40,0))", []string{"\x01" + strings.Repeat("\x00", 16)}, 4,
			"\x01" + strings.Repeat("\x00", 16), "\x01" + strings.Repeat("\x00", 16), true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := writeOne(t, "message m { required "+c.schema+"; }", func(w *FileWriter) int {
				b, _ := w.ByteArrayBuffer(0)
				for _, v := range c.vals {
					b.Values.AppendString(v)
				}
				return len(c.vals)
			}, WithStatsTruncateLength(c.n))
			checkStats(t, f, 0, wantStats{min: []byte(c.min), max: []byte(c.max), nans: -1, minExact: c.minExact, maxExact: c.maxExact, colIndex: true})
		})
	}
}

func TestTruncateHelpers(t *testing.T) {
	if v, ok := truncateMin([]byte("éé"), 3, true); string(v) != "é" || ok {
		t.Errorf("truncateMin = %q %v", v, ok)
	}
	if v, ok := truncateMax(nil, []byte("a\ud7ffx"), 4, true); string(v) != "a\ue000" || ok {
		t.Errorf("truncateMax past the surrogates = %q %v", v, ok)
	}
	if v, ok := truncateMax(nil, []byte("\U0010FFFF\U0010FFFF"), 5, true); string(v) != "\U0010FFFF\U0010FFFF" || !ok {
		t.Errorf("truncateMax of max runes = %q %v", v, ok)
	}
	for _, c := range []struct {
		a, b []byte
		want int
	}{
		{[]byte{0xff}, []byte{0x00}, -1},
		{[]byte{0xff, 0x00}, []byte{0x80}, -1}, // -256 vs -128
		{[]byte{0x00, 0x80}, []byte{0x7f}, 1},  // 128 vs 127
		{[]byte{}, []byte{0x00}, 0},            // 0 vs 0
		{[]byte{0xff, 0xff}, []byte{0xff}, 0},  // -1 vs -1
		{[]byte{0x80, 0x00}, []byte{0xff, 0x7f}, -1},
	} {
		if got := compareDecimal(c.a, c.b); got != c.want {
			t.Errorf("compareDecimal(%x, %x) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestPageCutAtRowBoundaries(t *testing.T) {
	for _, v := range []int{1, 2} {
		var buf bytes.Buffer
		s := mustSchema(t, "message m { optional group l (LIST) { repeated group list { required int64 element; } } }")
		w, err := NewFileWriter(&buf, s, WithPageRowLimit(10), WithDataPageVersion(v), WithDictionary(false))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := w.Int64Buffer(0)
		// Row i holds i%4 elements (0: an empty list).
		slots := 0
		var perRow []int
		for i := 0; i < 35; i++ {
			k := i % 4
			if k == 0 {
				b.Def, b.Rep = append(b.Def, 1), append(b.Rep, 0)
				perRow = append(perRow, 1)
				continue
			}
			for j := 0; j < k; j++ {
				r := uint8(1)
				if j == 0 {
					r = 0
				}
				b.Def, b.Rep = append(b.Def, 2), append(b.Rep, r)
				b.Values = append(b.Values, int64(i))
			}
			perRow = append(perRow, k)
		}
		for _, n := range perRow {
			slots += n
		}
		if err := w.EndRows(35); err != nil { // one call: pages must still be cut every 10 rows
			t.Fatal(err)
		}
		if len(b.Def)+len(b.Rep)+len(b.Values) != 0 {
			t.Fatal("buffers not emptied by EndRows")
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, buf.Bytes())
		oi := offsetIndexOf(t, f, 0, 0)
		var first []int64
		for _, p := range oi.PageLocations {
			first = append(first, p.FirstRowIndex)
		}
		if want := []int64{0, 10, 20, 30}; !equalInts(first, want) {
			t.Fatalf("v%d: first rows %v, want %v", v, first, want)
		}
		data := buf.Bytes()
		total := 0
		for i, p := range oi.PageLocations {
			h, _, err := meta.DecodePageHeader(data[p.Offset:], nil)
			if err != nil {
				t.Fatal(err)
			}
			rows := 10
			if i == 3 {
				rows = 5
			}
			want := 0
			for _, n := range perRow[10*i : 10*i+rows] {
				want += n
			}
			var nv int32
			if v == 1 {
				nv = h.DataPageHeader.NumValues
			} else {
				nv = h.DataPageHeaderV2.NumValues
				if h.DataPageHeaderV2.NumRows != int32(rows) {
					t.Errorf("v2 page %d: num_rows %d, want %d", i, h.DataPageHeaderV2.NumRows, rows)
				}
			}
			if int(nv) != want {
				t.Errorf("v%d page %d: %d values, want %d", v, i, nv, want)
			}
			total += int(nv)
		}
		if total != slots {
			t.Errorf("%d slots in pages, want %d", total, slots)
		}
		// Round trip through the reader.
		r, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		cr, err := r.Int64Reader(0)
		if err != nil {
			t.Fatal(err)
		}
		n, err := cr.ReadRows(100)
		if n != 35 || (err != nil && err != io.EOF) {
			t.Fatalf("read %d rows, %v", n, err)
		}
		if len(cr.Levels.Def) != slots {
			t.Errorf("read %d slots, want %d", len(cr.Levels.Def), slots)
		}
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// failWriter accepts limit bytes, then fails every write.
type failWriter struct {
	buf    bytes.Buffer
	limit  int
	writes int
}

var errDisk = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	f.writes++
	if f.buf.Len()+len(p) > f.limit {
		n := f.limit - f.buf.Len()
		f.buf.Write(p[:n])
		return n, errDisk
	}
	return f.buf.Write(p)
}

func TestPoisonedWriter(t *testing.T) {
	s := mustSchema(t, "message m { required int64 v; }")
	fw := &failWriter{limit: 100}
	w, err := NewFileWriter(fw, s, WithRowGroupSize(1000), WithDictionary(false), WithCompression(meta.Uncompressed, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := w.Int64Buffer(0)
	var first error
	for i := 0; i < 10 && first == nil; i++ {
		for j := 0; j < 200; j++ {
			b.Values = append(b.Values, int64(j))
		}
		first = w.EndRows(200)
	}
	if !errors.Is(first, errDisk) {
		t.Fatalf("EndRows error %v, want the write error", first)
	}
	writes := fw.writes
	if err := w.EndRows(0); err != first {
		t.Errorf("EndRows after failure: %v", err)
	}
	if err := w.Flush(); err != first {
		t.Errorf("Flush after failure: %v", err)
	}
	if err := w.Close(); err != first {
		t.Errorf("Close after failure: %v", err)
	}
	if fw.writes != writes {
		t.Errorf("%d writes after the failure", fw.writes-writes)
	}
	if bytes.HasSuffix(fw.buf.Bytes(), []byte(Magic)) && fw.buf.Len() > 4 {
		t.Error("a footer was written")
	}

	// A failure at Close (footer) is reported by Close.
	fw = &failWriter{limit: 200}
	w, _ = NewFileWriter(fw, s, WithDictionary(false), WithCompression(meta.Uncompressed, 0))
	b, _ = w.Int64Buffer(0)
	b.Values = append(b.Values, 1, 2, 3)
	if err := w.EndRows(3); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, errDisk) {
		t.Fatalf("Close error %v", err)
	}
	if err := w.Close(); !errors.Is(err, errDisk) {
		t.Fatalf("second Close error %v", err)
	}
}

// TestWriteFailureNamed fails the output at every byte of a file of two
// row groups and checks that each error wraps the output's and names what
// was being written: the magic, the footer, or the row group and column.
func TestWriteFailureNamed(t *testing.T) {
	s := mustSchema(t, "message m { required int64 a; optional binary b (STRING); }")
	write := func(out io.Writer, opts ...WriterOption) error {
		opts = append(opts, WithColumnBloomFilter("b", 10, 0.01))
		w, err := NewFileWriter(out, s, opts...)
		if err != nil {
			return err
		}
		for range 2 {
			a, _ := w.Int64Buffer(0)
			b, _ := w.ByteArrayBuffer(1)
			for i := range 10 {
				a.Values = append(a.Values, int64(i%2)) // two values: the dictionary pays
				b.Values.AppendString("x")
				b.Def = append(b.Def, 1)
			}
			if err := w.EndRows(10); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
		}
		return w.Close()
	}
	want := []string{
		"writing the leading magic: disk full",
		`row group 0: column "a": writing the dictionary page: disk full`,
		`row group 0: column "a": writing 1 data pages: disk full`,
		`row group 0: column "b": writing the dictionary page: disk full`,
		`row group 0: column "b": writing 1 data pages: disk full`,
		`row group 0: writing the bloom filter of column "b": disk full`,
		`row group 1: column "a": writing the dictionary page: disk full`,
		`row group 1: column "a": writing 1 data pages: disk full`,
		`row group 1: column "b": writing the dictionary page: disk full`,
		`row group 1: column "b": writing 1 data pages: disk full`,
		`row group 1: writing the bloom filter of column "b": disk full`,
		`row group 0: column "a": writing the column index: disk full`,
		`row group 0: column "b": writing the column index: disk full`,
		`row group 1: column "a": writing the column index: disk full`,
		`row group 1: column "b": writing the column index: disk full`,
		`row group 0: column "a": writing the offset index: disk full`,
		`row group 0: column "b": writing the offset index: disk full`,
		`row group 1: column "a": writing the offset index: disk full`,
		`row group 1: column "b": writing the offset index: disk full`,
		"writing the footer: disk full",
	}
	for _, par := range []int{1, 2} {
		var full bytes.Buffer
		if err := write(&full, WithParallelism(par)); err != nil {
			t.Fatal(err)
		}
		var got []string
		for limit := range full.Len() {
			err := write(&failWriter{limit: limit}, WithParallelism(par))
			if !errors.Is(err, errDisk) {
				t.Fatalf("parallelism %d, output failing after %d bytes: %v, want an error wrapping the output's", par, limit, err)
			}
			if len(got) == 0 || got[len(got)-1] != err.Error() {
				got = append(got, err.Error())
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("parallelism %d: the errors as the failure moves through the file (-want +got):\n%s", par, d)
		}
	}
}

func TestWriterErrors(t *testing.T) {
	s := mustSchema(t, "message m { required int64 a; optional binary b; repeated int32 c; }")
	w, err := NewFileWriter(io.Discard, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Int32Buffer(0); !errors.Is(err, ErrColumnType) {
		t.Errorf("Int32Buffer on int64: %v", err)
	}
	if _, err := w.Int64Buffer(3); !errors.Is(err, ErrColumnType) {
		t.Errorf("out of range: %v", err)
	}
	for _, o := range []WriterOption{
		WithPageSize(0), WithDataPageVersion(3), WithCompression(meta.LZO, 0),
		WithCompression(meta.Zstd, 99), WithColumnEncoding("a", meta.EncodingDeltaLengthByteArray),
		WithColumnEncoding("zzz", meta.EncodingPlain), WithColumnBloomFilter("a", 0, 0.1),
		WithColumnOrder("a", meta.IEEE754TotalOrder), WithColumnDictionary("a", true), // last one is valid
	} {
		if _, err := NewFileWriter(io.Discard, s, o); err == nil {
			if o == nil {
				continue
			}
		} else if !errors.Is(err, ErrConfig) {
			t.Errorf("option error %v does not wrap ErrConfig", err)
		}
	}
	if _, err := NewFileWriter(io.Discard, s, WithColumnEncoding("a", meta.EncodingDeltaLengthByteArray)); err == nil {
		t.Error("DELTA_LENGTH_BYTE_ARRAY accepted for INT64")
	}
	if _, err := NewFileWriter(io.Discard, s, WithColumnOrder("a", meta.IEEE754TotalOrder)); err == nil {
		t.Error("total order accepted for INT64")
	}
	if _, err := NewFileWriter(io.Discard, s, WithColumnEncoding("zzz", meta.EncodingPlain)); err == nil {
		t.Error("unknown column accepted")
	}

	bad := func(name string, fill func(a *Int64Buffer, b *ByteArrayBuffer, c *Int32Buffer), n int) {
		t.Helper()
		w, _ := NewFileWriter(io.Discard, s)
		a, _ := w.Int64Buffer(0)
		b, _ := w.ByteArrayBuffer(1)
		c, _ := w.Int32Buffer(2)
		a.Values = append(a.Values, 1)
		b.Def = append(b.Def, 0)
		c.Def, c.Rep = append(c.Def, 0), append(c.Rep, 0)
		fill(a, b, c)
		err := w.EndRows(n)
		if !errors.Is(err, ErrRows) {
			t.Errorf("%s: %v", name, err)
		}
		if err2 := w.Close(); err2 != err {
			t.Errorf("%s: Close after a rows error: %v", name, err2)
		}
	}
	bad("row count", func(a *Int64Buffer, b *ByteArrayBuffer, c *Int32Buffer) {}, 2)
	bad("missing value", func(a *Int64Buffer, b *ByteArrayBuffer, c *Int32Buffer) { b.Def[0] = 1 }, 1)
	bad("def too high", func(a *Int64Buffer, b *ByteArrayBuffer, c *Int32Buffer) { b.Def[0] = 2 }, 1)
	bad("rep without row start", func(a *Int64Buffer, b *ByteArrayBuffer, c *Int32Buffer) { c.Rep[0] = 1 }, 1)
	bad("levels length", func(a *Int64Buffer, b *ByteArrayBuffer, c *Int32Buffer) { c.Rep = append(c.Rep, 1) }, 1)
	bad("levels in a required column", func(a *Int64Buffer, b *ByteArrayBuffer, c *Int32Buffer) { a.Def = append(a.Def, 0) }, 1)

	// Values left without EndRows make Close fail.
	w, _ = NewFileWriter(io.Discard, s)
	a, _ := w.Int64Buffer(0)
	a.Values = append(a.Values, 1)
	if err := w.Close(); !errors.Is(err, ErrRows) {
		t.Errorf("Close with pending values: %v", err)
	}
}

func TestDictionaryFallback(t *testing.T) {
	var buf bytes.Buffer
	s := mustSchema(t, "message m { required binary s; required int32 i; }")
	w, err := NewFileWriter(&buf, s, WithMaxDictionarySize(200), WithPageRowLimit(50), WithDataPageVersion(2),
		WithColumnBloomFilter("s", 300, 0.01))
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := w.ByteArrayBuffer(0)
	ib, _ := w.Int32Buffer(1)
	var want []string
	for i := 0; i < 300; i++ {
		v := string(rune('a' + i%26))
		if i >= 60 {
			v += strings.Repeat("x", i%7) + string(rune('A'+i%26))
		}
		want = append(want, v)
		sb.Values.AppendString(v)
		ib.Values = append(ib.Values, int32(i%5))
		if i%30 == 29 {
			if err := w.EndRows(30); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBytes(t, buf.Bytes())
	md := f.Meta.RowGroups[0].Columns[0].MetaData
	var dictPages, rle, fallback int32
	for _, e := range md.EncodingStats {
		switch {
		case e.PageType == meta.DictionaryPage:
			dictPages += e.Count
		case e.Encoding == meta.EncodingRLEDictionary:
			rle += e.Count
		case e.Encoding == meta.EncodingPlain, e.Encoding == meta.EncodingDeltaLengthByteArray, e.Encoding == meta.EncodingDeltaByteArray:
			fallback += e.Count
		}
	}
	if dictPages != 1 || rle == 0 || fallback == 0 {
		t.Errorf("encoding stats %+v: want a dictionary page, dictionary pages, then fallback pages", md.EncodingStats)
	}
	if !md.DictionaryPageOffset.Set || md.DictionaryPageOffset.Val != 4 {
		t.Errorf("dictionary page offset %+v", md.DictionaryPageOffset)
	}
	if md2 := f.Meta.RowGroups[0].Columns[1].MetaData; len(md2.EncodingStats) != 2 {
		t.Errorf("int column encoding stats %+v: want dictionary only", md2.EncodingStats)
	}
	r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	cr, _ := r.ByteArrayReader(0)
	n, err := cr.ReadRows(1000)
	if n != 300 || (err != nil && err != io.EOF) {
		t.Fatalf("read %d, %v", n, err)
	}
	for i, v := range want {
		if got := string(cr.Values.At(i)); got != v {
			t.Fatalf("value %d = %q, want %q", i, got, v)
		}
	}
	// The bloom filter holds the values inserted before and after the
	// fallback.
	bf, err := r.BloomFilter(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range want {
		if !bf.Check(bloom.HashString(v)) {
			t.Fatalf("bloom filter lacks %q", v)
		}
	}
}

func TestFooterMetadata(t *testing.T) {
	var buf bytes.Buffer
	s := mustSchema(t, "message m { required int64 a; optional binary b (STRING); }")
	w, err := NewFileWriter(&buf, s, WithKeyValueMetadata("k", "v"), WithColumnKeyValueMetadata("b", "ck", "cv"),
		WithSortingColumns(meta.SortingColumn{ColumnIdx: 0}), WithColumnBloomFilter("a", 100, 0.01))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := w.Int64Buffer(0)
	b, _ := w.ByteArrayBuffer(1)
	for rg := 0; rg < 3; rg++ {
		for i := 0; i < 10; i++ {
			a.Values = append(a.Values, int64(rg*10+i))
			b.Def = append(b.Def, 1)
			b.Values.AppendString("x")
		}
		if err := w.EndRows(10); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil { // empty: no row group
		t.Fatal(err)
	}
	if err := w.Err(); err != nil {
		t.Errorf("Err of an open writer: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.EndRows(0); !errors.Is(err, ErrClosed) {
		t.Errorf("EndRows after Close: %v", err)
	}
	if err := w.Err(); !errors.Is(err, ErrClosed) {
		t.Errorf("Err after Close: %v, want ErrClosed", err)
	}
	f := openBytes(t, buf.Bytes())
	m := f.Meta
	if m.NumRows != 30 || len(m.RowGroups) != 3 {
		t.Fatalf("%d rows in %d row groups", m.NumRows, len(m.RowGroups))
	}
	if !strings.HasPrefix(m.CreatedBy.Val, "pqgen version "+Version+" (build ") {
		t.Errorf("created_by %q", m.CreatedBy.Val)
	}
	if len(m.KeyValueMetadata) != 1 || m.KeyValueMetadata[0].Key != "k" {
		t.Errorf("key-value metadata %+v", m.KeyValueMetadata)
	}
	if len(m.ColumnOrders) != 2 {
		t.Errorf("column orders %+v", m.ColumnOrders)
	}
	for i, rg := range m.RowGroups {
		if rg.Ordinal != meta.Some(int16(i)) || len(rg.SortingColumns) != 1 || rg.NumRows != 10 {
			t.Errorf("row group %d: %+v", i, rg)
		}
		c0 := rg.Columns[0]
		// Column a's ten unique values go without a dictionary
		// (judgedWhole): its first page is its data page.
		if c0.MetaData.DictionaryPageOffset.Set || rg.FileOffset.Val != c0.MetaData.DataPageOffset {
			t.Errorf("row group %d: file_offset %d, dictionary page %v, data page at %d", i, rg.FileOffset.Val, c0.MetaData.DictionaryPageOffset, c0.MetaData.DataPageOffset)
		}
		var sum int64
		for _, c := range rg.Columns {
			sum += c.MetaData.TotalCompressedSize
		}
		if rg.TotalCompressedSize.Val != sum {
			t.Errorf("row group %d: total_compressed_size %d, chunks sum to %d", i, rg.TotalCompressedSize.Val, sum)
		}
		if !c0.MetaData.BloomFilterOffset.Set || rg.Columns[1].MetaData.BloomFilterOffset.Set {
			t.Errorf("row group %d: bloom filter offsets %+v %+v", i, c0.MetaData.BloomFilterOffset, rg.Columns[1].MetaData.BloomFilterOffset)
		}
		if kv := rg.Columns[1].MetaData.KeyValueMetadata; len(kv) != 1 || kv[0].Key != "ck" {
			t.Errorf("column key-value metadata %+v", kv)
		}
		ss := rg.Columns[1].MetaData.SizeStatistics
		if ss == nil || ss.UnencodedByteArrayDataBytes != meta.Some(int64(10)) || len(ss.DefinitionLevelHistogram) != 2 || ss.DefinitionLevelHistogram[1] != 10 {
			t.Errorf("size statistics %+v", ss)
		}
		oi := offsetIndexOf(t, f, i, 1)
		if len(oi.UnencodedByteArrayDataBytes) != 1 || oi.UnencodedByteArrayDataBytes[0] != 10 {
			t.Errorf("offset index unencoded bytes %v", oi.UnencodedByteArrayDataBytes)
		}
	}
	r, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	bf, err := r.BloomFilter(1, 0)
	if err != nil || bf == nil {
		t.Fatalf("bloom filter: %v", err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.parquet")
	s := mustSchema(t, "message m { required int32 v; }")
	err := WriteFile(path, s, func(w *FileWriter) error {
		b, _ := w.Int32Buffer(0)
		b.Values = append(b.Values, 1, 2)
		return w.EndRows(2)
	})
	if err != nil {
		t.Fatal(err)
	}
	f, fh, err := OpenPath(path)
	if err != nil {
		t.Fatal(err)
	}
	fh.Close()
	if f.Meta.NumRows != 2 {
		t.Errorf("%d rows", f.Meta.NumRows)
	}
	boom := errors.New("boom")
	if err := WriteFileAtomic(filepath.Join(dir, "y.parquet"), func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	}); err != boom {
		t.Errorf("error %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d entries after a failed write", len(ents))
	}
}

func TestPageStatistics(t *testing.T) {
	var buf bytes.Buffer
	s := mustSchema(t, "message m { optional int32 v; }")
	w, err := NewFileWriter(&buf, s, WithPageStatistics(true), WithPageRowLimit(3), WithDictionary(false))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := w.Int32Buffer(0)
	b.Def = []uint8{1, 0, 1, 0, 0, 0, 1}
	b.Values = []int32{5, -3, 9}
	if err := w.EndRows(7); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	f := openBytes(t, data)
	oi := offsetIndexOf(t, f, 0, 0)
	want := []struct {
		min, max []byte
		nulls    int64
	}{{i32b(-3), i32b(5), 1}, {nil, nil, 3}, {i32b(9), i32b(9), 0}}
	if len(oi.PageLocations) != len(want) {
		t.Fatalf("%d pages", len(oi.PageLocations))
	}
	for i, p := range oi.PageLocations {
		h, _, err := meta.DecodePageHeader(data[p.Offset:], nil)
		if err != nil {
			t.Fatal(err)
		}
		st := h.DataPageHeader.Statistics
		if st == nil || !bytes.Equal(st.MinValue, want[i].min) || !bytes.Equal(st.MaxValue, want[i].max) || st.NullCount != meta.Some(want[i].nulls) {
			t.Errorf("page %d statistics %+v, want %+v", i, st, want[i])
		}
	}
	ci := columnIndexOf(t, f, 0, 0)
	if fmt.Sprint(ci.NullPages) != "[false true false]" || fmt.Sprint(ci.NullCounts) != "[1 3 0]" ||
		ci.BoundaryOrder != meta.Ascending || len(ci.MinValues[1]) != 0 {
		t.Errorf("column index %+v", ci)
	}
	if fmt.Sprint(ci.DefinitionLevelHistograms) != "[1 2 3 0 0 1]" || ci.RepetitionLevelHistograms != nil {
		t.Errorf("column index histograms %v %v", ci.DefinitionLevelHistograms, ci.RepetitionLevelHistograms)
	}
	// Page statistics are off by default.
	f2 := writeOne(t, "message m { required int32 v; }", func(w *FileWriter) int {
		b, _ := w.Int32Buffer(0)
		b.Values = append(b.Values, 1)
		return 1
	})
	md := f2.Meta.RowGroups[0].Columns[0].MetaData
	b2 := make([]byte, 64)
	f2.ReaderAt().ReadAt(b2, md.DataPageOffset)
	if h, _, err := meta.DecodePageHeader(b2, nil); err != nil || h.DataPageHeader.Statistics != nil {
		t.Errorf("default page header statistics: %+v %v", h, err)
	}
}

func TestBoundaryOrder(t *testing.T) {
	for _, c := range []struct {
		vals []int32
		want meta.BoundaryOrder
	}{
		{[]int32{1, 2, 3, 4, 5, 6}, meta.Ascending},
		{[]int32{6, 5, 4, 3, 2, 1}, meta.Descending},
		{[]int32{1, 2, 9, 3, 4, 5}, meta.Unordered},
		{[]int32{1, 1, 1, 1}, meta.Ascending},
	} {
		f := writeOne(t, "message m { required int32 v; }", func(w *FileWriter) int {
			b, _ := w.Int32Buffer(0)
			b.Values = append(b.Values, c.vals...)
			return len(c.vals)
		}, WithPageRowLimit(2))
		if ci := columnIndexOf(t, f, 0, 0); ci.BoundaryOrder != c.want {
			t.Errorf("%v: boundary order %v, want %v", c.vals, ci.BoundaryOrder, c.want)
		}
	}
}

func TestStatsFloat16(t *testing.T) {
	h := func(u uint16) []byte { return binary.LittleEndian.AppendUint16(nil, u) }
	// 0x3c00 = 1, 0xc000 = -2, 0x7e00 = NaN, 0x0000 = +0.
	f := writeOne(t, "message m { required fixed_len_byte_array(2) v (FLOAT16); }", func(w *FileWriter) int {
		b, _ := w.FixedBuffer(0)
		for _, u := range []uint16{0x3c00, 0x7e00, 0xc000, 0x0000} {
			b.Values = append(b.Values, h(u)...)
		}
		return 4
	})
	checkStats(t, f, 0, wantStats{nans: 1, colIndex: false})
	f = writeOne(t, "message m { required fixed_len_byte_array(2) v (FLOAT16); }", func(w *FileWriter) int {
		b, _ := w.FixedBuffer(0)
		for _, u := range []uint16{0x0000, 0x4000} {
			b.Values = append(b.Values, h(u)...)
		}
		return 2
	})
	checkStats(t, f, 0, wantStats{min: h(0x8000), max: h(0x4000), nans: 0, minExact: true, maxExact: true, colIndex: true})
	// Total order: NaN bounds when all values are NaN, no zero adjustment.
	f = writeOne(t, "message m { required fixed_len_byte_array(2) v (FLOAT16); }", func(w *FileWriter) int {
		b, _ := w.FixedBuffer(0)
		for _, u := range []uint16{0x7e00, 0xfe01, 0x7c01} {
			b.Values = append(b.Values, h(u)...)
		}
		return 3
	}, WithColumnOrder("v", meta.IEEE754TotalOrder))
	checkStats(t, f, 0, wantStats{min: h(0xfe01), max: h(0x7e00), nans: 3, minExact: true, maxExact: true, colIndex: true})
	f = writeOne(t, "message m { required fixed_len_byte_array(2) v (FLOAT16); }", func(w *FileWriter) int {
		b, _ := w.FixedBuffer(0)
		b.Values = append(b.Values, h(0x0000)...)
		return 1
	}, WithColumnOrder("v", meta.IEEE754TotalOrder))
	checkStats(t, f, 0, wantStats{min: h(0x0000), max: h(0x0000), nans: 0, minExact: true, maxExact: true, colIndex: true})
}

func TestStatsTotalOrderNaNPage(t *testing.T) {
	// Page 1 holds only NaNs, page 2 numbers: the chunk bounds exclude NaN.
	nan := math.NaN()
	f := writeOne(t, "message m { required double v; }", func(w *FileWriter) int {
		b, _ := w.DoubleBuffer(0)
		b.Values = append(b.Values, nan, nan, 1, -4)
		return 4
	}, WithColumnOrder("v", meta.IEEE754TotalOrder), WithPageRowLimit(2))
	s := f.Meta.RowGroups[0].Columns[0].MetaData.Statistics
	if !bytes.Equal(s.MinValue, f64b(-4)) || !bytes.Equal(s.MaxValue, f64b(1)) || s.NanCount != meta.Some(int64(2)) {
		t.Errorf("statistics %+v", s)
	}
	ci := columnIndexOf(t, f, 0, 0)
	if !bytes.Equal(ci.MinValues[0], f64b(nan)) || !bytes.Equal(ci.MinValues[1], f64b(-4)) || fmt.Sprint(ci.NanCounts) != "[2 0]" {
		t.Errorf("column index %+v", ci)
	}
	// Under the type order the NaN-only page forbids the column index.
	f = writeOne(t, "message m { required double v; }", func(w *FileWriter) int {
		b, _ := w.DoubleBuffer(0)
		b.Values = append(b.Values, nan, nan, 1, -4)
		return 4
	}, WithPageRowLimit(2))
	if ci := columnIndexOf(t, f, 0, 0); ci != nil {
		t.Errorf("column index %+v with a NaN-only page", ci)
	}
	if len(offsetIndexOf(t, f, 0, 0).PageLocations) != 2 {
		t.Error("offset index missing pages")
	}
}

// TestRandomNestedRoundTrip writes random rows of a LIST<LIST<int32>> with
// nulls at every level, in random EndRows batches and page limits, and
// reads them back exactly with the FileReader; the page index must start
// every page on a row.
func TestRandomNestedRoundTrip(t *testing.T) {
	const text = `message m {
  optional group a (LIST) {
    repeated group list {
      optional group element (LIST) {
        repeated group list { optional int32 element; }
      }
    }
  }
}`
	s := mustSchema(t, text)
	rng := newRand(1)
	for iter := 0; iter < 40; iter++ {
		var buf bytes.Buffer
		opts := []WriterOption{
			WithPageRowLimit(1 + rng.IntN(60)),
			WithPageSize(64 + rng.IntN(4096)),
			WithDataPageVersion(1 + rng.IntN(2)),
			WithDictionary(rng.IntN(2) == 0),
			WithRowGroupSize(int64(512 + rng.IntN(1<<14))),
		}
		w, err := NewFileWriter(&buf, s, opts...)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := w.Int32Buffer(0)
		var wantDef, wantRep []uint8
		var wantVals []int32
		rows := 1 + rng.IntN(2000)
		pending := 0
		batch := 1 + rng.IntN(300)
		emit := func(d, r uint8) {
			b.Def, b.Rep = append(b.Def, d), append(b.Rep, r)
			wantDef, wantRep = append(wantDef, d), append(wantRep, r)
		}
		for r := 0; r < rows; r++ {
			switch k := rng.IntN(5); k {
			case 0:
				emit(0, 0)
			case 1:
				emit(1, 0)
			default:
				for j := 0; j < k-1; j++ {
					rep := uint8(1)
					if j == 0 {
						rep = 0
					}
					switch m := rng.IntN(5); m {
					case 0:
						emit(2, rep)
					case 1:
						emit(3, rep)
					default:
						for e := 0; e < m-1; e++ {
							rr := rep
							if e > 0 {
								rr = 2
							}
							if rng.IntN(4) == 0 {
								emit(4, rr)
								continue
							}
							v := int32(rng.IntN(50)) - 25
							emit(5, rr)
							b.Values = append(b.Values, v)
							wantVals = append(wantVals, v)
						}
					}
				}
			}
			pending++
			if pending == batch {
				if err := w.EndRows(pending); err != nil {
					t.Fatal(err)
				}
				pending, batch = 0, 1+rng.IntN(300)
			}
		}
		if err := w.EndRows(pending); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		f := openBytes(t, data)
		var total int64
		for rg := range f.Meta.RowGroups {
			oi := offsetIndexOf(t, f, rg, 0)
			n := f.Meta.RowGroups[rg].NumRows
			for i, p := range oi.PageLocations {
				h, _, err := meta.DecodePageHeader(data[p.Offset:], nil)
				if err != nil {
					t.Fatal(err)
				}
				end := n
				if i+1 < len(oi.PageLocations) {
					end = oi.PageLocations[i+1].FirstRowIndex
				}
				if h.DataPageHeaderV2 != nil && int64(h.DataPageHeaderV2.NumRows) != end-p.FirstRowIndex {
					t.Fatalf("iter %d: page %d: %d rows, index says %d", iter, i, h.DataPageHeaderV2.NumRows, end-p.FirstRowIndex)
				}
			}
			total += n
		}
		if total != int64(rows) {
			t.Fatalf("iter %d: %d rows in row groups, want %d", iter, total, rows)
		}
		r, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithCRCCheck(true))
		if err != nil {
			t.Fatal(err)
		}
		cr, err := r.Int32Reader(0)
		if err != nil {
			t.Fatal(err)
		}
		var gotDef, gotRep []uint8
		var gotVals []int32
		for {
			_, err := cr.ReadRows(1 + rng.IntN(500))
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			gotDef = append(gotDef, cr.Levels.Def...)
			gotRep = append(gotRep, cr.Levels.Rep...)
			gotVals = append(gotVals, cr.Values...)
		}
		if !bytes.Equal(gotDef, wantDef) || !bytes.Equal(gotRep, wantRep) || fmt.Sprint(gotVals) != fmt.Sprint(wantVals) {
			t.Fatalf("iter %d (%d rows): round trip differs", iter, rows)
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed+1)) }

func TestPageSizeTarget(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message m { required int64 v; }"),
		WithPageSize(8000), WithDictionary(false), WithCompression(meta.Uncompressed, 0), WithColumnEncoding("v", meta.EncodingPlain))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := w.Int64Buffer(0)
	for i := 0; i < 100000; i++ {
		b.Values = append(b.Values, int64(i))
		if i%256 == 255 {
			if err := w.EndRows(256); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.EndRows(len(b.Values)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	f := openBytes(t, data)
	oi := offsetIndexOf(t, f, 0, 0)
	for i, p := range oi.PageLocations[:len(oi.PageLocations)-1] {
		h, _, err := meta.DecodePageHeader(data[p.Offset:], nil)
		if err != nil {
			t.Fatal(err)
		}
		if sz := h.UncompressedPageSize; sz < 8000 || sz > 8000+minPageCheck*8 {
			t.Errorf("page %d: %d bytes for a target of 8000", i, sz)
		}
	}
	if n := len(oi.PageLocations); n < 90 || n > 100 {
		t.Errorf("%d pages", n)
	}
}

// TestDictPageBoundsMatchPlain checks the page and chunk statistics of
// dictionary-encoded byte columns, taken once per distinct entry of a
// page (pageMarks), against the same rows written without a dictionary,
// whose bounds are taken per value. The dictionary limit makes the
// string column fall back in the middle of a page of the second row
// group, and values repeat across pages so entries recur.
func TestDictPageBoundsMatchPlain(t *testing.T) {
	const text = "message m { required binary s; optional fixed_len_byte_array(3) f; required binary d (DECIMAL(9,2)); }"
	r := rand.New(rand.NewPCG(7, 9))
	const rows = 3000
	strs := make([]string, rows)
	fixed := make([][]byte, rows)
	decs := make([][]byte, rows)
	for i := range rows {
		k := r.IntN(40)
		if i > 2000 {
			k = r.IntN(4000) // many new values: the dictionary fills up
		}
		strs[i] = fmt.Sprintf("v%0*d", 1+k%5, k)
		fixed[i] = []byte{byte(r.IntN(6)), byte(r.IntN(256)), 0}
		decs[i] = []byte{byte(r.IntN(5) - 2), byte(r.IntN(3))} // signed big-endian
	}
	write := func(dict bool) []byte {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, mustSchema(t, text), WithDictionary(dict), WithMaxDictionarySize(2000),
			WithPageRowLimit(70), WithPageStatistics(true))
		if err != nil {
			t.Fatal(err)
		}
		sb, _ := w.ByteArrayBuffer(0)
		fb, _ := w.FixedBuffer(1)
		db, _ := w.ByteArrayBuffer(2)
		for i := range rows {
			sb.Values.AppendString(strs[i])
			if i%3 == 0 {
				fb.Def = append(fb.Def, 0)
			} else {
				fb.Def = append(fb.Def, 1)
				fb.Values = append(fb.Values, fixed[i]...)
			}
			db.Values.Append(decs[i])
			if i%100 == 99 {
				if err := w.EndRows(100); err != nil {
					t.Fatal(err)
				}
			}
			if i == 1499 {
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	withDict, plain := openBytes(t, write(true)), openBytes(t, write(false))
	if len(withDict.Meta.RowGroups) != 2 || len(plain.Meta.RowGroups) != 2 {
		t.Fatalf("%d and %d row groups, want 2", len(withDict.Meta.RowGroups), len(plain.Meta.RowGroups))
	}
	usedDict, fellBack := false, false
	for rg := range 2 {
		for col := range 3 {
			dmd := withDict.Meta.RowGroups[rg].Columns[col].MetaData
			for _, e := range dmd.EncodingStats {
				usedDict = usedDict || (e.PageType != meta.DictionaryPage && (e.Encoding == meta.EncodingRLEDictionary || e.Encoding == meta.EncodingPlainDictionary))
				fellBack = fellBack || (col == 0 && rg == 1 && e.PageType != meta.DictionaryPage &&
					e.Encoding != meta.EncodingRLEDictionary && e.Encoding != meta.EncodingPlainDictionary)
			}
			pmd := plain.Meta.RowGroups[rg].Columns[col].MetaData
			if got, want := fmt.Sprintf("%+v", dmd.Statistics), fmt.Sprintf("%+v", pmd.Statistics); got != want {
				t.Errorf("row group %d column %d chunk statistics\n dict %s\nplain %s", rg, col, got, want)
			}
			dci, pci := columnIndexOf(t, withDict, rg, col), columnIndexOf(t, plain, rg, col)
			if dci == nil || pci == nil {
				t.Fatalf("row group %d column %d: column index with dictionary %v, without %v", rg, col, dci != nil, pci != nil)
			}
			if len(dci.MinValues) < 10 {
				t.Fatalf("row group %d column %d: %d pages, want several", rg, col, len(dci.MinValues))
			}
			if got, want := fmt.Sprint(dci.MinValues, dci.MaxValues, dci.NullPages, dci.BoundaryOrder),
				fmt.Sprint(pci.MinValues, pci.MaxValues, pci.NullPages, pci.BoundaryOrder); got != want {
				t.Errorf("row group %d column %d column index\n dict %s\nplain %s", rg, col, got, want)
			}
		}
	}
	if !usedDict || !fellBack {
		t.Errorf("dictionary used %v, string column fell back %v: the test needs both", usedDict, fellBack)
	}
}

// TestRowGroupRowLimit: with WithRowGroupRowLimit(25), rows ended in
// calls of up to 7 within RowGroupRowsLeft form row groups of exactly 25
// rows (and the rest), sequentially and under WithParallelism(2), with
// the same bytes; RowGroupRowsLeft counts down and starts again at 25 once
// a group is full; EndRows past the limit fails the writer with ErrRows;
// a limit of 0 is refused.
func TestRowGroupRowLimit(t *testing.T) {
	s := mustSchema(t, "message m { required int64 a; optional group g { optional binary b (STRING); } }")
	write := func(opts ...WriterOption) []byte {
		var out bytes.Buffer
		w, err := NewFileWriter(&out, s, append(opts, WithRowGroupRowLimit(25))...)
		if err != nil {
			t.Fatal(err)
		}
		row, want := 0, 25
		for row < 110 {
			left := w.RowGroupRowsLeft()
			if left != want {
				t.Fatalf("row %d: RowGroupRowsLeft() = %d, want %d", row, left, want)
			}
			k := min(7, left, 110-row)
			a, _ := w.Int64Buffer(0)
			b, _ := w.ByteArrayBuffer(1)
			for i := range k {
				a.Values = append(a.Values, int64(row+i))
				b.Values.AppendString(strconv.Itoa(row + i))
				b.Def = append(b.Def, 2)
			}
			if err := w.EndRows(k); err != nil {
				t.Fatal(err)
			}
			row += k
			if want -= k; want == 0 {
				want = 25
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	seq := write()
	f := openBytes(t, seq)
	var got []int64
	for _, rg := range f.Meta.RowGroups {
		got = append(got, rg.NumRows)
	}
	if fmt.Sprint(got) != "[25 25 25 25 10]" {
		t.Fatalf("row groups of %v rows, want [25 25 25 25 10]", got)
	}
	if par := write(WithParallelism(2)); !bytes.Equal(par, seq) {
		t.Fatal("WithParallelism(2) wrote other bytes")
	}

	w, err := NewFileWriter(io.Discard, s, WithRowGroupRowLimit(25))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := w.Int64Buffer(0)
	b, _ := w.ByteArrayBuffer(1)
	for i := range 26 {
		a.Values = append(a.Values, int64(i))
		b.Def = append(b.Def, 0)
	}
	err = w.EndRows(26)
	if !errors.Is(err, ErrRows) || !strings.Contains(err.Error(), "WithRowGroupRowLimit(25)") {
		t.Fatalf("EndRows past the limit: %v, want an ErrRows naming the limit", err)
	}
	if err := w.Close(); !errors.Is(err, ErrRows) {
		t.Fatalf("Close after: %v, want the same error", err)
	}
	if w.RowGroupRowsLeft() != 25 {
		t.Fatal("RowGroupRowsLeft changed by the refused rows")
	}
	if _, err := NewFileWriter(io.Discard, s, WithRowGroupRowLimit(0)); !errors.Is(err, ErrConfig) {
		t.Fatalf("WithRowGroupRowLimit(0): %v, want ErrConfig", err)
	}
	w, err = NewFileWriter(io.Discard, s)
	if err != nil {
		t.Fatal(err)
	}
	if w.RowGroupRowsLeft() != math.MaxInt {
		t.Fatal("RowGroupRowsLeft without a limit is not math.MaxInt")
	}
}

// countWrites counts the Write calls on a bytes.Buffer.
type countWrites struct {
	bytes.Buffer
	calls int
}

func (c *countWrites) Write(p []byte) (int, error) {
	c.calls++
	return c.Buffer.Write(p)
}

// TestPageIndexWritesGathered: the page indexes of 30 row groups of 8
// columns go out in one write of column indexes and one of offset
// indexes (and the footer), where each index was a write of its own (480
// calls on an *os.File); every index reads back, at the offset the footer
// gives, as the one of its chunk.
func TestPageIndexWritesGathered(t *testing.T) {
	s := mustSchema(t, "message m { required int64 a; required int64 b; required int64 c; required int64 d; optional int64 e; required int64 f; required int64 g; required int64 h; }")
	out := &countWrites{}
	w, err := NewFileWriter(out, s, WithRowGroupRowLimit(100))
	if err != nil {
		t.Fatal(err)
	}
	for k := range 30 {
		for col := range 8 {
			b, _ := w.Int64Buffer(col)
			for i := range 100 {
				b.Values = append(b.Values, int64(k*1000+col*10+i%7))
			}
			if col == 4 {
				b.Values = b.Values[:50]
				for i := range 100 {
					b.Def = append(b.Def, uint8(i%2))
				}
			}
		}
		if err := w.EndRows(100); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	before := out.calls
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := out.calls - before; n > 4 {
		t.Errorf("Close made %d writes: the page indexes of 30 row groups of 8 columns, and the footer", n)
	}
	r := readerOf(t, out.Bytes())
	if n := len(r.File().Meta.RowGroups); n != 30 {
		t.Fatalf("%d row groups, want 30", n)
	}
	for rg := range 30 {
		for col := range 8 {
			ci, err := r.ColumnIndex(rg, col)
			if err != nil {
				t.Fatalf("row group %d, column %d: %v", rg, col, err)
			}
			lo := int64(rg*1000 + col*10)
			if got := int64(binary.LittleEndian.Uint64(ci.MinValues[0])); got != lo {
				t.Fatalf("row group %d, column %d: page minimum %d, want %d", rg, col, got, lo)
			}
			oi, err := r.OffsetIndex(rg, col)
			if err != nil || len(oi.PageLocations) != 1 || oi.PageLocations[0].FirstRowIndex != 0 {
				t.Fatalf("row group %d, column %d: offset index %+v, %v", rg, col, oi, err)
			}
		}
	}
}
