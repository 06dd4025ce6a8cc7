package bench

import (
	"sync"
	"time"
)

// coreProbeIters is the length of coreKernel's loop in a probe: about a
// millisecond on the suite's VM, long against a goroutine's start.
const coreProbeIters = 1 << 20

// coreKernel is the probes' work: a chain of multiplies and shifts on
// registers, which touches no memory, so that two copies of it only slow
// each other down when they share a core.
func coreKernel(seed uint64) uint64 {
	x := seed | 1
	for range coreProbeIters {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		x *= 0x9e3779b97f4a7c15
	}
	return x
}

// coreSink keeps coreKernel's results alive.
var coreSink uint64

// twoCoreScaling returns how many cores two goroutines get on this machine
// now: the work of two copies of coreKernel run at once in the time of one
// run alone (2 on two idle cores, 1 when the second core is taken or is a
// hyperthread of the first), from the fastest of five runs of each,
// alternated (a run the scheduler preempts is only slower). On the
// suite's VM two goroutines compressing with snappy ran 0.85-1.05 and
// 1.96-2.07 times as fast as one minutes apart; this probe gives 1.87-1.97
// there idle and 0.98-0.99 beside one or two busy loops. pqgen-par's
// speed-ups are to be read with the figure measured before them (cores).
func twoCoreScaling() float64 {
	one, two := time.Duration(1<<63-1), time.Duration(1<<63-1)
	results := make([]uint64, 2)
	for i := range 5 {
		t0 := time.Now()
		results[0] = coreKernel(uint64(i))
		one = min(one, time.Since(t0))
		var wg sync.WaitGroup
		t0 = time.Now()
		for k := range results {
			wg.Go(func() { results[k] = coreKernel(uint64(i + k)) })
		}
		wg.Wait()
		two = min(two, time.Since(t0))
		coreSink += results[0] + results[1]
	}
	return 2 * one.Seconds() / two.Seconds()
}
