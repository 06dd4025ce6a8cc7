// ALP encoding (ALP = 10) for FLOAT and DOUBLE: the encoder and its
// parameter selection (AlpEncoding.md of apache/parquet-format, "in
// preview"; the selection follows the informative part of the
// specification):
// https://github.com/apache/parquet-format/blob/master/AlpEncoding.md

package encode

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

// Sampling parameters of the parameter selection (the specification's
// suggestion, from the ALP paper): up to alpSampleVectors vectors of the
// page, alpSampleValues values of each, choose a preset of at most
// alpPresetSize (exponent, factor) pairs; each vector then picks the best
// pair of the preset on alpVectorSample of its values.
const (
	alpSampleVectors = 8
	alpSampleValues  = 256
	alpPresetSize    = 5
	alpVectorSample  = 32
)

// alpFloatT is the type of ALP values.
type alpFloatT interface{ float32 | float64 }

// alpCombo is an (exponent, factor) pair.
type alpCombo struct{ e, f uint8 }

// alpConsts holds the constants of one pair: the encoder computes
// round(x * 10^e * 10^-f), the decoder q * 10^f * 10^-e; the scaled value
// must lie in [lo, hi): the integer range (int32) or, for DOUBLE, the
// range where alpMagic rounds exactly.
type alpConsts[F alpFloatT] struct {
	pe, nf, pf, ne F
	lo, hi         float64
	mlo, mhi       float64 // where alpMagic rounds and the integer fits
}

func alpConstsOf[F alpFloatT](c alpCombo) alpConsts[F] {
	var z F
	if isFloat32(z) {
		return alpConsts[F]{F(alpPow10F[c.e]), F(alpNegPow10F[c.f]), F(alpPow10F[c.f]), F(alpNegPow10F[c.e]), -(1 << 31), 1 << 31, -(1 << 31), 1 << 31}
	}
	return alpConsts[F]{F(alpPow10[c.e]), F(alpNegPow10[c.f]), F(alpPow10[c.f]), F(alpNegPow10[c.e]), -(1 << 63), 1 << 63, -(1 << 51), 1 << 51}
}

// isFloat32 reports whether F is float32 (a constant per instantiation).
func isFloat32[F alpFloatT](z F) bool {
	return unsafe.Sizeof(z) == 4
}

// alpMagic rounds a binary64 of magnitude below 2^51 to the nearest
// integer, ties to even: (s + alpMagic) - alpMagic (the specification's
// fast rounding, in the form valid for both signs).
const alpMagic = 1<<52 + 1<<51

// alpEncodeOne returns the integer x is stored as and whether the decoder
// reproduces x's exact bits from it; NaN, ±Inf, -0.0, values out of the
// integer range and values that do not round trip are exceptions.
func alpEncodeOne[F alpFloatT](x F, c *alpConsts[F]) (int64, bool) {
	s := float64(F(x*c.pe) * c.nf)
	var q int64
	switch {
	case s > c.mlo && s < c.mhi:
		q = int64(float64(s+alpMagic) - alpMagic)
	case s >= c.lo && s < c.hi:
		q = int64(math.RoundToEven(s))
	default: // NaN, ±Inf, out of range
		return 0, false
	}
	d := F(F(q)*c.pf) * c.ne
	// float32 -> float64 is exact, and d is never NaN.
	return q, math.Float64bits(float64(d)) == math.Float64bits(float64(x))
}

// alpCost estimates in bits the size of sample encoded with c: the packed
// deltas and the exceptions. It gives up, returning bound, once the
// exceptions alone cost bound.
func alpCost[F alpFloatT](sample []F, c *alpConsts[F], valueBits, bound int) int {
	exc, excBits := 0, valueBits+16
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, x := range sample {
		q, ok := alpEncodeOne(x, c)
		if !ok {
			exc++
			if exc*excBits >= bound {
				return bound
			}
			continue
		}
		lo, hi = min(lo, q), max(hi, q)
	}
	bw := 0
	if exc < len(sample) {
		bw = bits.Len64(uint64(hi) - uint64(lo))
	}
	return len(sample)*bw + exc*excBits
}

// alpSample appends up to m values of v taken at an even stride.
func alpSample[F alpFloatT](dst, v []F, m int) []F {
	stride := max(1, len(v)/m)
	for i := 0; i < len(v) && len(dst) < cap(dst); i += stride {
		dst = append(dst, v[i])
	}
	return dst
}

// alpBest returns the pair of cands that encodes sample smallest; the
// first of equal ones wins.
func alpBest[F alpFloatT](sample []F, cands []alpCombo, valueBits int) alpCombo {
	best, bestCost := cands[0], math.MaxInt
	for _, cb := range cands {
		c := alpConstsOf[F](cb)
		if cost := alpCost(sample, &c, valueBits, bestCost); cost < bestCost {
			best, bestCost = cb, cost
		}
	}
	return best
}

// alpTop returns the (at most) alpPresetSize pairs of cands that encode
// sample smallest, the smallest first (the first of equal ones first).
func alpTop[F alpFloatT](dst []alpCombo, sample []F, cands []alpCombo, valueBits int) []alpCombo {
	var costs [alpPresetSize]int
	dst = dst[:0]
	for _, cb := range cands {
		c := alpConstsOf[F](cb)
		bound := math.MaxInt
		if len(dst) == alpPresetSize {
			bound = costs[alpPresetSize-1]
		}
		cost := alpCost(sample, &c, valueBits, bound)
		if cost >= bound {
			continue
		}
		k := len(dst)
		if k < alpPresetSize {
			dst = append(dst, cb)
		} else {
			k--
		}
		for ; k > 0 && costs[k-1] > cost; k-- {
			costs[k], dst[k] = costs[k-1], dst[k-1]
		}
		costs[k], dst[k] = cost, cb
	}
	return dst
}

// alpAllCombos lists every pair 0 <= f <= e <= maxExp, smaller exponents
// first and, for one exponent, smaller factors first: among pairs of equal
// cost the one of the smallest exponent and factor wins.
func alpAllCombos(maxExp int) []alpCombo {
	var cs []alpCombo
	for e := 0; e <= maxExp; e++ {
		for f := 0; f <= e; f++ {
			cs = append(cs, alpCombo{uint8(e), uint8(f)})
		}
	}
	return cs
}

var (
	alpCombosFloat  = alpAllCombos(ALPMaxExponentFloat)
	alpCombosDouble = alpAllCombos(ALPMaxExponentDouble)
)

// alpPreset chooses the candidate pairs of a page: the best pair of each
// sampled vector (among the five best on a 32-value subsample), the most frequent first (ties: the first found).
func alpPreset[F alpFloatT](preset []alpCombo, src []F, vs int) []alpCombo {
	var z F
	all, valueBits := alpCombosDouble, 64
	if isFloat32(z) {
		all, valueBits = alpCombosFloat, 32
	}
	nvec := (len(src) + vs - 1) / vs
	ns := min(alpSampleVectors, nvec)
	type count struct {
		c alpCombo
		n int
	}
	var counts []count
	sample := make([]F, 0, alpSampleValues)
	small := make([]F, 0, alpVectorSample)
	top := make([]alpCombo, 0, alpPresetSize)
	for s := range ns {
		vi := s * nvec / ns
		v := src[vi*vs : min(len(src), (vi+1)*vs)]
		// Two levels: every pair on 32 of the sampled values, then the
		// best five on all of them.
		sample = alpSample(sample[:0], v, alpSampleValues)
		top = alpTop(top, alpSample(small[:0], sample, alpVectorSample), all, valueBits)
		b := alpBest(sample, top, valueBits)
		k := slices.IndexFunc(counts, func(x count) bool { return x.c == b })
		if k < 0 {
			counts = append(counts, count{b, 0})
			k = len(counts) - 1
		}
		counts[k].n++
	}
	slices.SortStableFunc(counts, func(a, b count) int { return b.n - a.n })
	preset = preset[:0]
	for _, c := range counts[:min(len(counts), alpPresetSize)] {
		preset = append(preset, c.c)
	}
	return preset
}

// AppendALPDouble appends the ALP encoding of src, one whole page, to dst
// (vectors of 1 << ALPDefaultLogVectorSize values), choosing the
// candidate (exponent, factor) pairs from src.
func AppendALPDouble(dst []byte, src []float64) []byte {
	var e ALPEncoder
	return appendALP(dst, src, ALPDefaultLogVectorSize, &e)
}

// AppendALPFloat appends the ALP encoding of src, one whole page, to dst.
func AppendALPFloat(dst []byte, src []float32) []byte {
	var e ALPEncoder
	return appendALP(dst, src, ALPDefaultLogVectorSize, &e)
}

// ALPEncoder encodes the pages of one column chunk: as the specification
// suggests, it chooses the candidate (exponent, factor) pairs (the
// preset) once, from the first page, and each vector of every page then
// picks the best of them. It also keeps its buffers from page to page.
// The zero value is ready; Reset starts a new chunk. An ALPEncoder is for
// one type (FLOAT or DOUBLE) between resets.
type ALPEncoder struct {
	preset []alpCombo
	sc     *alpScratch
}

// Reset forgets the preset: the next page chooses a new one.
func (e *ALPEncoder) Reset() { e.preset = e.preset[:0] }

// AppendDouble appends the ALP page of src to dst, as AppendALPDouble.
func (e *ALPEncoder) AppendDouble(dst []byte, src []float64) []byte {
	return appendALP(dst, src, ALPDefaultLogVectorSize, e)
}

// AppendFloat appends the ALP page of src to dst, as AppendALPFloat.
func (e *ALPEncoder) AppendFloat(dst []byte, src []float32) []byte {
	return appendALP(dst, src, ALPDefaultLogVectorSize, e)
}

// ALPMaxValues is the largest number of values one ALP page holds (its
// header counts them in an int32).
const ALPMaxValues = math.MaxInt32

// appendALP appends the page of src in vectors of 1 << logVS values
// (ALPMinLogVectorSize <= logVS <= ALPDefaultLogVectorSize; the larger
// sizes the format allows are only read), with e's preset (chosen from
// src if e has none).
func appendALP[F alpFloatT](dst []byte, src []F, logVS uint8, e *ALPEncoder) []byte {
	if len(src) > ALPMaxValues || logVS < ALPMinLogVectorSize || logVS > ALPDefaultLogVectorSize {
		panic("encode: ALP page of more than 2^31-1 values or bad vector size")
	}
	vs := 1 << logVS
	nvec := (len(src) + vs - 1) / vs
	start := len(dst)
	dst = append(dst, 0, 0, logVS, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(dst[start+3:], uint32(len(src)))
	offs := len(dst)
	dst = append(dst, make([]byte, 4*nvec)...)
	if nvec == 0 {
		return dst
	}
	var z F
	valueBits := 64
	if isFloat32(z) {
		valueBits = 32
	}
	if len(e.preset) == 0 {
		e.preset = alpPreset(e.preset, src, vs)
	}
	if e.sc == nil {
		e.sc = new(alpScratch)
	}
	preset := e.preset
	var sample [alpVectorSample]F
	for i := range nvec {
		binary.LittleEndian.PutUint32(dst[offs+4*i:], uint32(len(dst)-offs))
		v := src[i*vs : min(len(src), (i+1)*vs)]
		cb := preset[0]
		if len(preset) > 1 {
			cb = alpBest(alpSample(sample[:0], v, alpVectorSample), preset, valueBits)
		}
		dst = appendALPVector(dst, v, cb, e.sc)
	}
	return dst
}

// alpScratch holds the per-vector buffers of the encoder.
type alpScratch struct {
	enc   [1 << ALPDefaultLogVectorSize]int64
	delta [1 << ALPDefaultLogVectorSize]uint64
	pos   [1 << ALPDefaultLogVectorSize]uint16
}

// appendALPVector appends one vector (at most 1024 values) encoded with
// the pair cb.
func appendALPVector[F alpFloatT](dst []byte, v []F, cb alpCombo, sc *alpScratch) []byte {
	c := alpConstsOf[F](cb)
	enc, pos := sc.enc[:len(v)], sc.pos[:0]
	// alpEncodeOne, inlined by hand (the compiler does not inline it).
	for i, x := range v {
		s := float64(F(x*c.pe) * c.nf)
		var q int64
		if s > c.mlo && s < c.mhi {
			q = int64(float64(s+alpMagic) - alpMagic)
		} else if s >= c.lo && s < c.hi {
			q = int64(math.RoundToEven(s))
		} else {
			enc[i] = 0
			pos = append(pos, uint16(i))
			continue
		}
		enc[i] = q
		if math.Float64bits(float64(F(F(q)*c.pf)*c.ne)) != math.Float64bits(float64(x)) {
			pos = append(pos, uint16(i))
		}
	}
	// Exceptions take the first encoded value that is not one (or 0):
	// pos is ascending, so that value is at the first k with pos[k] != k.
	if len(pos) > 0 {
		k := 0
		for k < len(pos) && int(pos[k]) == k {
			k++
		}
		var fill int64
		if k < len(v) {
			fill = enc[k]
		}
		for _, p := range pos {
			enc[p] = fill
		}
	}
	lo, hi := enc[0], enc[0]
	for _, q := range enc {
		lo, hi = min(lo, q), max(hi, q)
	}
	bw := bits.Len64(uint64(hi) - uint64(lo))
	var z F
	excSize := 2 + int(unsafe.Sizeof(z))
	if packedLen(len(v), bw)+len(pos)*excSize > len(v)*excSize {
		// Smaller with every value an exception (bit width 0).
		pos = pos[:len(v)]
		for i := range pos {
			pos[i] = uint16(i)
		}
		clear(enc)
		lo, bw = 0, 0
	}
	dst = append(dst, cb.e, cb.f, byte(len(pos)), byte(len(pos)>>8))
	if isFloat32(z) {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(lo))
	} else {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(lo))
	}
	dst = append(dst, byte(bw))
	delta := sc.delta[:len(v)]
	for i, q := range enc {
		delta[i] = uint64(q) - uint64(lo)
	}
	dst = appendPack64(dst, delta, bw)
	for _, p := range pos {
		dst = binary.LittleEndian.AppendUint16(dst, p)
	}
	for _, p := range pos {
		if isFloat32(z) {
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v[p])))
		} else {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(float64(v[p])))
		}
	}
	return dst
}
