package encode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// twinALP is an independent, plain decoder of ALP pages written from the
// specification alone: it reads the page byte by byte and bit by bit,
// takes its powers of ten from strconv (correctly rounded parsing of the
// literals "1e3", "1e-3", ...) and returns the values' IEEE 754 bits
// (float32 bits widened to uint64 for FLOAT). The fast decoders are
// compared with it.
func twinALP(src []byte, double bool, n int) ([]uint64, error) {
	size, maxExp, forSize := 4, 10, 5
	if double {
		size, maxExp, forSize = 8, 18, 9
	}
	errBad := errors.New("bad page")
	if len(src) < 7 {
		return nil, errBad
	}
	if src[0] != 0 || src[1] != 0 || src[2] < 3 || src[2] > 15 {
		return nil, errBad
	}
	vs := 1 << src[2]
	count := int(int32(uint32(src[3]) | uint32(src[4])<<8 | uint32(src[5])<<16 | uint32(src[6])<<24))
	if count != n {
		return nil, errBad
	}
	body := src[7:]
	nvec := 0
	for left := count; left > 0; left -= vs {
		nvec++
	}
	if len(body) < 4*nvec {
		return nil, errBad
	}
	out := make([]uint64, 0, count)
	expect := 4 * nvec
	for i := 0; i < nvec; i++ {
		off := int(binary.LittleEndian.Uint32(body[4*i:]))
		if off != expect {
			return nil, errBad
		}
		m := vs
		if i == nvec-1 {
			m = count - i*vs
		}
		b := body[off:]
		if len(b) < 4+forSize {
			return nil, errBad
		}
		e, f := int(b[0]), int(b[1])
		nexc := int(b[2]) | int(b[3])<<8
		var ref uint64
		for k := forSize - 2; k >= 0; k-- {
			ref = ref<<8 | uint64(b[4+k])
		}
		bw := int(b[4+forSize-1])
		if e > maxExp || f > e || bw > 8*size || nexc > m {
			return nil, errBad
		}
		need := 4 + forSize + (m*bw+7)/8 + nexc*(2+size)
		if len(b) < need {
			return nil, errBad
		}
		packed := b[4+forSize:]
		bit := 0
		vals := make([]uint64, m)
		for j := 0; j < m; j++ {
			var d uint64
			for k := 0; k < bw; k++ {
				if packed[bit/8]&(1<<(bit%8)) != 0 {
					d |= 1 << k
				}
				bit++
			}
			q := d + ref
			if double {
				pf := twinPow(f, 64)
				ne := twinPow(-e, 64)
				x := float64(int64(q))
				x = x * pf
				x = x * ne
				vals[j] = math.Float64bits(x)
			} else {
				pf := float32(twinPow(f, 32))
				ne := float32(twinPow(-e, 32))
				x := float32(int32(uint32(q)))
				x = x * pf
				x = x * ne
				vals[j] = uint64(math.Float32bits(x))
			}
		}
		eb := b[4+forSize+(m*bw+7)/8:]
		for j := 0; j < nexc; j++ {
			p := int(eb[2*j]) | int(eb[2*j+1])<<8
			if p >= m {
				return nil, errBad
			}
			var x uint64
			for k := size - 1; k >= 0; k-- {
				x = x<<8 | uint64(eb[2*nexc+size*j+k])
			}
			vals[p] = x
		}
		out = append(out, vals...)
		expect += need
	}
	return out, nil
}

// twinPow parses "1e<k>" at the given precision.
func twinPow(k, bits int) float64 {
	x, err := strconv.ParseFloat(fmt.Sprintf("1e%d", k), bits)
	if err != nil {
		panic(err)
	}
	return x
}
