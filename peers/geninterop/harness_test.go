package geninterop

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestCanonHarness checks the comparison and the exception checks on
// values that must and must not match, so that the matrix cannot pass by
// comparing nothing.
func TestCanonHarness(t *testing.T) {
	var decoded []any
	if err := json.Unmarshal([]byte(`["-0","NaN","Infinity","0.1",{"$hex":"00ff"},"-12.30",[null,"3"],{"a":"1"},[["k",null],["a","2"]]]`), &decoded); err != nil {
		t.Fatal(err)
	}
	want := []any{flt(math.Copysign(0, -1)), flt(math.NaN()), flt(math.Inf(1)), flt(0.1), hexV([]byte{0, 0xff}), "-12.30",
		[]any{nil, "3"}, map[string]any{"a": "1"}, mapV{{"a", "2"}, {"k", nil}}}
	for i := range want {
		if d := diffCanon(want[i], decoded[i]); d != "" {
			t.Errorf("value %d: %s", i, d)
		}
	}
	bad := []any{flt(0), flt(1), flt(math.Inf(-1)), flt(0.1000001), hexV([]byte{0}), "-12.3",
		[]any{"0", "3"}, map[string]any{"b": "1"}, mapV{{"a", "2"}, {"k", "0"}}}
	for i := range bad {
		if diffCanon(bad[i], decoded[i]) == "" {
			t.Errorf("value %d: %s matches %s", i, canonText(bad[i]), canonText(decoded[i]))
		}
	}

	// A form exception that no longer applies, and a bad-values exception
	// whose values the peer gets right, are complaints.
	w := [][]any{{"a"}, {"b"}}
	e := &exception{form: stringAsHex, why: "test"}
	if c := checkField(w, w, 0, "f", e); len(c) == 0 || !strings.Contains(c[len(c)-1], "remove the exception") {
		t.Errorf("stale form exception: %q", c)
	}
	if c := checkField(w, [][]any{{hexV([]byte("a"))}, {hexV([]byte("b"))}}, 0, "f", e); len(c) != 0 {
		t.Errorf("form exception: %q", c)
	}
	fw := [][]any{{flt(math.Ldexp(1, -24))}, {flt(1)}}
	e = &exception{bad: subnormalFloat, why: "test"}
	if c := checkField(fw, fw, 0, "f", e); len(c) != 1 || !strings.Contains(c[0], "narrow or remove") {
		t.Errorf("stale bad-values exception: %q", c)
	}
	if c := checkField(fw, [][]any{{flt(0)}, {flt(2)}}, 0, "f", e); len(c) != 1 {
		t.Errorf("a wrong value outside the exception: %q", c)
	}
}
