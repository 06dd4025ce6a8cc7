package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestWriteGeoStats: GEOMETRY chunks get a bounding box and types,
// GEOGRAPHY chunks of spherical edges the box of their edges (here
// wrapped across the antimeridian), of other edges types only, a chunk
// holding bytes that are not WKB no geospatial statistics; each row group
// is summarised on its own.
func TestWriteGeoStats(t *testing.T) {
	// EndRows refuses bytes that are not WKB (TestWriteRefusesBadGeometry):
	// the statistics must still stay out should such bytes reach them.
	checkValuesOn = false
	defer func() { checkValuesOn = true }()
	const text = `message m {
  optional binary g (GEOMETRY);
  required binary h (GEOGRAPHY);
  optional binary bad (GEOMETRY);
  required binary k (GEOGRAPHY("OGC:CRS84",KARNEY));
}`
	f := writeOne(t, text, func(w *FileWriter) int {
		g, _ := w.ByteArrayBuffer(0)
		h, _ := w.ByteArrayBuffer(1)
		bad, _ := w.ByteArrayBuffer(2)
		k, _ := w.ByteArrayBuffer(3)
		k.Values.Append(geo.AppendPoint(nil, 1, 2))
		k.Values.Append(geo.AppendPoint(nil, 3, 4))
		k.Values.Append(geo.AppendPoint(nil, 5, 6))
		g.Def = append(g.Def, 1, 0, 1)
		g.Values.Append(geo.AppendPoint(nil, 3, -4))
		g.Values.Append(geo.AppendLineString(nil, [][2]float64{{-1, 2}, {5, 9}}))
		h.Values.Append(geo.AppendPoint(nil, 170, 10))
		h.Values.Append(geo.AppendPolygon(nil, [][][2]float64{{{0, 0}, {1, 0}, {0, 1}, {0, 0}}}))
		h.Values.Append(geo.AppendPoint(nil, -170, 10))
		bad.Def = append(bad.Def, 1, 1, 1)
		bad.Values.Append(geo.AppendPoint(nil, 0, 0))
		bad.Values.Append([]byte("not wkb"))
		bad.Values.Append(geo.AppendPoint(nil, 1, 1))
		return 3
	})
	cols := f.Meta.RowGroups[0].Columns
	want := &meta.GeospatialStatistics{BBox: &meta.BoundingBox{Xmin: -1, Xmax: 5, Ymin: -4, Ymax: 9}, GeospatialTypes: []int32{1, 2}}
	if diff := cmp.Diff(want, cols[0].MetaData.GeospatialStatistics); diff != "" {
		t.Errorf("GEOMETRY (-want +got):\n%s", diff)
	}
	// The longitudes 170, -170 and [0, 1]: the largest gap is (-170, 0),
	// so the box runs east from 0 across the antimeridian to -170.
	want = &meta.GeospatialStatistics{BBox: &meta.BoundingBox{Xmin: 0, Xmax: -170, Ymin: 0, Ymax: 10}, GeospatialTypes: []int32{1, 3}}
	if diff := cmp.Diff(want, cols[1].MetaData.GeospatialStatistics); diff != "" {
		t.Errorf("GEOGRAPHY (-want +got):\n%s", diff)
	}
	want = &meta.GeospatialStatistics{GeospatialTypes: []int32{1}}
	if diff := cmp.Diff(want, cols[3].MetaData.GeospatialStatistics); diff != "" {
		t.Errorf("GEOGRAPHY KARNEY (-want +got):\n%s", diff)
	}
	if g := cols[2].MetaData.GeospatialStatistics; g != nil {
		t.Errorf("malformed WKB chunk has statistics %+v", g)
	}
	if s := cols[0].MetaData.Statistics; s == nil || s.NullCount.Val != 1 || s.MinValue != nil {
		t.Errorf("GEOMETRY Statistics %+v: want a null count and no bounds", s)
	}

	// Two row groups: the second box covers only its own values.
	f = writeOne(t, `message m { required binary g (GEOMETRY); }`, func(w *FileWriter) int {
		g, _ := w.ByteArrayBuffer(0)
		g.Values.Append(geo.AppendPoint(nil, 100, 100))
		if err := w.EndRows(1); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		g.Values.Append(geo.AppendPoint(nil, 1, 2))
		return 1
	})
	if len(f.Meta.RowGroups) != 2 {
		t.Fatalf("%d row groups", len(f.Meta.RowGroups))
	}
	want = &meta.GeospatialStatistics{BBox: &meta.BoundingBox{Xmin: 1, Xmax: 1, Ymin: 2, Ymax: 2}, GeospatialTypes: []int32{1}}
	if diff := cmp.Diff(want, f.Meta.RowGroups[1].Columns[0].MetaData.GeospatialStatistics); diff != "" {
		t.Errorf("second row group (-want +got):\n%s", diff)
	}
}
