package interop

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/schema"
)

// randomWKB returns a random point, line string or polygon, 2D or with
// Z, M or both, little- or big-endian, and the extremes of its
// coordinates it contributes (x, y, z, m spans).
func randomWKB(r *rand.Rand) []byte {
	var o binary.AppendByteOrder = binary.LittleEndian
	b := []byte{1}
	if r.IntN(2) == 0 {
		o, b = binary.BigEndian, []byte{0}
	}
	kind := uint32(1 + r.IntN(3))
	dims := uint32(r.IntN(4)) // 0 XY, 1 Z, 2 M, 3 ZM
	b = o.AppendUint32(b, kind+1000*dims)
	nd := 2 + map[uint32]int{0: 0, 1: 1, 2: 1, 3: 2}[dims]
	pts := func(n int) {
		for range n {
			for range nd {
				b = o.AppendUint64(b, math.Float64bits(math.Round(r.NormFloat64()*1000)/8))
			}
		}
	}
	switch kind {
	case 1:
		pts(1)
	case 2:
		n := 2 + r.IntN(4)
		b = o.AppendUint32(b, uint32(n))
		pts(n)
	case 3:
		b = o.AppendUint32(b, 1)
		n := 4 + r.IntN(3)
		b = o.AppendUint32(b, uint32(n))
		pts(n)
	}
	return b
}

// TestDuckDBGeoStats: DuckDB's parquet_metadata shows, for every row group
// of a GEOMETRY column we wrote, the bounding box and types that an
// independent computation over the same WKB (in this test) gives.
func TestDuckDBGeoStats(t *testing.T) {
	needNode(t)
	r := rand.New(rand.NewPCG(11, 12))
	s, err := schema.Parse(`message m { optional binary g (GEOMETRY); }`)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	fw, err := runtime.NewFileWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := fw.ByteArrayBuffer(0)
	type box struct {
		min, max [4]float64
		set      [4]bool
		types    map[string]bool
	}
	names := []string{"point", "linestring", "polygon"}
	suffix := []string{"", "_z", "_m", "_zm"}
	var boxes []box
	for range 4 { // row groups
		bx := box{types: map[string]bool{}}
		for range 300 {
			if r.IntN(5) == 0 {
				g.Def = append(g.Def, 0)
				continue
			}
			w := randomWKB(r)
			g.Def = append(g.Def, 1)
			g.Values.Append(w)
			// Decode the coordinates again here, independently of runtime/geo.
			var o binary.ByteOrder = binary.LittleEndian
			if w[0] == 0 {
				o = binary.BigEndian
			}
			code := o.Uint32(w[1:])
			kind, dims := code%1000, code/1000
			bx.types[names[kind-1]+suffix[dims]] = true
			nd := 2 + map[uint32]int{0: 0, 1: 1, 2: 1, 3: 2}[dims]
			axis := []int{0, 1, 2, 3}[:nd]
			if dims == 2 {
				axis = []int{0, 1, 3}
			}
			p := 5
			if kind == 2 {
				p += 4
			} else if kind == 3 {
				p += 8
			}
			for i := 0; p < len(w); i, p = i+1, p+8 {
				v := math.Float64frombits(o.Uint64(w[p:]))
				a := axis[i%nd]
				if !bx.set[a] || v < bx.min[a] {
					bx.min[a] = v
				}
				if !bx.set[a] || v > bx.max[a] {
					bx.max[a] = v
				}
				bx.set[a] = true
			}
		}
		if err := fw.EndRows(300); err != nil {
			t.Fatal(err)
		}
		if err := fw.Flush(); err != nil {
			t.Fatal(err)
		}
		boxes = append(boxes, bx)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "geo.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runJS(t, "duckdb_meta.mjs", path)[path]
	if out == nil || out.Err != "" || len(out.Rows) != len(boxes) {
		t.Fatalf("DuckDB: %+v", out)
	}
	for i, raw := range out.Rows {
		var m struct {
			BBox  map[string]*float64 `json:"geo_bbox"`
			Types []string            `json:"geo_types"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		bx := boxes[i]
		for a, name := range []string{"x", "y", "z", "m"} {
			lo, hi := m.BBox[name+"min"], m.BBox[name+"max"]
			if !bx.set[a] {
				if lo != nil || hi != nil {
					t.Errorf("row group %d: %s bounds %v %v where no value has %s", i, name, lo, hi, name)
				}
				continue
			}
			if lo == nil || hi == nil || *lo != bx.min[a] || *hi != bx.max[a] {
				t.Errorf("row group %d: %s bounds %v..%v, want %v..%v", i, name, lo, hi, bx.min[a], bx.max[a])
			}
		}
		var want []string
		for k := range bx.types {
			want = append(want, k)
		}
		slices.Sort(want)
		got := slices.Clone(m.Types)
		slices.Sort(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("row group %d: types %v, want %v", i, got, want)
		}
	}
}
