package runtime

import "testing"

func TestMapSize(t *testing.T) {
	for _, c := range []struct {
		name  string
		rep   []uint8
		at    int
		level uint8
		want  int
	}{
		{"one entry, last slot", []uint8{0}, 0, 1, 1},
		{"one entry, next row", []uint8{0, 0, 1}, 0, 1, 1},
		{"three entries, then a row", []uint8{0, 1, 1, 0, 1}, 0, 1, 3},
		{"the second row's map", []uint8{0, 1, 1, 0, 1}, 3, 1, 2},
		{"lists in the values are within their entries", []uint8{0, 2, 2, 1, 1, 2, 0}, 0, 1, 3},
		{"an inner map ends at its outer entry", []uint8{1, 2, 2, 1, 2}, 0, 2, 3},
		{"an inner map's lists", []uint8{0, 3, 2, 3, 3, 2, 1}, 0, 2, 3},
		{"a map in a list: its first entry at the list's level", []uint8{1, 2, 2, 2}, 0, 2, 4},
	} {
		if got := MapSize(c.rep, c.at, c.level); got != c.want {
			t.Errorf("%s: MapSize(%v, %d, %d) = %d, want %d", c.name, c.rep, c.at, c.level, got, c.want)
		}
	}
}
