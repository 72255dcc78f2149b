package puzzle

import (
	"github.com/gomoku-arena/gomoku/engine"
)

// The solver proves the answers of the puzzle suite: wins in one, safe blocks, VCF
// (victory by continuous fours) and one-three VCT wins. It works on engine.Board with
// Play/Undo, so every move it considers is legal under the board's rule, renju
// forbidden points included (a four whose only block is forbidden for black wins).

var dirs = [4]engine.Point{{X: 1, Y: 0}, {X: 0, Y: 1}, {X: 1, Y: 1}, {X: 1, Y: -1}}

// wins reports whether a run of n stones of c wins under rule.
func wins(rule engine.Rule, n int, c engine.Color) bool {
	switch {
	case n == 5:
		return true
	case n < 5:
		return false
	case rule == engine.Freestyle:
		return true
	case rule == engine.Renju:
		return c == engine.White
	}
	return false
}

// cellAt returns the colour at p, treating the extra points as holding c.
func cellAt(b *engine.Board, p engine.Point, c engine.Color, extra []engine.Point) engine.Color {
	for _, e := range extra {
		if e == p {
			return c
		}
	}
	if !p.Valid(b.Size()) {
		return 3 // wall
	}
	return b.At(p)
}

// makesFive reports whether c playing the empty point p wins, with the extra points
// also treated as c's stones.
func makesFive(b *engine.Board, p engine.Point, c engine.Color, extra ...engine.Point) bool {
	for _, d := range dirs {
		n := 1
		for k := 1; cellAt(b, engine.Point{X: p.X + k*d.X, Y: p.Y + k*d.Y}, c, extra) == c; k++ {
			n++
		}
		for k := 1; cellAt(b, engine.Point{X: p.X - k*d.X, Y: p.Y - k*d.Y}, c, extra) == c; k++ {
			n++
		}
		if wins(b.Rule(), n, c) {
			return true
		}
	}
	return false
}

// WinningPoints returns the empty points where c makes a winning five (whoever is to
// move).
func WinningPoints(b *engine.Board, c engine.Color) []engine.Point {
	return winningUpTo(b, c, 1<<30)
}

// winningUpTo returns at most limit winning points of c.
func winningUpTo(b *engine.Board, c engine.Color, limit int) []engine.Point {
	var out []engine.Point
	nearLines(b, c, func(p engine.Point) bool {
		if maybeFive(b, p, c) && makesFive(b, p, c) {
			out = append(out, p)
		}
		return len(out) < limit
	})
	return out
}

// nearLines calls fn once for every empty point within four points of a c stone along
// one of the four lines (the only points where c can make a four or a five), until fn
// returns false.
func nearLines(b *engine.Board, c engine.Color, fn func(engine.Point) bool) {
	var mark [engine.MaxSize * engine.MaxSize]bool
	n := b.Size()
	for i, s := range b.Moves() {
		if (i%2 == 0) != (c == engine.Black) {
			continue
		}
		for _, d := range dirs {
			for k := -4; k <= 4; k++ {
				e := engine.Point{X: s.X + k*d.X, Y: s.Y + k*d.Y}
				if k == 0 || !e.Valid(n) || mark[e.Y*n+e.X] || b.At(e) != engine.Empty {
					continue
				}
				mark[e.Y*n+e.X] = true
				if !fn(e) {
					return
				}
			}
		}
	}
}

// maybeFive is a cheap filter: a five through p needs four c stones near it on a line.
func maybeFive(b *engine.Board, p engine.Point, c engine.Color) bool {
	for _, d := range dirs {
		if lineCount(b, p, d, c) >= 4 {
			return true
		}
	}
	return false
}

// fourMoves returns the legal moves of the side to move that make at least one
// winning point (fours, including open fours and split fours).
func fourMoves(b *engine.Board) []engine.Point {
	c := b.ToMove()
	var out []engine.Point
	nearLines(b, c, func(p engine.Point) bool {
		if makesFour(b, p, c) && b.Check(p) == nil {
			out = append(out, p)
		}
		return true
	})
	return out
}

// lineCount counts c's stones within four points of p along d.
func lineCount(b *engine.Board, p, d engine.Point, c engine.Color) int {
	n := 0
	for k := -4; k <= 4; k++ {
		if k != 0 && b.At(engine.Point{X: p.X + k*d.X, Y: p.Y + k*d.Y}) == c {
			n++
		}
	}
	return n
}

// makesFour reports whether c at p creates a winning point on a line through p.
func makesFour(b *engine.Board, p engine.Point, c engine.Color) bool {
	for _, d := range dirs {
		if lineCount(b, p, d, c) < 3 {
			continue // a four needs three more stones on the line
		}
		for k := -4; k <= 4; k++ {
			if k == 0 {
				continue
			}
			e := engine.Point{X: p.X + k*d.X, Y: p.Y + k*d.Y}
			if !e.Valid(b.Size()) || b.At(e) != engine.Empty {
				continue
			}
			if makesFive(b, e, c, p) {
				return true
			}
		}
	}
	return false
}

// Solver proves VCF and VCT wins; it caches failed VCF searches by position.
type Solver struct {
	fail  map[uint64]int
	Nodes int
	// Limit, when positive, caps Nodes; past it searches answer false and Exceeded is
	// set (the generator skips such positions; verification runs unlimited).
	Limit    int
	Exceeded bool
}

// Reset clears the node count and the Exceeded flag (and the cache if it was exceeded).
func (s *Solver) Reset() {
	if s.Exceeded {
		s.fail = map[uint64]int{}
	}
	s.Nodes, s.Exceeded = 0, false
}

// NewSolver returns a solver with an empty cache.
func NewSolver() *Solver { return &Solver{fail: map[uint64]int{}} }

// VCF reports whether the side to move wins by continuous fours with at most depth
// fours before the five.
func (s *Solver) VCF(b *engine.Board, depth int) bool {
	att := b.ToMove()
	if len(winningUpTo(b, att, 1)) > 0 {
		return true
	}
	if depth == 0 {
		return false
	}
	if s.Limit > 0 && s.Nodes > s.Limit {
		s.Exceeded = true
		return false
	}
	h := b.Hash()
	if d, ok := s.fail[h]; ok && d >= depth {
		return false
	}
	for _, a := range s.candidates(b) {
		if s.branch(b, a, depth) {
			return true
		}
	}
	if !s.Exceeded {
		s.fail[h] = depth
	}
	return false
}

// candidates are the attacker's four moves, or only the block of the defender's five
// point when the defender has one (two such points lose).
func (s *Solver) candidates(b *engine.Board) []engine.Point {
	dw := winningUpTo(b, b.ToMove().Opponent(), 2)
	switch {
	case len(dw) > 1:
		return nil
	case len(dw) == 1:
		if b.Check(dw[0]) == nil && makesFour(b, dw[0], b.ToMove()) {
			return dw
		}
		return nil
	}
	return fourMoves(b)
}

// branch plays the four a, the forced block and continues the VCF.
func (s *Solver) branch(b *engine.Board, a engine.Point, depth int) bool {
	s.Nodes++
	att := b.ToMove()
	if b.Play(a) != nil {
		return false
	}
	defer b.Undo()
	if b.Outcome().Over {
		return b.Outcome().Winner == att
	}
	aw := winningUpTo(b, att, 2)
	if len(aw) == 0 || len(winningUpTo(b, att.Opponent(), 1)) > 0 {
		return false
	}
	if len(aw) >= 2 || b.Check(aw[0]) != nil {
		return true // two points to block, or the only block is forbidden
	}
	_ = b.Play(aw[0])
	ok := s.VCF(b, depth-1)
	_, _ = b.Undo()
	return ok
}

// VCFLength returns the length (fours plus the five) of the shortest VCF of the side to
// move within maxFours fours, or 0 when there is none.
func (s *Solver) VCFLength(b *engine.Board, maxFours int) int {
	if len(WinningPoints(b, b.ToMove())) > 0 {
		return 1
	}
	for d := 1; d <= maxFours; d++ {
		if s.VCF(b, d) {
			return d + 1
		}
	}
	return 0
}

// VCFFirstMoves returns every first move that starts a VCF within depth fours.
func (s *Solver) VCFFirstMoves(b *engine.Board, depth int) []engine.Point {
	var out []engine.Point
	for _, a := range s.candidates(b) {
		if s.branch(b, a, depth) {
			out = append(out, a)
		}
	}
	return out
}

// SafeMoves returns the legal moves of the side to move after which the opponent has
// no winning point (or that win at once).
func SafeMoves(b *engine.Board) []engine.Point {
	var out []engine.Point
	me := b.ToMove()
	forEachLegal(b, func(m engine.Point) {
		_ = b.Play(m)
		if o := b.Outcome(); o.Over && o.Winner == me || len(WinningPoints(b, me.Opponent())) == 0 {
			out = append(out, m)
		}
		_, _ = b.Undo()
	})
	return out
}

// Defences returns the legal moves after which the opponent has no VCF within depth
// fours (the answers to an open three, when the side to move has no four of its own).
func (s *Solver) Defences(b *engine.Board, depth int) []engine.Point {
	var out []engine.Point
	forEachLegal(b, func(m engine.Point) {
		_ = b.Play(m)
		if !b.Outcome().Over && !s.VCF(b, depth) {
			out = append(out, m)
		}
		_, _ = b.Undo()
	})
	return out
}

// VCTFirstMoves returns the moves within three points of a stone after which, whatever
// the opponent replies (every legal move), the side to move wins by VCF within depth
// fours: one-threat VCT wins (a three, or any quiet move, then VCF).
func (s *Solver) VCTFirstMoves(b *engine.Board, depth int) []engine.Point {
	var out []engine.Point
	att := b.ToMove()
	forEachLegal(b, func(m engine.Point) {
		if !nearStone(b, m, 3) {
			return
		}
		_ = b.Play(m)
		defer b.Undo()
		if b.Outcome().Over || len(WinningPoints(b, att.Opponent())) > 0 {
			return
		}
		// The farthest point first: a cheap test of whether m threatens anything.
		replies := append([]engine.Point{farPoint(b)}, legalMoves(b)...)
		for _, q := range replies {
			if q == engine.NoPoint || b.Check(q) != nil {
				continue
			}
			_ = b.Play(q)
			ok := !b.Outcome().Over && s.VCF(b, depth)
			_, _ = b.Undo()
			if !ok {
				return
			}
		}
		out = append(out, m)
	})
	return out
}

func legalMoves(b *engine.Board) []engine.Point {
	var out []engine.Point
	forEachLegal(b, func(p engine.Point) { out = append(out, p) })
	return out
}

func forEachLegal(b *engine.Board, fn func(engine.Point)) {
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := engine.Point{X: x, Y: y}
			if b.Check(p) == nil {
				fn(p)
			}
		}
	}
}

func nearStone(b *engine.Board, p engine.Point, r int) bool {
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if b.At(engine.Point{X: p.X + dx, Y: p.Y + dy}) != engine.Empty {
				return true
			}
		}
	}
	return false
}

// farPoint returns the legal point farthest from every stone (NoPoint if none).
func farPoint(b *engine.Board) engine.Point {
	best, bestD := engine.NoPoint, -1
	stones := b.Moves()
	forEachLegal(b, func(p engine.Point) {
		d := 1 << 30
		for _, s := range stones {
			dx, dy := abs(p.X-s.X), abs(p.Y-s.Y)
			d = min(d, max(dx, dy))
		}
		if d > bestD {
			best, bestD = p, d
		}
	})
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
