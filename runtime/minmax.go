// Minimum and maximum of a page's integers, for the chunk and page
// statistics (write_values.go: statsInt32, ...). The writer takes them
// over every value it writes, so the loop runs four independent pairs of
// accumulators: a single pair makes each step wait on the previous
// compare, four let the processor overlap them.

package runtime

import "unsafe"

// integer is the element types minMax handles.
type integer interface {
	~int32 | ~int64 | ~uint32 | ~uint64
}

// minMax returns the least and greatest of src. Precondition: len(src) > 0.
func minMax[T integer](src []T) (mn, mx T) {
	m0, m1, m2, m3 := src[0], src[0], src[0], src[0]
	x0, x1, x2, x3 := m0, m0, m0, m0
	i := 0
	for ; i+4 <= len(src); i += 4 {
		s := src[i : i+4 : i+4]
		m0, x0 = min(m0, s[0]), max(x0, s[0])
		m1, x1 = min(m1, s[1]), max(x1, s[1])
		m2, x2 = min(m2, s[2]), max(x2, s[2])
		m3, x3 = min(m3, s[3]), max(x3, s[3])
	}
	for _, v := range src[i:] {
		m0, x0 = min(m0, v), max(x0, v)
	}
	return min(m0, m1, m2, m3), max(x0, x1, x2, x3)
}

// minMaxPlain is minMax's plain twin (one pair of accumulators), which
// the differential test and the benchmark compare it with.
func minMaxPlain[T integer](src []T) (mn, mx T) {
	mn, mx = src[0], src[0]
	for _, v := range src[1:] {
		mn, mx = min(mn, v), max(mx, v)
	}
	return mn, mx
}

// asUint32 returns src's values as unsigned integers, sharing its memory
// (the bits are the same; the order differs).
func asUint32(src []int32) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(src))), len(src))
}

// asUint64 is asUint32 for 64-bit values.
func asUint64(src []int64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(src))), len(src))
}
