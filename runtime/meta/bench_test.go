// Benchmarks of the compact-protocol codec against apache/thrift's generated
// code on a wide synthetic footer (1,000 columns x 20 row groups); see
// https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md.

package meta

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/pqgen/pqgen/runtime/meta/internal/thriftref"
)

// wideFooter builds a FileMetaData of cols columns and rgs row groups; every
// chunk has statistics, path_in_schema, encodings and encoding_stats.
func wideFooter(cols, rgs int) *FileMetaData {
	x := &FileMetaData{Version: 2, NumRows: int64(rgs) * 100_000, CreatedBy: Some("pqgen version 0.1.0 (build bench)"),
		KeyValueMetadata: []KeyValue{{Key: "writer", Value: Some("pqgen")}}}
	x.Schema = append(x.Schema, SchemaElement{Name: "schema", NumChildren: Some(int32(cols))})
	for c := 0; c < cols; c++ {
		x.Schema = append(x.Schema, SchemaElement{Type: Some(Int64), RepetitionType: Some(Optional),
			Name: fmt.Sprintf("column_%04d", c), LogicalType: &LogicalType{Kind: LogicalInteger, Integer: IntType{BitWidth: 64, IsSigned: true}}})
		x.ColumnOrders = append(x.ColumnOrders, ColumnOrder{Kind: TypeDefinedOrder})
	}
	off := int64(4)
	for r := 0; r < rgs; r++ {
		rg := RowGroup{NumRows: 100_000, FileOffset: Some(off), Ordinal: Some(int16(r))}
		for c := 0; c < cols; c++ {
			size := int64(50_000 + c*13 + r)
			cm := &ColumnMetaData{Type: Int64, Encodings: []Encoding{EncodingPlain, EncodingRLE, EncodingRLEDictionary},
				PathInSchema: []string{fmt.Sprintf("column_%04d", c)}, Codec: Snappy, NumValues: 100_000,
				TotalUncompressedSize: size * 2, TotalCompressedSize: size, DataPageOffset: off + 1000,
				DictionaryPageOffset: Some(off),
				Statistics: &Statistics{NullCount: Some(int64(c % 7)), MaxValue: []byte{byte(c), 1, 2, 3, 4, 5, 6, byte(r)},
					MinValue: []byte{0, 0, 0, 0, 0, 0, byte(r), byte(c)}},
				EncodingStats: []PageEncodingStats{{PageType: DictionaryPage, Encoding: EncodingPlain, Count: 1},
					{PageType: DataPage, Encoding: EncodingRLEDictionary, Count: int32(10 + c%5)}}}
			rg.Columns = append(rg.Columns, ColumnChunk{FileOffset: 0, MetaData: cm,
				OffsetIndexOffset: Some(off + size), OffsetIndexLength: Some(int32(200)),
				ColumnIndexOffset: Some(off + size + 200), ColumnIndexLength: Some(int32(300))})
			rg.TotalByteSize += size * 2
			off += size
		}
		rg.TotalCompressedSize = Some(off - rg.FileOffset.Val)
		x.RowGroups = append(x.RowGroups, rg)
	}
	return x
}

var wideOnce = sync.OnceValue(func() []byte { return wideFooter(1000, 20).AppendThrift(nil) })

func refDecode(data []byte) (*thriftref.FileMetaData, error) {
	buf := thrift.NewTMemoryBuffer()
	buf.Buffer = bytes.NewBuffer(data)
	p := thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{})
	x := thriftref.NewFileMetaData()
	return x, x.Read(context.Background(), p)
}

func TestWideFooterAgreesWithThriftGenerated(t *testing.T) {
	data := wideOnce()
	x, n, err := DecodeFileMetaData(data, nil)
	if err != nil || n != len(data) {
		t.Fatal(n, err)
	}
	ref, err := refRoundTrip(data, "PAR1")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ref, data) || !bytes.Equal(x.AppendThrift(nil), data) {
		t.Fatal("round trips differ")
	}
}

func BenchmarkDecodeWideFooter(b *testing.B) {
	data := wideOnce()
	b.Run("pqgen", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := DecodeFileMetaData(data, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("apache-thrift", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := refDecode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncodeWideFooter(b *testing.B) {
	x := wideFooter(1000, 20)
	buf := x.AppendThrift(nil)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = x.AppendThrift(buf[:0])
	}
}

func BenchmarkDecodePageHeaderReused(b *testing.B) {
	src := (&PageHeader{Type: DataPage, UncompressedPageSize: 1 << 20, CompressedPageSize: 1 << 19, CRC: Some[int32](12345),
		DataPageHeader: &DataPageHeader{NumValues: 100_000, Encoding: EncodingRLEDictionary, DefinitionLevelEncoding: EncodingRLE,
			RepetitionLevelEncoding: EncodingRLE, Statistics: &Statistics{NullCount: Some[int64](3), MaxValue: []byte("zzzzzzzz"), MinValue: []byte("aaaaaaaa")}}}).AppendThrift(nil)
	var h PageHeader
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.DecodeThrift(src, nil); err != nil {
			b.Fatal(err)
		}
	}
}
