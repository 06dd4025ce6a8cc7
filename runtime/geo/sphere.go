// Bounding boxes of GEOGRAPHY values under the SPHERICAL edge
// interpolation ("Geospatial Definitions",
// https://github.com/apache/parquet-format/blob/master/Geospatial.md):
// an edge is the shorter great-circle arc between its vertices, so it can
// reach latitudes beyond theirs, and a box may wrap across the
// antimeridian (xmin > xmax).

package geo

import (
	"math"
	"slices"

	"github.com/pqgen/pqgen/runtime/meta"
)

// maxLonIntervals bounds the disjoint longitude intervals a sphere keeps;
// past it the two closest are joined (the box stays covering, and grows
// by at most the smallest gap).
const maxLonIntervals = 256

// latPad widens latitudes computed from an arc's vertex (not given
// coordinates) to absorb the rounding of the computation (degrees).
const latPad = 1e-9

// lonInterval is a closed longitude interval, lo <= hi, within
// [-180, 180].
type lonInterval struct{ lo, hi float64 }

// sphere accumulates the spherical box of geographies.
type sphere struct {
	lons    []lonInterval // sorted, disjoint
	allLon  bool          // every longitude is covered
	lat     span
	invalid bool // a coordinate outside [-180, 180] x [-90, 90]: no box

	// The chain of the line string or ring being scanned.
	prev     [2]float64
	hasPrev  bool
	wind     float64 // signed longitude travelled along the ring
	ringLat  float64 // sum of the ring's vertex latitudes
	ringSize int
}

func (s *sphere) reset() {
	*s = sphere{lons: s.lons[:0]}
}

// startChain starts a line string or ring.
func (s *sphere) startChain() {
	s.hasPrev, s.wind, s.ringLat, s.ringSize = false, 0, 0, 0
}

// add adds a vertex and the edge from the previous one of its chain.
// A vertex with a NaN coordinate is skipped and breaks the chain.
func (s *sphere) add(x, y float64) {
	if math.IsNaN(x) || math.IsNaN(y) {
		s.hasPrev = false
		return
	}
	if x < -180 || x > 180 || y < -90 || y > 90 {
		s.invalid = true
		return
	}
	s.lat.add(y)
	if math.Abs(y) != 90 { // a pole's longitude says nothing
		s.addLon(x, x)
	}
	if s.hasPrev {
		s.edge(s.prev, [2]float64{x, y})
		if math.Abs(s.prev[1]) != 90 && math.Abs(y) != 90 {
			s.wind += lonDelta(s.prev[0], x)
		}
	}
	s.ringLat += y
	s.ringSize++
	s.prev, s.hasPrev = [2]float64{x, y}, true
}

// endRing closes a polygon ring: a ring that winds around a pole encloses
// the pole on the side of its mean latitude, so the box reaches that pole
// and spans every longitude.
func (s *sphere) endRing() {
	if math.Abs(s.wind) > 180 && s.ringSize > 0 {
		s.allLon = true
		if s.ringLat >= 0 {
			s.lat.add(90)
		} else {
			s.lat.add(-90)
		}
	}
	s.hasPrev = false
}

// lonDelta returns b - a brought into (-180, 180].
func lonDelta(a, b float64) float64 {
	d := b - a
	for d > 180 {
		d -= 360
	}
	for d <= -180 {
		d += 360
	}
	return d
}

// edge adds the shorter great-circle arc from p to q (lon, lat degrees).
func (s *sphere) edge(p, q [2]float64) {
	if p == q {
		return
	}
	// From or to a pole: the arc follows the other vertex's meridian.
	if math.Abs(p[1]) == 90 || math.Abs(q[1]) == 90 {
		return
	}
	d := lonDelta(p[0], q[0])
	if d == 180 {
		// On one meridian circle: over the pole on the side of the
		// vertices (the arc follows their two meridians), or antipodal.
		switch {
		case p[1]+q[1] > 0:
			s.lat.add(90)
		case p[1]+q[1] < 0:
			s.lat.add(-90)
		default:
			s.antipodal()
		}
		return
	}
	a, b := unitVector(p), unitVector(q)
	// n = a x b, computed as (b + a) x (b - a) / 2, which keeps its
	// direction accurate for nearly antipodal or nearly equal vertices.
	n := cross(add3(b, a), sub3(b, a))
	nn := math.Sqrt(dot(n, n))
	if nn < 1e-15 {
		if dot(a, b) < 0 {
			s.antipodal()
		}
		return
	}
	// The arc spans the longitudes between its vertices the shorter way.
	if d > 0 {
		s.addLon(p[0], p[0]+d)
	} else if d < 0 {
		s.addLon(q[0], q[0]-d)
	}
	// Its latitude is extreme at the highest and lowest points of the
	// great circle, when they lie on the arc.
	h := math.Hypot(n[0], n[1])
	if h == 0 {
		return // the equator
	}
	top := [3]float64{-n[2] * n[0], -n[2] * n[1], h * h}
	for _, v := range [2][3]float64{top, {-top[0], -top[1], -top[2]}} {
		if dot(cross(a, v), n) >= 0 && dot(cross(v, b), n) >= 0 {
			lat := math.Asin(max(-1, min(1, v[2]/math.Sqrt(dot(v, v))))) * 180 / math.Pi
			s.lat.add(max(-90, min(90, lat+math.Copysign(latPad, lat))))
		}
	}
}

// antipodal records an edge between antipodal vertices: every great
// circle through them is an edge, so the box is the whole sphere.
func (s *sphere) antipodal() {
	s.allLon = true
	s.lat.add(-90)
	s.lat.add(90)
}

// addLon adds the interval [lo, hi] (hi may pass 180: it wraps).
func (s *sphere) addLon(lo, hi float64) {
	if s.allLon {
		return
	}
	if hi > 180 {
		s.addLon(lo, 180)
		s.addLon(-180, hi-360)
		return
	}
	i, _ := slices.BinarySearchFunc(s.lons, lo, func(iv lonInterval, x float64) int {
		switch {
		case iv.hi < x:
			return -1
		case iv.hi > x:
			return 1
		}
		return 0
	})
	// s.lons[i:] end at or after lo: merge those that start by hi.
	j := i
	for j < len(s.lons) && s.lons[j].lo <= hi {
		lo, hi = min(lo, s.lons[j].lo), max(hi, s.lons[j].hi)
		j++
	}
	s.lons = slices.Replace(s.lons, i, j, lonInterval{lo, hi})
	if len(s.lons) > maxLonIntervals {
		k := 0
		for m := 1; m+1 < len(s.lons); m++ {
			if s.lons[m+1].lo-s.lons[m].hi < s.lons[k+1].lo-s.lons[k].hi {
				k = m
			}
		}
		s.lons = slices.Replace(s.lons, k, k+2, lonInterval{s.lons[k].lo, s.lons[k+1].hi})
	}
}

// merge adds o's box.
func (s *sphere) merge(o *sphere) {
	s.invalid = s.invalid || o.invalid
	s.lat.merge(o.lat)
	if o.allLon {
		s.allLon = true
	}
	for _, iv := range o.lons {
		s.addLon(iv.lo, iv.hi)
	}
}

// box returns the smallest longitude range covering the intervals: the
// complement of the largest gap between them on the circle. xmin > xmax
// when the range crosses the antimeridian.
func (s *sphere) box() (xmin, xmax float64, ok bool) {
	if s.allLon {
		return -180, 180, true
	}
	if len(s.lons) == 0 {
		// Poles only (or nothing: the caller checks the latitudes): a
		// pole has every longitude.
		return -180, 180, true
	}
	last := len(s.lons) - 1
	// The gap across the antimeridian, then those between intervals.
	gap := s.lons[0].lo + 360 - s.lons[last].hi
	xmin, xmax = s.lons[0].lo, s.lons[last].hi
	for i := range last {
		if g := s.lons[i+1].lo - s.lons[i].hi; g > gap {
			gap, xmin, xmax = g, s.lons[i+1].lo, s.lons[i].hi
		}
	}
	return xmin, xmax, true
}

func unitVector(p [2]float64) [3]float64 {
	lon, lat := p[0]*math.Pi/180, p[1]*math.Pi/180
	return [3]float64{math.Cos(lat) * math.Cos(lon), math.Cos(lat) * math.Sin(lon), math.Sin(lat)}
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func add3(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func sub3(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// BoxWraps reports whether b crosses the antimeridian (xmin > xmax).
func BoxWraps(b *meta.BoundingBox) bool { return b.Xmin > b.Xmax }

// BoxContains reports whether the box b holds the point (x, y), reading a
// wrapped box (xmin > xmax) as x >= xmin or x <= xmax.
func BoxContains(b *meta.BoundingBox, x, y float64) bool {
	if y < b.Ymin || y > b.Ymax {
		return false
	}
	if BoxWraps(b) {
		return x >= b.Xmin || x <= b.Xmax
	}
	return x >= b.Xmin && x <= b.Xmax
}
