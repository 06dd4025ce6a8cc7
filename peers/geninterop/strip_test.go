package geninterop

import (
	"encoding/binary"
	"fmt"

	"github.com/pqgen/pqgen/runtime/meta"
)

// noBSON is the type name the matrix gives Logical files whose bson
// column lost its BSON annotation (see stripAnnotation): DuckDB rejects
// any file with a BSON column, so its coverage of the other Logical
// columns uses such a copy.
const noBSON = "Logical-noBSON"

// stripAnnotation returns a copy of a Parquet file whose top-level column
// name has no logical or converted type (its values are plain binary):
// only the footer changes.
func stripAnnotation(data []byte, name string) ([]byte, error) {
	n := len(data)
	if n < 12 || string(data[n-4:]) != "PAR1" {
		return nil, fmt.Errorf("not a Parquet file")
	}
	flen := int(binary.LittleEndian.Uint32(data[n-8:]))
	start := n - 8 - flen
	if start < 4 {
		return nil, fmt.Errorf("footer length %d", flen)
	}
	md, _, err := meta.DecodeFileMetaData(data[start:n-8], nil)
	if err != nil {
		return nil, err
	}
	found := false
	for i := range md.Schema {
		if md.Schema[i].Name == name && md.Schema[i].Type.Set {
			md.Schema[i].ConvertedType = meta.Opt[meta.ConvertedType]{}
			md.Schema[i].LogicalType = nil
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("no leaf %q", name)
	}
	out := append([]byte{}, data[:start]...)
	footer := md.AppendThrift(nil)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...), nil
}
