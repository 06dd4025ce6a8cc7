//go:build race

package generated

// raceEnabled: the tests run under the race detector, whose sync.Pool
// drops a quarter of the items put in it at random.
const raceEnabled = true
