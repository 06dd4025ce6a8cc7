package geo_test

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/meta"
)

// wkb builds WKB by hand: order byte, type code, then uint32 counts and
// float64 coordinates as given (counts as uint32, everything else as
// float64).
func wkb(big bool, code uint32, parts ...any) []byte {
	var o binary.AppendByteOrder = binary.LittleEndian
	b := []byte{1}
	if big {
		o, b = binary.BigEndian, []byte{0}
	}
	b = o.AppendUint32(b, code)
	for _, p := range parts {
		switch p := p.(type) {
		case uint32:
			b = o.AppendUint32(b, p)
		case float64:
			b = o.AppendUint64(b, math.Float64bits(p))
		case []byte:
			b = append(b, p...)
		}
	}
	return b
}

func opt(v float64) meta.Opt[float64] { return meta.Opt[float64]{Val: v, Set: true} }

func TestStats(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		in   [][]byte
		want *meta.GeospatialStatistics
	}{
		{"point", [][]byte{geo.AppendPoint(nil, 1, 2)},
			&meta.GeospatialStatistics{BBox: &meta.BoundingBox{Xmin: 1, Xmax: 1, Ymin: 2, Ymax: 2}, GeospatialTypes: []int32{1}}},
		{"linestring Z big-endian and polygon", [][]byte{
			wkb(true, 1002, uint32(2), 1.0, 2.0, 3.0, -1.0, 5.0, 9.0),
			geo.AppendPolygon(nil, [][][2]float64{{{0, 0}, {10, 0}, {10, -4}, {0, 0}}}),
		}, &meta.GeospatialStatistics{BBox: &meta.BoundingBox{Xmin: -1, Xmax: 10, Ymin: -4, Ymax: 5, Zmin: opt(3), Zmax: opt(9)}, GeospatialTypes: []int32{3, 1002}}},
		{"multipoint M inside a collection", [][]byte{
			wkb(false, 7, uint32(1), wkb(true, 2004, uint32(2), wkb(false, 2001, 7.0, 8.0, 100.0), wkb(true, 2001, 6.0, 9.0, -100.0))),
		}, &meta.GeospatialStatistics{BBox: &meta.BoundingBox{Xmin: 6, Xmax: 7, Ymin: 8, Ymax: 9, Mmin: opt(-100), Mmax: opt(100)}, GeospatialTypes: []int32{7}}},
		{"EWKB with SRID and Z flag", [][]byte{wkb(false, 0x80000000|0x20000000|1, uint32(4326), 1.0, 2.0, 3.0)},
			&meta.GeospatialStatistics{BBox: &meta.BoundingBox{Xmin: 1, Xmax: 1, Ymin: 2, Ymax: 2, Zmin: opt(3), Zmax: opt(3)}, GeospatialTypes: []int32{1001}}},
		{"POINT EMPTY and NaN Y: no box", [][]byte{geo.AppendPoint(nil, nan, nan), geo.AppendPoint(nil, 5, nan)},
			&meta.GeospatialStatistics{GeospatialTypes: []int32{1}}},
		{"nothing", nil, &meta.GeospatialStatistics{GeospatialTypes: []int32{}}},
	}
	for _, c := range cases {
		var s geo.Stats
		for _, b := range c.in {
			if err := s.Add(b); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if diff := cmp.Diff(c.want, s.Meta(true)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestMalformed(t *testing.T) {
	bad := map[string][]byte{
		"empty":          nil,
		"byte order":     {2, 1, 0, 0, 0},
		"type":           wkb(false, 8),
		"iso dimension":  wkb(false, 4001),
		"truncated":      geo.AppendPoint(nil, 1, 2)[:20],
		"trailing":       append(geo.AppendPoint(nil, 1, 2), 0),
		"huge count":     wkb(false, 2, uint32(0xffffffff)),
		"huge rings":     wkb(false, 3, uint32(0x7fffffff)),
		"huge parts":     wkb(false, 6, uint32(0x7fffffff)),
		"bad part":       wkb(false, 4, uint32(1), []byte{9}),
		"truncated SRID": {1, 1, 0, 0, 0x20},
	}
	deep := geo.AppendPoint(nil, 0, 0)
	for range geo.MaxDepth + 1 {
		deep = wkb(false, 7, uint32(1), deep)
	}
	bad["deep"] = deep
	for name, b := range bad {
		var s geo.Stats
		if err := s.Add(b); !errors.Is(err, geo.ErrWKB) {
			t.Errorf("%s: %v", name, err)
		}
		if s.Meta(true) != nil {
			t.Errorf("%s: statistics after malformed input", name)
		}
	}
}

// TestCorpusStats recomputes the statistics of every GEOMETRY and
// GEOGRAPHY chunk of data/geospatial from its values and compares them
// with those Arrow C++ wrote.
func TestCorpusStats(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(t), "data", "geospatial", "*.parquet"))
	if len(files) < 6 {
		t.Fatalf("%d geospatial files", len(files))
	}
	chunks := 0
	for _, path := range files {
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		f, err := runtime.OpenFile(fh, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		for _, leaf := range f.Schema.Leaves {
			k := leaf.Logical.Kind
			if k != meta.LogicalGeometry && k != meta.LogicalGeography {
				continue
			}
			fr, err := runtime.NewFileReader(fh, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			br, err := fr.ByteArrayReader(leaf.Column)
			if err != nil {
				t.Fatal(err)
			}
			for rg := range f.Meta.RowGroups {
				n := f.Meta.RowGroups[rg].NumRows
				got, err := br.ReadRows(int(n))
				if err != nil && err != io.EOF || int64(got) != n {
					t.Fatalf("%s: row group %d: %d rows, %v", path, rg, got, err)
				}
				var s geo.Stats
				for i := range br.Values.Len() {
					if err := s.Add(br.Values.At(i)); err != nil {
						t.Fatalf("%s: row group %d value %d: %v", path, rg, i, err)
					}
				}
				want := f.Meta.RowGroups[rg].Columns[leaf.Column].MetaData.GeospatialStatistics
				if want == nil {
					continue
				}
				chunks++
				ours := s.Meta(want.BBox != nil)
				if want.GeospatialTypes == nil {
					ours.GeospatialTypes = nil
				}
				if diff := cmp.Diff(want, ours); diff != "" {
					t.Errorf("%s: row group %d (-file +ours):\n%s", filepath.Base(path), rg, diff)
				}
			}
		}
		fh.Close()
	}
	if chunks < 30 {
		t.Fatalf("only %d chunks with statistics compared", chunks)
	}
}

func FuzzStats(f *testing.F) {
	f.Add(geo.AppendPoint(nil, 1, 2))
	f.Add(wkb(false, 7, uint32(1), wkb(true, 2004, uint32(1), wkb(false, 2001, 7.0, 8.0, 100.0))))
	f.Add(geo.AppendPolygon(nil, [][][2]float64{{{0, 0}, {1, 1}, {0, 0}}}))
	var scratch geo.Stats // reused across inputs, as the writer does
	f.Fuzz(func(t *testing.T, b []byte) {
		var s geo.Stats
		addErr := s.Add(b)
		// Check accepts exactly what Add accepts, whatever scratch held.
		if checkErr := geo.Check(b, &scratch); (checkErr == nil) != (addErr == nil) {
			t.Fatalf("Check: %v, Add: %v", checkErr, addErr)
		}
		if addErr != nil {
			return
		}
		m := s.Meta(true)
		if m == nil || len(m.GeospatialTypes) == 0 {
			t.Fatal("valid WKB without types")
		}
		if bb := m.BBox; bb != nil && (bb.Xmin > bb.Xmax || bb.Ymin > bb.Ymax || math.IsNaN(bb.Xmin) || math.IsNaN(bb.Ymax)) {
			t.Fatalf("bad box %+v", bb)
		}
	})
}

// TestAddAllocates: adding a geometry of a type already seen allocates
// nothing (the writer adds every value of a GEOMETRY column).
func TestAddAllocates(t *testing.T) {
	var s geo.Stats
	p := geo.AppendPolygon(nil, [][][2]float64{{{0, 0}, {1, 0}, {1, 1}, {0, 0}}})
	if err := s.Add(p); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.Add(p) }); n != 0 {
		t.Fatalf("%v allocations per Add", n)
	}
}
