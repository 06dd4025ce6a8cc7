package genfuzz

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// writeArrow writes columns (as shredded from rows) with arrow-go's
// low-level column writers, under the schema arrow-go reads from the
// footer of a file pqgen wrote (sc), so that the generated reader can be
// checked against a file it did not write. Rows are split into row
// groups at the row indexes in cuts. noDelta keeps the DELTA encodings
// out of the encodings chosen per column (see arrowDeltaPanic).
func writeArrow(sc *schema.Schema, cols []*column, rows int, cuts []int, r *rand.Rand, noDelta bool) (data []byte, desc string, err error) {
	defer func() {
		if e := recover(); e != nil {
			err = fmt.Errorf("arrow-go panicked: %v", e)
			if bytes.Contains(debug.Stack(), []byte(".(*deltaBitPackEncoder")) {
				err = fmt.Errorf("%w: %v", errArrowDeltaEncoder, e)
			}
		}
	}()
	codecs := []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Gzip,
		compress.Codecs.Zstd, compress.Codecs.Brotli, compress.Codecs.Lz4Raw}
	codec := codecs[r.IntN(len(codecs))]
	version := []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2}[r.IntN(2)]
	dict := r.IntN(2) == 0
	pageSize := int64(128 << r.IntN(6))
	opts := []parquet.WriterProperty{parquet.WithCompression(codec), parquet.WithDataPageVersion(version),
		parquet.WithDictionaryDefault(dict), parquet.WithDataPageSize(pageSize), parquet.WithBatchSize(int64(1 + r.IntN(64)))}
	desc = fmt.Sprintf("arrow-go writer: %s, data page v%d, dictionary %v, page size %d, row groups cut at %v",
		codec, version+1, dict, pageSize, cuts)
	paths := map[string]int{}
	for i := range sc.NumColumns() {
		paths[sc.Column(i).Path()]++
	}
	for i := range sc.NumColumns() {
		col := sc.Column(i)
		encs := arrowEncodings[col.PhysicalType()]
		if paths[col.Path()] > 1 || len(encs) == 0 || r.IntN(2) == 0 {
			continue
		}
		e := encs[r.IntN(len(encs))]
		if noDelta && (e == parquet.Encodings.DeltaBinaryPacked || e == parquet.Encodings.DeltaLengthByteArray || e == parquet.Encodings.DeltaByteArray) {
			e = parquet.Encodings.Plain
		}
		opts = append(opts, parquet.WithEncodingPath(col.ColumnPath(), e))
		desc += fmt.Sprintf(", %s %s", col.Path(), e)
	}
	props := parquet.NewWriterProperties(opts...)
	var buf bytes.Buffer
	w, err := file.NewParquetWriterWithError(&buf, sc.Root(), file.WithWriterProps(props))
	if err != nil {
		return nil, desc, err
	}
	// Each column's slot and value index at every row start.
	type bounds struct{ slot, val []int }
	bs := make([]bounds, len(cols))
	for c, col := range cols {
		b := &bs[c]
		v := 0
		n := max(len(col.def), len(col.vals))
		for i := range n {
			if col.maxRep == 0 || col.rep[i] == 0 {
				b.slot = append(b.slot, i)
				b.val = append(b.val, v)
			}
			if col.maxDef == 0 || int(col.def[i]) == col.maxDef {
				v++
			}
		}
		b.slot = append(b.slot, n)
		b.val = append(b.val, v)
		if len(b.slot) != rows+1 {
			return nil, desc, fmt.Errorf("column %d has %d rows, want %d", c, len(b.slot)-1, rows)
		}
	}
	from := 0
	for _, to := range append(cuts, rows) {
		rg, err := w.AppendRowGroupChecked()
		if err != nil {
			return nil, desc, err
		}
		for c, col := range cols {
			cw, err := rg.NextColumn()
			if err != nil {
				return nil, desc, err
			}
			s0, s1 := bs[c].slot[from], bs[c].slot[to]
			v0, v1 := bs[c].val[from], bs[c].val[to]
			var def, rep []int16
			if col.maxDef > 0 {
				def = col.def[s0:s1]
			}
			if col.maxRep > 0 {
				rep = col.rep[s0:s1]
			}
			if err := writeColumn(cw, col.vals[v0:v1], def, rep); err != nil {
				return nil, desc, fmt.Errorf("column %d: %w", c, err)
			}
			if err := cw.Close(); err != nil {
				return nil, desc, err
			}
		}
		if err := rg.Close(); err != nil {
			return nil, desc, err
		}
		from = to
	}
	if err := w.Close(); err != nil {
		return nil, desc, err
	}
	return buf.Bytes(), desc, nil
}

// errArrowDeltaEncoder is writeArrow's error for a panic whose stack
// holds arrow-go's deltaBitPackEncoder (see arrowDeltaPanic).
var errArrowDeltaEncoder = errors.New("arrow-go panicked in its DELTA encoder (deltaBitPackEncoder)")

// arrowDeltaPanic reports whether arrow-go's failure to write a file is
// the panic of its DELTA_BINARY_PACKED encoder (v18.8.0): with some nested
// INT64 columns cut into small pages, FlushValues slices its sink's buffer
// beyond its length ("slice bounds out of range", recovered by WriteBatch
// as "unknown error type"; seed 589 of the generator's fuzzer, a column of
// 3,308 levels and 1,994 values in pages of 2,048 bytes). The
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encoders code their
// lengths with it and panic alike when the column writer's Close flushes
// the last page, which nothing recovers but writeArrow (seed 12305771:
// pages of 128 bytes, GZIP, data page v2), seen in the stack. The same
// rows with those columns PLAIN write and read; arrow-go's earlier panics
// of this encoder: apache/arrow#37102.
func arrowDeltaPanic(err error, desc string) bool {
	msg := err.Error()
	if errors.Is(err, errArrowDeltaEncoder) {
		return true
	}
	return strings.Contains(desc, "DELTA_BINARY_PACKED") && strings.Contains(msg, "unknown error type") &&
		strings.Contains(msg, "slice bounds out of range")
}

// arrowEncodings are the non-dictionary encodings arrow-go writes, by
// physical type.
var arrowEncodings = map[parquet.Type][]parquet.Encoding{
	parquet.Types.Int32:             {parquet.Encodings.Plain, parquet.Encodings.DeltaBinaryPacked, parquet.Encodings.ByteStreamSplit},
	parquet.Types.Int64:             {parquet.Encodings.Plain, parquet.Encodings.DeltaBinaryPacked, parquet.Encodings.ByteStreamSplit},
	parquet.Types.Float:             {parquet.Encodings.Plain, parquet.Encodings.ByteStreamSplit},
	parquet.Types.Double:            {parquet.Encodings.Plain, parquet.Encodings.ByteStreamSplit},
	parquet.Types.ByteArray:         {parquet.Encodings.Plain, parquet.Encodings.DeltaLengthByteArray, parquet.Encodings.DeltaByteArray},
	parquet.Types.FixedLenByteArray: {parquet.Encodings.Plain, parquet.Encodings.ByteStreamSplit},
}

// writeColumn writes rendered values (see physical) with their levels.
func writeColumn(cw file.ColumnChunkWriter, vals []string, def, rep []int16) error {
	var err error
	switch c := cw.(type) {
	case *file.BooleanColumnChunkWriter:
		v := make([]bool, len(vals))
		for i, s := range vals {
			v[i] = s == "true"
		}
		_, err = c.WriteBatch(v, def, rep)
	case *file.Int32ColumnChunkWriter:
		v := make([]int32, len(vals))
		for i, s := range vals {
			x, perr := strconv.ParseInt(s, 10, 32)
			if perr != nil {
				return perr
			}
			v[i] = int32(x)
		}
		_, err = c.WriteBatch(v, def, rep)
	case *file.Int64ColumnChunkWriter:
		v := make([]int64, len(vals))
		for i, s := range vals {
			x, perr := strconv.ParseInt(s, 10, 64)
			if perr != nil {
				return perr
			}
			v[i] = x
		}
		_, err = c.WriteBatch(v, def, rep)
	case *file.Int96ColumnChunkWriter:
		v := make([]parquet.Int96, len(vals))
		for i, s := range vals {
			copy(v[i][:], s)
		}
		_, err = c.WriteBatch(v, def, rep)
	case *file.Float32ColumnChunkWriter:
		v := make([]float32, len(vals))
		for i, s := range vals {
			x, perr := parseBits(s, "f", 32)
			if perr != nil {
				return perr
			}
			v[i] = math.Float32frombits(uint32(x))
		}
		_, err = c.WriteBatch(v, def, rep)
	case *file.Float64ColumnChunkWriter:
		v := make([]float64, len(vals))
		for i, s := range vals {
			x, perr := parseBits(s, "d", 64)
			if perr != nil {
				return perr
			}
			v[i] = math.Float64frombits(x)
		}
		_, err = c.WriteBatch(v, def, rep)
	case *file.ByteArrayColumnChunkWriter:
		v := make([]parquet.ByteArray, len(vals))
		for i, s := range vals {
			v[i] = []byte(s)
		}
		_, err = c.WriteBatch(v, def, rep)
	case *file.FixedLenByteArrayColumnChunkWriter:
		v := make([]parquet.FixedLenByteArray, len(vals))
		for i, s := range vals {
			v[i] = []byte(s)
		}
		_, err = c.WriteBatch(v, def, rep)
	default:
		return fmt.Errorf("unexpected column writer %T", cw)
	}
	return err
}

func parseBits(s, prefix string, bits int) (uint64, error) {
	h, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return 0, fmt.Errorf("%q is not a rendered float", s)
	}
	return strconv.ParseUint(h, 16, bits)
}
