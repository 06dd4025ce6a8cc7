// Minimum and maximum of a page's integers, for the chunk and page
// statistics (write_values.go: statsInt32, ...). The writer takes them
// over every value it writes, so the loop runs four independent pairs of
// accumulators: a single pair makes each step wait on the previous
// compare, four let the processor overlap them.

package runtime

// integer is the element types minMax handles.
type integer interface {
	~int32 | ~int64 | ~uint32 | ~uint64
}

// minMax returns the least and greatest of src's values converted to U:
// U the type of src's elements for their own order, or the unsigned type
// of the same size for the unsigned order of the same bits (the
// conversion compiles to nothing). Precondition: len(src) > 0.
func minMax[U, T integer](src []T) (mn, mx U) {
	m0 := U(src[0])
	m1, m2, m3 := m0, m0, m0
	x0, x1, x2, x3 := m0, m0, m0, m0
	i := 0
	for ; i+4 <= len(src); i += 4 {
		s := src[i : i+4 : i+4]
		a, b, c, d := U(s[0]), U(s[1]), U(s[2]), U(s[3])
		m0, x0 = min(m0, a), max(x0, a)
		m1, x1 = min(m1, b), max(x1, b)
		m2, x2 = min(m2, c), max(x2, c)
		m3, x3 = min(m3, d), max(x3, d)
	}
	for _, v := range src[i:] {
		m0, x0 = min(m0, U(v)), max(x0, U(v))
	}
	return min(m0, m1, m2, m3), max(x0, x1, x2, x3)
}

// minMaxPlain is minMax's plain twin (one pair of accumulators), which
// the differential test and the benchmark compare it with.
func minMaxPlain[U, T integer](src []T) (mn, mx U) {
	mn, mx = U(src[0]), U(src[0])
	for _, v := range src[1:] {
		mn, mx = min(mn, U(v)), max(mx, U(v))
	}
	return mn, mx
}
