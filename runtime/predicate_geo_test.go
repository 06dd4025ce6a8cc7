package runtime

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/geo"
)

// TestFilterIntersects checks Intersects on GEOMETRY (pruned by the row
// groups' bounding boxes) and GEOGRAPHY (boxes wrapping the antimeridian)
// against the rows' own bounding boxes, with nulls and a malformed value.
func TestFilterIntersects(t *testing.T) {
	type grow struct {
		wkb                    []byte // nil: null
		xmin, xmax, ymin, ymax float64
		valid                  bool
	}
	r := newRand(77)
	const n = 4000
	rows := make([]grow, n)
	for i := range rows {
		g := &rows[i]
		x := -180 + 360*float64(i)/n // sorted by x: row groups have narrow boxes
		switch r.IntN(8) {
		case 0:
			continue // null
		case 1:
			x2, y2 := x+r.Float64()*3, r.Float64()*180-90
			y1 := r.Float64()*180 - 90
			g.wkb = geo.AppendLineString(nil, [][2]float64{{x, y1}, {min(x2, 180), y2}})
			g.xmin, g.xmax, g.ymin, g.ymax = x, min(x2, 180), min(y1, y2), max(y1, y2)
		default:
			y := r.Float64()*180 - 90
			g.wkb = geo.AppendPoint(nil, x, y)
			g.xmin, g.xmax, g.ymin, g.ymax = x, x, y, y
		}
		g.valid = true
	}
	rows[1234] = grow{wkb: []byte{1, 2, 3}} // not WKB (other writers' files hold such): meets nothing
	checkValuesOn = false
	defer func() { checkValuesOn = true }()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message g { required int64 idx; optional binary geom (GEOMETRY); optional binary geog (GEOGRAPHY); }"),
		WithRowGroupSize(16<<10), WithPageRowLimit(100))
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < n; start += 100 {
		c0, _ := w.Int64Buffer(0)
		c1, _ := w.ByteArrayBuffer(1)
		c2, _ := w.ByteArrayBuffer(2)
		for i := start; i < start+100; i++ {
			c0.Values = append(c0.Values, int64(i))
			for _, c := range []*ByteArrayBuffer{c1, c2} {
				if rows[i].wkb == nil {
					c.Def = append(c.Def, 0)
				} else {
					c.Def = append(c.Def, 1)
					c.Values.Append(rows[i].wkb)
				}
			}
		}
		if err := w.EndRows(100); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	put := func(b *ByteArrayBuffer, v []byte) error { b.Values.Append(v); return nil }
	geom, geog := NewNullableGeoField("geom", put), NewNullableGeoField("geog", put)
	meets := func(g grow, b Box) bool {
		if !g.valid {
			return false
		}
		xOK := false
		if b.Xmin <= b.Xmax {
			xOK = g.xmin <= b.Xmax && b.Xmin <= g.xmax
		} else { // wraps: [Xmin, +inf) or (-inf, Xmax]
			xOK = g.xmax >= b.Xmin || g.xmin <= b.Xmax
		}
		return xOK && g.ymin <= b.Ymax && b.Ymin <= g.ymax
	}
	boxes := []Box{{-10, 10, -20, 20}, {100, 101, -90, 90}, {170, -170, -45, 45}, {179.5, -179.5, -90, 90}, {-200, -190, 0, 1}, {0, 0, -90, 90}}
	for _, b := range boxes {
		for _, f := range []NullableGeoField[[]byte]{geom, geog} {
			var want []int64
			for i, g := range rows {
				if meets(g, b) {
					want = append(want, int64(i))
				}
			}
			cr := &countingReaderAt{r: bytes.NewReader(data)}
			fr, err := NewFileReader(cr, int64(len(data)), WithFilter(f.Intersects(b)))
			if err != nil {
				t.Fatal(err)
			}
			idx, _ := fr.Int64Reader(0)
			var got []int64
			for {
				if _, err := idx.ReadRows(500); err != nil {
					break
				}
				got = append(got, idx.Values...)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: %d rows, want %d", f.Intersects(b), len(got), len(want))
			}
			if f.path == "geom" && b.Xmin < b.Xmax && b.Xmax-b.Xmin < 30 && cr.n > int64(len(data))/3 {
				t.Errorf("%s read %d of %d bytes: the row groups' boxes did not prune", f.Intersects(b), cr.n, len(data))
			}
		}
	}
	if s := geom.Intersects(Box{1, 2, 3, 4}).String(); s != "geom intersects [1, 2]x[3, 4]" {
		t.Errorf("String: %s", s)
	}
}

// TestSpanMeetsNoAlloc: spanMeets runs once per row of an Intersects filter.
func TestSpanMeetsNoAlloc(t *testing.T) {
	if !spanMeets(170, -170, 175, 179) || spanMeets(170, -170, 0, 10) || !spanMeets(0, 10, 5, -5) {
		t.Fatal("spanMeets: wrong answer on wrapping spans")
	}
	if n := testing.AllocsPerRun(100, func() { spanMeets(170, -170, -175, 179) }); n != 0 {
		t.Errorf("spanMeets: %v allocations", n)
	}
}

// TestGeoRowMatcherNoAlloc: Intersects evaluates each row's WKB without
// allocating, and matches the boxes it should.
func TestGeoRowMatcherNoAlloc(t *testing.T) {
	point := func(x, y float64) []byte {
		b := []byte{1, 1, 0, 0, 0}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(y))
	}
	var ba encode.ByteArrays
	ba.Append(point(1, 1))
	ba.Append(point(50, 50))
	ba.Append([]byte{9}) // not WKB: no match
	cd := &colBatch{n: 3, ba: &ba}
	m := geoRowMatcher(&Box{Xmin: 0, Xmax: 10, Ymin: 0, Ymax: 10})
	out := make([]bool, 3)
	m(cd, out)
	if !slices.Equal(out, []bool{true, false, false}) {
		t.Fatalf("matches: %v", out)
	}
	// Valid WKB costs nothing (a malformed value's error allocates).
	cd.n = 2
	if n := testing.AllocsPerRun(100, func() { m(cd, out) }); n != 0 {
		t.Errorf("Intersects: %v allocations per batch of 2 rows", n)
	}
}
