//go:build amd64 && !purego

package encode

import "testing"

// TestFastPDEP: the BMI2 kernels are kept off AMD processors whose PDEP is
// microcoded (families before 0x19), on by default elsewhere.
func TestFastPDEP(t *testing.T) {
	const amd, intel = 0x68747541, 0x756e6547
	sig := func(base, ext uint32) uint32 { return ext<<20 | base<<8 }
	for _, c := range []struct {
		vendor, sig uint32
		want        bool
	}{
		{amd, sig(0xf, 0x08), false}, // family 0x17: Zen, Zen 2
		{amd, sig(0xf, 0x06), false}, // 0x15: Bulldozer to Excavator
		{amd, sig(0xf, 0x0a), true},  // 0x19: Zen 3, Zen 4
		{amd, sig(0xf, 0x0b), true},  // 0x1a: Zen 5
		{intel, sig(0x6, 0), true},
	} {
		if got := fastPDEP(c.vendor, c.sig); got != c.want {
			t.Errorf("vendor %#x signature %#x: %v, want %v", c.vendor, c.sig, got, c.want)
		}
	}
	v, s := cpuVendorFamily()
	t.Logf("this CPU: vendor %#x signature %#x, BMI2 kernels %v", v, s, useBMI2)
}
