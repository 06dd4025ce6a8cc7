package genconf

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pgo "github.com/parquet-go/parquet-go"
)

// The Go peers among the world writers: arrow-go (pqarrow) and
// parquet-go write files of every type they offer in several
// configurations, beside those of writers.mjs, for the same round trip
// (generated code reads each file and writes it back; DuckDB judges the
// copy) and the same filtered reads.

// goWorldRows is the number of rows of each Go peer's files.
const goWorldRows = 300

// runGoWriters writes the Go peers' files into dir and returns them as
// writers.mjs reports its own.
func runGoWriters(t *testing.T, dir string) []writtenFile {
	t.Helper()
	var out []writtenFile
	add := func(writer, name, features string, write func(path string) error) {
		w := writtenFile{File: name, Writer: writer, Features: features}
		if err := write(filepath.Join(dir, name)); err != nil {
			w.Error = err.Error()
		}
		out = append(out, w)
	}
	tbl := arrowWorldTable(t)
	defer tbl.Release()
	arrowFile := func(props ...parquet.WriterProperty) func(string) error {
		return func(path string) error {
			var buf bytes.Buffer
			err := pqarrow.WriteTable(tbl, &buf, 120, parquet.NewWriterProperties(props...), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
			if err != nil {
				return err
			}
			return os.WriteFile(path, buf.Bytes(), 0o644)
		}
	}
	add("arrow-go", "arrowgo_default.parquet", "every Arrow type pqarrow writes, default properties, row groups of 120",
		arrowFile())
	add("arrow-go", "arrowgo_zstd_v2.parquet", "zstd, DATA_PAGE_V2, no dictionary, page index, 1 KiB pages, batches of 32",
		arrowFile(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryDefault(false),
			parquet.WithPageIndexEnabled(true), parquet.WithDataPageSize(1024), parquet.WithBatchSize(32)))
	add("arrow-go", "arrowgo_snappy_bloom.parquet", "snappy, dictionaries, page index, bloom filters, 2 KiB pages",
		arrowFile(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithPageIndexEnabled(true), parquet.WithBloomFilterEnabled(true),
			parquet.WithDataPageSize(2048)))
	add("arrow-go", "arrowgo_delta.parquet", "DELTA_BINARY_PACKED integers, DELTA_BYTE_ARRAY strings, BYTE_STREAM_SPLIT floats, gzip, no dictionary",
		arrowFile(parquet.WithCompression(compress.Codecs.Gzip), parquet.WithDictionaryDefault(false),
			parquet.WithEncodingFor("i32", parquet.Encodings.DeltaBinaryPacked), parquet.WithEncodingFor("i64", parquet.Encodings.DeltaBinaryPacked),
			parquet.WithEncodingFor("u32", parquet.Encodings.DeltaBinaryPacked), parquet.WithEncodingFor("s", parquet.Encodings.DeltaByteArray),
			parquet.WithEncodingFor("ls", parquet.Encodings.DeltaLengthByteArray), parquet.WithEncodingFor("f64", parquet.Encodings.ByteStreamSplit),
			parquet.WithEncodingFor("f32", parquet.Encodings.ByteStreamSplit)))
	for _, c := range []struct {
		name  string
		codec compress.Compression
	}{{"brotli", compress.Codecs.Brotli}, {"lz4raw", compress.Codecs.Lz4Raw}} {
		add("arrow-go", "arrowgo_"+c.name+".parquet", "every Arrow type, "+c.name+", DATA_PAGE_V2",
			arrowFile(parquet.WithCompression(c.codec), parquet.WithDataPageVersion(parquet.DataPageV2)))
	}
	rows := pgoWorldRows()
	pgoFile := func(opts ...pgo.WriterOption) func(string) error {
		return func(path string) error {
			var buf bytes.Buffer
			w := pgo.NewGenericWriter[pgoWorldRow](&buf, opts...)
			for i := 0; i < len(rows); i += 100 {
				if _, err := w.Write(rows[i:min(i+100, len(rows))]); err != nil {
					return err
				}
				if err := w.Flush(); err != nil {
					return err
				}
			}
			if err := w.Close(); err != nil {
				return err
			}
			return os.WriteFile(path, buf.Bytes(), 0o644)
		}
	}
	add("parquet-go", "parquetgo_default.parquet", "every type of its struct tags, default options, pages flushed every 100 rows",
		pgoFile())
	add("parquet-go", "parquetgo_zstd_bloom.parquet", "zstd, 512-byte pages, bloom filters, DATA_PAGE_V1, row groups of 150",
		pgoFile(pgo.Compression(&pgo.Zstd), pgo.PageBufferSize(512), pgo.DataPageVersion(1), pgo.MaxRowsPerRowGroup(150),
			pgo.BloomFilters(pgo.SplitBlockFilter(10, "s"), pgo.SplitBlockFilter(10, "i64"))))
	return out
}

// arrowWorldTable builds goWorldRows rows of every Arrow type pqarrow
// writes, nulls included, from JSON.
func arrowWorldTable(t *testing.T) arrow.Table {
	t.Helper()
	n := goWorldRows
	col := func(f func(i int) string) string {
		var sb strings.Builder
		sb.WriteByte('[')
		for i := range n {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(f(i))
		}
		sb.WriteByte(']')
		return sb.String()
	}
	opt := func(k int, f func(i int) string) string {
		return col(func(i int) string {
			if i%k == k-1 {
				return "null"
			}
			return f(i)
		})
	}
	num := func(f func(i int) float64) func(int) string {
		return func(i int) string {
			if v := f(i); v == math.Trunc(v) && math.Abs(v) < 1<<53 {
				return fmt.Sprint(int64(v))
			}
			return fmt.Sprint(f(i))
		}
	}
	str := func(f func(i int) string) func(int) string {
		return func(i int) string { return fmt.Sprintf("%q", f(i)) }
	}
	decType := &arrow.Decimal128Type{Precision: 12, Scale: 3}
	dec256 := &arrow.Decimal256Type{Precision: 40, Scale: 5}
	cols := []struct {
		name string
		typ  arrow.DataType
		json string
	}{
		{"id", arrow.PrimitiveTypes.Int32, col(num(func(i int) float64 { return float64(i) }))},
		{"i8", arrow.PrimitiveTypes.Int8, opt(7, num(func(i int) float64 { return float64(i%256 - 128) }))},
		{"i16", arrow.PrimitiveTypes.Int16, col(num(func(i int) float64 { return float64(i*37%65536 - 32768) }))},
		{"i32", arrow.PrimitiveTypes.Int32, opt(5, num(func(i int) float64 { return float64(i*7919%2000000 - 1000000) }))},
		{"i64", arrow.PrimitiveTypes.Int64, col(func(i int) string { return fmt.Sprint(int64(i)*1000000007 - 9000000000) })},
		{"u8", arrow.PrimitiveTypes.Uint8, col(num(func(i int) float64 { return float64(i % 256) }))},
		{"u16", arrow.PrimitiveTypes.Uint16, col(num(func(i int) float64 { return float64(i * 31 % 65536) }))},
		{"u32", arrow.PrimitiveTypes.Uint32, opt(4, num(func(i int) float64 { return float64(4294967295 - i*977) }))},
		{"u64", arrow.PrimitiveTypes.Uint64, col(func(i int) string { return fmt.Sprint(uint64(math.MaxUint64) - uint64(i)*1000000007) })},
		{"f16", arrow.FixedWidthTypes.Float16, opt(6, num(func(i int) float64 { return float64(i)/4 - 30 }))},
		{"f32", arrow.PrimitiveTypes.Float32, opt(6, num(func(i int) float64 { return float64(i)/8 - 100 }))},
		{"f64", arrow.PrimitiveTypes.Float64, col(num(func(i int) float64 { return math.Sin(float64(i)) * 1e6 }))},
		{"b", arrow.FixedWidthTypes.Boolean, opt(3, func(i int) string { return fmt.Sprint(i%2 == 0) })},
		{"s", arrow.BinaryTypes.String, opt(9, str(func(i int) string { return fmt.Sprintf("w%d", i%37) }))},
		{"ls", arrow.BinaryTypes.LargeString, col(str(func(i int) string { return strings.Repeat("é", i%5) + fmt.Sprint(i) }))},
		{"bin", arrow.BinaryTypes.Binary, opt(11, str(func(i int) string { return "AAE" + string("ABCD"[i%4]) }))},
		{"fsb", &arrow.FixedSizeBinaryType{ByteWidth: 3}, col(str(func(i int) string { return "AAE" + string("ABCD"[i%4]) }))},
		{"dec", decType, opt(13, str(func(i int) string { return fmt.Sprintf("%d.%03d", i*7777%1000000-500000, i%1000) }))},
		{"dec256", dec256, col(str(func(i int) string { return fmt.Sprintf("%d1234567890123456789.%05d", i, i*7%100000) }))},
		{"d32", arrow.FixedWidthTypes.Date32, opt(8, num(func(i int) float64 { return float64(i*17 - 2000) }))},
		{"d64", arrow.FixedWidthTypes.Date64, col(num(func(i int) float64 { return float64((i*17 - 2000) * 86400000) }))},
		{"t32", arrow.FixedWidthTypes.Time32ms, col(num(func(i int) float64 { return float64(i * 287000 % 86400000) }))},
		{"t64us", arrow.FixedWidthTypes.Time64us, opt(6, num(func(i int) float64 { return float64(int64(i) * 288000003 % 86400000000) }))},
		{"t64ns", arrow.FixedWidthTypes.Time64ns, col(func(i int) string { return fmt.Sprint(int64(i) * 288000000007 % 86400000000000) })},
		{"ts_s", &arrow.TimestampType{Unit: arrow.Second}, col(num(func(i int) float64 { return float64(946684799 + i*1000) }))},
		{"ts_ms", &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, opt(7, num(func(i int) float64 { return float64(946684799000 + i*1000003) }))},
		{"ts_us", &arrow.TimestampType{Unit: arrow.Microsecond}, col(func(i int) string { return fmt.Sprint(int64(981173106000000) + int64(i)*123456789) })},
		{"ts_ns", &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Asia/Tokyo"}, col(func(i int) string { return fmt.Sprint(int64(1577836800000000000) + int64(i)*999) })},
		{"l", arrow.ListOf(arrow.PrimitiveTypes.Int32), col(func(i int) string {
			return [...]string{"null", "[]", fmt.Sprintf("[%d, null, %d]", i, -i), fmt.Sprintf("[%d]", i)}[i%4]
		})},
		{"ll", arrow.LargeListOf(arrow.ListOf(arrow.BinaryTypes.String)), col(func(i int) string {
			return [...]string{"null", "[[], null]", fmt.Sprintf(`[["a%d", null], ["b"]]`, i), "[null]", "[]"}[i%5]
		})},
		// Never null: arrow-go refuses to write a null fixed-size list
		// ("lists with non-zero length null components").
		{"fsl", arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32), col(func(i int) string { return fmt.Sprintf("[%d, null, %d]", i, -i) })},
		{"st", arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}),
			col(func(i int) string {
				if i%8 == 0 {
					return "null"
				}
				a := "null"
				if i%3 != 0 {
					a = fmt.Sprint(i)
				}
				return fmt.Sprintf(`{"a": %s, "b": "b%d"}`, a, i%7)
			})},
		{"m", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), col(func(i int) string {
			return [...]string{"null", "[]", fmt.Sprintf(`[{"key": "k%d", "value": %d}, {"key": "z", "value": null}]`, i, i)}[i%3]
		})},
		{"lst", arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})),
			col(func(i int) string {
				return [...]string{"null", "[]", fmt.Sprintf(`[{"x": %d, "y": "y%d"}, null, {"x": null, "y": null}]`, i, i)}[i%3]
			})},
	}
	mem := memory.DefaultAllocator
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		a, _, err := array.FromJSON(mem, c.typ, strings.NewReader(c.json))
		if err != nil {
			t.Fatalf("arrow-go column %s: %v", c.name, err)
		}
		fields[i] = arrow.Field{Name: c.name, Type: c.typ, Nullable: c.name != "id"}
		arrs[i] = a
	}
	// A dictionary-encoded string column, as Arrow readers hand out.
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	for i := range n {
		if i%10 == 9 {
			db.AppendNull()
		} else if err := db.AppendString([...]string{"red", "green", "blue"}[i%3]); err != nil {
			t.Fatal(err)
		}
	}
	fields = append(fields, arrow.Field{Name: "dict", Type: db.Type(), Nullable: true})
	arrs = append(arrs, db.NewArray())
	db.Release()
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	defer rec.Release()
	return array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
}

// pgoWorldRow is a row of every kind of field parquet-go's struct tags
// map.
type pgoWorldRow struct {
	ID    int32             `parquet:"id"`
	I8    int8              `parquet:"i8"`
	U16   uint16            `parquet:"u16"`
	U32   *uint32           `parquet:"u32,optional"`
	I64   int64             `parquet:"i64"`
	U64   uint64            `parquet:"u64"`
	F32   float32           `parquet:"f32"`
	F64   *float64          `parquet:"f64,optional"`
	B     bool              `parquet:"b"`
	S     string            `parquet:"s,dict"`
	OS    *string           `parquet:"os,optional"`
	Bin   []byte            `parquet:"bin"`
	Fix   [4]byte           `parquet:"fix"`
	Dec   int64             `parquet:"dec,decimal(3:18)"`
	Date  int32             `parquet:"date,date"`
	TS    time.Time         `parquet:"ts,timestamp(millisecond)"`
	TSN   time.Time         `parquet:"tsn,timestamp(nanosecond)"`
	UUID  [16]byte          `parquet:"uuid,uuid"`
	JSON  string            `parquet:"js,json"`
	Enum  string            `parquet:"en,enum"`
	Delta int64             `parquet:"delta,delta"`
	Split float64           `parquet:"split,split"`
	Tags  []string          `parquet:"tags,list"`
	Nums  []int32           `parquet:"nums"`
	M     map[string]int64  `parquet:"m"`
	Sub   *pgoWorldSub      `parquet:"sub,optional"`
	Subs  []pgoWorldSub     `parquet:"subs,list"`
	Attrs map[string]string `parquet:"attrs"`
}

// pgoWorldSub is a nested struct of pgoWorldRow.
type pgoWorldSub struct {
	X int32   `parquet:"x"`
	Y *string `parquet:"y,optional"`
}

// pgoWorldRows returns goWorldRows rows, nulls and empty lists included.
func pgoWorldRows() []pgoWorldRow {
	rows := make([]pgoWorldRow, goWorldRows)
	base := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	for i := range rows {
		r := &rows[i]
		r.ID = int32(i)
		r.I8 = int8(i%256 - 128)
		r.U16 = uint16(i * 31 % 65536)
		if i%4 != 3 {
			u := uint32(4294967295 - i*977)
			r.U32 = &u
		}
		r.I64 = int64(i)*1000000007 - 9000000000
		r.U64 = math.MaxUint64 - uint64(i)*1000000007
		r.F32 = float32(i)/8 - 100
		if i%6 != 5 {
			f := math.Sin(float64(i)) * 1e6
			if i%40 == 1 {
				f = math.NaN()
			}
			r.F64 = &f
		}
		r.B = i%3 == 0
		r.S = fmt.Sprintf("w%d", i%37)
		if i%9 != 8 {
			s := strings.Repeat("é", i%4) + fmt.Sprint(i)
			r.OS = &s
		}
		r.Bin = []byte{byte(i), 0, 0xff}
		r.Fix = [4]byte{byte(i), byte(i >> 8), 1, 2}
		r.Dec = int64(i)*7777 - 500000
		r.Date = int32(i*17 - 2000)
		r.TS = base.Add(time.Duration(i) * 1234567 * time.Millisecond)
		r.TSN = base.Add(time.Duration(i) * 999)
		r.UUID[0], r.UUID[15] = byte(i), byte(i>>8)
		r.JSON = fmt.Sprintf(`{"k":%d}`, i)
		r.Enum = [...]string{"sad", "ok", "happy"}[i%3]
		r.Delta = int64(i) * int64(i)
		r.Split = float64(i) / 7
		r.Tags = [][]string{nil, {}, {"a", fmt.Sprint(i)}}[i%3]
		if i%4 != 0 {
			r.Nums = []int32{int32(i), int32(-i)}
		}
		if i%3 != 0 {
			r.M = map[string]int64{fmt.Sprint("k", i): int64(i), "z": 0}
		}
		if i%5 != 0 {
			y := fmt.Sprint("y", i)
			r.Sub = &pgoWorldSub{X: int32(i), Y: &y}
		}
		if i%2 == 1 {
			r.Subs = []pgoWorldSub{{X: int32(i)}, {X: -1}}
		}
		if i%7 != 0 {
			r.Attrs = map[string]string{"a": fmt.Sprint(i)}
		}
	}
	return rows
}
