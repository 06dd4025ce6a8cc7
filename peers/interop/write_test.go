package interop

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	pq "github.com/parquet-go/parquet-go"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// config is one writer configuration of the matrix.
type config struct {
	name   string
	opts   []runtime.WriterOption
	bloom  bool // bloom filters on id and name
	dict   string
	rows   int
	batch  int
	pageIx bool
	// rleBool: column b is RLE-encoded, which parquet-go v0.32.0 misreads
	// (its decodeBits expands an RLE run of n values to ceil(n/8) copies
	// of the value byte), so parquet-go's values of b are not compared.
	rleBool bool
	// noParquetGo: parquet-go v0.32.0 cannot read LZ4_RAW pages that
	// compress less than 3:1 (Column.decompress keeps its pooled buffer
	// when lz4.Codec.Decode had to allocate a larger one and the decoded
	// length equals the page size, so the decoded bytes are dropped).
	noParquetGo bool
	crc         bool
}

func matrix() []config {
	codecs := []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Gzip, meta.Brotli, meta.Zstd, meta.LZ4Raw}
	var out []config
	i := 0
	for _, codec := range codecs {
		for _, v := range []int{1, 2} {
			for _, dict := range []string{"dict", "plain", "fallback"} {
				i++
				c := config{
					name:   fmt.Sprintf("%s/v%d/%s", codec.String(), v, dict),
					rows:   3000,
					batch:  97,
					dict:   dict,
					pageIx: true,
					opts: matrixOpts(codec, v,
						runtime.WithPageSize(2048),
						runtime.WithPageRowLimit(700),
						runtime.WithRowGroupSize(48<<10),
						runtime.WithPageStatistics(i%2 == 0),
						runtime.WithCRC(i%3 != 0)),
				}
				c.noParquetGo = codec == meta.LZ4Raw
				c.crc = i%3 != 0
				switch dict {
				case "plain":
					c.opts = append(c.opts, runtime.WithDictionary(false))
				case "fallback":
					c.opts = append(c.opts, runtime.WithMaxDictionarySize(300))
				}
				if i%2 == 1 {
					// Non-default encodings (the fallback encodings when the
					// dictionary is on).
					c.opts = append(c.opts,
						runtime.WithColumnEncoding("id", meta.EncodingDeltaBinaryPacked),
						runtime.WithColumnEncoding("i32", meta.EncodingByteStreamSplit),
						runtime.WithColumnEncoding("f", meta.EncodingByteStreamSplit),
						runtime.WithColumnEncoding("d", meta.EncodingByteStreamSplit),
						runtime.WithColumnEncoding("fx", meta.EncodingByteStreamSplit),
						runtime.WithColumnEncoding("b", meta.EncodingRLE),
						runtime.WithColumnEncoding("u32", meta.EncodingDeltaBinaryPacked),
					)
					c.rleBool = true
					if v == 2 {
						c.opts = append(c.opts, runtime.WithColumnEncoding("name", meta.EncodingDeltaByteArray),
							runtime.WithColumnEncoding("dec", meta.EncodingDeltaLengthByteArray))
					} else {
						c.opts = append(c.opts, runtime.WithColumnEncoding("name", meta.EncodingDeltaLengthByteArray),
							runtime.WithColumnEncoding("tags.list.element", meta.EncodingDeltaBinaryPacked))
					}
				}
				if i%4 == 0 {
					c.bloom = true
					c.opts = append(c.opts, runtime.WithColumnBloomFilter("id", 3000, 0.01), runtime.WithColumnBloomFilter("name", 200, 0.01))
				}
				if i%5 == 0 {
					c.pageIx = false
					c.opts = append(c.opts, runtime.WithPageIndex(false))
				}
				out = append(out, c)
			}
		}
	}
	// Row groups of 300 rows: every chunk is one page of fewer than 1,000
	// values, whose dictionary is judged on it exactly; the chunks that
	// drop it take the encodings the writer's trial picks.
	for _, v := range []int{1, 2} {
		codec := []meta.CompressionCodec{meta.Snappy, meta.Zstd}[v-1]
		out = append(out, config{
			name:   fmt.Sprintf("%s/v%d/small-groups", codec.String(), v),
			rows:   3000,
			batch:  100, // ends at each row group's end, as WithRowGroupRowLimit asks
			dict:   "dict",
			pageIx: true,
			crc:    true,
			opts:   matrixOpts(codec, v, runtime.WithRowGroupRowLimit(300), runtime.WithCRC(true)),
		})
	}
	return out
}

// matrixOpts are the options of a matrix configuration: codec, data page
// version v, the key-value metadata the readers' checks look for, and
// more.
func matrixOpts(codec meta.CompressionCodec, v int, more ...runtime.WriterOption) []runtime.WriterOption {
	return append([]runtime.WriterOption{
		runtime.WithCompression(codec, 0),
		runtime.WithDataPageVersion(v),
		runtime.WithKeyValueMetadata("k", "v"),
		runtime.WithColumnKeyValueMetadata("id", "ck", "cv"),
	}, more...)
}

// TestSmallGroupsDropDictionaries: the small-groups files of matrix()
// hold what they are there for, chunks of one page that dropped their
// dictionaries for DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT, which the
// readers of the matrix's tests then read.
func TestSmallGroupsDropDictionaries(t *testing.T) {
	seen := 0
	for _, c := range matrix() {
		if !strings.HasSuffix(c.name, "/small-groups") {
			continue
		}
		seen++
		data, _ := writeDataset(t, c)
		f, err := runtime.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		encs := map[meta.Encoding]int{}
		for _, rg := range f.Meta.RowGroups {
			for _, cc := range rg.Columns {
				if !cc.MetaData.DictionaryPageOffset.Set {
					for _, e := range cc.MetaData.Encodings {
						encs[e]++
					}
				}
			}
		}
		t.Logf("%s: %d row groups; encodings of the chunks without a dictionary: %v", c.name, len(f.Meta.RowGroups), encs)
		for _, e := range []meta.Encoding{meta.EncodingDeltaBinaryPacked, meta.EncodingByteStreamSplit} {
			if encs[e] == 0 {
				t.Errorf("%s: no chunk without a dictionary in %v", c.name, e)
			}
		}
	}
	if seen != 2 {
		t.Errorf("matrix() has %d small-groups configurations, want 2", seen)
	}
}

func writeDataset(t testing.TB, c config) ([]byte, *dataset) {
	t.Helper()
	s, err := schema.Parse(testSchema)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := runtime.NewFileWriter(&buf, s, c.opts...)
	if err != nil {
		t.Fatal(err)
	}
	ds := genRows(t, w, c.rows, c.batch, 1)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), ds
}

// got is what a reader returned for one column, in the dataset's form.
type got struct {
	def, rep []uint8
	vals     [][]byte
}

func compareColumn(t *testing.T, reader string, c int, ds *dataset, g *got, hasDef, hasRep bool) {
	t.Helper()
	col := &ds.cols[c]
	if hasDef && !bytes.Equal(g.def, col.def) {
		t.Errorf("%s: column %d: definition levels differ (%d vs %d)", reader, c, len(g.def), len(col.def))
	}
	if hasRep && !bytes.Equal(g.rep, col.rep) {
		t.Errorf("%s: column %d: repetition levels differ (%d vs %d)", reader, c, len(g.rep), len(col.rep))
	}
	if len(g.vals) != len(col.vals) {
		t.Errorf("%s: column %d: %d values, want %d", reader, c, len(g.vals), len(col.vals))
		return
	}
	for i := range g.vals {
		if !bytes.Equal(g.vals[i], col.vals[i]) {
			t.Errorf("%s: column %d: value %d is %x, want %x", reader, c, i, g.vals[i], col.vals[i])
			return
		}
	}
}

var maxDefs = [numCols]uint8{cName: 1, cTags: 3, cD: 1, cDec: 1}

func TestWriteInterop(t *testing.T) {
	for _, c := range matrix() {
		t.Run(c.name, func(t *testing.T) {
			data, ds := writeDataset(t, c)
			checkArrow(t, c, data, ds)
			if !c.noParquetGo {
				checkParquetGo(t, c, data, ds)
			}
			checkOwnReader(t, c, data, ds)
		})
	}
}

func levels16(dst []uint8, src []int16) []uint8 {
	for _, v := range src {
		dst = append(dst, uint8(v))
	}
	return dst
}

func checkArrow(t *testing.T, c config, data []byte, ds *dataset) {
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	defer rdr.Close()
	if rdr.NumRows() != int64(ds.rows) {
		t.Fatalf("arrow-go: %d rows, want %d", rdr.NumRows(), ds.rows)
	}
	if kv := rdr.MetaData().KeyValueMetadata().FindValue("k"); kv == nil || *kv != "v" {
		t.Errorf("arrow-go: key-value metadata k = %v", kv)
	}
	gots := make([]got, numCols)
	first := 0
	for rg := 0; rg < rdr.NumRowGroups(); rg++ {
		rgr := rdr.RowGroup(rg)
		n := int(rgr.NumRows())
		for ci := 0; ci < numCols; ci++ {
			cr, err := rgr.Column(ci)
			if err != nil {
				t.Fatal(err)
			}
			readArrowColumn(t, cr, &gots[ci])
			md, err := rgr.MetaData().ColumnChunk(ci)
			if err != nil {
				t.Fatal(err)
			}
			checkArrowStats(t, rg, ci, md, ds.chunkStats(ci, first, first+n))
		}
		if c.pageIx {
			checkArrowPageIndex(t, rdr, rg, n, first, ds)
		}
		if c.bloom {
			checkArrowBloom(t, rdr, rg, first, first+n, ds)
		}
		first += n
	}
	for ci := 0; ci < numCols; ci++ {
		compareColumn(t, "arrow-go", ci, ds, &gots[ci], maxDefs[ci] > 0, ci == cTags)
	}
	if rdr.NumRowGroups() < 2 {
		t.Errorf("arrow-go: %d row groups; the test wants several", rdr.NumRowGroups())
	}
}

func readArrowColumn(t *testing.T, cr file.ColumnChunkReader, g *got) {
	const batch = 1000
	def := make([]int16, batch)
	rep := make([]int16, batch)
	for cr.HasNext() {
		var total int64
		var nv int
		var err error
		switch r := cr.(type) {
		case *file.Int64ColumnChunkReader:
			vals := make([]int64, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				g.vals = append(g.vals, le64(uint64(v)))
			}
		case *file.Int32ColumnChunkReader:
			vals := make([]int32, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				g.vals = append(g.vals, le32(uint32(v)))
			}
		case *file.Float64ColumnChunkReader:
			vals := make([]float64, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				g.vals = append(g.vals, le64(math.Float64bits(v)))
			}
		case *file.Float32ColumnChunkReader:
			vals := make([]float32, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				g.vals = append(g.vals, le32(math.Float32bits(v)))
			}
		case *file.BooleanColumnChunkReader:
			vals := make([]bool, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				b := []byte{0}
				if v {
					b[0] = 1
				}
				g.vals = append(g.vals, b)
			}
		case *file.ByteArrayColumnChunkReader:
			vals := make([]parquet.ByteArray, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				g.vals = append(g.vals, append([]byte{}, v...))
			}
		case *file.FixedLenByteArrayColumnChunkReader:
			vals := make([]parquet.FixedLenByteArray, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				g.vals = append(g.vals, append([]byte{}, v...))
			}
		case *file.Int96ColumnChunkReader:
			vals := make([]parquet.Int96, batch)
			total, nv, err = r.ReadBatch(batch, vals, def, rep)
			for _, v := range vals[:nv] {
				g.vals = append(g.vals, append([]byte{}, v[:]...))
			}
		default:
			t.Fatalf("arrow-go: reader %T", cr)
		}
		if err != nil {
			t.Fatalf("arrow-go: %v", err)
		}
		if cr.Descriptor().MaxDefinitionLevel() > 0 {
			g.def = levels16(g.def, def[:total])
		}
		if cr.Descriptor().MaxRepetitionLevel() > 0 {
			g.rep = levels16(g.rep, rep[:total])
		}
	}
}

func checkArrowStats(t *testing.T, rg, ci int, md *metadata.ColumnChunkMetaData, want expStats) {
	t.Helper()
	st, err := md.Statistics()
	if err != nil {
		t.Fatalf("arrow-go: statistics: %v", err)
	}
	if st == nil {
		t.Errorf("arrow-go: row group %d column %d: no statistics", rg, ci)
		return
	}
	enc, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !enc.HasNullCount || enc.NullCount != want.nulls {
		t.Errorf("arrow-go: rg %d col %d: null count %d (set %v), want %d", rg, ci, enc.NullCount, enc.HasNullCount, want.nulls)
	}
	if st.HasMinMax() != want.has {
		t.Errorf("arrow-go: rg %d col %d: has min/max %v, want %v", rg, ci, st.HasMinMax(), want.has)
		return
	}
	if want.has && (!bytes.Equal(enc.Min, want.min) || !bytes.Equal(enc.Max, want.max)) {
		t.Errorf("arrow-go: rg %d col %d: min/max %x/%x, want %x/%x", rg, ci, enc.Min, enc.Max, want.min, want.max)
	}
}

func checkArrowPageIndex(t *testing.T, rdr *file.Reader, rg, n, first int, ds *dataset) {
	t.Helper()
	pir, err := rdr.GetPageIndexReader().RowGroup(rg)
	if err != nil {
		t.Fatalf("arrow-go: page index: %v", err)
	}
	for ci := 0; ci < numCols; ci++ {
		oi, err := pir.GetOffsetIndex(ci)
		if err != nil || oi == nil {
			t.Fatalf("arrow-go: rg %d col %d: offset index: %v", rg, ci, err)
		}
		locs := oi.GetPageLocations()
		if len(locs) == 0 || locs[0].FirstRowIndex != 0 {
			t.Fatalf("arrow-go: rg %d col %d: %d page locations", rg, ci, len(locs))
		}
		for i := 1; i < len(locs); i++ {
			if locs[i].FirstRowIndex <= locs[i-1].FirstRowIndex || locs[i].Offset != locs[i-1].Offset+int64(locs[i-1].CompressedPageSize) {
				t.Errorf("arrow-go: rg %d col %d: page %d location %+v after %+v", rg, ci, i, locs[i], locs[i-1])
			}
		}
		cix, err := pir.GetColumnIndex(ci)
		if err != nil {
			t.Fatalf("arrow-go: rg %d col %d: column index: %v", rg, ci, err)
		}
		if ci == cD && ds.chunkStats(ci, first, first+n).nans > 0 {
			// A chunk holding NaN has no column index (Spark orders
			// NaN above the bounds, runtime/write_column.go).
			if cix != nil {
				t.Errorf("arrow-go: rg %d col %d: a column index for a chunk holding NaN", rg, ci)
			}
			continue
		}
		if cix == nil {
			t.Errorf("arrow-go: rg %d col %d: no column index", rg, ci)
			continue
		}
		nulls := cix.GetNullCounts()
		mins, maxs := cix.GetMinValues(), cix.GetMaxValues()
		if len(nulls) != len(locs) || len(mins) != len(locs) {
			t.Errorf("arrow-go: rg %d col %d: %d null counts, %d mins for %d pages", rg, ci, len(nulls), len(mins), len(locs))
			continue
		}
		for p := range locs {
			from := first + int(locs[p].FirstRowIndex)
			to := first + n
			if p+1 < len(locs) {
				to = first + int(locs[p+1].FirstRowIndex)
			}
			want := ds.stats(ci, from, to)
			if nulls[p] != want.nulls {
				t.Errorf("arrow-go: rg %d col %d page %d: null count %d, want %d", rg, ci, p, nulls[p], want.nulls)
			}
			if cix.GetNullPages()[p] != !want.has {
				t.Errorf("arrow-go: rg %d col %d page %d: null page %v", rg, ci, p, cix.GetNullPages()[p])
			}
			if want.has && (!bytes.Equal(mins[p], want.min) || !bytes.Equal(maxs[p], want.max)) {
				t.Errorf("arrow-go: rg %d col %d page %d: bounds %x/%x, want %x/%x", rg, ci, p, mins[p], maxs[p], want.min, want.max)
			}
		}
		if ci == cID && cix.GetBoundaryOrder() != metadata.Ascending {
			t.Errorf("arrow-go: rg %d: id boundary order %v, want ascending", rg, cix.GetBoundaryOrder())
		}
		if ci == cTags && len(cix.GetDefinitionLevelHistograms()) != 4*len(locs) {
			t.Errorf("arrow-go: rg %d: tags has %d definition histogram entries for %d pages", rg, len(cix.GetDefinitionLevelHistograms()), len(locs))
		}
	}
}

func checkArrowBloom(t *testing.T, rdr *file.Reader, rg, from, to int, ds *dataset) {
	t.Helper()
	bfr, err := rdr.GetBloomFilterReader().RowGroup(rg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ci := range []int{cID, cName} {
		bf, err := bfr.GetColumnBloomFilter(ci)
		if err != nil || bf == nil {
			t.Fatalf("arrow-go: rg %d col %d: bloom filter: %v %v", rg, ci, bf, err)
		}
		col := &ds.cols[ci]
		v0, v1 := col.rowVal[from], len(col.vals)
		if to < ds.rows {
			v1 = col.rowVal[to]
		}
		for _, v := range col.vals[v0:v1] {
			var h uint64
			if ci == cID {
				h = metadata.GetHash(bf.Hasher(), int64(binary.LittleEndian.Uint64(v)))
			} else {
				h = metadata.GetHash(bf.Hasher(), parquet.ByteArray(v))
			}
			if !bf.CheckHash(h) {
				t.Fatalf("arrow-go: rg %d col %d: bloom filter lacks %x", rg, ci, v)
			}
		}
		// Values never written are mostly absent.
		miss := 0
		for i := 0; i < 1000; i++ {
			var h uint64
			if ci == cID {
				h = metadata.GetHash(bf.Hasher(), int64(1<<40+i))
			} else {
				h = metadata.GetHash(bf.Hasher(), parquet.ByteArray(fmt.Sprintf("absent-%d", i)))
			}
			if !bf.CheckHash(h) {
				miss++
			}
		}
		if miss < 900 {
			t.Errorf("arrow-go: rg %d col %d: bloom filter rejects only %d of 1000 absent values", rg, ci, miss)
		}
	}
}

func checkParquetGo(t *testing.T, c config, data []byte, ds *dataset) {
	f, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("parquet-go: %v", err)
	}
	if f.NumRows() != int64(ds.rows) {
		t.Fatalf("parquet-go: %d rows", f.NumRows())
	}
	gots := make([]got, numCols)
	buf := make([]pq.Row, 100)
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				for _, v := range row {
					ci := v.Column()
					g := &gots[ci]
					g.def = append(g.def, uint8(v.DefinitionLevel()))
					g.rep = append(g.rep, uint8(v.RepetitionLevel()))
					if v.IsNull() {
						continue
					}
					switch v.Kind() {
					case pq.Boolean:
						b := []byte{0}
						if v.Boolean() {
							b[0] = 1
						}
						g.vals = append(g.vals, b)
					case pq.Int32:
						g.vals = append(g.vals, le32(uint32(v.Int32())))
					case pq.Int64:
						g.vals = append(g.vals, le64(uint64(v.Int64())))
					case pq.Float:
						g.vals = append(g.vals, le32(math.Float32bits(v.Float())))
					case pq.Double:
						g.vals = append(g.vals, le64(math.Float64bits(v.Double())))
					default:
						g.vals = append(g.vals, append([]byte{}, v.ByteArray()...))
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
	for ci := 0; ci < numCols; ci++ {
		if ci == cB && c.rleBool {
			continue
		}
		compareColumn(t, "parquet-go", ci, ds, &gots[ci], maxDefs[ci] > 0, ci == cTags)
	}
}

func checkOwnReader(t *testing.T, c config, data []byte, ds *dataset) {
	r, err := runtime.NewFileReader(bytes.NewReader(data), int64(len(data)), runtime.WithCRCCheck(true))
	if err != nil {
		t.Fatalf("pqgen: %v", err)
	}
	// Every page carries a CRC exactly when asked (parquet-go and our
	// reader verify them).
	for _, rg := range r.File().Meta.RowGroups {
		for _, cc := range rg.Columns {
			off := cc.MetaData.DataPageOffset
			if cc.MetaData.DictionaryPageOffset.Set {
				off = cc.MetaData.DictionaryPageOffset.Val
			}
			h, _, err := meta.DecodePageHeader(data[off:], nil)
			if err != nil {
				t.Fatal(err)
			}
			if h.CRC.Set != c.crc {
				t.Fatalf("pqgen: page CRC set = %v, want %v", h.CRC.Set, c.crc)
			}
		}
	}
	for ci := 0; ci < numCols; ci++ {
		var g got
		add := func(lv runtime.Levels) {
			g.def = append(g.def, lv.Def...)
			g.rep = append(g.rep, lv.Rep...)
		}
		var rerr error
		switch ci {
		case cID, cTags:
			cr, err := r.Int64Reader(ci)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, rerr = cr.ReadRows(333)
				if rerr != nil {
					break
				}
				add(cr.Levels)
				for _, v := range cr.Values {
					g.vals = append(g.vals, le64(uint64(v)))
				}
			}
		case cI32, cU32:
			cr, err := r.Int32Reader(ci)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, rerr = cr.ReadRows(333)
				if rerr != nil {
					break
				}
				add(cr.Levels)
				for _, v := range cr.Values {
					g.vals = append(g.vals, le32(uint32(v)))
				}
			}
		case cD:
			cr, err := r.DoubleReader(ci)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, rerr = cr.ReadRows(333)
				if rerr != nil {
					break
				}
				add(cr.Levels)
				for _, v := range cr.Values {
					g.vals = append(g.vals, le64(math.Float64bits(v)))
				}
			}
		case cF:
			cr, err := r.FloatReader(ci)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, rerr = cr.ReadRows(333)
				if rerr != nil {
					break
				}
				add(cr.Levels)
				for _, v := range cr.Values {
					g.vals = append(g.vals, le32(math.Float32bits(v)))
				}
			}
		case cB:
			cr, err := r.BoolReader(ci)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, rerr = cr.ReadRows(333)
				if rerr != nil {
					break
				}
				add(cr.Levels)
				for _, v := range cr.Values {
					b := []byte{0}
					if v {
						b[0] = 1
					}
					g.vals = append(g.vals, b)
				}
			}
		case cName, cDec:
			cr, err := r.ByteArrayReader(ci)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, rerr = cr.ReadRows(333)
				if rerr != nil {
					break
				}
				add(cr.Levels)
				for i := 0; i < cr.Values.Len(); i++ {
					g.vals = append(g.vals, append([]byte{}, cr.Values.At(i)...))
				}
			}
		case cFx:
			cr, err := r.FixedReader(ci)
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, rerr = cr.ReadRows(333)
				if rerr != nil {
					break
				}
				add(cr.Levels)
				for i := 0; i+4 <= len(cr.Values); i += 4 {
					g.vals = append(g.vals, append([]byte{}, cr.Values[i:i+4]...))
				}
			}
		}
		if rerr != nil && rerr.Error() != "EOF" {
			t.Fatalf("pqgen: column %d: %v", ci, rerr)
		}
		compareColumn(t, "pqgen", ci, ds, &g, maxDefs[ci] > 0, ci == cTags)
	}
	if !c.pageIx {
		return
	}
	for rg := range r.File().Meta.RowGroups {
		for ci := 0; ci < numCols; ci++ {
			oi, err := r.OffsetIndex(rg, ci)
			if err != nil || oi == nil {
				t.Fatalf("pqgen: rg %d col %d: offset index: %v", rg, ci, err)
			}
		}
	}
}
