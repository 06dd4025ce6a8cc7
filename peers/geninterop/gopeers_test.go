package geninterop

// The Go peers: arrow-go (pqarrow) and parquet-go read files into
// canonical rows, and write files from the rows they read.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pgo "github.com/parquet-go/parquet-go"

	"github.com/pqgen/pqgen/peers/internal/dremel"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// arrowTable reads a file with pqarrow, leaving out the top-level fields
// in skip (by the leaves of schema s under them).
func arrowTable(s *schema.Schema, data []byte, skip map[string]bool) (tbl arrow.Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	if len(skip) == 0 {
		return fr.ReadTable(context.Background())
	}
	var cols, rgs []int
	for _, l := range s.Leaves {
		top := l
		for top.Parent != s.Root {
			top = top.Parent
		}
		if !skip[top.Name] {
			cols = append(cols, l.Column)
		}
	}
	for i := 0; i < rdr.NumRowGroups(); i++ {
		rgs = append(rgs, i)
	}
	return fr.ReadRowGroups(context.Background(), cols, rgs)
}

// arrowRows reads a file with arrow-go into canonical rows; a left-out
// field is nil in every row.
func arrowRows(s *schema.Schema, data []byte, skip map[string]bool) (rows [][]any, err error) {
	tbl, err := arrowTable(s, data, skip)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("canonical form of arrow-go's table: %v", r)
		}
	}()
	rows = make([][]any, tbl.NumRows())
	for i := range rows {
		rows[i] = make([]any, len(s.Root.Children))
	}
	for c := 0; c < int(tbl.NumCols()); c++ {
		name := tbl.Schema().Field(c).Name
		fi := -1
		for k, n := range s.Root.Children {
			if n.Name == name {
				fi = k
			}
		}
		if fi < 0 {
			return nil, fmt.Errorf("arrow-go field %q is not in the schema", name)
		}
		r := 0
		for _, ch := range tbl.Column(c).Data().Chunks() {
			for i := 0; i < ch.Len(); i++ {
				rows[r][fi] = canonArrowGo(ch, i, s.Root.Children[fi])
				r++
			}
		}
	}
	return rows, nil
}

// canonArrowGo is the canonical value of slot i of an arrow-go array of
// schema node n (n decides only the form of FIXED_LEN_BYTE_ARRAY values:
// UUID, FLOAT16, DECIMAL or hex).
func canonArrowGo(a arrow.Array, i int, n *schema.Node) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Map:
		kv := n.Children[0]
		from, to := a.ValueOffsets(i)
		out := mapV{}
		for e := int(from); e < int(to); e++ {
			out = append(out, [2]any{canonArrowGo(a.Keys(), e, kv.Children[0]), canonArrowGo(a.Items(), e, kv.Children[1])})
		}
		return out
	case array.ListLike:
		elem := n.Children[0].Children[0]
		from, to := a.ValueOffsets(i)
		out := []any{}
		for e := int(from); e < int(to); e++ {
			out = append(out, canonArrowGo(a.ListValues(), e, elem))
		}
		return out
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		out := map[string]any{}
		for j := 0; j < a.NumField(); j++ {
			out[st.Field(j).Name] = canonArrowGo(a.Field(j), i, n.Children[j])
		}
		return out
	case array.ExtensionArray:
		return canonArrowGo(a.Storage(), i, n)
	case *array.Dictionary:
		return canonArrowGo(a.Dictionary(), a.GetValueIndex(i), n)
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10)
	case *array.Float16:
		return flt(a.Value(i).Float32())
	case *array.Float32:
		return flt(a.Value(i))
	case *array.Float64:
		return flt(a.Value(i))
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.Binary:
		return hexV(a.Value(i))
	case *array.LargeBinary:
		return hexV(a.Value(i))
	case *array.FixedSizeBinary:
		if n.Logical.Kind == meta.LogicalUUID || n.Logical.Kind == meta.LogicalFloat16 || n.Logical.Kind == meta.LogicalDecimal {
			return canonPhys(n, a.Value(i))
		}
		return hexV(a.Value(i))
	case *array.Decimal128:
		return decimalString(a.Value(i).BigInt(), a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Decimal256:
		return decimalString(a.Value(i).BigInt(), a.DataType().(*arrow.Decimal256Type).Scale)
	case *array.Date32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Timestamp:
		u := a.DataType().(*arrow.TimestampType).Unit
		return scaled(int64(a.Value(i)), int64(u.Multiplier()))
	case *array.Time32:
		u := a.DataType().(*arrow.Time32Type).Unit
		return scaled(int64(a.Value(i)), int64(u.Multiplier()))
	case *array.Time64:
		u := a.DataType().(*arrow.Time64Type).Unit
		return scaled(int64(a.Value(i)), int64(u.Multiplier()))
	case *array.MonthDayNanoInterval:
		v := a.Value(i)
		b := make([]byte, 12)
		putU32(b, uint32(v.Months))
		putU32(b[4:], uint32(v.Days))
		putU32(b[8:], uint32(v.Nanoseconds/1e6))
		return hexV(b)
	}
	return map[string]any{"$unsupported": a.DataType().String()}
}

func putU32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// arrowRewrite reads a file with pqarrow and writes its table back with
// pqarrow (the Arrow schema stored, compliant nested types) in the given
// writer properties.
func arrowRewrite(s *schema.Schema, data []byte, props *parquet.WriterProperties) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	tbl, err := arrowTable(s, data, nil)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &buf, 1000, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pgoRows reads a file with parquet-go's row API (levels and physical
// values per column) and assembles canonical rows from them with the
// file's schema s.
func pgoRows(s *schema.Schema, data []byte) (rows [][]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parquet-go: %v", r)
		}
	}()
	f, err := pgo.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	buf := make([]pgo.Row, 64)
	for _, rg := range f.RowGroups() {
		rr := rg.Rows()
		for {
			n, err := rr.ReadRows(buf)
			for _, row := range buf[:n] {
				r, err := assembleRow(s, row)
				if err != nil {
					return nil, fmt.Errorf("row %d: %w", len(rows), err)
				}
				rows = append(rows, r)
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
		}
		if err := rr.Close(); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// pgoRewrite reads every row of a file with parquet-go and writes them
// with parquet-go's writer, with the file's schema and the given options.
func pgoRewrite(data []byte, opts ...pgo.WriterOption) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parquet-go panicked: %v", r)
		}
	}()
	f, err := pgo.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	w := pgo.NewWriter(&b, append([]pgo.WriterOption{f.Schema()}, opts...)...)
	buf := make([]pgo.Row, 64)
	for _, rg := range f.RowGroups() {
		rr := rg.Rows()
		for {
			n, err := rr.ReadRows(buf)
			if _, werr := w.WriteRows(buf[:n]); werr != nil {
				return nil, werr
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
		}
		if err := rr.Close(); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pgoPhys is the physical value of a parquet-go value (see canonPhys).
func pgoPhys(v pgo.Value) any {
	switch v.Kind() {
	case pgo.Boolean:
		return v.Boolean()
	case pgo.Int32:
		return v.Int32()
	case pgo.Int64:
		return v.Int64()
	case pgo.Int96:
		x := v.Int96()
		b := make([]byte, 12)
		for k := 0; k < 3; k++ {
			putU32(b[4*k:], x[k])
		}
		return b
	case pgo.Float:
		return v.Float()
	case pgo.Double:
		return v.Double()
	}
	return append([]byte{}, v.ByteArray()...)
}

// rowAssembler holds one row's values, column by column, as
// dremel.Columns.
type rowAssembler struct {
	cols [][]pgo.Value
	pos  []int
}

// assembleRow rebuilds a row of schema s from its parquet-go values.
func assembleRow(s *schema.Schema, row pgo.Row) (out []any, err error) {
	a := &rowAssembler{cols: make([][]pgo.Value, len(s.Leaves)), pos: make([]int, len(s.Leaves))}
	for _, v := range row {
		c := v.Column()
		if c < 0 || c >= len(a.cols) {
			return nil, fmt.Errorf("value of column %d, schema has %d", c, len(a.cols))
		}
		a.cols[c] = append(a.cols[c], v)
	}
	asm := dremel.Assembler{Cols: a, Forms: forms}
	for _, n := range s.Root.Children {
		out = append(out, asm.Field(n))
	}
	for c := range a.cols {
		if a.pos[c] != len(a.cols[c]) {
			return nil, fmt.Errorf("column %s: %d of %d values used", s.Leaves[c].PathString(), a.pos[c], len(a.cols[c]))
		}
	}
	return out, nil
}

func (a *rowAssembler) Levels(col int) (def, rep int, ok bool) {
	if a.pos[col] >= len(a.cols[col]) {
		return 0, 0, false
	}
	v := a.cols[col][a.pos[col]]
	return v.DefinitionLevel(), v.RepetitionLevel(), true
}

func (a *rowAssembler) Skip(col int) { a.pos[col]++ }

func (a *rowAssembler) Value(n *schema.Node) any {
	v := a.cols[n.Column][a.pos[n.Column]]
	a.pos[n.Column]++
	return canonPhys(n, pgoPhys(v))
}

// forms are the canonical groups (map[string]any by field name) and maps
// (mapV).
var forms = dremel.Forms{
	Group: func(n *schema.Node, vals []any) any {
		out := map[string]any{}
		for i, c := range n.Children {
			out[c.Name] = vals[i]
		}
		return out
	},
	Child: func(n *schema.Node, g any, i int) any { return g.(map[string]any)[n.Children[i].Name] },
	Map:   func(pairs [][2]any) any { return mapV(pairs) },
}
