package generated

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/meta"
)

func randTime(r *rand.Rand, unit time.Duration) time.Time {
	t := time.Unix(r.Int64N(4e9)-1e9, r.Int64N(1e9)).UTC()
	return t.Truncate(unit)
}

func events(n int) []Event {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]Event, n)
	for i := range out {
		e := Event{
			ID: int64(i), At: randTime(r, time.Microsecond), Kind: Kind([]string{"view", "click", "buy"}[r.IntN(3)]),
			User: randString(r), Latency: time.Duration(r.Int64()), Score: r.Float64(), Success: r.IntN(2) == 0,
			Country: []string{"", "fr", "us"}[r.IntN(3)], Payload: payloadOf(randString(r)),
		}
		fill(r, e.Session[:])
		if r.IntN(2) == 0 {
			e.Referrer = ptr(randString(r))
		}
		if r.IntN(3) == 0 {
			e.Retries = ptr(r.Int32())
		}
		out[i] = e
	}
	return out
}

func orders(n int) []Order {
	r := rand.New(rand.NewPCG(3, 4))
	out := make([]Order, n)
	for i := range out {
		o := Order{ID: int64(i), PlacedAt: randTime(r, time.Millisecond), Audit: Audit{CreatedBy: randString(r), Version: r.Uint32()}}
		o.Shipping = Address{Street: randString(r), City: randString(r)}
		if r.IntN(2) == 0 {
			o.Shipping.Zip = ptr(randString(r))
		}
		if r.IntN(3) > 0 {
			o.Customer = &Customer{ID: r.Int64(), Name: randString(r)}
			if r.IntN(2) == 0 {
				o.Customer.Email = ptr(randString(r))
			}
		}
		for range r.IntN(4) {
			l := Line{SKU: randString(r), Quantity: r.Int32N(10), Price: r.Int64N(1e6)}
			if r.IntN(2) == 0 {
				l.Options = map[string]int64{}
				for range r.IntN(3) {
					l.Options[randString(r)] = r.Int64()
				}
			}
			for range r.IntN(3) {
				p := Part{Name: randString(r)}
				if r.IntN(2) == 0 {
					p.Weight = ptr(r.Float32())
				}
				l.Parts = append(l.Parts, p)
			}
			o.Lines = append(o.Lines, l)
		}
		switch r.IntN(3) {
		case 0: // nil: null
		case 1:
			o.Tags = []string{} // empty, not null
		default:
			o.Tags = []string{randString(r), randString(r)}
		}
		if r.IntN(2) == 0 {
			o.Attrs = map[string]string{randString(r) + "k": randString(r)}
		}
		switch r.IntN(3) {
		case 0:
		case 1:
			o.Discounts = map[string][]int32{}
		default:
			o.Discounts = map[string][]int32{"a": {1, 2}, "b": nil, "c": {3}}
		}
		for range r.IntN(3) {
			if r.IntN(2) == 0 {
				o.Notes = append(o.Notes, nil)
			} else {
				o.Notes = append(o.Notes, ptr(randString(r)))
			}
		}
		out[i] = o
	}
	return out
}

func logicals(n int) []Logical {
	r := rand.New(rand.NewPCG(5, 6))
	out := make([]Logical, n)
	for i := range out {
		l := Logical{
			I8: int8(r.Int()), I16: int16(r.Int()), I32: r.Int32(), I64: r.Int64(), U8: uint8(r.Uint32()), U16: uint16(r.Uint32()),
			U32: r.Uint32(), U64: r.Uint64(), Int: r.Int(), Uint: uint(r.Uint64()), F32: r.Float32(), F64: r.Float64(),
			Bool: r.IntN(2) == 1, Str: randString(r), Enum: "A", JSON: `{"a":1}`, BSON: []byte{5, 0, 0, 0, 0}, Bin: []byte(randString(r)),
			Dec32: r.Int32N(1e9), Dec64: r.Int64N(1e18), DecBytes: []byte{1, 2, 3},
			TsMillis: randTime(r, time.Millisecond), TsMicros: randTime(r, time.Microsecond), TsNanos: randTime(r, 1),
			TsLocal: randTime(r, time.Microsecond), Date: time.Date(1900+r.IntN(300), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC),
			TimeOfDay32: time.Duration(r.Int64N(86400e3)) * time.Millisecond, TimeOfDay64: time.Duration(r.Int64N(86400e6)) * time.Microsecond,
			TimeOfDayFine: time.Duration(r.Int64N(86400e9)), Duration: time.Duration(r.Int64()),
			Geometry: geo.AppendPoint(nil, float64(i), 2), Geography: geo.AppendPoint(nil, -float64(i%180), 45),
			Temp: Celsius(r.Float64()), Level: Level(r.Int()), Count: r.Uint64(), DaysRaw: r.Int32N(50000), MicrosRaw: r.Int64(), ID: int64(i),
		}
		fill(r, l.UUID[:])
		fill(r, l.Float16[:])
		fill(r, l.Interval[:])
		fill(r, l.Fixed[:])
		fill(r, l.DecFixed[:])
		// Within DECIMAL(38)'s digits, which writers check: |x| <= 2^126.
		if l.DecFixed[0]&0x80 != 0 {
			l.DecFixed[0] |= 0x40
		} else {
			l.DecFixed[0] &= 0x3f
		}
		l.Int96 = encode.Int96{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, byte(i)}
		if i%2 == 0 {
			l.OptTime = ptr(randTime(r, time.Millisecond))
			l.OptUUID = &[16]byte{byte(i)}
			l.OptBytes = []byte{}
			l.OptLevel = ptr(Level(i))
		}
		if i%3 != 0 { // else zero: null
			l.ZeroNullI32 = int32(i)*7919 - 50000
			l.ZeroNullTs = time.Unix(int64(i)*86400-3e9, int64(i)*1000).UTC()
		}
		out[i] = l
	}
	return out
}

var cmpOpts = cmp.Options{cmpopts.EquateEmpty(), cmp.AllowUnexported(Event{})}

// roundTrip writes rows with a generated writer and reads them back in
// batches of batch rows with the generated reader.
func roundTrip[T any](t *testing.T, rows []T, batch int,
	newW func(io.Writer, ...runtime.WriterOption) (interface {
		Write([]T) (int, error)
		Close() error
	}, error),
	newR func(io.ReaderAt, int64, ...runtime.ReaderOption) (interface {
		Read([]T) (int, error)
		NumRows() int64
	}, error),
	wopts []runtime.WriterOption,
) []T {
	t.Helper()
	var buf bytes.Buffer
	w, err := newW(&buf, wopts...)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Write(rows); err != nil || n != len(rows) {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := newR(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if r.NumRows() != int64(len(rows)) {
		t.Fatalf("NumRows %d, want %d", r.NumRows(), len(rows))
	}
	var got []T
	b := make([]T, batch)
	for {
		n, err := r.Read(b)
		got = append(got, b[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("Read returned 0 rows without io.EOF")
		}
	}
	return got
}

func TestRoundTripEvents(t *testing.T) {
	rows := events(3000)
	for _, batch := range []int{1, 7, 1000, 5000} {
		rows := rows
		if batch == 1 {
			rows = rows[:200] // one row per Read is slow; a few hundred suffice
		}
		for _, opts := range [][]runtime.WriterOption{nil, {runtime.WithDataPageVersion(2), runtime.WithDictionary(false)}} {
			got := roundTrip(t, rows, batch,
				func(w io.Writer, o ...runtime.WriterOption) (interface {
					Write([]Event) (int, error)
					Close() error
				}, error) {
					return NewEventWriter(w, o...)
				},
				func(r io.ReaderAt, n int64, o ...runtime.ReaderOption) (interface {
					Read([]Event) (int, error)
					NumRows() int64
				}, error) {
					return NewEventReader(r, n, o...)
				}, opts)
			if d := cmp.Diff(rows, got, cmpOpts); d != "" {
				t.Fatalf("batch %d: (-want +got)\n%s", batch, d)
			}
		}
	}
}

func TestRoundTripOrders(t *testing.T) {
	rows := orders(2000)
	rows = append(rows, Order{}, Order{Tags: []string{}, Discounts: map[string][]int32{}, Lines: []Line{{}}, Notes: []*string{nil}})
	for _, batch := range []int{1, 13, 5000} {
		rows := rows
		if batch == 1 {
			rows = rows[len(rows)-200:]
		}
		got := roundTrip(t, rows, batch,
			func(w io.Writer, o ...runtime.WriterOption) (interface {
				Write([]Order) (int, error)
				Close() error
			}, error) {
				return NewOrderWriter(w, o...)
			},
			func(r io.ReaderAt, n int64, o ...runtime.ReaderOption) (interface {
				Read([]Order) (int, error)
				NumRows() int64
			}, error) {
				return NewOrderReader(r, n, o...)
			}, []runtime.WriterOption{runtime.WithPageRowLimit(100)})
		if d := cmp.Diff(rows, got, cmpOpts); d != "" {
			t.Fatalf("batch %d: (-want +got)\n%s", batch, d)
		}
		// Optional lists and maps keep null apart from empty.
		for i := range rows {
			if (rows[i].Tags == nil) != (got[i].Tags == nil) || (rows[i].Discounts == nil) != (got[i].Discounts == nil) {
				t.Fatalf("row %d: null and empty confused: tags %#v/%#v discounts %#v/%#v", i, rows[i].Tags, got[i].Tags, rows[i].Discounts, got[i].Discounts)
			}
		}
	}
}

func TestRoundTripLogical(t *testing.T) {
	rows := logicals(500)
	got := roundTrip(t, rows, 64,
		func(w io.Writer, o ...runtime.WriterOption) (interface {
			Write([]Logical) (int, error)
			Close() error
		}, error) {
			return NewLogicalWriter(w, o...)
		},
		func(r io.ReaderAt, n int64, o ...runtime.ReaderOption) (interface {
			Read([]Logical) (int, error)
			NumRows() int64
		}, error) {
			return NewLogicalReader(r, n, o...)
		}, nil)
	sameLogicals(t, rows, got)
}

// sameLogicals fails unless got holds the rows of want, an optional
// []byte keeping null (nil) apart from empty, which cmpOpts equates.
func sameLogicals(t *testing.T, want, got []Logical) {
	t.Helper()
	if d := cmp.Diff(want, got, cmpOpts); d != "" {
		t.Fatalf("(-want +got)\n%s", d)
	}
	for i := range want {
		if (want[i].OptBytes == nil) != (got[i].OptBytes == nil) {
			t.Fatalf("row %d: opt_bytes %#v read back as %#v", i, want[i].OptBytes, got[i].OptBytes)
		}
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "metrics.parquet")
	rows := []Metric{
		{Name: "cpu", TS: time.UnixMilli(1700000000123).UTC(), Value: 0.5, Labels: map[string]*string{"host": ptr("a"), "none": nil},
			Samples: []float64{1, 2}, Trace: &[16]byte{1}, Day: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), Level: ptr(int8(-3))},
		{Name: "mem", TS: time.UnixMilli(0).UTC(), Day: time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), Samples: []float64{}},
	}
	if err := WriteMetricFile(path, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMetricFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rows, got); d != "" {
		t.Fatalf("(-want +got)\n%s", d)
	}
}

// TestProjection reads only some columns: the others stay zero.
func TestProjection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "orders.parquet")
	rows := orders(300)
	if err := WriteOrderFile(path, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadOrderFile(path, runtime.WithColumns("id", "lines.list.element.parts", "customer.email"))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]Order, len(rows))
	for i, o := range rows {
		want[i].ID = o.ID
		for _, l := range o.Lines {
			want[i].Lines = append(want[i].Lines, Line{Parts: l.Parts})
		}
		if o.Customer != nil {
			want[i].Customer = &Customer{Email: o.Customer.Email}
		}
	}
	if d := cmp.Diff(want, got, cmpOpts); d != "" {
		t.Fatalf("(-want +got)\n%s", d)
	}
}

// TestSchemaMismatch reads a file with another type's reader.
func TestSchemaMismatch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.parquet")
	if err := WriteEventFile(path, events(10)); err != nil {
		t.Fatal(err)
	}
	_, err := ReadOrderFile(path)
	if err == nil {
		t.Fatal("reading events as orders succeeded")
	}
	if !strings.Contains(err.Error(), "placed_at") {
		t.Errorf("the error does not name the column: %v", err)
	}
	t.Log(err)
}

// TestTagOptions checks that encodings and codecs from struct tags reach
// the file, and that options given to the writer come after them.
func TestTagOptions(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewEventWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(events(100)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := runtime.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	col := func(path string) *meta.ColumnMetaData {
		return f.Meta.RowGroups[0].Columns[f.Schema.Leaf(path).Column].MetaData
	}
	if c := col("payload").Codec; c != meta.Zstd {
		t.Errorf("payload codec %v, want ZSTD (tag zstd)", c)
	}
	if c := col("user").Codec; c != meta.Snappy {
		t.Errorf("user codec %v, want the default SNAPPY", c)
	}
	if !slices.Contains(col("id").Encodings, meta.EncodingDeltaBinaryPacked) {
		t.Errorf("id encodings %v, want DELTA_BINARY_PACKED (tag delta)", col("id").Encodings)
	}
	if !slices.Contains(col("kind").Encodings, meta.EncodingRLEDictionary) && !slices.Contains(col("kind").Encodings, meta.EncodingPlainDictionary) {
		t.Errorf("kind encodings %v, want a dictionary (tag dict)", col("kind").Encodings)
	}
}

func deeps(n int) []Deep {
	r := rand.New(rand.NewPCG(7, 8))
	maybe := func() bool { return r.IntN(3) > 0 }
	deepB := func() DeepB {
		var b DeepB
		if maybe() {
			b.C = ptr(r.Int32())
		}
		if maybe() {
			b.D = []string{}
			for range r.IntN(3) {
				b.D = append(b.D, randString(r))
			}
		}
		return b
	}
	out := make([]Deep, n)
	for i := range out {
		d := Deep{ID: int64(i)}
		if maybe() {
			d.A = &DeepA{}
			if maybe() {
				d.A.N = ptr(r.Float64())
			}
			if maybe() {
				d.A.B = []*DeepB{}
				for range r.IntN(4) {
					if maybe() {
						b := deepB()
						d.A.B = append(d.A.B, &b)
					} else {
						d.A.B = append(d.A.B, nil)
					}
				}
			}
		}
		if maybe() {
			d.L = [][]*string{}
			for range r.IntN(3) {
				var inner []*string
				for range r.IntN(3) {
					if maybe() {
						inner = append(inner, ptr(randString(r)))
					} else {
						inner = append(inner, nil)
					}
				}
				d.L = append(d.L, inner)
			}
		}
		if maybe() {
			d.M = map[int32][]map[string]*int64{}
			for range r.IntN(3) {
				var lst []map[string]*int64
				for range r.IntN(3) {
					m := map[string]*int64{}
					for range r.IntN(3) {
						if maybe() {
							m[randString(r)] = ptr(r.Int64())
						} else {
							m[randString(r)] = nil
						}
					}
					lst = append(lst, m)
				}
				d.M[r.Int32()] = lst
			}
		}
		for range r.IntN(3) {
			d.S = append(d.S, deepB())
		}
		out[i] = d
	}
	return out
}

func TestRoundTripDeep(t *testing.T) {
	rows := deeps(3000)
	rows = append(rows, Deep{}, Deep{A: &DeepA{B: []*DeepB{nil, {}}}, L: [][]*string{nil, {nil}}, M: map[int32][]map[string]*int64{0: nil, 1: {nil, {"": nil}}}})
	for _, batch := range []int{3, 1000} {
		got := roundTrip(t, rows, batch,
			func(w io.Writer, o ...runtime.WriterOption) (interface {
				Write([]Deep) (int, error)
				Close() error
			}, error) {
				return NewDeepWriter(w, o...)
			},
			func(r io.ReaderAt, n int64, o ...runtime.ReaderOption) (interface {
				Read([]Deep) (int, error)
				NumRows() int64
			}, error) {
				return NewDeepReader(r, n, o...)
			}, []runtime.WriterOption{runtime.WithPageRowLimit(50), runtime.WithDataPageVersion(2)})
		if d := cmp.Diff(rows, got, cmpOpts); d != "" {
			t.Fatalf("batch %d: (-want +got)\n%s", batch, d)
		}
		// Optional lists keep null apart from empty.
		for i := range rows {
			if (rows[i].L == nil) != (got[i].L == nil) || (rows[i].M == nil) != (got[i].M == nil) ||
				rows[i].A != nil && (rows[i].A.B == nil) != (got[i].A.B == nil) {
				t.Fatalf("row %d: null and empty confused", i)
			}
		}
	}
}

// TestCorruptLevels writes a file whose map value column has fewer slots
// than its key column (a shape no writer should produce): reading it must
// fail with ErrChunk, not panic.
func TestCorruptLevels(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewMetricWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	row := Metric{Name: "m", Labels: map[string]*string{"a": ptr("x"), "b": ptr("y")}}
	w.shred([]Metric{row})
	v := w.colLabelsValue
	if len(v.Def) != 2 {
		t.Fatalf("labels.value has %d slots, want 2", len(v.Def))
	}
	v.Def, v.Rep = v.Def[:1], v.Rep[:1]
	v.Values.Offsets = v.Values.Offsets[:2]
	if err := w.fw.EndRows(1); err != nil {
		t.Skipf("the runtime refuses the inconsistent row itself: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Skipf("the runtime refuses the inconsistent row itself: %v", err)
	}
	r, err := NewMetricReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Read(make([]Metric, 4))
	if !errors.Is(err, runtime.ErrChunk) {
		t.Fatalf("Read: %v, want an error wrapping runtime.ErrChunk", err)
	}
	t.Log(err)
}
