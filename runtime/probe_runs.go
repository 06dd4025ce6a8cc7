// Probe runs: how the writer spaces out a costly attempt whose outcome
// tends to repeat from one page or chunk to the next (compressing a page
// the codec did not shrink, encoding ALP values it did not shrink,
// trying encodings or a dictionary once a chunk). While the outcome holds
// the attempt is skipped for runs of 1, 2, 4, 8, then probeMaxRun pages
// or chunks between probes; an outcome that does not hold ends the runs.
// The runs depend on the data alone, in the order the pages and chunks
// come, so a parallel writer's file matches a sequential one's.

package runtime

// probeRuns is the state of one spaced-out attempt.
type probeRuns struct {
	skip int // attempts left to skip
	run  int // the length of the last run of skips
}

// probeMaxRun is the longest run of skipped attempts between probes.
const probeMaxRun = 16

// due reports whether this attempt is made, counting it off the run
// otherwise.
func (r *probeRuns) due() bool {
	if r.skip > 0 {
		r.skip--
		return false
	}
	return true
}

// skipping reports whether the next attempt will be skipped, without
// counting it off.
func (r *probeRuns) skipping() bool { return r.skip > 0 }

// verdict records a probe's outcome: holds, the next run of skips starts,
// twice the last one's length up to probeMaxRun; otherwise every attempt
// is made again.
func (r *probeRuns) verdict(holds bool) {
	if !holds {
		r.run, r.skip = 0, 0
		return
	}
	r.run = min(max(2*r.run, 1), probeMaxRun)
	r.skip = r.run
}
