package encode

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// arrowSchema returns a one-column schema of the given physical type.
func arrowSchema(t parquet.Type, size int) *schema.GroupNode {
	var n schema.Node
	var err error
	n, err = schema.NewPrimitiveNode("v", parquet.Repetitions.Required, t, -1, int32(size))
	if err != nil {
		panic(err)
	}
	g, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{n}, -1)
	if err != nil {
		panic(err)
	}
	return g
}

func arrowProps(enc parquet.Encoding) *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithDataPageSize(1 << 30),
		parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithStats(false),
		parquet.WithBatchSize(1 << 20),
	}
	if enc == parquet.Encodings.RLEDict {
		opts = append(opts, parquet.WithDictionaryDefault(true))
	} else {
		opts = append(opts, parquet.WithDictionaryDefault(false), parquet.WithEncoding(enc))
	}
	return parquet.NewWriterProperties(opts...)
}

// arrowWrite writes one column chunk with write and returns the file.
func arrowWrite(buf *bytes.Buffer, sc *schema.GroupNode, enc parquet.Encoding, write func(file.ColumnChunkWriter)) []byte {
	buf.Reset()
	w := file.NewParquetWriter(buf, sc, file.WithWriterProps(arrowProps(enc)))
	rg, err := w.AppendRowGroupChecked()
	if err != nil {
		panic(err)
	}
	cw, err := rg.NextColumn()
	if err != nil {
		panic(err)
	}
	write(cw)
	if err := cw.Close(); err != nil {
		panic(err)
	}
	if err := rg.Close(); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// arrowColumn opens column 0 of row group 0 of data.
func arrowColumn(b *testing.B, data []byte) file.ColumnChunkReader {
	r, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	c, err := r.RowGroup(0).Column(0)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func arrowInt64(v []int64, enc parquet.Encoding) []byte {
	var buf bytes.Buffer
	return bytes.Clone(arrowWrite(&buf, arrowSchema(parquet.Types.Int64, 0), enc, func(cw file.ColumnChunkWriter) {
		cw.(*file.Int64ColumnChunkWriter).WriteBatch(v, nil, nil)
	}))
}

func arrowInt32(v []int32, enc parquet.Encoding) []byte {
	var buf bytes.Buffer
	return bytes.Clone(arrowWrite(&buf, arrowSchema(parquet.Types.Int32, 0), enc, func(cw file.ColumnChunkWriter) {
		cw.(*file.Int32ColumnChunkWriter).WriteBatch(v, nil, nil)
	}))
}

func arrowDouble(v []float64, enc parquet.Encoding) []byte {
	var buf bytes.Buffer
	return bytes.Clone(arrowWrite(&buf, arrowSchema(parquet.Types.Double, 0), enc, func(cw file.ColumnChunkWriter) {
		cw.(*file.Float64ColumnChunkWriter).WriteBatch(v, nil, nil)
	}))
}

func arrowFloat(v []float32, enc parquet.Encoding) []byte {
	var buf bytes.Buffer
	return bytes.Clone(arrowWrite(&buf, arrowSchema(parquet.Types.Float, 0), enc, func(cw file.ColumnChunkWriter) {
		cw.(*file.Float32ColumnChunkWriter).WriteBatch(v, nil, nil)
	}))
}

func arrowByteArray(v []parquet.ByteArray, enc parquet.Encoding) []byte {
	var buf bytes.Buffer
	return bytes.Clone(arrowWrite(&buf, arrowSchema(parquet.Types.ByteArray, 0), enc, func(cw file.ColumnChunkWriter) {
		cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(v, nil, nil)
	}))
}
