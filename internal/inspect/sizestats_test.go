package inspect

import "testing"

// TestEmptySizeStatistics: the size statistics of a required int64 column
// (no byte arrays, no levels) are written empty and shown as such, those
// of an optional string column with its byte count and levels.
func TestEmptySizeStatistics(t *testing.T) {
	w, buf := newWriter(t, "message m { required int64 n; optional binary s (STRING); }")
	n, _ := w.Int64Buffer(0)
	n.Values = append(n.Values, 1, 2)
	b, _ := w.ByteArrayBuffer(1)
	b.Values.AppendString("abc")
	b.Def = append(b.Def, 1, 0)
	wantLines(t, closeAndBuild(t, w, buf, 2),
		"    size statistics: empty\n",
		"    size statistics: unencoded byte-array bytes 3 definition levels [1 1]\n")
}
