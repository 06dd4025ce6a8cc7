package gen

// GeoParquet 1.x (https://geoparquet.org/releases/v1.1.0/) marks the
// geometry columns of a file in its "geo" key-value metadata, a JSON
// object whose "columns" member describes each top-level column by name:
// its "encoding" ("WKB" for a BYTE_ARRAY of Well-Known Binary), its "crs"
// (PROJJSON; absent means OGC:CRS84, null an unknown one) and its
// "edges" ("planar", the default, or "spherical"). DuckDB, GDAL and
// GeoPandas write it, on columns without a logical type. The Parquet
// format has had GEOMETRY and GEOGRAPHY logical types since 2.11
// (https://github.com/apache/parquet-format/blob/master/Geospatial.md);
// code generated from such a file types those columns so, and files it
// writes are read as geometries by readers that read the GeoParquet file
// so (DuckDB reads both as GEOMETRY).

import (
	"encoding/json"
	"fmt"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// geoMetadata is the part of GeoParquet's "geo" metadata read here.
type geoMetadata struct {
	Columns map[string]struct {
		Encoding string          `json:"encoding"`
		CRS      json.RawMessage `json:"crs"`
		Edges    string          `json:"edges"`
	} `json:"columns"`
}

// geoParquetColumns returns s with the GEOMETRY or GEOGRAPHY logical type
// on each top-level BYTE_ARRAY column without a logical or converted type
// that the file's GeoParquet metadata (kv's "geo") describes as WKB with
// a CRS named by an identifier (or the default). Metadata that is not
// JSON, or a column whose CRS has no identifier (a PROJJSON without
// "id", or null), leaves the column as it is: bytes.
func geoParquetColumns(s *schema.Schema, kv []meta.KeyValue) (*schema.Schema, error) {
	var geo geoMetadata
	found := false
	for _, e := range kv {
		if e.Key == "geo" && e.Value.Set {
			found = json.Unmarshal([]byte(e.Value.Val), &geo) == nil
		}
	}
	if !found || len(geo.Columns) == 0 {
		return s, nil
	}
	logical := map[*schema.Node]meta.LogicalType{}
	for _, n := range s.Root.Children {
		c, ok := geo.Columns[n.Name]
		if !ok || n.Group || n.Type != meta.ByteArray || n.Logical.Kind != meta.LogicalNone || n.Converted.Set || c.Encoding != "WKB" {
			continue
		}
		crs, ok := geoCRS(c.CRS)
		if !ok {
			continue
		}
		switch c.Edges {
		case "", "planar":
			logical[n] = meta.LogicalType{Kind: meta.LogicalGeometry, Geometry: meta.GeometryType{CRS: meta.Some(crs)}}
		case "spherical":
			logical[n] = meta.LogicalType{Kind: meta.LogicalGeography, Geography: meta.GeographyType{CRS: meta.Some(crs), Algorithm: meta.Some(meta.Spherical)}}
		}
	}
	if len(logical) == 0 {
		return s, nil
	}
	return editElements(s, func(n *schema.Node, e *meta.SchemaElement) {
		if l, ok := logical[n]; ok {
			e.LogicalType = &l
		}
	})
}

// geoCRS returns the Parquet CRS string of a GeoParquet column's "crs":
// OGC:CRS84 when it is absent, the PROJJSON's identifier
// ("EPSG:4326") when it has one, and false otherwise.
func geoCRS(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "OGC:CRS84", true
	}
	var p struct {
		ID *struct {
			Authority string          `json:"authority"`
			Code      json.RawMessage `json:"code"`
		} `json:"id"`
	}
	if json.Unmarshal(raw, &p) != nil || p.ID == nil || p.ID.Authority == "" {
		return "", false
	}
	var code any
	if json.Unmarshal(p.ID.Code, &code) != nil {
		return "", false
	}
	switch c := code.(type) {
	case string:
		if c == "" {
			return "", false
		}
		return p.ID.Authority + ":" + c, true
	case float64:
		if c != float64(int64(c)) {
			return "", false
		}
		return fmt.Sprintf("%s:%d", p.ID.Authority, int64(c)), true
	}
	return "", false
}
