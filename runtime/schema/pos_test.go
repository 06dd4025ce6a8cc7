package schema

import "testing"

// TestParsePositions: Parse records where each node is declared (its
// first token: "message" or the repetition), past comments and quoted
// names that contain keywords.
func TestParsePositions(t *testing.T) {
	text := "# required int32 x;\nmessage m {\n  required int32 a; // optional int32 y;\n" +
		"  optional group \"required g\" {\n    repeated binary b;\n  }\n  optional int64 c = 7;\n}\n"
	s, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	g := s.Root.Children[1]
	for _, c := range []struct {
		n    *Node
		want string
	}{
		{s.Root, "2:1"}, {s.Root.Children[0], "3:3"}, {g, "4:3"}, {g.Children[0], "5:5"}, {s.Root.Children[2], "7:3"},
	} {
		if !c.n.Pos.IsValid() || c.n.Pos.String() != c.want {
			t.Errorf("%q at %v, want %s", c.n.Name, c.n.Pos, c.want)
		}
	}
	// A schema built from elements has no positions.
	s2, err := FromElements(s.Elements())
	if err != nil {
		t.Fatal(err)
	}
	if s2.Root.Children[0].Pos.IsValid() {
		t.Errorf("a schema from elements has position %v", s2.Root.Children[0].Pos)
	}
}
