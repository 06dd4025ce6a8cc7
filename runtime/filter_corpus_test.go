package runtime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// plainOf returns the PLAIN encoding of a value readColumn returns.
func plainOf(v any) []byte {
	switch x := v.(type) {
	case bool:
		if x {
			return []byte{1}
		}
		return []byte{0}
	case int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(x))
	case int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(x))
	case encode.Int96:
		return x[:]
	case float32:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(x))
	case float64:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(x))
	case string:
		return []byte(x)
	}
	return v.([]byte)
}

// TestFilterCorpus reads files of other writers (old statistics, truncated
// and NaN bounds, null pages, page indexes, bloom filters, decimals,
// INT96, FLOAT16) with random predicates on every non-repeated column and
// checks each filtered read against the unfiltered read filtered by the
// rows' values. The oracle compares values with compareKey, as the
// exact stage does; what this checks is that pruning on the files'
// statistics, page indexes and bloom filters never drops a matching row.
func TestFilterCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	files := []string{"alltypes_tiny_pages.parquet", "alltypes_plain.parquet", "alltypes_dictionary.parquet", "binary_truncated_min_max.parquet",
		"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet", "int32_with_null_pages.parquet",
		"nan_in_stats.parquet", "float16_nonzeros_and_nans.parquet", "float16_zeros_and_nans.parquet", "floating_orders_nan_count.parquet",
		"int32_decimal.parquet", "int64_decimal.parquet", "fixed_length_decimal.parquet", "fixed_length_decimal_legacy.parquet",
		"byte_array_decimal.parquet", "int96_from_spark.parquet", "single_nan.parquet", "sort_columns.parquet", "nulls.snappy.parquet",
		"delta_binary_packed.parquet", "delta_byte_array.parquet", "datapage_v2.snappy.parquet", "rle_boolean_encoding.parquet",
		"byte_stream_split.zstd.parquet", "dict-page-offset-zero.parquet",
		// Repeated columns, for element predicates.
		"list_columns.parquet", "nested_lists.snappy.parquet", "null_list.parquet", "old_list_structure.parquet",
		"repeated_primitive_no_list.parquet", "map_no_value.parquet"}
	r := newRand(160)
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, "data", name))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d predicates, %d on elements", name, checkFilters(t, name, data, r, 40), checkElemFilters(t, name, data, r, 20))
	}
}

// TestFilterDir is TestFilterCorpus over the files of the directory
// PQGEN_FILTER_DIR: peers/genconf's TestWorldWritersRoundTrip runs it on
// the files DuckDB, Polars, arrow-rs, parquetjs and hyparquet-writer
// wrote (encrypted files left out). Without the variable it skips.
func TestFilterDir(t *testing.T) {
	dir := os.Getenv("PQGEN_FILTER_DIR")
	if dir == "" {
		t.Skip("PQGEN_FILTER_DIR is not set: peers/genconf's TestWorldWritersRoundTrip sets it")
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no .parquet files in %s (%v)", dir, err)
	}
	r := newRand(161)
	files, total, elems := 0, 0, 0
	for _, path := range paths {
		name := filepath.Base(path)
		if strings.Contains(name, "encrypted") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		total += checkFilters(t, name, data, r, 60)
		elems += checkElemFilters(t, name, data, r, 20)
		files++
	}
	t.Logf("%d files, %d predicates, %d on elements", files, total, elems)
}

// checkFilters reads data (the file name) with n random predicates on
// random non-repeated columns (fewer when a column has no value for one)
// and checks each filtered read against the unfiltered read filtered by
// the rows' values. It returns the number of predicates checked.
func checkFilters(t *testing.T, name string, data []byte, r *rand.Rand, n int) int {
	t.Helper()
	full, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	f := full.File()
	cols, rows := flatColumns(t, full)
	checked := 0
	for range n {
		pred, match := randomLeaf(f, cols, r)
		if pred == nil {
			continue
		}
		// One in three: the leaf and, or or with another, on another
		// column (pruning takes each leaf's row ranges and combines them).
		if r.IntN(3) == 0 {
			q, qm := randomLeaf(f, cols, r)
			if q != nil {
				and := r.IntN(2) == 0
				if and {
					pred = And(pred, q)
				} else {
					pred = Or(pred, q)
				}
				for i := range match {
					if and {
						match[i] = match[i] && qm[i]
					} else {
						match[i] = match[i] || qm[i]
					}
				}
				if r.IntN(4) == 0 {
					pred = Not(pred)
					for i := range match {
						match[i] = !match[i]
					}
				}
			}
		}
		var want []string
		for i, m := range match {
			if m {
				want = append(want, rows[i])
			}
		}
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithFilter(pred))
		if err != nil {
			t.Fatalf("%s: %s: %v", name, pred, err)
		}
		_, got := flatColumns(t, fr)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %s: %d rows, want %d", name, pred, len(got), len(want))
		}
		checked++
	}
	return checked
}

// randomLeaf returns a random predicate on a random non-repeated column of
// f (its values in cols), negated one time in four, and whether each row
// satisfies it; nil when the column drawn has no value for it.
func randomLeaf(f *File, cols map[int]*struct{ vals [][]byte }, r *rand.Rand) (Predicate, []bool) {
	l := f.Schema.Leaves[r.IntN(len(f.Schema.Leaves))]
	c := cols[l.Column]
	if c == nil || len(c.vals) == 0 {
		return nil, nil
	}
	bl := &boundLeaf{order: predicateOrder(l)}
	op := predOp(r.IntN(int(opNotNull) + 1))
	p := &predLeaf{path: l.PathString(), op: op, phys: l.Type}
	nk := map[predOp]int{opIn: 1 + r.IntN(3), opBetween: 2, opIsNull: 0, opNotNull: 0}
	k, ok := nk[op]
	if !ok {
		k = 1
	}
	for len(p.keys) < k {
		if v := c.vals[r.IntN(len(c.vals))]; v != nil {
			p.keys = append(p.keys, v)
		} else if !slices.ContainsFunc(c.vals, func(b []byte) bool { return b != nil }) {
			break
		}
	}
	if len(p.keys) < k {
		return nil, nil
	}
	pred, neg := finishLeaf(p, bl.order, r)
	match := make([]bool, len(c.vals))
	for i, v := range c.vals {
		match[i] = oracle(p, bl.order, v) != neg
	}
	return pred, match
}

// finishLeaf orders the keys of a BETWEEN leaf p (in order o), names them
// for messages, and negates p one time in four (neg).
func finishLeaf(p *predLeaf, o orderKind, r *rand.Rand) (pred Predicate, neg bool) {
	if p.op == opBetween {
		if cm, _ := compareKey(o, p.keys[0], p.keys[1]); cm > 0 {
			p.keys[0], p.keys[1] = p.keys[1], p.keys[0]
		}
	}
	p.show = make([]string, len(p.keys))
	for i, k := range p.keys {
		p.show[i] = fmt.Sprintf("%x", k)
	}
	if r.IntN(4) == 0 {
		return Not(p), true
	}
	return p, false
}

// oracle evaluates leaf p on one value (nil for null).
func oracle(p *predLeaf, o orderKind, v []byte) bool {
	return bruteOp(p.op, v == nil, p.keys, func(k []byte) (int, bool) { return compareKey(o, v, k) })
}

// flatColumns reads the non-repeated columns of fr: per column, the
// PLAIN value of each row (nil for null), and each row rendered whole.
func flatColumns(t *testing.T, fr *FileReader) (map[int]*struct{ vals [][]byte }, []string) {
	t.Helper()
	cols := map[int]*struct{ vals [][]byte }{}
	var rows []string
	for _, l := range fr.File().Schema.Leaves {
		if l.MaxRep > 0 {
			continue
		}
		cd, err := readColumn(fr, l.Column, 1000)
		if err != nil {
			t.Fatalf("%s: %v", l.PathString(), err)
		}
		c := &struct{ vals [][]byte }{}
		k := 0
		for i := range cd.Rows {
			if l.MaxDef > 0 && cd.Def[i] != l.MaxDef {
				c.vals = append(c.vals, nil)
			} else {
				c.vals = append(c.vals, plainOf(cd.Values[k]))
				k++
			}
			if i == len(rows) {
				rows = append(rows, "")
			}
			if c.vals[i] == nil {
				rows[i] += "null|"
			} else {
				rows[i] += fmt.Sprintf("%x|", c.vals[i])
			}
		}
		cols[l.Column] = c
	}
	return cols, rows
}

// checkElemFilters is checkFilters for element predicates (a row matches
// when some value of a repeated leaf does): n random comparisons, some
// negated, on random repeated leaves outside Variant groups, each
// filtered read checked against the rows of the unfiltered read that
// hold a matching value. It returns the number checked.
func checkElemFilters(t *testing.T, name string, data []byte, r *rand.Rand, n int) int {
	t.Helper()
	open := func(opts ...ReaderOption) *FileReader {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return fr
	}
	f := open().File()
	var leaves []*schema.Node
	for _, l := range f.Schema.Leaves {
		if l.MaxRep > 0 && !underVariant(l) {
			leaves = append(leaves, l)
		}
	}
	if len(leaves) == 0 {
		return 0
	}
	type listCol struct {
		vals [][][]byte
		show []string
		all  [][]byte
	}
	cache := map[int]*listCol{}
	checked := 0
	for range n {
		l := leaves[r.IntN(len(leaves))]
		c := cache[l.Column]
		if c == nil {
			c = &listCol{}
			c.vals, c.show = listRows(t, open(), l.Column)
			for _, v := range c.vals {
				c.all = append(c.all, v...)
			}
			cache[l.Column] = c
		}
		if len(c.all) == 0 {
			continue
		}
		o := predicateOrder(l)
		p := &predLeaf{path: l.PathString(), op: predOp(r.IntN(int(opBetween) + 1)), phys: l.Type, elem: true}
		k := map[predOp]int{opIn: 1 + r.IntN(3), opBetween: 2}[p.op]
		for len(p.keys) < max(k, 1) {
			p.keys = append(p.keys, c.all[r.IntN(len(c.all))])
		}
		pred, neg := finishLeaf(p, o, r)
		var want []string
		for i, vs := range c.vals {
			if slices.ContainsFunc(vs, func(v []byte) bool { return oracle(p, o, v) }) != neg {
				want = append(want, c.show[i])
			}
		}
		if _, got := listRows(t, open(WithFilter(pred)), l.Column); !slices.Equal(got, want) {
			t.Errorf("%s: %s: %d rows, want %d", name, pred, len(got), len(want))
		}
		checked++
	}
	return checked
}

// underVariant reports whether leaf n lies in a VARIANT group.
func underVariant(n *schema.Node) bool {
	for g := n.Parent; g != nil; g = g.Parent {
		if g.Logical.Kind == meta.LogicalVariant {
			return true
		}
	}
	return false
}

// listRows reads repeated leaf col of fr: per row, its values (PLAIN),
// and the row rendered (values, and the definition level of each slot
// without one).
func listRows(t *testing.T, fr *FileReader, col int) ([][][]byte, []string) {
	t.Helper()
	l := fr.File().Schema.Leaves[col]
	cd, err := readColumn(fr, col, 1000)
	if err != nil {
		t.Fatalf("%s: %v", l.PathString(), err)
	}
	var vals [][][]byte
	var show []string
	k := 0
	for i := range cd.Def {
		if cd.Rep[i] == 0 {
			vals, show = append(vals, nil), append(show, "")
		}
		last := len(vals) - 1
		if cd.Def[i] == l.MaxDef {
			v := plainOf(cd.Values[k])
			k++
			vals[last] = append(vals[last], v)
			show[last] += fmt.Sprintf("%x,", v)
		} else {
			show[last] += fmt.Sprintf("d%d,", cd.Def[i])
		}
	}
	return vals, show
}
