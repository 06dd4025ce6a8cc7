// WKB scanning and bounding boxes; the format is described in doc.go.

package geo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pqgen/pqgen/runtime/meta"
)

// ErrWKB reports bytes that are not a valid WKB geometry.
var ErrWKB = errors.New("geo: malformed WKB")

// MaxDepth bounds the nesting of collections.
const MaxDepth = 64

// Geometry type codes (2D); add 1000 for Z, 2000 for M, 3000 for ZM.
const (
	Point              = 1
	LineString         = 2
	Polygon            = 3
	MultiPoint         = 4
	MultiLineString    = 5
	MultiPolygon       = 6
	GeometryCollection = 7
)

// Stats accumulates the bounding box and type codes of geometries. The
// zero Stats is empty.
type Stats struct {
	x, y, z, m span
	types      []int32 // sorted, unique
	invalid    bool
	sph        *sphere // GEOGRAPHY with spherical edges (NewSphericalStats)
}

// NewSphericalStats returns empty statistics of GEOGRAPHY values whose
// edges are spherical (the SPHERICAL algorithm, the default): their box
// covers every edge, the shorter great-circle arc between its vertices,
// which may reach beyond the vertices' latitudes, and may wrap across the
// antimeridian (xmin > xmax). A coordinate outside [-180, 180] x
// [-90, 90] leaves the box out.
func NewSphericalStats() *Stats {
	return &Stats{sph: &sphere{}}
}

type span struct {
	min, max float64
	set      bool
}

func (s *span) add(v float64) {
	if math.IsNaN(v) {
		return
	}
	if !s.set {
		s.min, s.max, s.set = v, v, true
		return
	}
	s.min = min(s.min, v)
	s.max = max(s.max, v)
}

func (s *span) merge(o span) {
	if o.set {
		s.add(o.min)
		s.add(o.max)
	}
}

// Add scans one WKB geometry into the statistics. On malformed input it
// returns an error and marks the statistics invalid (Meta then returns
// nil): a column holding bytes that are not WKB has no bounding box.
// The geometry is scanned straight into s: what a malformed one added
// before its error is never reported.
func (s *Stats) Add(wkb []byte) error {
	n, err := s.scan(wkb, 0)
	if err == nil && n != len(wkb) {
		err = fmt.Errorf("%w: %d trailing bytes", ErrWKB, len(wkb)-n)
	}
	if err != nil {
		s.invalid = true
		return err
	}
	return nil
}

// Check returns an error wrapping ErrWKB when wkb is not one whole WKB
// geometry (the bytes Add accepts), without statistics. scratch holds the
// scanner's state between calls (its content is of no use); nil is fine.
func Check(wkb []byte, scratch *Stats) error {
	if scratch == nil {
		scratch = &Stats{}
	}
	scratch.Reset()
	scratch.sph = nil
	n, err := scratch.scan(wkb, 0)
	if err == nil && n != len(wkb) {
		err = fmt.Errorf("%w: %d trailing bytes", ErrWKB, len(wkb)-n)
	}
	return err
}

// Merge adds the statistics of o.
func (s *Stats) Merge(o *Stats) {
	s.invalid = s.invalid || o.invalid
	if s.sph != nil && o.sph != nil {
		s.sph.merge(o.sph)
	} else if s.sph != nil || o.sph != nil {
		s.invalid = true // planar and spherical boxes do not combine
	}
	s.x.merge(o.x)
	s.y.merge(o.y)
	s.z.merge(o.z)
	s.m.merge(o.m)
	for _, c := range o.types {
		s.addType(c)
	}
}

func (s *Stats) addType(c int32) {
	if i, ok := slices.BinarySearch(s.types, c); !ok {
		s.types = slices.Insert(s.types, i, c)
	}
}

// Reset empties the statistics, keeping their memory.
func (s *Stats) Reset() {
	sph := s.sph
	if sph != nil {
		sph.reset()
	}
	*s = Stats{types: s.types[:0], sph: sph}
}

// Meta returns the GeospatialStatistics of what was added, or nil when a
// geometry was malformed. withBox false leaves the bounding box out (the
// writer's choice for GEOGRAPHY of other than spherical edges, which are
// not straight in X/Y). The box is the one Box reports.
func (s *Stats) Meta(withBox bool) *meta.GeospatialStatistics {
	if s.invalid {
		return nil
	}
	g := &meta.GeospatialStatistics{GeospatialTypes: slices.Clone(s.types)}
	if g.GeospatialTypes == nil {
		g.GeospatialTypes = []int32{}
	}
	if b, ok := s.Box(); withBox && ok {
		g.BBox = &b
	}
	return g
}

// Box returns the bounding box of what was added, without allocating; ok
// is false when a geometry was malformed or X or Y has no value. Z and M
// are set only when they have a value. Spherical statistics give the box
// of the edges (see NewSphericalStats).
func (s *Stats) Box() (b meta.BoundingBox, ok bool) {
	if s.invalid {
		return b, false
	}
	b.Xmin, b.Xmax, b.Ymin, b.Ymax, ok = s.x.min, s.x.max, s.y.min, s.y.max, s.x.set && s.y.set
	if s.sph != nil {
		b.Xmin, b.Xmax, ok = s.sph.box()
		b.Ymin, b.Ymax = s.sph.lat.min, s.sph.lat.max
		ok = ok && s.sph.lat.set && !s.sph.invalid
	}
	if !ok {
		return meta.BoundingBox{}, false
	}
	if s.z.set {
		b.Zmin, b.Zmax = meta.Opt[float64]{Val: s.z.min, Set: true}, meta.Opt[float64]{Val: s.z.max, Set: true}
	}
	if s.m.set {
		b.Mmin, b.Mmax = meta.Opt[float64]{Val: s.m.min, Set: true}, meta.Opt[float64]{Val: s.m.max, Set: true}
	}
	return b, true
}

// header decodes the byte order and type of the geometry at b.
func header(b []byte) (order binary.ByteOrder, kind int, hasZ, hasM bool, n int, err error) {
	if len(b) < 5 {
		return nil, 0, false, false, 0, fmt.Errorf("%w: truncated header", ErrWKB)
	}
	switch b[0] {
	case 0:
		order = binary.BigEndian
	case 1:
		order = binary.LittleEndian
	default:
		return nil, 0, false, false, 0, fmt.Errorf("%w: byte order %d", ErrWKB, b[0])
	}
	code := order.Uint32(b[1:])
	n = 5
	if code&0x20000000 != 0 { // EWKB SRID
		if len(b) < 9 {
			return nil, 0, false, false, 0, fmt.Errorf("%w: truncated SRID", ErrWKB)
		}
		n = 9
	}
	hasZ = code&0x80000000 != 0
	hasM = code&0x40000000 != 0
	code &= 0x0fffffff
	iso := code / 1000
	kind = int(code % 1000)
	switch iso {
	case 0:
	case 1:
		hasZ = true
	case 2:
		hasM = true
	case 3:
		hasZ, hasM = true, true
	default:
		return nil, 0, false, false, 0, fmt.Errorf("%w: type code %d", ErrWKB, code)
	}
	if kind < Point || kind > GeometryCollection {
		return nil, 0, false, false, 0, fmt.Errorf("%w: geometry type %d", ErrWKB, kind)
	}
	return order, kind, hasZ, hasM, n, nil
}

// scan adds the geometry at b and returns its size.
func (s *Stats) scan(b []byte, depth int) (int, error) {
	if depth > MaxDepth {
		return 0, fmt.Errorf("%w: collections nested more than %d levels", ErrWKB, MaxDepth)
	}
	order, kind, hasZ, hasM, p, err := header(b)
	if err != nil {
		return 0, err
	}
	code := int32(kind)
	switch {
	case hasZ && hasM:
		code += 3000
	case hasZ:
		code += 1000
	case hasM:
		code += 2000
	}
	if depth == 0 { // the types of the column's values, not of their parts
		s.addType(code)
	}
	dims := 2
	if hasZ {
		dims++
	}
	if hasM {
		dims++
	}
	points := func(n uint64) error {
		if n > uint64(len(b)-p)/uint64(8*dims) {
			return fmt.Errorf("%w: %d points in %d bytes", ErrWKB, n, len(b)-p)
		}
		if s.sph != nil {
			s.sph.startChain()
		}
		for range n {
			s.point(order, b[p:], hasZ, hasM)
			p += 8 * dims
		}
		return nil
	}
	count := func() (uint64, error) {
		if len(b)-p < 4 {
			return 0, fmt.Errorf("%w: truncated count", ErrWKB)
		}
		n := uint64(order.Uint32(b[p:]))
		p += 4
		return n, nil
	}
	switch kind {
	case Point:
		if err := points(1); err != nil {
			return 0, err
		}
	case LineString:
		n, err := count()
		if err == nil {
			err = points(n)
		}
		if err != nil {
			return 0, err
		}
	case Polygon:
		rings, err := count()
		if err != nil {
			return 0, err
		}
		if rings > uint64(len(b)-p)/4 {
			return 0, fmt.Errorf("%w: %d rings in %d bytes", ErrWKB, rings, len(b)-p)
		}
		for range rings {
			n, err := count()
			if err == nil {
				err = points(n)
			}
			if err != nil {
				return 0, err
			}
			if s.sph != nil {
				s.sph.endRing()
			}
		}
	default: // multi types and collections: whole geometries
		n, err := count()
		if err != nil {
			return 0, err
		}
		if n > uint64(len(b)-p)/5 {
			return 0, fmt.Errorf("%w: %d parts in %d bytes", ErrWKB, n, len(b)-p)
		}
		for range n {
			sz, err := s.scan(b[p:], depth+1)
			if err != nil {
				return 0, err
			}
			p += sz
		}
	}
	return p, nil
}

// point adds one coordinate tuple. Precondition: b holds it.
func (s *Stats) point(order binary.ByteOrder, b []byte, hasZ, hasM bool) {
	f := func(i int) float64 { return math.Float64frombits(order.Uint64(b[8*i:])) }
	s.x.add(f(0))
	s.y.add(f(1))
	if s.sph != nil {
		s.sph.add(f(0), f(1))
	}
	i := 2
	if hasZ {
		s.z.add(f(i))
		i++
	}
	if hasM {
		s.m.add(f(i))
	}
}

// AppendPoint appends the little-endian ISO WKB of a 2D point.
func AppendPoint(dst []byte, x, y float64) []byte {
	dst = binary.LittleEndian.AppendUint32(append(dst, 1), Point)
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(y))
}

// AppendLineString appends the little-endian ISO WKB of a 2D line string
// of the points xy[0], xy[1], ... (pairs).
func AppendLineString(dst []byte, xy [][2]float64) []byte {
	dst = binary.LittleEndian.AppendUint32(append(dst, 1), LineString)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(xy)))
	for _, p := range xy {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(p[0]))
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(p[1]))
	}
	return dst
}

// AppendPolygon appends the little-endian ISO WKB of a 2D polygon of the
// given rings (each closed by the caller: first point = last point).
func AppendPolygon(dst []byte, rings [][][2]float64) []byte {
	dst = binary.LittleEndian.AppendUint32(append(dst, 1), Polygon)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(rings)))
	for _, r := range rings {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(r)))
		for _, p := range r {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(p[0]))
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(p[1]))
		}
	}
	return dst
}
