package inspect

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFileGroups: inspect names FILE groups as references, with what
// their values can resolve to given their fields, and the role of each of
// their leaves; a group breaking the type's rules is flagged.
func TestFileGroups(t *testing.T) {
	w, buf := newWriter(t, `message m {
  optional group doc (FILE) {
    optional binary uri (STRING);
    optional int64 offset;
    optional int64 size;
    optional binary content_type (STRING);
    optional binary checksum (STRING);
    optional binary inline;
  }
  optional group thumb (FILE) { optional binary inline; optional binary content_type (STRING); }
  optional group ext (FILE) { optional binary uri (STRING); optional int64 size; }
  optional group bad (FILE) { optional int64 mtime; }
}`)
	r := closeAndBuild(t, w, buf, 0)
	want := []FileGroup{
		{Path: "doc", Fields: []string{"uri", "offset", "size", "content_type", "checksum", "inline"},
			Resolves: []string{"inline bytes", "a range of this file", "an external URI (whole file, or a range with offset and size)"}},
		{Path: "thumb", Fields: []string{"inline", "content_type"}, Resolves: []string{"inline bytes"}},
		{Path: "ext", Fields: []string{"uri", "size"}, Resolves: []string{"an external URI (whole file, or its first size bytes)"}},
		{Path: "bad", Fields: []string{"mtime"}, Resolves: []string{"nothing: no value of this group can resolve"},
			Problem: `invalid FILE reference: FILE group bad: field "mtime" is not one of uri, offset, size, content_type, checksum, inline`},
	}
	if d := cmp.Diff(want, r.FileGroups); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	wantLines(t, r,
		"FILE references (preview):\n  doc: fields uri, offset, size, content_type, checksum, inline; resolves to inline bytes, a range of this file, an external URI (whole file, or a range with offset and size)\n",
		"  thumb: fields inline, content_type; resolves to inline bytes\n",
		"  0 doc.uri: binary (STRING), optional, max def 2, max rep 0, order TYPE_ORDER; uri of the FILE reference doc\n")
}
