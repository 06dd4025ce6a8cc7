package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arparquet "github.com/apache/arrow-go/v18/parquet"
	arcompress "github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"
	pgcompress "github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// ReadBatch is the number of rows every library reads per call, into one
// reused []T.
const ReadBatch = 4096

// arrowBatch is the number of rows per arrow record built for writing.
const arrowBatch = 64 * 1024

// codec is one compression codec in each library's terms.
type codec struct {
	name  string
	pqgen meta.CompressionCodec
	pg    pgcompress.Codec
	ar    arcompress.Compression
}

var codecs = []codec{
	{"snappy", meta.Snappy, &snappy.Codec{}, arcompress.Codecs.Snappy},
	{"zstd", meta.Zstd, &zstd.Codec{}, arcompress.Codecs.Zstd},
}

// lib is one library's way of writing rows of T to w and reading a file
// back, calling each with every batch it fills (each may be nil).
type lib[T any] struct {
	name  string
	write func(w io.Writer, rows []T, c codec) error
	read  func(data []byte, buf []T, each func([]T)) error
}

// pqgenOpts are the options a pqgenLib's writer and reader are opened with
// (besides the codec).
type pqgenOpts struct {
	write []runtime.WriterOption
	read  []runtime.ReaderOption
}

// pqgenLib adapts a generated writer and reader.
func pqgenLib[T any, W interface {
	Write([]T) (int, error)
	Close() error
}, R interface {
	Read([]T) (int, error)
	Close() error
}](name string, newW func(io.Writer, ...runtime.WriterOption) (W, error), newR func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts pqgenOpts) lib[T] {
	return lib[T]{
		name: name,
		write: func(out io.Writer, rows []T, c codec) error {
			w, err := newW(out, append([]runtime.WriterOption{runtime.WithCompression(c.pqgen, 0)}, opts.write...)...)
			if err != nil {
				return err
			}
			if _, err := w.Write(rows); err != nil {
				return err
			}
			return w.Close()
		},
		read: func(data []byte, buf []T, each func([]T)) error {
			r, err := newR(bytes.NewReader(data), int64(len(data)), opts.read...)
			if err != nil {
				return err
			}
			for {
				n, err := r.Read(buf)
				if n > 0 && each != nil {
					each(buf[:n])
				}
				if errors.Is(err, io.EOF) {
					return r.Close()
				}
				if err != nil {
					return err
				}
			}
		},
	}
}

// parquetGoLib is parquet-go's GenericWriter[T] and GenericReader[T] with
// their default options but the codec, and the writer's opts.
func parquetGoLib[T any](opts ...parquet.WriterOption) lib[T] {
	return lib[T]{
		name: "parquetgo",
		write: func(out io.Writer, rows []T, c codec) error {
			w := parquet.NewGenericWriter[T](out, append([]parquet.WriterOption{parquet.Compression(c.pg)}, opts...)...)
			if _, err := w.Write(rows); err != nil {
				return err
			}
			return w.Close()
		},
		read: func(data []byte, buf []T, each func([]T)) error {
			r := parquet.NewGenericReader[T](bytes.NewReader(data))
			for {
				// GenericReader.Read merges into the maps and reuses the
				// slices it finds in buf: start each batch from zero rows,
				// as pqgen's Read does.
				clear(buf)
				n, err := r.Read(buf)
				if n > 0 && each != nil {
					each(buf[:n])
				}
				if errors.Is(err, io.EOF) {
					return r.Close()
				}
				if err != nil {
					return err
				}
			}
		},
	}
}

// arrowLib is arrow-go: rows appended to record builders arrowBatch rows
// at a time and written with pqarrow (default properties but the codec);
// read back with a pqarrow record reader, ReadBatch rows per record, each
// record converted into the structs by conv.
func arrowLib[T any](sc *arrow.Schema, appendRows func(*array.RecordBuilder, []T), conv func(arrow.RecordBatch, []T)) lib[T] {
	return lib[T]{
		name: "arrowgo",
		write: func(out io.Writer, rows []T, c codec) error {
			props := arparquet.NewWriterProperties(arparquet.WithCompression(c.ar))
			fw, err := pqarrow.NewFileWriter(sc, out, props, pqarrow.DefaultWriterProps())
			if err != nil {
				return err
			}
			b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			defer b.Release()
			for len(rows) > 0 {
				k := min(len(rows), arrowBatch)
				appendRows(b, rows[:k])
				rec := b.NewRecordBatch()
				err := fw.WriteBuffered(rec)
				rec.Release()
				if err != nil {
					return err
				}
				rows = rows[k:]
			}
			return fw.Close()
		},
		read: func(data []byte, buf []T, each func([]T)) error {
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				return err
			}
			defer pf.Close()
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(len(buf))}, memory.DefaultAllocator)
			if err != nil {
				return err
			}
			rr, err := fr.GetRecordReader(context.Background(), nil, nil)
			if err != nil {
				return err
			}
			defer rr.Release()
			for rr.Next() {
				rec := rr.RecordBatch()
				n := int(rec.NumRows())
				if n > len(buf) {
					return fmt.Errorf("arrow record of %d rows, batch %d", n, len(buf))
				}
				conv(rec, buf)
				if each != nil {
					each(buf[:n])
				}
			}
			return rr.Err()
		},
	}
}

// Flat through arrow.

var flatArrowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String},
	{Name: "value", Type: arrow.PrimitiveTypes.Float64},
	{Name: "opt", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "count", Type: arrow.PrimitiveTypes.Int32},
	{Name: "at", Type: arrow.FixedWidthTypes.Timestamp_us},
}, nil)

func appendFlat(b *array.RecordBuilder, rows []Flat) {
	ids := b.Field(0).(*array.Int64Builder)
	nm := b.Field(1).(*array.StringBuilder)
	vs := b.Field(2).(*array.Float64Builder)
	opt := b.Field(3).(*array.Int32Builder)
	cnt := b.Field(4).(*array.Int32Builder)
	at := b.Field(5).(*array.TimestampBuilder)
	b.Reserve(len(rows))
	for i := range rows {
		r := &rows[i]
		ids.Append(r.ID)
		nm.Append(r.Name)
		vs.Append(r.Value)
		if r.Opt == nil {
			opt.AppendNull()
		} else {
			opt.Append(*r.Opt)
		}
		cnt.Append(r.Count)
		at.Append(arrow.Timestamp(r.At.UnixMicro()))
	}
}

func flatFromArrow(rec arrow.RecordBatch, rows []Flat) {
	n := int(rec.NumRows())
	rows = rows[:n]
	ids := rec.Column(0).(*array.Int64)
	nm := rec.Column(1).(*array.String)
	vs := rec.Column(2).(*array.Float64)
	opt := rec.Column(3).(*array.Int32)
	cnt := rec.Column(4).(*array.Int32)
	at := rec.Column(5).(*array.Timestamp)
	slab := make([]int32, n-opt.NullN())
	for i := range rows {
		r := &rows[i]
		r.ID = ids.Value(i)
		r.Name = cloneString(nm.Value(i))
		r.Value = vs.Value(i)
		if opt.IsNull(i) {
			r.Opt = nil
		} else {
			slab[0] = opt.Value(i)
			r.Opt = &slab[0]
			slab = slab[1:]
		}
		r.Count = cnt.Value(i)
		r.At = at.Value(i).ToTime(arrow.Microsecond)
	}
}

// Contact through arrow.

var (
	addressType = arrow.StructOf(
		arrow.Field{Name: "street", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "city", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "zip", Type: arrow.PrimitiveTypes.Int32},
	)
	phoneType = arrow.StructOf(
		arrow.Field{Name: "kind", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "number", Type: arrow.BinaryTypes.String},
	)
	contactArrowSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "address", Type: addressType, Nullable: true},
		{Name: "emails", Type: arrow.ListOfNonNullable(arrow.BinaryTypes.String)},
		{Name: "phones", Type: arrow.ListOfNonNullable(phoneType)},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)},
	}, nil)
)

func appendContact(b *array.RecordBuilder, rows []Contact) {
	ids := b.Field(0).(*array.Int64Builder)
	nm := b.Field(1).(*array.StringBuilder)
	addr := b.Field(2).(*array.StructBuilder)
	street := addr.FieldBuilder(0).(*array.StringBuilder)
	city := addr.FieldBuilder(1).(*array.StringBuilder)
	zip := addr.FieldBuilder(2).(*array.Int32Builder)
	emails := b.Field(3).(*array.ListBuilder)
	email := emails.ValueBuilder().(*array.StringBuilder)
	phones := b.Field(4).(*array.ListBuilder)
	phone := phones.ValueBuilder().(*array.StructBuilder)
	kind := phone.FieldBuilder(0).(*array.StringBuilder)
	number := phone.FieldBuilder(1).(*array.StringBuilder)
	attrs := b.Field(5).(*array.MapBuilder)
	ak := attrs.KeyBuilder().(*array.StringBuilder)
	av := attrs.ItemBuilder().(*array.Int64Builder)
	b.Reserve(len(rows))
	for i := range rows {
		r := &rows[i]
		ids.Append(r.ID)
		nm.Append(r.Name)
		if a := r.Address; a == nil {
			addr.AppendNull()
		} else {
			addr.Append(true)
			street.Append(a.Street)
			city.Append(a.City)
			zip.Append(a.Zip)
		}
		emails.Append(true)
		for _, e := range r.Emails {
			email.Append(e)
		}
		phones.Append(true)
		for _, p := range r.Phones {
			phone.Append(true)
			kind.Append(p.Kind)
			number.Append(p.Number)
		}
		attrs.Append(true)
		for k, v := range r.Attrs {
			ak.Append(k)
			av.Append(v)
		}
	}
}

func contactFromArrow(rec arrow.RecordBatch, rows []Contact) {
	n := int(rec.NumRows())
	rows = rows[:n]
	ids := rec.Column(0).(*array.Int64)
	nm := rec.Column(1).(*array.String)
	addr := rec.Column(2).(*array.Struct)
	street := addr.Field(0).(*array.String)
	city := addr.Field(1).(*array.String)
	zip := addr.Field(2).(*array.Int32)
	emails := rec.Column(3).(*array.List)
	email := emails.ListValues().(*array.String)
	phones := rec.Column(4).(*array.List)
	phone := phones.ListValues().(*array.Struct)
	kind := phone.Field(0).(*array.String)
	number := phone.Field(1).(*array.String)
	attrs := rec.Column(5).(*array.Map)
	ak := attrs.Keys().(*array.String)
	av := attrs.Items().(*array.Int64)
	for i := range rows {
		r := &rows[i]
		r.ID = ids.Value(i)
		r.Name = cloneString(nm.Value(i))
		if addr.IsNull(i) {
			r.Address = nil
		} else {
			r.Address = &Address{Street: cloneString(street.Value(i)), City: cloneString(city.Value(i)), Zip: zip.Value(i)}
		}
		s, e := emails.ValueOffsets(i)
		r.Emails = nil
		if e > s {
			r.Emails = make([]string, e-s)
			for k := range r.Emails {
				r.Emails[k] = cloneString(email.Value(int(s) + k))
			}
		}
		s, e = phones.ValueOffsets(i)
		r.Phones = nil
		if e > s {
			r.Phones = make([]Phone, e-s)
			for k := range r.Phones {
				r.Phones[k] = Phone{Kind: cloneString(kind.Value(int(s) + k)), Number: cloneString(number.Value(int(s) + k))}
			}
		}
		s, e = attrs.ValueOffsets(i)
		r.Attrs = nil
		if e > s {
			r.Attrs = make(map[string]int64, e-s)
			for k := int(s); k < int(e); k++ {
				r.Attrs[cloneString(ak.Value(k))] = av.Value(k)
			}
		}
	}
}
