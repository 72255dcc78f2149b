//go:build race

package puzzle

// raceEnabled: under the race detector the suite test verifies a sample only.
const raceEnabled = true
