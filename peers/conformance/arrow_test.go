package conformance

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/peers/internal/arrowcol"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// readArrow reads leaf col of every row group with arrow-go.
func readArrow(path string, col int) (out *arrowcol.Leaf, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	l, err := arrowcol.Read(rdr, col, 512)
	if err != nil {
		return nil, err
	}
	return &l, nil
}

// readOurs reads leaf col of every row group with pqgen, batch rows at a
// time, each value rendered as arrowcol renders it.
func readOurs(fr *runtime.FileReader, col, batch int) (*arrowcol.Leaf, error) {
	out := &arrowcol.Leaf{}
	leaf := fr.File().Schema.Leaves[col]
	var (
		read func(int) (int, error)
		lv   *runtime.Levels
		get  func()
	)
	switch leaf.Type {
	case meta.Boolean:
		c, err := fr.BoolReader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for _, x := range c.Values {
				out.Vals = append(out.Vals, arrowcol.Bool(x))
			}
		}
	case meta.Int32:
		c, err := fr.Int32Reader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for _, x := range c.Values {
				out.Vals = append(out.Vals, arrowcol.Int(int64(x)))
			}
		}
	case meta.Int64:
		c, err := fr.Int64Reader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for _, x := range c.Values {
				out.Vals = append(out.Vals, arrowcol.Int(x))
			}
		}
	case meta.Int96:
		c, err := fr.Int96Reader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for _, x := range c.Values {
				out.Vals = append(out.Vals, string(x[:]))
			}
		}
	case meta.Float:
		c, err := fr.FloatReader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for _, x := range c.Values {
				out.Vals = append(out.Vals, arrowcol.Float32(x))
			}
		}
	case meta.Double:
		c, err := fr.DoubleReader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for _, x := range c.Values {
				out.Vals = append(out.Vals, arrowcol.Float64(x))
			}
		}
	case meta.ByteArray:
		c, err := fr.ByteArrayReader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for i := range c.Values.Len() {
				s := c.String(i)
				if s != string(c.Values.At(i)) {
					panic("String differs from Values.At")
				}
				out.Vals = append(out.Vals, s)
			}
		}
	case meta.FixedLenByteArray:
		c, err := fr.FixedReader(col)
		if err != nil {
			return nil, err
		}
		read, lv = c.ReadRows, &c.Levels
		get = func() {
			for i := 0; i+c.Size <= len(c.Values); i += c.Size {
				out.Vals = append(out.Vals, string(c.Values[i:i+c.Size]))
			}
		}
	}
	for {
		n, err := read(batch)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 || n > batch {
			return nil, fmt.Errorf("ReadRows(%d) = %d", batch, n)
		}
		for _, d := range lv.Def {
			out.Def = append(out.Def, int16(d))
		}
		for _, r := range lv.Rep {
			out.Rep = append(out.Rep, int16(r))
		}
		get()
	}
}

func diff(a, b *arrowcol.Leaf) string {
	cmp := func(what string, x, y []int16) string {
		if len(x) != len(y) {
			return fmt.Sprintf("%s: %d levels, arrow-go %d", what, len(x), len(y))
		}
		for i := range x {
			if x[i] != y[i] {
				return fmt.Sprintf("%s level %d: %d, arrow-go %d", what, i, x[i], y[i])
			}
		}
		return ""
	}
	if d := cmp("definition", a.Def, b.Def); d != "" {
		return d
	}
	if d := cmp("repetition", a.Rep, b.Rep); d != "" {
		return d
	}
	if len(a.Vals) != len(b.Vals) {
		return fmt.Sprintf("%d values, arrow-go %d", len(a.Vals), len(b.Vals))
	}
	for i := range a.Vals {
		if a.Vals[i] != b.Vals[i] {
			return fmt.Sprintf("value %d: %q, arrow-go %q", i, a.Vals[i], b.Vals[i])
		}
	}
	return ""
}

// expectedFailures are files pqgen must refuse (with the reason), whatever
// arrow-go does.
var expectedFailures = map[string]string{
	// 1 GiB dictionary page above the default 256 MiB page limit.
	"data/large_string_map.brotli.parquet/arr.key_value.key": "size limit exceeded",
}

// arrowFailures are the corpus files arrow-go fails on (every column, with
// this error), whose columns pqgen must still read; each is checked to
// still apply.
var arrowFailures = map[string]string{
	"data/datapage_v2_empty_datapage.snappy.parquet": "s2: corrupt input",
	"data/hadoop_lz4_compressed.parquet":             "compression for LZ4 unimplemented",
	"data/non_hadoop_lz4_compressed.parquet":         "compression for LZ4 unimplemented",
	"data/unknown-logical-type.parquet":              "invalid logical type",
}

// TestArrowConformance compares every column of every readable corpus
// file with arrow-go, reading ours in batches of several sizes.
func TestArrowConformance(t *testing.T) {
	files, cols, agreed := 0, 0, 0
	checked := map[string]bool{} // files arrowFailures was checked against
	for _, rel := range corpus.ParquetFiles(t) {
		if strings.HasSuffix(rel, ".encrypted") || strings.HasPrefix(rel, "bad_data/") {
			continue
		}
		path := corpus.Path(t, rel)
		t.Run(rel, func(t *testing.T) {
			fh, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			st, _ := fh.Stat()
			fr, err := runtime.NewFileReader(fh, st.Size(), runtime.WithCRCCheck(!strings.Contains(rel, "corrupt-checksum")))
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			files++
			for col, leaf := range fr.File().Schema.Leaves {
				name := leaf.PathString()
				cols++
				if want, ok := expectedFailures[rel+"/"+name]; ok {
					_, err := readOurs(fr, col, 1000)
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("column %s: error %v, want one containing %q", name, err, want)
					}
					continue
				}
				theirs, aerr := readArrow(path, col)
				aWant, aFails := arrowFailures[rel]
				checked[rel] = true
				switch {
				case aFails && aerr == nil:
					t.Errorf("column %s: arrow-go reads it now: remove the file from arrowFailures", name)
				case aerr != nil && (!aFails || !strings.Contains(aerr.Error(), aWant)):
					t.Errorf("column %s: arrow-go fails (%v); arrowFailures expects %q", name, aerr, aWant)
				}
				for _, batch := range []int{1, 7, 1000} {
					ours, err := readOurs(fr, col, batch)
					switch {
					case err != nil:
						t.Errorf("column %s (batch %d): %v (arrow-go error: %v)", name, batch, err, aerr)
					case aerr != nil:
						t.Logf("column %s: arrow-go fails (%v), pqgen reads %d values", name, aerr, len(ours.Vals))
					default:
						if d := diff(ours, theirs); d != "" {
							t.Errorf("column %s (batch %d): %s", name, batch, d)
						} else if batch == 1000 {
							agreed++
						}
					}
					if err != nil || aerr != nil {
						break
					}
				}
			}
		})
	}
	for rel := range arrowFailures {
		if !checked[rel] {
			t.Errorf("file %s of arrowFailures: no column of it was read with arrow-go (not in the corpus, or skipped)", rel)
		}
	}
	t.Logf("%d files, %d columns, %d columns identical to arrow-go", files, cols, agreed)
}
