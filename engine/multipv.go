package engine

import (
	"context"
	"time"
)

// Multi-line analysis: the best few root moves with their scores and lines, found by
// searching the root again with the earlier lines' first moves left out. The search
// itself is the one Search runs; only the root list differs.

// MaxLines is the most lines SearchLines reports.
const MaxLines = 5

// firstRound is the time each line gets in the first round of a timed SearchLines;
// every later round doubles it, so that shallow lines show at once and deep ones follow.
const firstRound = 100 * time.Millisecond

// Line is one analysed root move: its score (for the side to move), the depth of its
// search and its principal variation (starting with Move).
type Line struct {
	Move     Point
	Score    Score
	Depth    int
	SelDepth int
	PV       []Point
}

// Lines is a report of SearchLines: the lines found so far, best first, and the work
// of all the searches behind them.
type Lines struct {
	Lines   []Line
	Nodes   uint64
	NPS     uint64
	Elapsed time.Duration
	// Round counts the completed rounds (each searched every line once).
	Round int
	// Exhausted: a round found nothing the one before had not and every line is
	// proven or searched to the depth cap, so the analysis ended before its time.
	Exhausted bool
}

// SearchLines analyses b: the n best moves (1..MaxLines) for the side to move, each
// with its line. With limits.Depth or limits.Nodes each line is searched once under
// those limits. Otherwise the lines are searched in rounds whose time per line
// doubles (the transposition table carries each round's work into the next), until
// limits.Time has passed (0: until ctx is cancelled) or a round finds nothing new.
// progress (if not nil) gets a report whenever a line improves, at most about ten a
// second per line, after every round, and last the result. Fewer than n lines come back when the
// position has fewer sensible moves (a forced block, say). It never modifies b.
func (e *Engine) SearchLines(ctx context.Context, b *Board, n int, limits Limits, progress func(Lines)) Lines {
	n = min(max(n, 1), MaxLines)
	s := e.s
	defer func() { s.exclude = nil }()
	var (
		start   = time.Now()
		out     Lines
		nodes   uint64 // of the finished searches
		exclude [MaxLines]int16
		cur     []Line // this round's lines
	)
	report := func(running uint64) {
		if progress == nil {
			return
		}
		r := out
		r.Lines = copyLines(mergeLines(out.Lines, cur))
		r.Nodes = nodes + running
		r.Elapsed = time.Since(start)
		if r.Elapsed > 0 {
			r.NPS = uint64(float64(r.Nodes) / r.Elapsed.Seconds())
		}
		progress(r)
	}
	once := limits.Depth > 0 || limits.Nodes > 0
	per := firstRound
	for round := 0; ; round++ {
		cur = cur[:0]
		short := false // a line's time ran out before its first iteration
		timeUp := false
		for k := 0; k < n; k++ {
			lim := Limits{Depth: limits.Depth, Nodes: limits.Nodes}
			if !once {
				lim.Time = per
				if limits.Time > 0 {
					left := limits.Time - time.Since(start)
					if timeUp = left <= 0; timeUp {
						break
					}
					lim.Time = min(per, left)
				}
			}
			s.exclude = exclude[:k]
			var onInfo func(Info)
			if progress != nil {
				onInfo = func(in Info) {
					if in.Depth == 0 || in.Best == NoPoint {
						return
					}
					cur = setLine(cur, k, lineOf(in))
					report(in.Nodes)
				}
			}
			res := s.run(ctx, b, lim, onInfo)
			nodes += res.Nodes
			short = res.Move != NoPoint && res.Depth == 0
			// A line given less than the round's time (the analysis ends first) is
			// shallower than the last round's and would outrank deeper lines by a
			// shallow score: it is kept only where no earlier round has a line.
			cut := !once && lim.Time < per && len(out.Lines) > k
			timeUp = timeUp || cut
			if ctx.Err() != nil || short || cut || res.Move == NoPoint || excluded(exclude[:k], res.Move) {
				cur = cur[:min(len(cur), k)] // an interrupted line keeps no partial report
				break
			}
			cur = setLine(cur, k, lineOf(res.Info))
			exclude[k] = int16(cellIndex(res.Move.X, res.Move.Y))
		}
		if ctx.Err() != nil || short || timeUp {
			// An interrupted round still improves the lines it finished.
			out.Lines = mergeLines(out.Lines, cur)
			if ctx.Err() != nil || once || timeUp {
				break
			}
			per *= 2
			continue
		}
		same := sameLines(out.Lines, cur)
		out.Lines = copyLines(cur)
		out.Round = round + 1
		cur = cur[:0]
		report(0)
		if !once && ((same && settled(out.Lines)) || len(out.Lines) == 0) {
			out.Exhausted = true
		}
		if once || out.Exhausted || per > time.Hour {
			break
		}
		per *= 2
	}
	cur = cur[:0]
	report(0) // the final report is the result
	out.Nodes = nodes
	out.Elapsed = time.Since(start)
	if out.Elapsed > 0 {
		out.NPS = uint64(float64(nodes) / out.Elapsed.Seconds())
	}
	return out
}

// dropExcluded removes s.exclude's moves from the root list ms and returns the count
// left.
func (s *searcher) dropExcluded(ms []scoredMove) int {
	if len(s.exclude) == 0 {
		return len(ms)
	}
	k := 0
	for _, sm := range ms {
		if !excluded16(s.exclude, sm.move) {
			ms[k] = sm
			k++
		}
	}
	return k
}

func excluded16(ex []int16, m int16) bool {
	for _, x := range ex {
		if x == m {
			return true
		}
	}
	return false
}

func excluded(ex []int16, p Point) bool { return excluded16(ex, int16(cellIndex(p.X, p.Y))) }

func lineOf(in Info) Line {
	return Line{Move: in.Best, Score: in.Score, Depth: in.Depth, SelDepth: in.SelDepth, PV: append([]Point(nil), in.PV...)}
}

// setLine stores l as line k of ls (k <= len(ls)).
func setLine(ls []Line, k int, l Line) []Line {
	if k < len(ls) {
		ls[k] = l
		return ls
	}
	return append(ls, l)
}

// mergeLines shows the current round's lines where they exist and the last round's
// after them, best score first.
func mergeLines(last, cur []Line) []Line {
	out := append([]Line(nil), cur...)
	for _, l := range last {
		if len(out) >= max(len(last), len(cur)) {
			break
		}
		if !hasMove(out, l.Move) {
			out = append(out, l)
		}
	}
	// Stable insertion sort by score: lines of different rounds may be out of order.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Score > out[j-1].Score; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func hasMove(ls []Line, p Point) bool {
	for _, l := range ls {
		if l.Move == p {
			return true
		}
	}
	return false
}

// settled reports whether every line is final: proven (a mate score) or searched to the
// depth cap. Two rounds that agree on unsettled lines prove nothing: on a busy machine
// the doubled time may simply not have bought another ply.
func settled(ls []Line) bool {
	for _, l := range ls {
		if l.Score < MateThreshold && l.Score > -MateThreshold && l.Depth < maxDepthCap {
			return false
		}
	}
	return true
}

// sameLines reports whether a round found exactly what the one before it did: the
// same moves, scores and depths (a proven or exhausted position).
func sameLines(a, b []Line) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Move != b[i].Move || a[i].Score != b[i].Score || a[i].Depth != b[i].Depth {
			return false
		}
	}
	return true
}

func copyLines(ls []Line) []Line {
	out := make([]Line, len(ls))
	for i, l := range ls {
		out[i] = l
		out[i].PV = append([]Point(nil), l.PV...)
	}
	return out
}
