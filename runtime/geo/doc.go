// Package geo reads Well-Known Binary (WKB) geometries for the statistics
// of GEOMETRY and GEOGRAPHY columns, and writes simple ones.
//
// WKB (OGC Simple Feature Access, ISO variant): each geometry starts with
// a byte-order byte (0 big-endian, 1 little-endian) and a uint32 type
// code, type + 1000 for Z, + 2000 for M, + 3000 for ZM (1 Point,
// 2 LineString, 3 Polygon, 4 MultiPoint, 5 MultiLineString, 6
// MultiPolygon, 7 GeometryCollection). A Point is its coordinates; a
// LineString a uint32 count and points; a Polygon a uint32 ring count and
// rings of points; the multi types and collections a uint32 count and
// whole WKB geometries. The EWKB flags (0x80000000 Z, 0x40000000 M,
// 0x20000000 SRID followed by a uint32 SRID) are accepted too.
//
// Statistics follow "Geospatial Definitions"
// (https://github.com/apache/parquet-format/blob/master/Geospatial.md):
// the bounding box of every coordinate, skipping NaN per dimension, and
// the set of ISO type codes of the values (the parts of a collection do
// not count, as Arrow C++ writes them). GEOGRAPHY values of spherical
// edges get the box of their edges instead (NewSphericalStats, sphere.go):
// great-circle arcs reach beyond their vertices' latitudes, and the
// smallest box may wrap across the antimeridian (xmin > xmax; BoxContains
// reads such boxes).
package geo
