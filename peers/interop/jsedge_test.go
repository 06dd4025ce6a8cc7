package interop

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// edgeSchema has what the matrix lacks: a constant column, an all-null
// column, a struct holding a list, a map, a date and a timestamp, with
// per-column codecs.
const edgeSchema = `message m {
  required int32 k;
  optional double n;
  required binary s (STRING);
  optional group l (LIST) { repeated group list { required binary element (STRING); } }
  optional group st { optional int32 a; optional group tl (LIST) { repeated group list { optional int64 element; } } }
  optional group mp (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
  optional int64 ts (TIMESTAMP(MILLIS,true));
  optional int32 dt (DATE);
}`

// writeEdgeFile writes rows rows of edgeSchema (Flush every 100 rows) and
// returns the file and its canonical rows.
func writeEdgeFile(t *testing.T, rows int, opts ...runtime.WriterOption) ([]byte, [][]any) {
	t.Helper()
	w, buf := newWriter(t, edgeSchema, opts...)
	k, _ := w.Int32Buffer(0)
	n, _ := w.DoubleBuffer(1)
	s, _ := w.ByteArrayBuffer(2)
	l, _ := w.ByteArrayBuffer(3)
	sa, _ := w.Int32Buffer(4)
	stl, _ := w.Int64Buffer(5)
	mk, _ := w.ByteArrayBuffer(6)
	mv, _ := w.Int64Buffer(7)
	ts, _ := w.Int64Buffer(8)
	dt, err := w.Int32Buffer(9)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]any
	for r := 0; r < rows; r++ {
		row := make([]any, 8)
		k.Values = append(k.Values, 42)
		row[0] = intV("42")
		n.Def = append(n.Def, 0)
		sv := fmt.Sprintf("%c%d", 'a'+r%3, r)
		s.Values.AppendString(sv)
		row[2] = sv
		// l: null, empty, or r%4 elements.
		switch r % 4 {
		case 0:
			l.Def, l.Rep = append(l.Def, 0), append(l.Rep, 0)
		case 1:
			l.Def, l.Rep = append(l.Def, 1), append(l.Rep, 0)
			row[3] = []any{}
		default:
			var e []any
			for j := 0; j < r%4; j++ {
				l.Def, l.Rep = append(l.Def, 2), append(l.Rep, uint8(min(j, 1)))
				x := fmt.Sprint("e", j)
				l.Values.AppendString(x)
				e = append(e, x)
			}
			row[3] = e
		}
		// st: null, {a: null, tl: null}, {a, tl: []}, {a, tl: [x, null]}.
		switch r % 5 {
		case 0:
			sa.Def, stl.Def, stl.Rep = append(sa.Def, 0), append(stl.Def, 0), append(stl.Rep, 0)
		case 1:
			sa.Def, stl.Def, stl.Rep = append(sa.Def, 1), append(stl.Def, 1), append(stl.Rep, 0)
			row[4] = &structV{[]string{"a", "tl"}, []any{nil, nil}}
		case 2:
			sa.Def, sa.Values = append(sa.Def, 2), append(sa.Values, int32(-r))
			stl.Def, stl.Rep = append(stl.Def, 2), append(stl.Rep, 0)
			row[4] = &structV{[]string{"a", "tl"}, []any{intV(fmt.Sprint(-r)), []any{}}}
		default:
			sa.Def, sa.Values = append(sa.Def, 2), append(sa.Values, int32(r))
			stl.Def, stl.Rep, stl.Values = append(stl.Def, 4, 3), append(stl.Rep, 0, 1), append(stl.Values, int64(r)<<33)
			row[4] = &structV{[]string{"a", "tl"}, []any{intV(fmt.Sprint(r)), []any{intV(fmt.Sprint(int64(r) << 33)), nil}}}
		}
		// mp: null, empty, or {"k<r>": r, "z": null}.
		switch r % 3 {
		case 0:
			mk.Def, mk.Rep, mv.Def, mv.Rep = append(mk.Def, 0), append(mk.Rep, 0), append(mv.Def, 0), append(mv.Rep, 0)
		case 1:
			mk.Def, mk.Rep, mv.Def, mv.Rep = append(mk.Def, 1), append(mk.Rep, 0), append(mv.Def, 1), append(mv.Rep, 0)
			row[5] = mapV{}
		default:
			key := fmt.Sprint("k", r)
			mk.Def, mk.Rep = append(mk.Def, 2, 2), append(mk.Rep, 0, 1)
			mk.Values.AppendString(key)
			mk.Values.AppendString("z")
			mv.Def, mv.Rep, mv.Values = append(mv.Def, 3, 2), append(mv.Rep, 0, 1), append(mv.Values, int64(r))
			row[5] = mapV{{key, intV(fmt.Sprint(r))}, {"z", nil}}
		}
		if r%7 == 0 {
			ts.Def, dt.Def = append(ts.Def, 0), append(dt.Def, 0)
		} else {
			ms := int64(1_700_000_000_000) + int64(r)*86_400_123
			ts.Def, ts.Values = append(ts.Def, 1), append(ts.Values, ms)
			row[6] = nanos(ms, meta.Millis)
			days := int32(r*37 - 5000)
			dt.Def, dt.Values = append(dt.Def, 1), append(dt.Values, days)
			row[7] = intV(fmt.Sprint(days))
		}
		want = append(want, row)
		if r%50 == 49 || r == rows-1 {
			if err := w.EndRows(r%50 + 1); err != nil {
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
	return buf.Bytes(), want
}

// TestJSReadersEdgeFiles: DuckDB, parquet-wasm and hyparquet read the
// edge-schema files (v1 and v2, per-column codecs, several row groups),
// the series file (writeSeriesFile) and an empty file with the values
// written; our reader agrees too.
func TestJSReadersEdgeFiles(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	type edgeFile struct {
		path string
		want [][]any
	}
	var files []edgeFile
	for _, v := range []int{1, 2} {
		data, want := writeEdgeFile(t, 250,
			runtime.WithDataPageVersion(v),
			runtime.WithColumnCompression("k", meta.Zstd, 9),
			runtime.WithColumnCompression("s", meta.Gzip, 9),
			runtime.WithColumnCompression("st.tl.list.element", meta.Snappy, 0),
			runtime.WithColumnCompression("mp.key_value.key", meta.LZ4Raw, 0),
			runtime.WithColumnCompression("ts", meta.Brotli, 0),
			runtime.WithColumnDictionary("s", false),
			runtime.WithColumnEncoding("s", meta.EncodingDeltaByteArray),
			runtime.WithColumnBloomFilter("s", 250, 0.01),
			runtime.WithCRC(true),
			runtime.WithPageRowLimit(40))
		// Our own reader first: the harness's assembly must agree.
		r := openOwn(t, data)
		cols, err := readAllPlain(r)
		if err != nil {
			t.Fatal(err)
		}
		own, err := assemble(r.File().Schema, cols)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(own, want) {
			t.Fatalf("pqgen: v%d: the rows read differ from the rows written", v)
		}
		path := filepath.Join(dir, fmt.Sprintf("edge_v%d.parquet", v))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, edgeFile{path, want})
	}
	add := func(name string, data []byte, want [][]any) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, edgeFile{path, want})
	}
	data, want := writeSeriesFile(t)
	add("series.parquet", data, want)
	data, want = writeEdgeFile(t, 0)
	add("edge_empty.parquet", data, want)
	for _, v := range []int{1, 2} {
		data, want = writeNullsFile(t, v)
		add(fmt.Sprintf("nulls_v%d.parquet", v), data, want)
	}
	names := map[string][]string{"series.parquet": {"i", "d", "s", "u", "m"},
		"nulls_v1.parquet": {"n", "s"}, "nulls_v2.parquet": {"n", "s"}}
	edgeNames := []string{"k", "n", "s", "l", "st", "mp", "ts", "dt"}
	for _, reader := range []string{"duckdb", "wasm", "hyparquet"} {
		o := cmpOpts{mapAsObject: reader == "hyparquet", lossyDecimal: reader == "hyparquet", used: &relaxed{}}
		args := []string{reader}
		for _, f := range files {
			args = append(args, f.path)
		}
		out := runJS(t, "read.mjs", args...)
		for _, f := range files {
			n, ok := names[filepath.Base(f.path)]
			if !ok {
				n = edgeNames
			}
			compareRows(t, reader, filepath.Base(f.path), out[f.path], f.want, n, o)
		}
		o.checkUsed(t, reader)
	}
}

// writeNullsFile writes, under LZ4_RAW in data pages of version v, two
// optional columns (int64, string) null in every row of a first row group
// and in the first 25 rows of a second one, whose last 5 rows hold
// values: chunks of nulls without a dictionary page (an empty one is an
// LZ4_RAW frame of nothing, the byte 0x00, which hyparquet-compressors
// 1.1.2 cannot decode), and pages of nulls before a dictionary.
func writeNullsFile(t *testing.T, v int) ([]byte, [][]any) {
	t.Helper()
	w, buf := newWriter(t, `message m { optional int64 n; optional binary s (STRING); }`,
		runtime.WithCompression(meta.LZ4Raw, 0), runtime.WithDataPageVersion(v), runtime.WithPageRowLimit(10))
	bn, _ := w.Int64Buffer(0)
	bs, err := w.ByteArrayBuffer(1)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]any
	add := func(rows int, value bool) {
		for i := range rows {
			if !value {
				bn.Def, bs.Def = append(bn.Def, 0), append(bs.Def, 0)
				want = append(want, []any{nil, nil})
				continue
			}
			bn.Def, bs.Def = append(bn.Def, 1), append(bs.Def, 1)
			bn.Values = append(bn.Values, int64(i))
			bs.Values.AppendString(fmt.Sprint("v", i))
			want = append(want, []any{intV(fmt.Sprint(i)), fmt.Sprint("v", i)})
		}
		if err := w.EndRows(rows); err != nil {
			t.Fatal(err)
		}
	}
	add(30, false)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	add(25, false)
	add(5, true)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rgs := openOwn(t, buf.Bytes()).File().Meta.RowGroups
	for rg, dict := range []bool{false, true} {
		for c := range 2 {
			if got := rgs[rg].Columns[c].MetaData.DictionaryPageOffset.Set; got != dict {
				t.Fatalf("nulls v%d row group %d column %d: dictionary page %v, want %v", v, rg, c, got, dict)
			}
		}
	}
	return buf.Bytes(), want
}

// writeSeriesFile writes, under ZSTD, 30,000 rows of a
// random walk as INT64 and as DOUBLE (quarters) and sorted e-mail
// addresses, each twice: columns whose dictionaries beat PLAIN but which
// the writer stores DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT and
// DELTA_BYTE_ARRAY instead (numValues and byteArrayValues altBeatsDict);
// and random 16-byte ids and unique decimals as FIXED_LEN_BYTE_ARRAY, whose
// dictionaries do not pay (fixedValues.abandonDict): PLAIN. It checks
// those encodings and returns the file and its canonical rows.
func writeSeriesFile(t *testing.T) ([]byte, [][]any) {
	t.Helper()
	const n = 30000
	w, buf := newWriter(t, `message m { required int64 i; required double d; required binary s (STRING);
  required fixed_len_byte_array(16) u; required fixed_len_byte_array(8) m (DECIMAL(18,2)); }`, runtime.WithCompression(meta.Zstd, 0))
	bi, _ := w.Int64Buffer(0)
	bd, _ := w.DoubleBuffer(1)
	bs, _ := w.ByteArrayBuffer(2)
	bu, _ := w.FixedBuffer(3)
	bm, err := w.FixedBuffer(4)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]any
	walk, x := int64(0), uint64(21)
	for r := range n {
		x = x*6364136223846793005 + 1442695040888963407
		walk += int64(x>>33%41) - 20
		e := fmt.Sprintf("user%d@example.com", r/2)
		bi.Values = append(bi.Values, walk)
		bd.Values = append(bd.Values, float64(walk)/4)
		bs.Values.AppendString(e)
		u := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, x), x*0x9E3779B97F4A7C15)
		bu.Values = append(bu.Values, u...)
		cents := int64(r)*7919 - 100_000_000 // unique, some negative
		bm.Values = binary.BigEndian.AppendUint64(bm.Values, uint64(cents))
		want = append(want, []any{intV(fmt.Sprint(walk)), floatV(float64(walk) / 4), e,
			bytesV(u), decV{big.NewInt(cents), 2}})
	}
	if err := w.EndRows(n); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	md := openOwn(t, buf.Bytes()).File().Meta.RowGroups[0].Columns
	for c, enc := range []meta.Encoding{meta.EncodingDeltaBinaryPacked, meta.EncodingByteStreamSplit, meta.EncodingDeltaByteArray, meta.EncodingPlain, meta.EncodingPlain} {
		if got := md[c].MetaData.Encodings; md[c].MetaData.DictionaryPageOffset.Set || !slices.Contains(got, enc) {
			t.Fatalf("series column %d: encodings %v, want %v without a dictionary", c, got, enc)
		}
	}
	return buf.Bytes(), want
}
