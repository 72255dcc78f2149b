//go:build !race

package engine

// raceEnabled reports whether the race detector is on (tests scale down).
const raceEnabled = false
