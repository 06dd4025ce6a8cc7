// Command demo is what `make demo` runs: it writes a small Parquet file of
// sensor readings with pqgen's runtime, then inspects it as
// `pqgen inspect` would.
//
// Until the generated writers land, the demo assembles the file from the
// runtime's building blocks directly: the schema tree, PLAIN and RLE
// encodings, data page headers and the footer, each encoded by runtime/meta.
package main

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/pqgen/pqgen/internal/inspect"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

const schemaText = `message reading {
  required int64 id;
  optional binary sensor (STRING);
  required double celsius;
}`

type reading struct {
	id      int64
	sensor  *string
	celsius float64
}

func str(s string) *string { return &s }

var rows = []reading{
	{1, str("kitchen"), 21.5},
	{2, str("garage"), 12.25},
	{3, nil, 19},
	{4, str("attic"), 27.75},
	{5, str("kitchen"), 21.75},
}

func main() {
	dir, err := os.MkdirTemp("", "pqgen-demo-")
	if err != nil {
		fail(err)
	}
	if os.Getenv("PQGEN_DEMO_KEEP") == "" {
		defer os.RemoveAll(dir)
	}
	path := filepath.Join(dir, "readings.parquet")
	if err := write(path); err != nil {
		fail(err)
	}
	fmt.Printf("wrote %d rows to %s\n\n", len(rows), path)
	if err := inspect.Run(os.Stdout, path, inspect.Options{}); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "demo:", err)
	os.Exit(1)
}

// write lays out one row group with one uncompressed PLAIN data page per
// column, then the footer.
func write(path string) error {
	s, err := schema.Parse(schemaText)
	if err != nil {
		return err
	}
	var (
		ids      []int64
		sensors  encode.ByteArrays
		defs     []uint8
		celsius  []float64
		nulls    int64
		min, max = rows[0].celsius, rows[0].celsius
	)
	for _, r := range rows {
		ids = append(ids, r.id)
		if r.sensor != nil {
			sensors.Append([]byte(*r.sensor))
			defs = append(defs, 1)
		} else {
			defs = append(defs, 0)
			nulls++
		}
		celsius = append(celsius, r.celsius)
		min, max = minF(min, r.celsius), maxF(max, r.celsius)
	}
	// A v1 data page body: levels (RLE, 4-byte length prefix), then values.
	bodies := [][]byte{
		encode.AppendPlainInt64(nil, ids),
		encode.AppendPlainByteArray(encode.AppendRLELevelsPrefixed(nil, defs, 1), sensors),
		encode.AppendPlainDouble(nil, celsius),
	}
	stats := []*meta.Statistics{
		{NullCount: meta.Some(int64(0)), MinValue: le64(uint64(ids[0])), MaxValue: le64(uint64(ids[len(ids)-1]))},
		{NullCount: meta.Some(nulls), MinValue: []byte("attic"), MaxValue: []byte("kitchen")},
		{NullCount: meta.Some(int64(0)), NanCount: meta.Some(int64(0)), MinValue: f64(min), MaxValue: f64(max)},
	}
	file := []byte("PAR1")
	rg := meta.RowGroup{NumRows: int64(len(rows)), FileOffset: meta.Some(int64(len(file))), Ordinal: meta.Some(int16(0))}
	orders := make([]meta.ColumnOrder, len(s.Leaves))
	for i, leaf := range s.Leaves {
		orders[i] = meta.ColumnOrder{Kind: meta.TypeDefinedOrder}
		ph := meta.PageHeader{
			Type:                 meta.DataPage,
			UncompressedPageSize: int32(len(bodies[i])),
			CompressedPageSize:   int32(len(bodies[i])),
			CRC:                  meta.Some(int32(crc32.ChecksumIEEE(bodies[i]))),
			DataPageHeader: &meta.DataPageHeader{
				NumValues: int32(len(rows)), Encoding: meta.EncodingPlain,
				DefinitionLevelEncoding: meta.EncodingRLE, RepetitionLevelEncoding: meta.EncodingRLE,
			},
		}
		start := int64(len(file))
		file = ph.AppendThrift(file)
		file = append(file, bodies[i]...)
		size := int64(len(file)) - start
		rg.Columns = append(rg.Columns, meta.ColumnChunk{MetaData: &meta.ColumnMetaData{
			Type: leaf.Type, Encodings: []meta.Encoding{meta.EncodingPlain, meta.EncodingRLE},
			PathInSchema: leaf.Path, Codec: meta.Uncompressed, NumValues: int64(len(rows)),
			TotalUncompressedSize: size, TotalCompressedSize: size, DataPageOffset: start,
			Statistics: stats[i],
		}})
		rg.TotalByteSize += size
	}
	rg.TotalCompressedSize = meta.Some(rg.TotalByteSize)
	md := meta.FileMetaData{
		Version: 1, Schema: s.Elements(), NumRows: int64(len(rows)), RowGroups: []meta.RowGroup{rg},
		CreatedBy:        meta.Some("pqgen demo"),
		KeyValueMetadata: []meta.KeyValue{{Key: "written.by", Value: meta.Some("examples/demo")}},
		ColumnOrders:     orders,
	}
	footerStart := len(file)
	file = md.AppendThrift(file)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(file)-footerStart))
	file = append(file, "PAR1"...)
	return os.WriteFile(path, file, 0o644)
}

func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func f64(v float64) []byte { return encode.AppendPlainDouble(nil, []float64{v}) }

func minF(a, b float64) float64 {
	if b < a {
		return b
	}
	return a
}

func maxF(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}
