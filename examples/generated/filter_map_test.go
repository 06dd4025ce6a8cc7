package generated

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// mapOrders returns n orders whose attrs (nil, empty or up to four
// entries) and discounts (nil, empty or up to two keys) drift with the
// row: row i draws keys from k<i*100/n> to k<i*100/n+9> and values from
// v<i*100/n> to v<i*100/n+19> (three digits), so row groups and pages hold different
// ranges and their statistics prune.
func mapOrders(n int) []Order {
	r := rand.New(rand.NewPCG(17, 3))
	rows := orders(n)
	for i := range rows {
		base := i * 100 / n
		key := func() string { return fmt.Sprintf("k%02d", base+r.IntN(10)) }
		switch r.IntN(5) {
		case 0:
			rows[i].Attrs = nil
		case 1:
			rows[i].Attrs = map[string]string{}
		default:
			rows[i].Attrs = map[string]string{}
			for range 1 + r.IntN(4) {
				rows[i].Attrs[key()] = fmt.Sprintf("v%03d", base+r.IntN(20))
			}
		}
		switch r.IntN(3) {
		case 0:
			rows[i].Discounts = nil
		case 1:
			rows[i].Discounts = map[string][]int32{}
		default:
			rows[i].Discounts = map[string][]int32{"d" + key(): {int32(i)}}
		}
	}
	return rows
}

// TestFilterMapAny checks the predicates of map keys and values (AnyKey,
// AnyValue) against brute force, and that chunk and page statistics prune
// them.
func TestFilterMapAny(t *testing.T) {
	const n = 20_000
	rows := mapOrders(n)
	data := writeAll(t, rows, []runtime.WriterOption{runtime.WithRowGroupSize(128 << 10), runtime.WithPageSize(8 << 10)}, NewOrderWriter)
	anyKey := func(o *Order, f func(string) bool) bool {
		for k := range o.Attrs {
			if f(k) {
				return true
			}
		}
		return false
	}
	anyValue := func(o *Order, f func(string) bool) bool {
		for _, v := range o.Attrs {
			if f(v) {
				return true
			}
		}
		return false
	}
	eq := func(s string) func(string) bool { return func(x string) bool { return x == s } }
	cases := []filterCase{
		{"key = k03", OrderWhere.Attrs.AnyKey().Eq("k03"), func(o *Order) bool { return anyKey(o, eq("k03")) }, 0.3},
		{"key in", OrderWhere.Attrs.AnyKey().In("k50", "k99", "x"), func(o *Order) bool { return anyKey(o, eq("k50")) || anyKey(o, eq("k99")) }, 0.5},
		{"key < k05", OrderWhere.Attrs.AnyKey().Lt("k05"), func(o *Order) bool { return anyKey(o, func(s string) bool { return s < "k05" }) }, 0.3},
		{"key between", OrderWhere.Attrs.AnyKey().Between("k40", "k42"), func(o *Order) bool {
			return anyKey(o, func(s string) bool { return s >= "k40" && s <= "k42" })
		}, 0.4},
		{"key != k00", OrderWhere.Attrs.AnyKey().NotEq("k00"), func(o *Order) bool { return anyKey(o, func(s string) bool { return s != "k00" }) }, 1.3},
		{"no key k03", runtime.Not(OrderWhere.Attrs.AnyKey().Eq("k03")), func(o *Order) bool { return !anyKey(o, eq("k03")) }, 1.1},
		{"absent key", OrderWhere.Attrs.AnyKey().Eq("zzz"), func(*Order) bool { return false }, 0.1},
		{"value = v007", OrderWhere.Attrs.AnyValue().Eq("v007"), func(o *Order) bool { return anyValue(o, eq("v007")) }, 0.3},
		{"value >= v110", OrderWhere.Attrs.AnyValue().Ge("v110"), func(o *Order) bool { return anyValue(o, func(s string) bool { return s >= "v110" }) }, 0.4},
		// Two predicates on one map may hold on different entries.
		{"key k60 and value v070", runtime.And(OrderWhere.Attrs.AnyKey().Eq("k60"), OrderWhere.Attrs.AnyValue().Eq("v070")), func(o *Order) bool {
			return anyKey(o, eq("k60")) && anyValue(o, eq("v070"))
		}, 0.4},
		{"discount key", OrderWhere.Discounts.AnyKey().Eq("dk33"), func(o *Order) bool {
			_, ok := o.Discounts["dk33"]
			return ok
		}, 0.4},
		{"key or discount key", runtime.Or(OrderWhere.Attrs.AnyKey().Eq("k20"), OrderWhere.Discounts.AnyKey().Eq("dk80")), func(o *Order) bool {
			_, ok := o.Discounts["dk80"]
			return ok || anyKey(o, eq("k20"))
		}, 0.6},
	}
	checkFilterCases(t, data, rows, cases)
	// A map key is no plain column.
	checkPlainRefused(t, data, "attrs.key_value.key")
}
