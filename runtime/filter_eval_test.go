package runtime

import (
	"slices"
	"testing"
)

// TestEvalRowsSlabs checks evalRows' And, Or and Not on fixed leaf results
// and that a batch after the first allocates nothing.
func TestEvalRowsSlabs(t *testing.T) {
	a, b, c := &predLeaf{path: "a"}, &predLeaf{path: "b"}, &predLeaf{path: "c"}
	res := map[*predLeaf][]bool{
		a: {true, true, false, false, true},
		b: {true, false, true, false, true},
		c: {false, false, false, true, true},
	}
	var sl boolSlabs
	leaf := func(p *predLeaf) []bool {
		out := sl.take(5)
		copy(out, res[p])
		return out
	}
	// (a AND NOT b) OR c
	p := &predOr{ps: []Predicate{&predAnd{ps: []Predicate{a, &predNot{p: b}}}, c}}
	want := []bool{false, true, false, true, true}
	for round := range 3 {
		sl.reset()
		if got := evalRows(p, 5, &sl, leaf, nil); !slices.Equal(got, want) {
			t.Fatalf("round %d: %v, want %v", round, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		sl.reset()
		evalRows(p, 5, &sl, leaf, nil)
	}); n != 0 {
		t.Fatalf("a later batch allocated %v times", n)
	}
	// A shorter batch reuses the slices, cleared.
	sl.reset()
	if got := evalRows(&predOr{ps: []Predicate{a}}, 2, &sl, func(*predLeaf) []bool { return sl.take(2) }, nil); !slices.Equal(got, []bool{false, false}) {
		t.Fatalf("short batch: %v", got)
	}
}
