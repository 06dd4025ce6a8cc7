package evolution

import (
	"bytes"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	pqrt "github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/schema"
)

const benchRows = 200_000

// benchFiles returns a BenchNarrow file and a BenchWide file of the same
// values.
func benchFiles(tb testing.TB) (narrow, wide []byte) {
	tb.Helper()
	var nr []BenchNarrow
	var wr []BenchWide
	for i := range benchRows {
		n := BenchNarrow{A: int32(i), B: int32(i * 7 % 1000), C: -int32(i), D: int32(i >> 3),
			F: float32(i) / 3, G: float32(i % 100), T: time.UnixMilli(int64(i) * 1001).UTC()}
		nr = append(nr, n)
		wr = append(wr, BenchWide{A: int64(n.A), B: int64(n.B), C: int64(n.C), D: int64(n.D), F: float64(n.F), G: float64(n.G), T: n.T})
	}
	return writeRows(tb, NewBenchNarrowWriter, nr), writeRows(tb, NewBenchWideWriter, wr)
}

// BenchmarkReadEvolved reads BenchWide rows from a file of BenchWide
// (no conversion) and from one of BenchNarrow (every column converted at
// decode time). The budget: converted at most 10% slower.
func BenchmarkReadEvolved(b *testing.B) {
	narrow, wide := benchFiles(b)
	goruntime.GC() // the rows of benchFiles are garbage now: collect them outside the timed loops
	for _, c := range []struct {
		name string
		data []byte
	}{{"same", wide}, {"converted", narrow}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]BenchWide, 4096)
			goruntime.GC()
			b.SetBytes(benchRows * 8 * 7)
			for b.Loop() {
				r, err := NewBenchWideReader(bytes.NewReader(c.data), int64(len(c.data)))
				if err != nil {
					b.Fatal(err)
				}
				total := 0
				for {
					n, err := r.Read(buf)
					total += n
					if err != nil {
						break
					}
				}
				if total != benchRows {
					b.Fatalf("%d rows", total)
				}
			}
		})
	}
}

// rangeReader records the byte ranges read through it.
type rangeReader struct {
	r      *bytes.Reader
	ranges [][2]int64
	total  int64
}

func (c *rangeReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.ranges = append(c.ranges, [2]int64{off, off + int64(n)})
	c.total += int64(n)
	return n, err
}

// TestExtraColumnsNotRead: a file with 50 columns Slim lacks reads no
// byte of those columns' chunks; the bytes read are the footer and the
// two chunks Slim binds.
func TestExtraColumnsNotRead(t *testing.T) {
	var text strings.Builder
	text.WriteString("message m {\n  required int64 id;\n")
	for k := range 25 {
		fmt.Fprintf(&text, "  required int64 x%d;\n  optional binary y%d (STRING);\n", k, k)
	}
	text.WriteString("  required binary name (STRING);\n}")
	s, err := schema.Parse(text.String())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	fw, err := pqrt.NewFileWriter(&buf, s, pqrt.WithRowGroupSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	for start := 0; start < n; start += 1000 {
		for c := range s.Leaves {
			switch c {
			case 0:
				b, _ := fw.Int64Buffer(c)
				for i := start; i < start+1000; i++ {
					b.Values = append(b.Values, int64(i))
				}
			case len(s.Leaves) - 1:
				b, _ := fw.ByteArrayBuffer(c)
				for i := start; i < start+1000; i++ {
					b.Values.AppendString(fmt.Sprint("name", i))
				}
			default:
				if c%2 == 1 {
					b, _ := fw.Int64Buffer(c)
					for i := start; i < start+1000; i++ {
						b.Values = append(b.Values, int64(i*c))
					}
				} else {
					b, _ := fw.ByteArrayBuffer(c)
					for i := start; i < start+1000; i++ {
						b.Def = append(b.Def, 1)
						b.Values.AppendString(strings.Repeat("y", i%13))
					}
				}
			}
		}
		if err := fw.EndRows(1000); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	rr := &rangeReader{r: bytes.NewReader(data)}
	r, err := NewSlimReader(rr, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got := readAll[Slim](t, r)
	if len(got) != n || got[n-1] != (Slim{ID: n - 1, Name: fmt.Sprint("name", n-1)}) {
		t.Fatalf("%d rows, last %+v", len(got), got[len(got)-1])
	}
	f, err := pqrt.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var extra, bound int64
	for g, rg := range f.Meta.RowGroups {
		for c, cc := range rg.Columns {
			md := cc.MetaData
			start := md.DataPageOffset
			if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 && d < start {
				start = d
			}
			end := start + md.TotalCompressedSize
			if c == 0 || c == len(s.Leaves)-1 {
				bound += md.TotalCompressedSize
				continue
			}
			extra += md.TotalCompressedSize
			for _, x := range rr.ranges {
				if x[0] < end && start < x[1] {
					t.Fatalf("row group %d, column %q: bytes [%d, %d) of its chunk [%d, %d) were read", g, s.Leaves[c].PathString(), x[0], x[1], start, end)
				}
			}
		}
	}
	footer := int64(len(data)) - f.FooterOffset
	t.Logf("file %d bytes; read %d: the 2 bound columns' chunks %d, footer %d; the 50 extra columns' chunks (%d bytes): 0",
		len(data), rr.total, bound, footer, extra)
	if rr.total > bound+footer+int64(len(pqrt.Magic))*2 {
		t.Errorf("read %d bytes, more than the bound chunks (%d) and the footer (%d)", rr.total, bound, footer)
	}
}
