// Geospatial predicates: GEOMETRY and GEOGRAPHY fields' Intersects(box),
// pruned by the bounding boxes of GeospatialStatistics and exact on the
// bounding box of each row's WKB value. Boxes whose Xmin exceeds Xmax
// wrap around the antimeridian (GEOGRAPHY), as in the bounding boxes of
// https://github.com/apache/parquet-format/blob/master/Geospatial.md.

package runtime

import (
	"fmt"
	"math"

	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/meta"
)

// Box is a bounding box in X (longitude) and Y (latitude). Xmin > Xmax
// makes a box that wraps around the antimeridian: X in [Xmin, 180] or
// [-180, Xmax].
type Box struct {
	Xmin, Xmax, Ymin, Ymax float64
}

// GeoField is the predicate builder of a GEOMETRY or GEOGRAPHY field
// (WKB bytes): Eq, NotEq and In compare the bytes, Intersects the
// geometries' bounding boxes.
type GeoField[T any] struct{ Field[T] }

// NewGeoField is NewField for a GEOMETRY or GEOGRAPHY field.
//
// For generated code (see "For generated code" in the package doc).
func NewGeoField[T any, E any, B interface {
	*E
	keyBuffer
}](path string, put func(B, T) error) GeoField[T] {
	return GeoField[T]{NewField[T, E, B](path, put)}
}

// Intersects is true where the bounding box of the field's geometry meets
// box (edges included). A value that is not valid WKB, or an empty
// geometry, meets nothing.
func (f GeoField[T]) Intersects(box Box) Predicate { return geoLeaf(f.Field, box) }

// NullableGeoField is a GeoField that may be null.
type NullableGeoField[T any] struct{ GeoField[T] }

// NewNullableGeoField is NewGeoField for a nullable field.
//
// For generated code (see "For generated code" in the package doc).
func NewNullableGeoField[T any, E any, B interface {
	*E
	keyBuffer
}](path string, put func(B, T) error) NullableGeoField[T] {
	return NullableGeoField[T]{NewGeoField[T, E, B](path, put)}
}

// IsNull is true where the field is null.
func (f NullableGeoField[T]) IsNull() Predicate { return f.leaf(opIsNull) }

// NotNull is true where the field holds a value.
func (f NullableGeoField[T]) NotNull() Predicate { return f.leaf(opNotNull) }

func geoLeaf[T any](f Field[T], box Box) Predicate {
	if f.key == nil {
		return &predBad{why: "a GeoField that is not part of a generated TWhere value"}
	}
	for _, v := range []float64{box.Xmin, box.Xmax, box.Ymin, box.Ymax} {
		if math.IsNaN(v) {
			return &predBad{why: fmt.Sprintf("Intersects(%+v): a NaN bound", box)}
		}
	}
	return &predLeaf{path: f.path, op: opIntersects, phys: meta.ByteArray, box: &box,
		show: []string{fmt.Sprintf("[%g, %g]x[%g, %g]", box.Xmin, box.Xmax, box.Ymin, box.Ymax)}}
}

// spanMeets reports whether the X spans [a0, a1] and [b0, b1] meet, either
// wrapping when its min exceeds its max.
func spanMeets(a0, a1, b0, b1 float64) bool {
	as, na := splitSpan(a0, a1)
	bs, nb := splitSpan(b0, b1)
	for _, a := range as[:na] {
		for _, b := range bs[:nb] {
			if a[0] <= b[1] && b[0] <= a[1] {
				return true
			}
		}
	}
	return false
}

// splitSpan returns the X span [lo, hi] as n non-wrapping spans (two when
// it wraps), in an array: spanMeets runs per row and must not allocate.
func splitSpan(lo, hi float64) (s [2][2]float64, n int) {
	if lo <= hi {
		return [2][2]float64{{lo, hi}}, 1
	}
	return [2][2]float64{{lo, math.Inf(1)}, {math.Inf(-1), hi}}, 2
}

// boxMeets reports whether box meets the bounding box b.
func boxMeets(box *Box, b *meta.BoundingBox) bool {
	return spanMeets(box.Xmin, box.Xmax, b.Xmin, b.Xmax) && box.Ymin <= b.Ymax && b.Ymin <= box.Ymax
}

// geoChunkMisses reports whether the geospatial statistics of a chunk
// prove that no geometry of it meets box.
func geoChunkMisses(box *Box, st *meta.GeospatialStatistics) bool {
	if st == nil || st.BBox == nil {
		return false
	}
	b := st.BBox
	for _, v := range []float64{b.Xmin, b.Xmax, b.Ymin, b.Ymax} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return !boxMeets(box, b)
}

// geoRowMatcher evaluates Intersects on the WKB values of a batch.
func geoRowMatcher(box *Box) rowMatcher {
	var st geo.Stats
	return func(cd *colBatch, out []bool) {
		eachValue(cd, out, func(i, k int) {
			st.Reset()
			var v []byte
			if cd.ba != nil {
				v = cd.ba.At(k)
			}
			out[i] = false
			if st.Add(v) != nil {
				return
			}
			if b, ok := st.Box(); ok {
				out[i] = boxMeets(box, &b)
			}
		})
	}
}
