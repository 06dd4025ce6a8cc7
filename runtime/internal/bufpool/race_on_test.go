//go:build race

package bufpool

// raceEnabled: the tests run under the race detector, whose sync.Pool
// drops items put in it at random.
const raceEnabled = true
