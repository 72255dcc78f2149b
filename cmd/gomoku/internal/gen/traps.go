package main

import (
	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

var lineDirs = [4]engine.Point{{X: 1}, {Y: 1}, {X: 1, Y: 1}, {X: 1, Y: -1}}

func at(p, d engine.Point, k int) engine.Point { return engine.Point{X: p.X + k*d.X, Y: p.Y + k*d.Y} }

// stones is a pattern under construction.
type stones struct {
	black, white []engine.Point
	used         map[engine.Point]bool
}

func newStones() *stones { return &stones{used: map[engine.Point]bool{}} }

func (s *stones) put(c engine.Color, ps ...engine.Point) bool {
	for _, p := range ps {
		if !p.Valid(15) || s.used[p] {
			return false
		}
		s.used[p] = true
		if c == engine.Black {
			s.black = append(s.black, p)
		} else {
			s.white = append(s.white, p)
		}
	}
	return true
}

// fill adds stones of c far (Chebyshev distance >= 4) from every stone until n of them.
func (g *generator) fill(s *stones, c engine.Color, n int) bool {
	for tries := 0; tries < 500 && n > 0; tries++ {
		p := engine.Point{X: g.r.IntN(15), Y: g.r.IntN(15)}
		ok := true
		for q := range s.used {
			if max(iabs(p.X-q.X), iabs(p.Y-q.Y)) < 4 {
				ok = false
				break
			}
		}
		if ok && s.put(c, p) {
			n--
		}
	}
	return n == 0
}

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// balance adds fillers so that the side toMove is to move.
func (g *generator) balance(s *stones, toMove engine.Color) bool {
	nb, nw := len(s.black), len(s.white)
	wantB := nw // black to move: equal counts
	if toMove == engine.White {
		wantB = nw + 1
	}
	switch {
	case nb < wantB:
		return g.fill(s, engine.Black, wantB-nb)
	case nb > wantB:
		return g.fill(s, engine.White, nb-wantB)
	}
	return true
}

// constructed builds the renju forbidden-point traps and the standard overline traps.
func (g *generator) constructed() {
	for tries := 0; tries < 5000 && g.counts[puzzle.RenjuTrap] < quota[puzzle.RenjuTrap]; tries++ {
		if tries%3 == 2 {
			g.renjuBlackTrap()
		} else {
			g.renjuWhiteTrap(tries % 3)
		}
	}
	for tries := 0; tries < 5000 && g.counts[puzzle.OverlineTrap] < quota[puzzle.OverlineTrap]; tries++ {
		g.overlineTrap(tries%2 == 0)
	}
	for tries := 0; tries < 3000 && g.counts[puzzle.VCT] < quota[puzzle.VCT]; tries++ {
		g.vctConstruct()
	}
}

// renjuWhiteTrap: white to move makes a four whose only completion point F is
// forbidden for black (a double-three when kind is 0, a double-four when 1).
func (g *generator) renjuWhiteTrap(kind int) {
	F := engine.Point{X: 3 + g.r.IntN(9), Y: 3 + g.r.IntN(9)}
	perm := g.r.Perm(4)
	d1, d2, d3 := lineDirs[perm[0]], lineDirs[perm[1]], lineDirs[perm[2]]
	if g.r.IntN(2) == 0 {
		d3 = engine.Point{X: -d3.X, Y: -d3.Y}
	}
	s := newStones()
	arm := 2 + kind // stones per black arm: 2 (threes) or 3 (fours)
	for k := 1; k <= arm; k++ {
		if !s.put(engine.Black, at(F, d1, k), at(F, d2, k)) {
			return
		}
	}
	if !s.put(engine.White, at(F, d3, 1), at(F, d3, 2), at(F, d3, 3)) || !s.put(engine.Black, at(F, d3, 5)) {
		return
	}
	if !g.balance(s, engine.White) {
		return
	}
	b, err := g.build(engine.Renju, s.black, s.white)
	if err != nil || b.ForbiddenAt(F) == engine.NotForbidden {
		return
	}
	g.add(b, puzzle.RenjuTrap, "white's four can only be blocked on "+F.String()+", forbidden for black ("+b.ForbiddenAt(F).String()+")")
}

// renjuBlackTrap: black to move; black's apparent five point is an overline (forbidden,
// no win) and white has a four that must be blocked.
func (g *generator) renjuBlackTrap() {
	G := engine.Point{X: 4 + g.r.IntN(7), Y: 4 + g.r.IntN(7)}
	perm := g.r.Perm(4)
	d1, d2 := lineDirs[perm[0]], lineDirs[perm[1]]
	s := newStones()
	if !s.put(engine.Black, at(G, d1, -3), at(G, d1, -2), at(G, d1, -1), at(G, d1, 1), at(G, d1, 2)) {
		return
	}
	// White four elsewhere: four stones with one end blocked by black.
	W := engine.Point{X: 2 + g.r.IntN(11), Y: 2 + g.r.IntN(11)}
	if !s.put(engine.White, at(W, d2, 0), at(W, d2, 1), at(W, d2, 2), at(W, d2, 3)) || !s.put(engine.Black, at(W, d2, -1)) {
		return
	}
	if !g.balance(s, engine.Black) {
		return
	}
	b, err := g.build(engine.Renju, s.black, s.white)
	if err != nil || b.ForbiddenAt(G) != engine.Overline {
		return
	}
	g.add(b, puzzle.RenjuTrap, G.String()+" would be an overline for black: block white's four")
}

// overlineTrap (standard rule): the side to move has X X X _ X X whose gap makes six
// (no win); either the opponent has a four to block or the side has a real five point.
func (g *generator) overlineTrap(block bool) {
	G := engine.Point{X: 4 + g.r.IntN(7), Y: 4 + g.r.IntN(7)}
	perm := g.r.Perm(4)
	d1, d2 := lineDirs[perm[0]], lineDirs[perm[1]]
	me := engine.Black
	if g.r.IntN(2) == 0 {
		me = engine.White
	}
	s := newStones()
	if !s.put(me, at(G, d1, -3), at(G, d1, -2), at(G, d1, -1), at(G, d1, 1), at(G, d1, 2)) {
		return
	}
	W := engine.Point{X: 2 + g.r.IntN(11), Y: 2 + g.r.IntN(11)}
	owner, other := me.Opponent(), me
	if !block {
		owner, other = me, me.Opponent()
	}
	if !s.put(owner, at(W, d2, 0), at(W, d2, 1), at(W, d2, 2), at(W, d2, 3)) || !s.put(other, at(W, d2, -1)) {
		return
	}
	if !g.balance(s, me) {
		return
	}
	b, err := g.build(engine.Standard, s.black, s.white)
	if err != nil || b.ToMove() != me {
		return
	}
	note := G.String() + " makes six: no win under the standard rule"
	if block {
		note += "; block the four"
	}
	g.add(b, puzzle.OverlineTrap, note)
}

// vctConstruct: the attacker's two open twos cross at an empty point whose stone makes
// a double open three (a VCT win: the defender stops one three, the other becomes an
// open four); a few random stones of both colours are added nearby as noise.
func (g *generator) vctConstruct() {
	rules := engine.Rules()
	rule := rules[g.r.IntN(len(rules))]
	me := engine.Black
	if rule == engine.Renju || g.r.IntN(2) == 0 {
		me = engine.White // black's double three is forbidden under renju
	}
	P := engine.Point{X: 4 + g.r.IntN(7), Y: 4 + g.r.IntN(7)}
	perm := g.r.Perm(4)
	d1, d2 := lineDirs[perm[0]], lineDirs[perm[1]]
	s := newStones()
	s.used[P] = true
	a1, a2 := 1+g.r.IntN(2), 1+g.r.IntN(2) // arms: stones at 1,2 or 2,3 steps (split threes)
	if !s.put(me, at(P, d1, a1), at(P, d1, a1+1), at(P, d2, -a2), at(P, d2, -a2-1)) {
		return
	}
	for i := 0; i < 2+g.r.IntN(4); i++ {
		c := engine.Black
		if i%2 == 1 {
			c = engine.White
		}
		q := engine.Point{X: P.X - 4 + g.r.IntN(9), Y: P.Y - 4 + g.r.IntN(9)}
		s.put(c, q)
	}
	delete(s.used, P)
	if !g.balance(s, me) {
		return
	}
	b, err := g.build(rule, s.black, s.white)
	if err != nil || b.ToMove() != me {
		return
	}
	g.add(b, puzzle.VCT, "a double three at "+P.String()+" (or another quiet threat), then VCF")
}
