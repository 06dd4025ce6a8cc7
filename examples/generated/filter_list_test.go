package generated

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
)

// listOrders returns n orders whose tags (nil, empty or up to four) and
// notes (with null elements) drift with the row: row i draws from the
// tags t<i*100/n> to t<i*100/n+9>, so row groups and pages hold different
// ranges and their statistics prune.
func listOrders(n int) []Order {
	r := rand.New(rand.NewPCG(16, 2))
	rows := orders(n)
	for i := range rows {
		base := i * 100 / n
		tag := func() string { return fmt.Sprintf("t%02d", base+r.IntN(10)) }
		switch r.IntN(5) {
		case 0:
			rows[i].Tags = nil
		case 1:
			rows[i].Tags = []string{}
		default:
			rows[i].Tags = nil
			for range 1 + r.IntN(4) {
				rows[i].Tags = append(rows[i].Tags, tag())
			}
		}
		rows[i].Notes = nil
		for range r.IntN(3) {
			if r.IntN(3) == 0 {
				rows[i].Notes = append(rows[i].Notes, nil)
			} else {
				rows[i].Notes = append(rows[i].Notes, ptr(tag()))
			}
		}
	}
	return rows
}

// TestFilterListAny checks the predicates of list elements (Any) against
// brute force, and that chunk and page statistics prune them.
func TestFilterListAny(t *testing.T) {
	const n = 20_000
	rows := listOrders(n)
	data := writeAll(t, rows, []runtime.WriterOption{runtime.WithRowGroupSize(128 << 10), runtime.WithPageSize(8 << 10)}, NewOrderWriter)
	anyTag := func(o *Order, f func(string) bool) bool { return slices.ContainsFunc(o.Tags, f) }
	anyNote := func(o *Order, f func(string) bool) bool {
		return slices.ContainsFunc(o.Notes, func(s *string) bool { return s != nil && f(*s) })
	}
	cases := []filterCase{
		{"any tag = t03", OrderWhere.Tags.Any().Eq("t03"), func(o *Order) bool { return anyTag(o, func(s string) bool { return s == "t03" }) }, 0.3},
		{"any tag in", OrderWhere.Tags.Any().In("t50", "t99", "x"), func(o *Order) bool {
			return anyTag(o, func(s string) bool { return s == "t50" || s == "t99" })
		}, 0.5},
		{"any tag < t05", OrderWhere.Tags.Any().Lt("t05"), func(o *Order) bool { return anyTag(o, func(s string) bool { return s < "t05" }) }, 0.3},
		{"any tag between", OrderWhere.Tags.Any().Between("t40", "t42"), func(o *Order) bool {
			return anyTag(o, func(s string) bool { return s >= "t40" && s <= "t42" })
		}, 0.4},
		{"any tag != t00", OrderWhere.Tags.Any().NotEq("t00"), func(o *Order) bool { return anyTag(o, func(s string) bool { return s != "t00" }) }, 1.3},
		{"no tag = t03", runtime.Not(OrderWhere.Tags.Any().Eq("t03")), func(o *Order) bool {
			return !anyTag(o, func(s string) bool { return s == "t03" })
		}, 1.1},
		{"absent tag", OrderWhere.Tags.Any().Eq("zzz"), func(*Order) bool { return false }, 0.1},
		{"any note >= t95 and id odd", runtime.And(OrderWhere.Notes.Any().Ge("t95"), runtime.Not(OrderWhere.ID.In(0, 2, 4))), func(o *Order) bool {
			return anyNote(o, func(s string) bool { return s >= "t95" }) && o.ID != 0 && o.ID != 2 && o.ID != 4
		}, 0.3},
		{"tag or note", runtime.Or(OrderWhere.Tags.Any().Eq("t20"), OrderWhere.Notes.Any().Eq("t70")), func(o *Order) bool {
			return anyTag(o, func(s string) bool { return s == "t20" }) || anyNote(o, func(s string) bool { return s == "t70" })
		}, 0.6},
	}
	checkFilterCases(t, data, rows, cases)
	// The element of a list is no plain column.
	checkPlainRefused(t, data, "tags.list.element")
}

// filterCase is a predicate on orders, the brute-force test of the rows
// it keeps, and the share of the file's bytes its read may take (the
// predicate's columns twice when nothing prunes).
type filterCase struct {
	name     string
	p        runtime.Predicate
	keep     func(*Order) bool
	maxShare float64
}

// checkFilterCases reads data, the file of rows (whose IDs are their
// indexes), with each case's predicate: the rows read must be those keep
// keeps (some, unless the case's name starts with "absent"), in order, as
// written, reading at most maxShare of the bytes;
// and the same with columns decoded at once and read ahead, with and
// without coalesced reads.
func checkFilterCases(t *testing.T, data []byte, rows []Order, cases []filterCase) {
	t.Helper()
	n := int64(len(rows))
	for _, c := range cases {
		var want []int64
		for i := range rows {
			if c.keep(&rows[i]) {
				want = append(want, rows[i].ID)
			}
		}
		if len(want) == 0 && !strings.HasPrefix(c.name, "absent") {
			t.Fatalf("%s: no row matches: the case tests nothing", c.name)
		}
		cr := &countingReaderAt{r: bytes.NewReader(data)}
		r, err := NewOrderReader(cr, int64(len(data)), runtime.WithFilter(c.p))
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for row, err := range r.All() {
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if i := row.ID; i < 0 || i >= n || len(got) < 100 && !cmp.Equal(row, rows[i], cmpOpts) {
				t.Fatalf("%s: row %d differs from the one written", c.name, i)
			}
			got = append(got, row.ID)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s (%s): %d rows, want %d", c.name, c.p, len(got), len(want))
		}
		share := float64(cr.bytes) / float64(len(data))
		t.Logf("%s: %d rows, read %.1f%% of the bytes", c.name, len(got), 100*share)
		if share > c.maxShare {
			t.Errorf("%s: read %.1f%% of the file, want at most %.0f%%", c.name, 100*share, 100*c.maxShare)
		}
		// The same rows with columns decoded at once and read ahead, and
		// with the reads coalesced (the pages passed over, the column
		// indexes read from several goroutines).
		for _, opts := range [][]runtime.ReaderOption{
			{runtime.WithReadParallelism(2)},
			{runtime.WithReadParallelism(2), runtime.WithReadCoalescing(4<<10, 1<<20)},
		} {
			all := readAllWith(t, data, 1000, NewOrderReader, append(opts, runtime.WithFilter(c.p))...)
			ids := make([]int64, len(all))
			for i := range all {
				ids[i] = all[i].ID
				if i < 100 && !cmp.Equal(all[i], rows[all[i].ID], cmpOpts) {
					t.Fatalf("%s, %d options: row %d differs from the one written", c.name, len(opts), all[i].ID)
				}
			}
			if !slices.Equal(ids, want) {
				t.Fatalf("%s, %d options: %d rows, want %d", c.name, len(opts), len(ids), len(want))
			}
		}
	}
}

// checkPlainRefused checks that a plain (not Any) predicate on the
// repeated string column at path fails the read with ErrFilter.
func checkPlainRefused(t *testing.T, data []byte, path string) {
	t.Helper()
	plain := runtime.NewOrderedField(path, func(b *runtime.ByteArrayBuffer, v string) error {
		b.Values.AppendString(v)
		return nil
	}).Eq("t01")
	r, err := NewOrderReader(bytes.NewReader(data), int64(len(data)), runtime.WithFilter(plain))
	if err == nil {
		_, err = r.Read(make([]Order, 1))
	}
	if !errors.Is(err, runtime.ErrFilter) {
		t.Fatalf("a plain predicate on %s: %v, want ErrFilter", path, err)
	}
}

// driftLines gives the lines of rows (none to three per order) SKUs drawn
// from s<i*100/n> to s<i*100/n+9> in row i of n, quantities from 0 to 9
// and prices drifting with the row, so that statistics prune predicates
// on them; seed seeds the draws.
func driftLines(rows []Order, seed uint64) []Order {
	r := rand.New(rand.NewPCG(seed, 4))
	for i := range rows {
		base := i * 100 / len(rows)
		for j := range rows[i].Lines {
			l := &rows[i].Lines[j]
			l.SKU = fmt.Sprintf("s%02d", base+r.IntN(10))
			l.Quantity = r.Int32N(10)
			l.Price = int64(i)*100 + r.Int64N(100)
		}
	}
	return rows
}

// anyLine reports whether one of o's lines satisfies f.
func anyLine(o *Order, f func(*Line) bool) bool {
	for j := range o.Lines {
		if f(&o.Lines[j]) {
			return true
		}
	}
	return false
}

// TestFilterListOfStructs checks the predicates of the fields of list
// elements that are structs (Lines.Any().SKU, ...) against brute force,
// and that statistics prune them (driftLines).
func TestFilterListOfStructs(t *testing.T) {
	rows := driftLines(orders(20_000), 18)
	data := writeAll(t, rows, []runtime.WriterOption{runtime.WithRowGroupSize(128 << 10), runtime.WithPageSize(8 << 10)}, NewOrderWriter)
	lines := OrderWhere.Lines.Any()
	checkFilterCases(t, data, rows, []filterCase{
		{"sku = s03", lines.SKU.Eq("s03"), func(o *Order) bool { return anyLine(o, func(l *Line) bool { return l.SKU == "s03" }) }, 0.3},
		{"sku in", lines.SKU.In("s50", "s99", "x"), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool { return l.SKU == "s50" || l.SKU == "s99" })
		}, 0.5},
		{"price between", lines.Price.Between(1_000_000, 1_020_000), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool { return l.Price >= 1_000_000 && l.Price <= 1_020_000 })
		}, 0.3},
		{"quantity > 8", lines.Quantity.Gt(8), func(o *Order) bool { return anyLine(o, func(l *Line) bool { return l.Quantity > 8 }) }, 1.3},
		{"no sku s03", runtime.Not(lines.SKU.Eq("s03")), func(o *Order) bool { return !anyLine(o, func(l *Line) bool { return l.SKU == "s03" }) }, 1.1},
		// Two predicates on one list may hold on different elements.
		{"sku s40 and quantity 0", runtime.And(lines.SKU.Eq("s40"), lines.Quantity.Eq(0)), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool { return l.SKU == "s40" }) && anyLine(o, func(l *Line) bool { return l.Quantity == 0 })
		}, 0.4},
		{"absent sku", lines.SKU.Eq("zzz"), func(*Order) bool { return false }, 0.1},
		// Maps and lists inside the elements, and lists in map values.
		{"option key < M", lines.Options.AnyKey().Lt("M"), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool {
				for k := range l.Options {
					if k < "M" {
						return true
					}
				}
				return false
			})
		}, 1.3},
		{"part weight > 0.9", lines.Parts.Any().Weight.Gt(0.9), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool {
				return slices.ContainsFunc(l.Parts, func(p Part) bool { return p.Weight != nil && *p.Weight > 0.9 })
			})
		}, 1.3},
		{"discount value 3", OrderWhere.Discounts.AnyValue().Any().Eq(3), func(o *Order) bool {
			return slices.Contains(o.Discounts["c"], 3)
		}, 1.3},
	})
	checkPlainRefused(t, data, "lines.list.element.sku")
}

// TestFilterDeepElements checks element predicates where elements and
// their parents may be null: the fields of optional structs in an
// optional list inside an optional group (Deep.A.B), of a list of structs
// (Deep.S), and the keys of a map of lists (Deep.M), against brute force.
func TestFilterDeepElements(t *testing.T) {
	rows := deeps(3000)
	data := writeAll(t, rows, []runtime.WriterOption{runtime.WithPageSize(2 << 10)}, NewDeepWriter)
	anyC := func(bs []*DeepB, f func(int32) bool) bool {
		return slices.ContainsFunc(bs, func(b *DeepB) bool { return b != nil && b.C != nil && f(*b.C) })
	}
	ptrs := func(bs []DeepB) []*DeepB {
		out := make([]*DeepB, len(bs))
		for i := range bs {
			out[i] = &bs[i]
		}
		return out
	}
	cases := []struct {
		name string
		p    runtime.Predicate
		keep func(*Deep) bool
	}{
		{"a.b any c < 2^29", DeepWhere.A.B.Any().C.Lt(1 << 29), func(d *Deep) bool {
			return d.A != nil && anyC(d.A.B, func(c int32) bool { return c < 1<<29 })
		}},
		{"s any c >= 2^30", DeepWhere.S.Any().C.Ge(1 << 30), func(d *Deep) bool { return anyC(ptrs(d.S), func(c int32) bool { return c >= 1<<30 }) }},
		{"no s c < 2^30", runtime.Not(DeepWhere.S.Any().C.Lt(1 << 30)), func(d *Deep) bool { return !anyC(ptrs(d.S), func(c int32) bool { return c < 1<<30 }) }},
		{"m any key > 0 or a.n null", runtime.Or(DeepWhere.M.AnyKey().Gt(0), DeepWhere.A.N.IsNull()), func(d *Deep) bool {
			for k := range d.M {
				if k > 0 {
					return true
				}
			}
			return d.A == nil || d.A.N == nil
		}},
		// Two and three levels of repetition.
		{"l any any < M", DeepWhere.L.Any().Any().Lt("M"), func(d *Deep) bool {
			return slices.ContainsFunc(d.L, func(in []*string) bool {
				return slices.ContainsFunc(in, func(s *string) bool { return s != nil && *s < "M" })
			})
		}},
		{"a.b any d any >= m", DeepWhere.A.B.Any().D.Any().Ge("m"), func(d *Deep) bool {
			return d.A != nil && slices.ContainsFunc(d.A.B, func(b *DeepB) bool {
				return b != nil && slices.ContainsFunc(b.D, func(s string) bool { return s >= "m" })
			})
		}},
		{"no s any d any < M", runtime.Not(DeepWhere.S.Any().D.Any().Lt("M")), func(d *Deep) bool {
			return !slices.ContainsFunc(d.S, func(b DeepB) bool { return slices.ContainsFunc(b.D, func(s string) bool { return s < "M" }) })
		}},
		{"m values' keys >= m and values > 2^62", runtime.And(DeepWhere.M.AnyValue().Any().AnyKey().Ge("m"), DeepWhere.M.AnyValue().Any().AnyValue().Gt(1<<62)), func(d *Deep) bool {
			key, val := false, false
			for _, lst := range d.M {
				for _, m := range lst {
					for k, v := range m {
						key = key || k >= "m"
						val = val || v != nil && *v > 1<<62
					}
				}
			}
			return key && val
		}},
	}
	for _, c := range cases {
		var want []int64
		for i := range rows {
			if c.keep(&rows[i]) {
				want = append(want, rows[i].ID)
			}
		}
		if len(want) == 0 || len(want) == len(rows) {
			t.Fatalf("%s: %d of %d rows match: the case tests nothing", c.name, len(want), len(rows))
		}
		for _, opts := range [][]runtime.ReaderOption{nil, {runtime.WithReadParallelism(2)}} {
			all := readAllWith(t, data, 500, NewDeepReader, append(opts, runtime.WithFilter(c.p))...)
			ids := make([]int64, len(all))
			for i := range all {
				ids[i] = all[i].ID
				if !cmp.Equal(all[i], rows[all[i].ID], cmpOpts) {
					t.Fatalf("%s: row %d differs from the one written", c.name, all[i].ID)
				}
			}
			if !slices.Equal(ids, want) {
				t.Fatalf("%s (%s), %d options: %d rows, want %d", c.name, c.p, len(opts), len(ids), len(want))
			}
		}
	}
}

// TestFilterSameElement checks SameElement against brute force: one line
// (one map entry) satisfying a whole predicate, where the Any predicates
// alone may be satisfied by different lines; with And, Or and Not inside,
// and the predicates SameElement refuses.
func TestFilterSameElement(t *testing.T) {
	rows := driftLines(mapOrders(20_000), 19)
	data := writeAll(t, rows, []runtime.WriterOption{runtime.WithRowGroupSize(128 << 10), runtime.WithPageSize(8 << 10)}, NewOrderWriter)
	lines := OrderWhere.Lines.Any()
	sku, qty := lines.SKU, lines.Quantity
	cases := []filterCase{
		{"one line s40 with quantity 0", runtime.SameElement(runtime.And(sku.Eq("s40"), qty.Eq(0))), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool { return l.SKU == "s40" && l.Quantity == 0 })
		}, 0.4},
		{"one line s03 or quantity 9", runtime.SameElement(runtime.Or(sku.Eq("s03"), qty.Eq(9))), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool { return l.SKU == "s03" || l.Quantity == 9 })
		}, 1.3},
		{"one line s50 not of quantity 5", runtime.SameElement(runtime.And(sku.Eq("s50"), runtime.Not(qty.Eq(5)))), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool { return l.SKU == "s50" && l.Quantity != 5 })
		}, 1.3},
		{"a line not s20", runtime.SameElement(runtime.Not(sku.Eq("s20"))), func(o *Order) bool {
			return anyLine(o, func(l *Line) bool { return l.SKU != "s20" })
		}, 1.3},
		{"no line s10 with quantity > 4", runtime.Not(runtime.SameElement(runtime.And(sku.Eq("s10"), qty.Gt(4)))), func(o *Order) bool {
			return !anyLine(o, func(l *Line) bool { return l.SKU == "s10" && l.Quantity > 4 })
		}, 1.3},
		{"entry k60 = v065", runtime.SameElement(runtime.And(OrderWhere.Attrs.AnyKey().Eq("k60"), OrderWhere.Attrs.AnyValue().Eq("v065"))), func(o *Order) bool {
			return o.Attrs["k60"] == "v065"
		}, 0.4},
		{"absent: same line s40 and s41", runtime.SameElement(runtime.And(sku.Eq("s40"), sku.Eq("s41"))), func(*Order) bool { return false }, 0.4},
	}
	// The cases must tell one element from several: the same predicates
	// unwrapped keep more rows.
	for _, c := range cases[:1] {
		loose := 0
		for i := range rows {
			if anyLine(&rows[i], func(l *Line) bool { return l.SKU == "s40" }) && anyLine(&rows[i], func(l *Line) bool { return l.Quantity == 0 }) && !c.keep(&rows[i]) {
				loose++
			}
		}
		if loose == 0 {
			t.Fatalf("%s: no row has the two in different lines only", c.name)
		}
	}
	checkFilterCases(t, data, rows, cases)
	for _, bad := range []runtime.Predicate{
		runtime.SameElement(runtime.And(sku.Eq("s01"), OrderWhere.Tags.Any().Eq("t01"))),   // two lists
		runtime.SameElement(runtime.And(sku.Eq("s01"), lines.Parts.Any().Name.Eq("x"))),    // a list inside
		runtime.SameElement(runtime.And(sku.Eq("s01"), OrderWhere.ID.Eq(1))),               // not an element
		runtime.SameElement(runtime.SameElement(sku.Eq("s01"))),                            // nested
		runtime.SameElement(runtime.And(OrderWhere.Attrs.AnyKey().Eq("k"), sku.Eq("s01"))), // a map and a list
	} {
		rd, err := NewOrderReader(bytes.NewReader(data), int64(len(data)), runtime.WithFilter(bad))
		if err == nil {
			_, err = rd.Read(make([]Order, 1))
		}
		if !errors.Is(err, runtime.ErrFilter) {
			t.Errorf("%s: %v, want ErrFilter", bad, err)
		}
	}
}
