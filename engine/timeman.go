package engine

import "time"

// Time management.
//
// budget gives two times for a move. The hard limit is never passed: without a clock
// it is Limits.Time; with one it is a quarter of the time left plus the increment,
// minus a safety margin (and at most Limits.Time). The optimum is the planned time:
// without a clock the whole move time (time not used on a fixed-time move is lost,
// not saved for later), with one the time left divided by the moves still expected
// (MovesToGo, or 30 in sudden death) plus most of the increment, and at most 70% of
// Limits.Time.
//
// After every iteration the clock decides whether another starts (timeManager.more).
// The optimum is scaled by the stability of the search: each change of the best move
// raises the scale (the changes decay by half per iteration), a falling score raises
// it more, and a best move that has stood for several iterations with a steady score
// lowers it. The next iteration starts when half of it (with a clock) or a quarter
// of it (a fixed move time) is expected to fit before the scaled target (never past
// the hard limit): an unfinished iteration is not wasted, since a move that beat the
// previous best in it is played (usePartial), and on a fixed-time move the time it
// would leave unused is lost anyway. A proven win or loss, or a single legal answer,
// ends the search at once.
//
// On a fixed move time the search so spends the whole move unless the best move is
// stable (then about 60% of it) or forced: at 1 s a move, the earlier plan (70% of
// the move, the next iteration only when half of it fitted) left the Gomocup brain a
// third of its turn on average, against two thirds for Rapfi (docs/strength/).

const (
	clockSafety   = 30 * time.Millisecond
	defaultMTG    = 30
	minMoveBudget = 5 * time.Millisecond

	// clockedShare is the most a clocked move plans (per cent) of Limits.Time.
	clockedShare = 70
)

// budget returns the optimum (planned) and hard (absolute) time for a move; zero
// means unlimited.
func budget(l Limits) (optimum, hard time.Duration) {
	optimum, hard = l.Time, l.Time
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
			s, h = min(s, l.Time*clockedShare/100), min(h, l.Time)
		}
		optimum, hard = max(s, minMoveBudget), max(h, minMoveBudget)
	}
	return optimum, hard
}

// timeManager tracks the stability of an iterative deepening search.
type timeManager struct {
	optimum, hard time.Duration
	lastBest      int
	changes       float64 // decayed count of best-move changes
	stable        int     // iterations the best move has stood
	prevScore     Score
	lastEnd       time.Duration // elapsed time at the end of the previous iteration
	lastIter      time.Duration // duration of the previous iteration
	iterations    int
	fixed         bool // a fixed move time: no clock to save time for
}

// reset starts a new search with the given times; fixed is set for a fixed move
// time (no clock).
func (tm *timeManager) reset(optimum, hard time.Duration, fixed bool) {
	*tm = timeManager{optimum: optimum, hard: hard, lastBest: -1, fixed: fixed}
}

// begin marks the start of iterative deepening, elapsed into the move (after the root
// tactics), so that the first iteration's duration does not include them.
func (tm *timeManager) begin(elapsed time.Duration) { tm.lastEnd = elapsed }

// scale returns the factor applied to the optimum after the iteration that ended
// with best and score.
func (tm *timeManager) scale(best int, score Score) float64 {
	tm.changes /= 2
	if tm.iterations > 0 && best != tm.lastBest {
		tm.changes++
		tm.stable = 0
	} else {
		tm.stable++
	}
	f := 1 + 0.7*tm.changes
	if tm.iterations > 0 {
		switch drop := tm.prevScore - score; {
		case drop > 120:
			f *= 1.8
		case drop > 40:
			f *= 1.4
		case drop <= 10 && tm.stable >= 4:
			f *= 0.6
		}
	}
	tm.lastBest, tm.prevScore = best, score
	tm.iterations++
	return f
}

// more reports whether another iteration should start, after one that ended at
// elapsed with best and score. Without an optimum (no time limit) it always does.
func (tm *timeManager) more(elapsed time.Duration, best int, score Score) bool {
	iter := elapsed - tm.lastEnd
	growth := 3.0
	if tm.lastIter > time.Millisecond {
		growth = min(max(float64(iter)/float64(tm.lastIter), 1.5), 6)
	}
	tm.lastEnd, tm.lastIter = elapsed, iter
	f := tm.scale(best, score)
	if tm.optimum == 0 {
		return true
	}
	target := min(time.Duration(float64(tm.optimum)*f), tm.hard)
	next := time.Duration(float64(iter) * growth)
	if tm.fixed {
		return elapsed+next/4 < target
	}
	return elapsed+next/2 < target
}
