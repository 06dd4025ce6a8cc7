package interop

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	pq "github.com/parquet-go/parquet-go"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// arrowReadAll reads every column of every row group with arrow-go.
func arrowReadAll(t *testing.T, data []byte) []got {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	defer rdr.Close()
	gots := make([]got, rdr.MetaData().Schema.NumColumns())
	for rg := 0; rg < rdr.NumRowGroups(); rg++ {
		for ci := range gots {
			cr, err := rdr.RowGroup(rg).Column(ci)
			if err != nil {
				t.Fatal(err)
			}
			readArrowColumn(t, cr, &gots[ci])
		}
	}
	return gots
}

// parquetGoReadAll reads every row with parquet-go.
func parquetGoReadAll(t *testing.T, data []byte, ncols int) []got {
	t.Helper()
	f, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("parquet-go: %v", err)
	}
	gots := make([]got, ncols)
	buf := make([]pq.Row, 64)
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				for _, v := range row {
					g := &gots[v.Column()]
					g.def = append(g.def, uint8(v.DefinitionLevel()))
					g.rep = append(g.rep, uint8(v.RepetitionLevel()))
					if !v.IsNull() {
						g.vals = append(g.vals, v.AppendBytes(nil))
					}
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("parquet-go: %v", err)
			}
		}
		rows.Close()
	}
	return gots
}

func sameGot(t *testing.T, reader string, col int, g, want *got, levels bool) {
	t.Helper()
	if levels && (!bytes.Equal(g.def, want.def) || want.rep != nil && !bytes.Equal(g.rep, want.rep)) {
		t.Errorf("%s: column %d: levels %v/%v, want %v/%v", reader, col, g.def, g.rep, want.def, want.rep)
	}
	if len(g.vals) != len(want.vals) {
		t.Errorf("%s: column %d: %d values, want %d", reader, col, len(g.vals), len(want.vals))
		return
	}
	for i := range g.vals {
		if !bytes.Equal(g.vals[i], want.vals[i]) {
			t.Errorf("%s: column %d value %d: %x, want %x", reader, col, i, g.vals[i], want.vals[i])
			return
		}
	}
}

func newWriter(t *testing.T, text string, opts ...runtime.WriterOption) (*runtime.FileWriter, *bytes.Buffer) {
	t.Helper()
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := runtime.NewFileWriter(&buf, s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return w, &buf
}

func TestWriteEmptyFile(t *testing.T) {
	w, buf := newWriter(t, "message m { required int64 a; optional binary b (STRING); }")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	if rdr.NumRows() != 0 || rdr.NumRowGroups() != 0 {
		t.Errorf("arrow-go: %d rows, %d row groups", rdr.NumRows(), rdr.NumRowGroups())
	}
	f, err := pq.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil || f.NumRows() != 0 {
		t.Errorf("parquet-go: %v", err)
	}
}

// TestWriteEdgeColumns: a constant column (a one-entry dictionary, bit
// width 0), an all-null column, per-column codecs and dictionary settings,
// INT96, and several row groups from explicit Flush calls.
func TestWriteEdgeColumns(t *testing.T) {
	const text = `message m {
  required int32 k;
  optional double n;
  required binary s (STRING);
  required int96 t;
  optional group l (LIST) { repeated group list { required binary element (STRING); } }
}`
	for _, v := range []int{1, 2} {
		w, buf := newWriter(t, text,
			runtime.WithDataPageVersion(v),
			runtime.WithColumnCompression("k", meta.Zstd, 9),
			runtime.WithColumnCompression("s", meta.Gzip, 9),
			runtime.WithColumnCompression("t", meta.Uncompressed, 0),
			runtime.WithColumnDictionary("s", false),
			runtime.WithColumnEncoding("s", meta.EncodingDeltaByteArray),
			runtime.WithPageRowLimit(40))
		k, _ := w.Int32Buffer(0)
		n, _ := w.DoubleBuffer(1)
		s, _ := w.ByteArrayBuffer(2)
		ts, _ := w.Int96Buffer(3)
		l, _ := w.ByteArrayBuffer(4)
		want := make([]got, 5)
		for r := 0; r < 250; r++ {
			k.Values = append(k.Values, 42)
			want[0].vals = append(want[0].vals, le32(42))
			n.Def = append(n.Def, 0)
			want[1].def = append(want[1].def, 0)
			sv := []byte{byte('a' + r%3), byte(r % 128)} // UTF-8, as a STRING column requires
			s.Values.Append(sv)
			want[2].vals = append(want[2].vals, sv)
			var x encode.Int96
			binary.LittleEndian.PutUint64(x[:], uint64(r)*1e9)
			binary.LittleEndian.PutUint32(x[8:], 2440588+uint32(r))
			ts.Values = append(ts.Values, x)
			want[3].vals = append(want[3].vals, x[:])
			switch r % 3 {
			case 0: // null list
				l.Def, l.Rep = append(l.Def, 0), append(l.Rep, 0)
				want[4].def, want[4].rep = append(want[4].def, 0), append(want[4].rep, 0)
			default:
				for e := 0; e < r%3; e++ {
					rep := uint8(min(e, 1))
					l.Def, l.Rep = append(l.Def, 2), append(l.Rep, rep)
					l.Values.AppendString("e")
					want[4].def, want[4].rep = append(want[4].def, 2), append(want[4].rep, rep)
					want[4].vals = append(want[4].vals, []byte("e"))
				}
			}
			if r%50 == 49 {
				if err := w.EndRows(50); err != nil {
					t.Fatal(err)
				}
				if r%100 == 99 {
					if err := w.Flush(); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		ag := arrowReadAll(t, data)
		pg := parquetGoReadAll(t, data, 5)
		for c := range want {
			levels := c == 1 || c == 4
			sameGot(t, "arrow-go", c, &ag[c], &want[c], levels)
			sameGot(t, "parquet-go", c, &pg[c], &want[c], levels)
		}
		rdr, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if rdr.NumRowGroups() != 3 {
			t.Errorf("%d row groups, want 3", rdr.NumRowGroups())
		}
		md, _ := rdr.RowGroup(0).MetaData().ColumnChunk(0)
		if md.Compression().String() != "ZSTD" {
			t.Errorf("column k codec %v", md.Compression())
		}
		st, err := md.Statistics()
		if err != nil || st == nil || !st.HasMinMax() {
			t.Fatalf("constant column statistics %v %v", st, err)
		}
		enc, _ := st.Encode()
		if !bytes.Equal(enc.Min, le32(42)) || !bytes.Equal(enc.Max, le32(42)) {
			t.Errorf("constant column bounds %x %x", enc.Min, enc.Max)
		}
		md1, _ := rdr.RowGroup(0).MetaData().ColumnChunk(1)
		st1, _ := md1.Statistics()
		if st1 == nil || st1.HasMinMax() || st1.NullCount() != 100 {
			t.Errorf("all-null column statistics %+v", st1)
		}
		md3, _ := rdr.RowGroup(0).MetaData().ColumnChunk(3)
		if st3, _ := md3.Statistics(); st3 != nil && st3.HasMinMax() {
			t.Errorf("INT96 column has bounds")
		}
		rdr.Close()
	}
}

// TestWriteFixedDeltaByteArray: DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY,
// which arrow-go v18.8.0 cannot decode ("unimplemented encoding type"),
// is checked with parquet-go and our reader.
func TestWriteFixedDeltaByteArray(t *testing.T) {
	w, buf := newWriter(t, "message m { required fixed_len_byte_array(3) v; }",
		runtime.WithDictionary(false), runtime.WithColumnEncoding("v", meta.EncodingDeltaByteArray))
	b, _ := w.FixedBuffer(0)
	var want got
	for i := 0; i < 500; i++ {
		v := []byte{byte(i / 100), byte(i / 10), byte(i)}
		b.Values = append(b.Values, v...)
		want.vals = append(want.vals, v)
	}
	if err := w.EndRows(500); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pg := parquetGoReadAll(t, buf.Bytes(), 1)
	sameGot(t, "parquet-go", 0, &pg[0], &want, false)
	r, err := runtime.NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	cr, err := r.FixedReader(0)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := cr.ReadRows(1000); n != 500 || (err != nil && err != io.EOF) {
		t.Fatalf("pqgen: %d rows, %v", n, err)
	}
	for i := range want.vals {
		if !bytes.Equal(cr.Values[3*i:3*i+3], want.vals[i]) {
			t.Fatalf("pqgen: value %d", i)
		}
	}
}
