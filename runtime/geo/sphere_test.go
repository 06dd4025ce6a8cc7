package geo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// shape is a test geography: line strings (chains of edges) or polygon
// rings.
type shape struct {
	lines   [][][2]float64
	polygon bool
	// pole is the pole (90 or -90) a polygon ring winding around it
	// encloses, 0 for none.
	pole float64
}

func (s shape) wkb() []byte {
	if s.polygon {
		return AppendPolygon(nil, s.lines)
	}
	if len(s.lines) == 1 {
		return AppendLineString(nil, s.lines[0])
	}
	b := []byte{1, MultiLineString, 0, 0, 0, byte(len(s.lines)), 0, 0, 0}
	for _, l := range s.lines {
		b = AppendLineString(b, l)
	}
	return b
}

// sampleEdge returns points of the shorter great-circle arc from p to q,
// by rotating p towards q in their plane, as (lon, lat) degrees: k+1
// evenly spaced, then more between neighbours whose longitudes differ by
// more than maxLonStep (near a pole the longitude sweeps fast); nil for
// antipodal vertices.
func sampleEdge(p, q [2]float64, k int) [][2]float64 {
	a, b := unitVector(p), unitVector(q)
	n := cross(add3(b, a), sub3(b, a))
	nn := math.Sqrt(dot(n, n))
	if nn < 1e-15 {
		if dot(a, b) < 0 {
			return nil
		}
		return [][2]float64{p, q}
	}
	for i := range n {
		n[i] /= nn
	}
	u := cross(n, a) // in the plane, 90 degrees from a towards b
	theta := math.Atan2(nn/2, dot(a, b))
	at := func(t float64) [2]float64 {
		c := [3]float64{math.Cos(t)*a[0] + math.Sin(t)*u[0], math.Cos(t)*a[1] + math.Sin(t)*u[1], math.Cos(t)*a[2] + math.Sin(t)*u[2]}
		return [2]float64{math.Atan2(c[1], c[0]) * 180 / math.Pi, math.Asin(max(-1, min(1, c[2]))) * 180 / math.Pi}
	}
	var out [][2]float64
	var refine func(t0, t1 float64, p0, p1 [2]float64, depth int)
	refine = func(t0, t1 float64, p0, p1 [2]float64, depth int) {
		if depth == 0 || math.Abs(lonDelta(p0[0], p1[0])) <= maxLonStep || math.Abs(p0[1]) > 90-1e-7 || math.Abs(p1[1]) > 90-1e-7 {
			out = append(out, p1)
			return
		}
		tm := (t0 + t1) / 2
		pm := at(tm)
		refine(t0, tm, p0, pm, depth-1)
		refine(tm, t1, pm, p1, depth-1)
	}
	prev := at(0)
	out = append(out, prev)
	for i := 1; i <= k; i++ {
		t0, t1 := theta*float64(i-1)/float64(k), theta*float64(i)/float64(k)
		p1 := at(t1)
		refine(t0, t1, prev, p1, 40)
		prev = p1
	}
	return out
}

// maxLonStep is the longitude resolution of sampleEdge (degrees).
const maxLonStep = 0.01

// bruteBox samples every edge of the shapes densely and returns the
// smallest box of the samples (the largest longitude gap between them
// left out) and whether an edge was antipodal.
func bruteBox(shapes []shape, k int) (box meta.BoundingBox, samples [][2]float64, full bool) {
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, s := range shapes {
		for _, l := range s.lines {
			samples = append(samples, l...)
			for i := 1; i < len(l); i++ {
				e := sampleEdge(l[i-1], l[i], k)
				if e == nil && l[i-1] != l[i] {
					full = true
				}
				samples = append(samples, e...)
			}
		}
		if s.pole != 0 {
			samples = append(samples, [2]float64{0, s.pole})
		}
	}
	var lons []float64
	for _, p := range samples {
		ymin, ymax = min(ymin, p[1]), max(ymax, p[1])
		if math.Abs(p[1]) < 90-1e-7 {
			lons = append(lons, p[0])
		}
	}
	slices.Sort(lons)
	box = meta.BoundingBox{Xmin: lons[0], Xmax: lons[len(lons)-1], Ymin: ymin, Ymax: ymax}
	gap := lons[0] + 360 - lons[len(lons)-1]
	for i := 1; i < len(lons); i++ {
		if g := lons[i] - lons[i-1]; g > gap {
			gap, box.Xmin, box.Xmax = g, lons[i], lons[i-1]
		}
	}
	return box, samples, full
}

// lonWidth is the longitude extent of a box, wrapped or not.
func lonWidth(b *meta.BoundingBox) float64 {
	if b.Xmin > b.Xmax {
		return b.Xmax + 360 - b.Xmin
	}
	return b.Xmax - b.Xmin
}

// checkSphere compares the spherical box of shapes with brute force: it
// must hold every sample and be no larger than the samples' box by more
// than the sampling resolution.
func checkSphere(t *testing.T, name string, shapes []shape) {
	t.Helper()
	s := NewSphericalStats()
	for _, sh := range shapes {
		if err := s.Add(sh.wkb()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	g := s.Meta(true)
	if g == nil || g.BBox == nil {
		t.Fatalf("%s: no box", name)
	}
	got := g.BBox
	want, samples, full := bruteBox(shapes, 4000)
	const step = maxLonStep
	if full {
		if *got != (meta.BoundingBox{Xmin: -180, Xmax: 180, Ymin: -90, Ymax: 90}) {
			t.Errorf("%s: antipodal edge, box %+v, want the whole sphere", name, got)
		}
		return
	}
	const eps = 1e-9
	for _, p := range samples {
		in := p[1] >= got.Ymin-eps && p[1] <= got.Ymax+eps
		if math.Abs(p[1]) < 90-1e-7 { // a pole has every longitude
			x := p[0]
			lonIn := BoxContains(&meta.BoundingBox{Xmin: got.Xmin - eps, Xmax: got.Xmax + eps, Ymin: -90, Ymax: 90}, x, 0) ||
				BoxContains(&meta.BoundingBox{Xmin: got.Xmin - eps, Xmax: got.Xmax + eps, Ymin: -90, Ymax: 90}, x+360, 0) ||
				BoxContains(&meta.BoundingBox{Xmin: got.Xmin - eps, Xmax: got.Xmax + eps, Ymin: -90, Ymax: 90}, x-360, 0)
			in = in && (lonIn || got.Xmin == -180 && got.Xmax == 180)
		}
		if !in {
			t.Fatalf("%s: sample %v outside the box %+v", name, p, got)
		}
	}
	// Tight: the latitude extremes within what sampling can miss, the
	// longitude extent within the sampling step.
	tolLat := 1e-6
	if got.Ymax-want.Ymax > tolLat || want.Ymin-got.Ymin > tolLat {
		t.Errorf("%s: latitudes [%v, %v], samples reach [%v, %v]", name, got.Ymin, got.Ymax, want.Ymin, want.Ymax)
	}
	if w, ww := lonWidth(got), lonWidth(&want); w-ww > step+1e-9 && !(got.Xmin == -180 && got.Xmax == 180 && ww > 360-2*step-1e-9) {
		t.Errorf("%s: box %+v spans %v degrees of longitude, samples %+v span %v (step %v)", name, got, w, want, ww, step)
	}
}

func TestSphericalBoxAdversarial(t *testing.T) {
	cases := []struct {
		name   string
		shapes []shape
	}{
		{"equator", []shape{{lines: [][][2]float64{{{-10, 0}, {10, 0}}}}}},
		{"bulge north", []shape{{lines: [][][2]float64{{{-60, 45}, {60, 45}}}}}},
		{"bulge south", []shape{{lines: [][][2]float64{{{-60, -45}, {60, -45}}}}}},
		{"antimeridian", []shape{{lines: [][][2]float64{{{170, 10}, {-170, 20}}}}}},
		{"antimeridian both ways", []shape{{lines: [][][2]float64{{{179, -5}, {-179, 5}, {179, 15}}}}}},
		{"on the antimeridian", []shape{{lines: [][][2]float64{{{180, 10}, {-180, 20}, {-175, 25}}}}}},
		{"over the north pole", []shape{{lines: [][][2]float64{{{30, 60}, {-150, 70}}}}}},
		{"over the south pole", []shape{{lines: [][][2]float64{{{30, -60}, {-150, -70}}}}}},
		{"near the pole", []shape{{lines: [][][2]float64{{{0, 89}, {179, 89}}}}}},
		{"from the pole", []shape{{lines: [][][2]float64{{{0, 90}, {45, 10}, {50, -90}}}}}},
		{"polar cap", []shape{{polygon: true, pole: 90, lines: [][][2]float64{{{0, 80}, {90, 80}, {180, 80}, {-90, 80}, {0, 80}}}}}},
		{"south polar cap", []shape{{polygon: true, pole: -90, lines: [][][2]float64{{{0, -70}, {-120, -75}, {120, -72}, {0, -70}}}}}},
		{"near antipodal", []shape{{lines: [][][2]float64{{{0, 0}, {179.999, 0.001}}}}}},
		{"near antipodal tilted", []shape{{lines: [][][2]float64{{{10, 30}, {-170.0001, -29.9999}}}}}},
		{"antipodal", []shape{{lines: [][][2]float64{{{10, 30}, {-170, -30}}}}}},
		{"long diagonal", []shape{{lines: [][][2]float64{{{-100, -50}, {60, 40}}}}}},
		{"two clusters across", []shape{
			{lines: [][][2]float64{{{160, 0}, {175, 5}}}},
			{lines: [][][2]float64{{{-175, 0}, {-160, -5}}}},
		}},
		{"wide spread", []shape{
			{lines: [][][2]float64{{{-170, 0}, {-100, 5}}}},
			{lines: [][][2]float64{{{-20, 0}, {40, 5}}}},
			{lines: [][][2]float64{{{100, 0}, {150, 5}}}},
		}},
		{"triangle", []shape{{polygon: true, lines: [][][2]float64{{{0, 0}, {1, 0}, {0, 1}, {0, 0}}}}}},
		{"multi line", []shape{{lines: [][][2]float64{{{10, 10}, {20, 20}}, {{-30, -5}, {-40, 60}}}}}},
	}
	for _, c := range cases {
		checkSphere(t, c.name, c.shapes)
	}
}

func TestSphericalBoxRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	point := func(spread float64, c [2]float64) [2]float64 {
		lon := c[0] + (r.Float64()*2-1)*spread
		if lon > 180 {
			lon -= 360
		}
		if lon < -180 {
			lon += 360
		}
		lat := max(-89.9, min(89.9, c[1]+(r.Float64()*2-1)*spread/2))
		return [2]float64{lon, lat}
	}
	for i := range 60 {
		var shapes []shape
		spread := []float64{2, 20, 90, 180}[i%4]
		center := [2]float64{r.Float64()*360 - 180, r.Float64()*160 - 80}
		for range 1 + r.IntN(3) {
			var l [][2]float64
			for range 2 + r.IntN(4) {
				l = append(l, point(spread, center))
			}
			shapes = append(shapes, shape{lines: [][][2]float64{l}})
		}
		checkSphere(t, fmt.Sprintf("random %d (spread %v)", i, spread), shapes)
	}
}

// TestSphericalBoxMerge: merging the statistics of parts gives the box of
// the whole; an out-of-range coordinate leaves the box out.
func TestSphericalBoxMerge(t *testing.T) {
	a, b, all := NewSphericalStats(), NewSphericalStats(), NewSphericalStats()
	for i, l := range [][][2]float64{{{170, 0}, {175, 10}}, {{-175, 0}, {-170, -10}}, {{0, 50}, {5, 55}}} {
		w := AppendLineString(nil, l)
		_ = all.Add(w)
		if i%2 == 0 {
			_ = a.Add(w)
		} else {
			_ = b.Add(w)
		}
	}
	a.Merge(b)
	if got, want := a.Meta(true).BBox, all.Meta(true).BBox; *got != *want {
		t.Fatalf("merged %+v, whole %+v", got, want)
	}
	bad := NewSphericalStats()
	_ = bad.Add(AppendPoint(nil, 200, 0))
	if g := bad.Meta(true); g == nil || g.BBox != nil {
		t.Fatalf("out of range: %+v", g)
	}
	pole := NewSphericalStats()
	_ = pole.Add(AppendPoint(nil, 33, 90))
	if g := pole.Meta(true); g == nil || g.BBox == nil || *g.BBox != (meta.BoundingBox{Xmin: -180, Xmax: 180, Ymin: 90, Ymax: 90}) {
		t.Fatalf("a pole: %+v", g)
	}
	bad.Reset()
	_ = bad.Add(AppendPoint(nil, 20, 0))
	if g := bad.Meta(true); g == nil || g.BBox == nil || *g.BBox != (meta.BoundingBox{Xmin: 20, Xmax: 20}) {
		t.Fatalf("after Reset: %+v", g)
	}
}

// TestSphericalBoxManyPoints: past maxLonIntervals distinct longitudes
// the box stays covering and within the joined gaps.
func TestSphericalBoxManyPoints(t *testing.T) {
	s := NewSphericalStats()
	for i := range 1000 {
		_ = s.Add(AppendPoint(nil, -100+float64(i)*0.2, 0))
	}
	last := -100 + float64(999)*0.2
	if b := s.Meta(true).BBox; *b != (meta.BoundingBox{Xmin: -100, Xmax: last}) {
		t.Fatalf("%+v", b)
	}
}

func TestBoxContainsWrapped(t *testing.T) {
	b := &meta.BoundingBox{Xmin: 170, Xmax: -170, Ymin: -10, Ymax: 10}
	for _, c := range []struct {
		x, y float64
		in   bool
	}{{175, 0, true}, {-175, 0, true}, {180, 0, true}, {0, 0, false}, {175, 11, false}} {
		if got := BoxContains(b, c.x, c.y); got != c.in {
			t.Errorf("(%v, %v): %v, want %v", c.x, c.y, got, c.in)
		}
	}
	if !BoxWraps(b) || BoxWraps(&meta.BoundingBox{Xmin: -1, Xmax: 1}) {
		t.Error("BoxWraps")
	}
}

// FuzzSphericalStats: arbitrary bytes scanned as spherical GEOGRAPHY
// never panic, and a box, when given, lies within the canonical ranges
// and holds a geometry of one vertex.
func FuzzSphericalStats(f *testing.F) {
	f.Add(AppendLineString(nil, [][2]float64{{170, 10}, {-170, 20}}), AppendPoint(nil, 0, 90))
	f.Add(AppendPolygon(nil, [][][2]float64{{{0, 80}, {90, 80}, {180, 80}, {-90, 80}, {0, 80}}}), []byte{1, 2})
	f.Add(AppendLineString(nil, [][2]float64{{10, 30}, {-170, -30}, {math.NaN(), 0}}), AppendPoint(nil, 500, 0))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		s := NewSphericalStats()
		for _, w := range [][]byte{a, b} {
			one := NewSphericalStats()
			if one.Add(w) != nil {
				continue
			}
			_ = s.Add(w)
			g := one.Meta(true)
			if g == nil || g.BBox == nil {
				continue
			}
			bb := g.BBox
			if bb.Ymin < -90 || bb.Ymax > 90 || bb.Ymin > bb.Ymax || bb.Xmin < -180 || bb.Xmax > 180 {
				t.Fatalf("box %+v out of range", bb)
			}
			// A geometry of one vertex (not a pole, whose longitude says
			// nothing) lies in its box.
			var p Stats
			_ = p.Add(w)
			if p.x.set && p.y.set && p.x.min == p.x.max && p.y.min == p.y.max && math.Abs(p.y.min) != 90 && !BoxContains(bb, p.x.min, p.y.min) {
				t.Fatalf("point (%v, %v) outside %+v", p.x.min, p.y.min, bb)
			}
		}
		if g := s.Meta(true); g != nil && g.BBox != nil && (g.BBox.Ymin < -90 || g.BBox.Ymax > 90) {
			t.Fatalf("merged box %+v out of range", g.BBox)
		}
	})
}
