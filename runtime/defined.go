// Defined and Mixed: the slots of a stretch of definition levels that
// hold a value, found without a branch per slot. A top-level optional
// field's level slots are its rows (one slot per row, level 1 when the
// row holds a value:
// https://parquet.apache.org/docs/file-format/nestedencoding/).
//
// A generated reader fills such a field testing each row's level, unless
// rows with and without a value are mixed (Mixed): which rows are null
// then follows no pattern a processor can predict, and a mispredicted
// branch every other row costs more than the rest of the loop, so it
// fills the rows Defined returns instead. A generated writer does the
// same when the last batch's rows were mixed: it sets the levels first,
// without a branch, then takes the values of Defined's rows. A pointer
// field of 4,096 rows (microbenchmark, 64 random patterns): half null,
// 17.6 µs tested row by row, 5.2 µs from Defined's rows; none null,
// 3.2 µs tested row by row, 7.0 µs from Defined's rows.

package runtime

// Defined stores in dst the indexes i of the entries def[i] equal to
// level among the len(dst) entries from def[from] on (fewer at the end
// of def), in order, and returns them. Precondition: 0 <= from <=
// len(def).
//
// For generated code (see "For generated code" in the package doc).
func Defined(dst []int32, def []uint8, from int, level uint8) []int32 {
	def = def[from:min(from+len(dst), len(def))]
	dst = dst[:len(def)]
	j := 0
	for i, d := range def {
		dst[j] = int32(from + i)
		// One more when d == level: d^level - 1 wraps to its top bit set
		// only for 0.
		j += int((uint32(d^level) - 1) >> 31)
	}
	return dst[:j]
}

// Mixed reports whether, of rows rows of which values hold a value, both
// kinds make up at least a sixteenth: a test of each row's level then
// mispredicts often enough that Defined's rows are the faster walk.
//
// For generated code (see "For generated code" in the package doc).
func Mixed(values, rows int) bool {
	return 16*values >= rows && 16*(rows-values) >= rows
}
