// ALP encoding (ALP = 10) for FLOAT and DOUBLE: the page layout and the
// decoder. The format's development head holds the specification
// (AlpEncoding.md of apache/parquet-format, "in preview"):
// https://github.com/apache/parquet-format/blob/master/AlpEncoding.md
//
// A page is a 7-byte header, an offset array of one uint32 per vector and
// the vectors; a vector is AlpInfo (exponent, factor, exception count),
// ForInfo (frame of reference, bit width), the bit-packed deltas, the
// exception positions and the exception values.

package encode

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"
)

// ALP layout constants.
const (
	// ALPHeaderSize is the size of the page header of an ALP page.
	ALPHeaderSize = 7
	// ALPMinLogVectorSize and ALPMaxLogVectorSize bound log_vector_size.
	ALPMinLogVectorSize = 3
	// ALPMaxLogVectorSize is the largest log_vector_size (32768 values).
	ALPMaxLogVectorSize = 15
	// ALPDefaultLogVectorSize is the log_vector_size the encoder writes
	// (vectors of 1024 values).
	ALPDefaultLogVectorSize = 10
	// ALPMaxExponentFloat and ALPMaxExponentDouble bound the exponent.
	ALPMaxExponentFloat = 10
	// ALPMaxExponentDouble is the largest exponent of a DOUBLE vector.
	ALPMaxExponentDouble = 18
)

// alpPow10 and alpNegPow10 are the correctly rounded binary64 values of
// the decimal literals 1e0..1e18 and 1e-0..1e-18 (Go rounds constant
// literals correctly); alpPow10F and alpNegPow10F the binary32 ones of
// 1e0..1e10 and 1e-0..1e-10. The decoder multiplies by them in two steps,
// as the specification requires.
var (
	alpPow10 = [ALPMaxExponentDouble + 1]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
		1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}
	alpNegPow10 = [ALPMaxExponentDouble + 1]float64{1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9,
		1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18}
	alpPow10F    = [ALPMaxExponentFloat + 1]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}
	alpNegPow10F = [ALPMaxExponentFloat + 1]float32{1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10}
)

// ALPHeader is the page header of an ALP page.
type ALPHeader struct {
	// CompressionMode is 0 (ALP); other values are reserved.
	CompressionMode uint8
	// IntegerEncoding is 0 (frame of reference and bit packing).
	IntegerEncoding uint8
	// LogVectorSize is log2 of the vector size, 3..15.
	LogVectorSize uint8
	// NumElements is the number of values of the page.
	NumElements int
}

// VectorSize returns the number of values of every vector but the last.
func (h ALPHeader) VectorSize() int { return 1 << h.LogVectorSize }

// NumVectors returns the number of vectors of the page.
func (h ALPHeader) NumVectors() int {
	return (h.NumElements + h.VectorSize() - 1) / h.VectorSize()
}

// ALPVector describes one vector of an ALP page.
type ALPVector struct {
	// Offset is the vector's byte position from the start of the offset
	// array; Size its length in bytes.
	Offset, Size int
	// Len is the number of values of the vector.
	Len int
	// Exponent and Factor are the decimal parameters: a value is
	// encoded * 10^Factor * 10^-Exponent.
	Exponent, Factor uint8
	// Exceptions is the number of values stored verbatim.
	Exceptions int
	// FrameOfReference is the minimum encoded integer (an int32 for FLOAT).
	FrameOfReference int64
	// BitWidth is the width of the packed deltas.
	BitWidth int
}

// alpKind holds what differs between FLOAT and DOUBLE vectors.
type alpKind struct {
	name    string
	size    int // bytes per value
	forSize int // bytes of ForInfo
	maxExp  int
}

var (
	alpFloat  = alpKind{"FLOAT", 4, 5, ALPMaxExponentFloat}
	alpDouble = alpKind{"DOUBLE", 8, 9, ALPMaxExponentDouble}
)

func (k alpKind) vectorHeader() int { return 4 + k.forSize }

// alpPage is a parsed page header with the bytes from the offset array on.
type alpPage struct {
	h    ALPHeader
	body []byte // from the offset array to the end of src
	nvec int
	next int // the offset the next vector must have
	k    alpKind
}

// parseALP checks the page header of src. n >= 0 is the number of values
// the caller expects (the header must agree); n < 0 accepts any count.
// It rejects a page whose offset array and vector headers cannot fit in
// src, so that callers may allocate NumElements values afterwards only
// when n bounds it.
func parseALP(src []byte, k alpKind, n int) (alpPage, error) {
	var p alpPage
	if len(src) < ALPHeaderSize {
		return p, fmt.Errorf("ALP %s: %d bytes, the page header needs %d: %w", k.name, len(src), ALPHeaderSize, ErrTruncated)
	}
	p.k = k
	p.h = ALPHeader{CompressionMode: src[0], IntegerEncoding: src[1], LogVectorSize: src[2],
		NumElements: int(int32(binary.LittleEndian.Uint32(src[3:])))}
	switch {
	case p.h.CompressionMode != 0:
		return p, fmt.Errorf("ALP %s: compression mode %d (only 0, ALP, is defined): %w", k.name, p.h.CompressionMode, ErrCorrupt)
	case p.h.IntegerEncoding != 0:
		return p, fmt.Errorf("ALP %s: integer encoding %d (only 0, FOR and bit packing, is defined): %w", k.name, p.h.IntegerEncoding, ErrCorrupt)
	case p.h.LogVectorSize < ALPMinLogVectorSize || p.h.LogVectorSize > ALPMaxLogVectorSize:
		return p, fmt.Errorf("ALP %s: log vector size %d outside [%d, %d]: %w", k.name, p.h.LogVectorSize, ALPMinLogVectorSize, ALPMaxLogVectorSize, ErrCorrupt)
	case p.h.NumElements < 0:
		return p, fmt.Errorf("ALP %s: negative element count %d: %w", k.name, p.h.NumElements, ErrLength)
	case n >= 0 && p.h.NumElements != n:
		return p, fmt.Errorf("ALP %s: the page header counts %d values, %d expected: %w", k.name, p.h.NumElements, n, ErrLength)
	}
	p.body = src[ALPHeaderSize:]
	p.nvec = p.h.NumVectors()
	if uint64(p.nvec)*uint64(4+k.vectorHeader()) > uint64(len(p.body)) {
		return p, fmt.Errorf("ALP %s: %d vectors need at least %d bytes, %d present: %w", k.name, p.nvec, uint64(p.nvec)*uint64(4+k.vectorHeader()), len(p.body), ErrTruncated)
	}
	p.next = 4 * p.nvec
	return p, nil
}

// vector parses vector i (vectors must be read in order) and returns its
// description with its packed deltas, exception positions and exception
// values.
func (p *alpPage) vector(i int) (v ALPVector, packed, pos, exc []byte, err error) {
	k := p.k
	off := int(binary.LittleEndian.Uint32(p.body[4*i:]))
	if off != p.next {
		return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d at offset %d, expected %d: %w", k.name, i, off, p.next, ErrCorrupt)
	}
	v.Offset = off
	v.Len = p.h.VectorSize()
	if i == p.nvec-1 {
		v.Len = p.h.NumElements - i*p.h.VectorSize()
	}
	b := p.body[off:]
	if len(b) < k.vectorHeader() {
		return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d header: %w", k.name, i, ErrTruncated)
	}
	v.Exponent, v.Factor = b[0], b[1]
	v.Exceptions = int(binary.LittleEndian.Uint16(b[2:]))
	if k.size == 4 {
		v.FrameOfReference = int64(int32(binary.LittleEndian.Uint32(b[4:])))
		v.BitWidth = int(b[8])
	} else {
		v.FrameOfReference = int64(binary.LittleEndian.Uint64(b[4:]))
		v.BitWidth = int(b[12])
	}
	switch {
	case int(v.Exponent) > k.maxExp:
		return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d: exponent %d above %d: %w", k.name, i, v.Exponent, k.maxExp, ErrCorrupt)
	case v.Factor > v.Exponent:
		return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d: factor %d above the exponent %d: %w", k.name, i, v.Factor, v.Exponent, ErrCorrupt)
	case v.BitWidth > 8*k.size:
		return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d: bit width %d above %d: %w", k.name, i, v.BitWidth, 8*k.size, ErrBitWidth)
	case v.Exceptions > v.Len:
		return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d: %d exceptions in %d values: %w", k.name, i, v.Exceptions, v.Len, ErrCorrupt)
	}
	np := packedLen(v.Len, v.BitWidth)
	v.Size = k.vectorHeader() + np + v.Exceptions*(2+k.size)
	if v.Size > len(b) {
		return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d needs %d bytes, %d present: %w", k.name, i, v.Size, len(b), ErrTruncated)
	}
	b = b[k.vectorHeader():v.Size]
	packed, pos, exc = b[:np], b[np:np+2*v.Exceptions], b[np+2*v.Exceptions:]
	for j := 0; j < v.Exceptions; j++ {
		if q := int(binary.LittleEndian.Uint16(pos[2*j:])); q >= v.Len {
			return v, nil, nil, nil, fmt.Errorf("ALP %s: vector %d: exception position %d outside its %d values: %w", k.name, i, q, v.Len, ErrCorrupt)
		}
	}
	p.next = off + v.Size
	return v, packed, pos, exc, nil
}

// end returns the number of bytes of src the page used.
func (p *alpPage) end() int { return ALPHeaderSize + p.next }

// InspectALP parses an ALP page of FLOAT (double false) or DOUBLE values
// and returns its header and the description of every vector.
func InspectALP(src []byte, double bool) (ALPHeader, []ALPVector, error) {
	k := alpFloat
	if double {
		k = alpDouble
	}
	p, err := parseALP(src, k, -1)
	if err != nil {
		return p.h, nil, err
	}
	vs := make([]ALPVector, 0, p.nvec)
	for i := range p.nvec {
		v, _, _, _, err := p.vector(i)
		if err != nil {
			return p.h, vs, err
		}
		vs = append(vs, v)
	}
	return p.h, vs, nil
}

// DecodeALPDouble decodes an ALP page of n DOUBLE values from src into dst
// (reused, grown if too short) and returns the values and the number of
// bytes of src the page used. The page header must count n values.
func DecodeALPDouble(dst []float64, src []byte, n int) ([]float64, int, error) {
	return decodeALP(dst, src, n, alpDouble, alpVectorDouble)
}

// DecodeALPFloat decodes an ALP page of n FLOAT values, as DecodeALPDouble.
func DecodeALPFloat(dst []float32, src []byte, n int) ([]float32, int, error) {
	return decodeALP(dst, src, n, alpFloat, alpVectorFloat)
}

// decodeALP decodes the page vector by vector: vec decodes the packed
// deltas, then the exceptions are patched in.
func decodeALP[F alpFloatT](dst []F, src []byte, n int, k alpKind, vec func(out []F, packed []byte, v ALPVector)) ([]F, int, error) {
	p, err := parseALP(src, k, n)
	if err != nil {
		return dst[:0], 0, err
	}
	dst = growSlice(dst[:0], p.h.NumElements)[:p.h.NumElements]
	at := 0
	for i := range p.nvec {
		v, packed, pos, exc, err := p.vector(i)
		if err != nil {
			return dst[:0], 0, err
		}
		out := dst[at : at+v.Len]
		vec(out, packed, v)
		for j := 0; j < v.Exceptions; j++ {
			q := binary.LittleEndian.Uint16(pos[2*j:])
			if k.size == 4 {
				out[q] = F(math.Float32frombits(binary.LittleEndian.Uint32(exc[4*j:])))
			} else {
				out[q] = F(math.Float64frombits(binary.LittleEndian.Uint64(exc[8*j:])))
			}
		}
		at += v.Len
	}
	return dst, p.end(), nil
}

// alpVectorDouble unpacks the deltas into out's memory and decodes them
// in place: encoded * 10^f, then * 10^-e.
//
// Deltas of up to 32 bits are unpacked with the (faster) 32-bit kernels
// into the upper half of out's memory and widened front to back: out[j]
// overwrites only 32-bit slots at or before slot j, already read.
func alpVectorDouble(out []float64, packed []byte, v ALPVector) {
	base := uint64(v.FrameOfReference)
	f, e := alpPow10[v.Factor], alpNegPow10[v.Exponent]
	if v.BitWidth <= 32 {
		u := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(out))), 2*len(out))[len(out):]
		unpackIndices(u, packed, v.BitWidth)
		for j, x := range u {
			out[j] = float64(float64(int64(uint64(x)+base))*f) * e
		}
		return
	}
	u := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
	unpack64(u, packed, v.BitWidth)
	for j, x := range u {
		out[j] = float64(float64(int64(x+base))*f) * e
	}
}

// alpVectorFloat is alpVectorDouble for FLOAT, in binary32.
func alpVectorFloat(out []float32, packed []byte, v ALPVector) {
	u := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
	unpack32(u, packed, v.BitWidth)
	base := uint32(v.FrameOfReference)
	f, e := alpPow10F[v.Factor], alpNegPow10F[v.Exponent]
	for j, x := range u {
		out[j] = float32(float32(int32(x+base))*f) * e
	}
}
