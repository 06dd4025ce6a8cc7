package encode

import (
	"fmt"
	"testing"
)

// Kernel-only benchmarks (no run headers): values per second of the
// generated unpackers through their dispatchers.
func BenchmarkKernelUnpack(b *testing.B) {
	const n = 4096
	for _, w := range []int{1, 2, 3, 4, 8, 12, 20, 32} {
		src := make([]byte, 8*n)
		for i := range src {
			src[i] = byte(i * 131)
		}
		if w <= 8 {
			b.Run(fmt.Sprintf("u8/w%d", w), func(b *testing.B) {
				dst := make([]uint8, n)
				benchValues(b, n, n, func() {
					unpack8(dst, src, w)
				})
			})
		}
		b.Run(fmt.Sprintf("u32/w%d", w), func(b *testing.B) {
			dst := make([]uint32, n)
			benchValues(b, n, 4*n, func() {
				unpack32(dst, src, w)
			})
		})
		b.Run(fmt.Sprintf("u64/w%d", w), func(b *testing.B) {
			dst := make([]uint64, n)
			benchValues(b, n, 8*n, func() {
				unpack64(dst, src, w)
			})
		})
	}
}
