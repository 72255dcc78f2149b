package puzzle

import (
	"slices"

	"github.com/gomoku-arena/gomoku/engine"
)

// The trainer's search: the solver calls under the budget, every defence of a move,
// the attacker's move that Check accepts, and the solution line.

// solve runs the engine's solvers for the side to move on b within SolveNodes, charged
// to the budget. ok false: no win found; ErrBudget when the budget cut the search.
func (t *trainer) solve(b *engine.Board) (engine.ForcedWin, bool, error) {
	if err := t.ctx.Err(); err != nil {
		return engine.ForcedWin{}, false, err
	}
	for _, m := range WinningPoints(b, b.ToMove()) { // cheaper than the engine's set-up
		if b.Check(m) == nil {
			return engine.ForcedWin{Plies: 1, Line: []engine.Point{m}}, true, nil
		}
	}
	if t.left <= callNodes {
		return engine.ForcedWin{}, false, ErrBudget
	}
	t.left -= callNodes
	n := min(uint64(SolveNodes), t.left/2)
	w, ok := t.e.Solve(t.ctx, b, max(n, 1), true)
	t.left -= min(t.left, w.Nodes)
	if err := t.ctx.Err(); err != nil {
		return engine.ForcedWin{}, false, err
	}
	if !ok && n < SolveNodes && w.Nodes >= n {
		return w, false, ErrBudget
	}
	return w, ok, nil
}

// defend evaluates every legal defence on b (the defender to move) and returns the one
// after which the attacker's win is longest. ok is false when some defence escapes: it
// wins, or the attacker has no win within left plies after it.
func (t *trainer) defend(b *engine.Board, left int) (engine.Point, bool, error) {
	def := t.att.Opponent()
	if len(WinningPoints(b, def)) > 0 {
		return engine.NoPoint, false, nil // the defender's four was left open: it wins
	}
	fives := WinningPoints(b, t.att)
	var straight []engine.Point
	if len(fives) == 0 && (b.Rule() != engine.Renju || t.att == engine.White) {
		straight = straightFours(b, t.att)
	}
	// The likeliest escapes first (blocks of five points, of fours, counter-fours, then
	// by distance from the move), so that a wrong move is refuted after few searches.
	last := b.LastMove()
	type cand struct {
		q          engine.Point
		rank, dist int
	}
	var cands []cand
	forEachLegal(b, func(q engine.Point) {
		c := cand{q: q, rank: 3, dist: dist(q, last)}
		switch {
		case slices.Contains(fives, q):
			c.rank = 0
		case makesFour(b, q, t.att):
			c.rank = 1
		case makesFour(b, q, def):
			c.rank = 2
		}
		cands = append(cands, c)
	})
	slices.SortStableFunc(cands, func(a, c cand) int {
		if a.rank != c.rank {
			return a.rank - c.rank
		}
		return a.dist - c.dist
	})
	var best cand
	bestPlies := -1
	for _, c := range cands {
		plies, err := t.afterDefence(b, c.q, fives, c.rank == 0, straight)
		if err != nil {
			return engine.NoPoint, false, err
		}
		if plies == 0 || 1+plies > left {
			return c.q, false, nil
		}
		if plies > bestPlies || plies == bestPlies && betterTie(c.q, c.rank == 0, c.dist, best.q, best.rank == 0, best.dist) {
			best, bestPlies = c, plies
		}
	}
	if bestPlies < 0 {
		return engine.NoPoint, false, nil // no legal defence: nothing to answer with
	}
	return best.q, true, nil
}

// betterTie orders defences that leave the attacker equally long wins: a block of a
// five point first, then the point nearer the attacker's move, then the lower row, then
// the lower column.
func betterTie(q engine.Point, block bool, d int, r engine.Point, rBlock bool, rd int) bool {
	switch {
	case block != rBlock:
		return block
	case d != rd:
		return d < rd
	case q.Y != r.Y:
		return q.Y < r.Y
	}
	return q.X < r.X
}

// afterDefence returns the plies of the attacker's win after the defence q on b, 0 when
// it has none. fives are the attacker's five points before q (block: q is one of them),
// straight its straight-four points.
func (t *trainer) afterDefence(b *engine.Board, q engine.Point, fives []engine.Point, block bool, straight []engine.Point) (int, error) {
	def := t.att.Opponent()
	switch {
	case len(fives) > 0 && !block:
		return 1, nil // a five point stays open
	case keepsStraightFour(straight, q) && !makesFour(b, q, def):
		// A straight four stays and the defender gets no four: the shortest VCF, three
		// plies, without the solver's set-up.
		return 3, nil
	}
	if err := b.Play(q); err != nil {
		return 0, err
	}
	defer b.Undo()
	if b.Outcome().Over {
		return 0, nil // the defender's five, or a draw on a full board
	}
	w, ok, err := t.solve(b)
	if err != nil || !ok {
		return 0, err
	}
	return w.Plies, nil
}

// straightFours returns the empty points where c (not to move on b) would make two
// five points or more at once.
func straightFours(b *engine.Board, c engine.Color) []engine.Point {
	var out []engine.Point
	nearLines(b, c, func(m engine.Point) bool {
		n := 0
		for _, d := range dirs {
			if lineCount(b, m, d, c) < 3 {
				continue
			}
			for k := -4; k <= 4 && n < 2; k++ {
				e := engine.Point{X: m.X + k*d.X, Y: m.Y + k*d.Y}
				if k != 0 && e.Valid(b.Size()) && b.At(e) == engine.Empty && makesFive(b, e, c, m) {
					n++
				}
			}
		}
		if n >= 2 {
			out = append(out, m)
		}
		return true
	})
	return out
}

// keepsStraightFour reports whether a defender stone on q leaves one of the straight
// four points intact: q is on none of the four lines through it within four points
// (where its stones and five points lie).
func keepsStraightFour(straight []engine.Point, q engine.Point) bool {
	for _, m := range straight {
		dx, dy := abs(q.X-m.X), abs(q.Y-m.Y)
		if (dx != 0 && dy != 0 && dx != dy) || max(dx, dy) > 4 {
			return true
		}
	}
	return false
}

// attack returns a winning attacker move on b (the attacker to move) that Check
// accepts and the defence Check would reply (NoPoint after a five).
func (t *trainer) attack(b *engine.Board) (engine.Point, engine.Point, error) {
	if w := WinningPoints(b, t.att); len(w) > 0 {
		for _, m := range w {
			if b.Check(m) == nil {
				return m, engine.NoPoint, nil
			}
		}
	}
	w, ok, err := t.solve(b)
	if err != nil {
		return engine.NoPoint, engine.NoPoint, err
	}
	var cands []engine.Point
	if ok {
		cands = append(cands, w.Line[0])
	}
	// The solver's first move may win too slowly for the limit (or, rarely, not against
	// every defence): the puzzle's answers and the other fours are the fall-backs.
	for _, m := range append(slices.Clone(t.first), fourMoves(b)...) {
		if !slices.Contains(cands, m) {
			cands = append(cands, m)
		}
	}
	for _, m := range cands {
		if b.Play(m) != nil {
			continue
		}
		reply, ok, err := t.defend(b, t.limit-b.Ply())
		_, _ = b.Undo()
		if err != nil {
			return engine.NoPoint, engine.NoPoint, err
		}
		if ok {
			return m, reply, nil
		}
	}
	return engine.NoPoint, engine.NoPoint, ErrNoWin
}

// solution plays attack and defend from b (the attacker to move) to the five.
func (t *trainer) solution(b *engine.Board) ([]engine.Point, error) {
	b = b.Clone()
	var out []engine.Point
	for !b.Outcome().Over {
		m, reply, err := t.attack(b)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
		_ = b.Play(m)
		if reply != engine.NoPoint {
			out = append(out, reply)
			_ = b.Play(reply)
		}
	}
	return out, nil
}

// dist is the Chebyshev distance between two points.
func dist(a, b engine.Point) int { return max(abs(a.X-b.X), abs(a.Y-b.Y)) }
