// Package swar holds scans over byte slices that test eight bytes per step
// (SWAR: SIMD within a register), shared by the runtime and its page
// decoder. Each has a plain twin in the tests, checked against it on
// random input of every length and offset.
package swar

import "encoding/binary"

const (
	lsb8 = 0x0101010101010101
	msb8 = 0x8080808080808080
)

// AnyAbove reports whether a byte of b exceeds m.
func AnyAbove(b []uint8, m uint8) bool {
	if m >= 0x80 {
		for _, x := range b {
			if x > m {
				return true
			}
		}
		return false
	}
	// A byte exceeds m < 128 when its high bit is set or its low seven
	// bits plus 127-m carry into the high bit (no carry leaves the byte:
	// 127 + 127 < 256).
	add := lsb8 * uint64(0x7f-m)
	var acc uint64
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		acc |= ((x &^ msb8) + add) | x
		b = b[8:]
	}
	for _, x := range b {
		if x > m {
			return true
		}
	}
	return acc&msb8 != 0
}
