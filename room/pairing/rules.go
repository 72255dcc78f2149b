package pairing

import (
	"math"
	"time"
)

// Rules say how far apart two seekers' ratings may be: Initial points at once,
// widening by PerSecond for every second the longer-waiting of the two has waited, up
// to Max. The widest range is the longer wait's: whoever waited longest accepts the
// newcomer, and the newcomer asked for a game now.
type Rules struct {
	Initial   float64
	PerSecond float64
	Max       float64
}

// DefaultRules: ±100 at once, +10 per second waited (±300 after 20 s), at most ±600.
var DefaultRules = Rules{Initial: 100, PerSecond: 10, Max: 600}

// Range is the rating difference accepted after waiting wait (negative waits, from
// clocks of different nodes, count as none).
func (r Rules) Range(wait time.Duration) float64 {
	if wait < 0 {
		wait = 0
	}
	return math.Min(r.Max, r.Initial+r.PerSecond*wait.Seconds())
}

// Compatible reports whether seekers a and b may be paired at now (same pool
// assumed): the difference of their ratings is within the range of the longer wait.
func (r Rules) Compatible(a, b Seeker, now time.Time) bool {
	since := a.Since
	if b.Since.Before(since) {
		since = b.Since
	}
	return math.Abs(a.Rating-b.Rating) <= r.Range(now.Sub(since))
}
