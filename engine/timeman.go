package engine

import "time"

// Time management.
//
// With a game clock the budget for a move is the time left divided by the moves
// still expected (MovesToGo, or 30 in sudden death), plus most of the increment; the
// hard limit is a quarter of the time left plus the increment, minus a safety margin,
// and never more than Limits.Time when that is set. Without a clock, Limits.Time is
// both the budget and the hard limit. Iterative deepening does not start an iteration
// once half the budget is gone (the next iteration would rarely finish in time) and
// stops as soon as a win or loss is proven.

const (
	clockSafety   = 30 * time.Millisecond
	defaultMTG    = 30
	minMoveBudget = 5 * time.Millisecond
)

// budget returns the soft (planned) and hard (absolute) time for a move; zero means
// unlimited.
func budget(l Limits) (soft, hard time.Duration) {
	soft, hard = l.Time, l.Time
	if c := l.Clock; c != nil {
		left := c.Left - clockSafety
		if left < minMoveBudget {
			left = minMoveBudget
		}
		mtg := c.MovesToGo
		if mtg <= 0 {
			mtg = defaultMTG
		}
		s := left/time.Duration(mtg) + c.Increment*3/4
		h := left/4 + c.Increment
		if h > left {
			h = left
		}
		if s > h {
			s = h
		}
		if l.Time > 0 {
			s, h = min(s, l.Time), min(h, l.Time)
		}
		soft, hard = max(s, minMoveBudget), max(h, minMoveBudget)
	}
	return soft, hard
}

// startNext reports whether another iteration should start after elapsed of a soft
// budget (0: unlimited).
func startNext(elapsed, soft time.Duration) bool {
	return soft == 0 || elapsed < soft/2
}
