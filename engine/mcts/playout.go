package mcts

import (
	"math/rand/v2"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/internal/padgrid"
)

const (
	empty = padgrid.Empty
	black = padgrid.Black
	white = padgrid.White
	wall  = padgrid.Wall
)

// grid is the playout board: a padded copy of the stones (see padgrid) under a rule,
// with scratch space for the weighted move choice.
type grid struct {
	padgrid.Grid
	rule  engine.Rule
	cands []int // scratch
	wts   []int // scratch
}

func newGrid(size int, rule engine.Rule) *grid {
	return &grid{Grid: padgrid.New(size), rule: rule}
}

func (g *grid) copyFrom(o *grid) { g.CopyFrom(&o.Grid) }

// runThrough returns the length of c's run through the empty or c-held cell i along d
// (counting i) and its number of open ends.
func (g *grid) runThrough(i, d int, c int8) (n, open int) {
	lo := 1
	for g.Cells[i-lo*d] == c {
		lo++
	}
	hi := 1
	for g.Cells[i+hi*d] == c {
		hi++
	}
	if g.Cells[i-lo*d] == empty {
		open++
	}
	if g.Cells[i+hi*d] == empty {
		open++
	}
	return lo + hi - 1, open
}

// wins reports whether a run of n stones of c wins under the rule.
func (g *grid) wins(n int, c int8) bool {
	switch {
	case n == 5:
		return true
	case n < 5:
		return false
	case g.rule == engine.Freestyle:
		return true
	case g.rule == engine.Renju:
		return c == white
	}
	return false
}

// makesFive reports whether c playing the empty cell i wins.
func (g *grid) makesFive(i int, c int8) bool {
	for _, d := range g.Dirs {
		if n, _ := g.runThrough(i, d, c); g.wins(n, c) {
			return true
		}
	}
	return false
}

// threat scores what c would make by playing i: fours and open threes dominate.
func (g *grid) threat(i int, c int8) int {
	s := 0
	for _, d := range g.Dirs {
		n, open := g.runThrough(i, d, c)
		switch {
		case g.wins(n, c):
			s += 100000
		case n == 4 && open == 2:
			s += 5000
		case n == 4 && open == 1:
			s += 400
		case n == 3 && open == 2:
			s += 300
		case n == 3 && open == 1:
			s += 30
		case n == 2 && open == 2:
			s += 20
		case n == 2 && open == 1:
			s += 4
		}
	}
	return s
}

// playout plays pattern-guided random moves from the grid's position (to is the colour
// to move) until a win or maxPlies, and returns the winner (empty for none).
func (g *grid) playout(r *rand.Rand, to int8, maxPlies int) int8 {
	for ply := 0; ply < maxPlies; ply++ {
		opp := 3 - to
		g.cands, g.wts = g.cands[:0], g.wts[:0]
		block, total := -1, 0
		for i, c := range g.Cells {
			if c != empty || g.Near[i] == 0 {
				continue
			}
			mine := g.threat(i, to)
			if mine >= 100000 {
				return to // a five ends the playout at once
			}
			theirs := g.threat(i, opp)
			if theirs >= 100000 {
				block = i
			}
			w := 1 + mine + theirs*4/5
			w *= w
			g.cands = append(g.cands, i)
			g.wts = append(g.wts, w)
			total += w
		}
		if len(g.cands) == 0 {
			return empty
		}
		pick := block
		if pick < 0 {
			x := r.IntN(total)
			for k, w := range g.wts {
				if x < w {
					pick = g.cands[k]
					break
				}
				x -= w
			}
		}
		g.Put(pick, to)
		to = opp
	}
	return empty
}
