package mcts

import (
	"math/rand/v2"

	"github.com/gomoku-arena/gomoku/engine"
)

const (
	empty int8 = 0
	black int8 = 1
	white int8 = 2
	wall  int8 = 3
)

// grid is the playout board: a wall-padded copy of the stones with a per-cell count
// of stones within two points, and the list of cells such stones make candidates.
type grid struct {
	size  int
	w     int
	rule  engine.Rule
	cells []int8
	near  []int16
	dirs  [4]int
	ring  []int
	cands []int // scratch
	wts   []int // scratch
}

func newGrid(size int, rule engine.Rule) *grid {
	w := size + 2
	g := &grid{size: size, w: w, rule: rule, cells: make([]int8, w*w), near: make([]int16, w*w)}
	for y := 0; y < w; y++ {
		for x := 0; x < w; x++ {
			if x == 0 || y == 0 || x == w-1 || y == w-1 {
				g.cells[y*w+x] = wall
			}
		}
	}
	g.dirs = [4]int{1, w, w + 1, w - 1}
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if dx != 0 || dy != 0 {
				g.ring = append(g.ring, dy*w+dx)
			}
		}
	}
	return g
}

func (g *grid) index(p engine.Point) int { return (p.Y+1)*g.w + p.X + 1 }

func (g *grid) point(i int) engine.Point { return engine.Point{X: i%g.w - 1, Y: i/g.w - 1} }

func (g *grid) copyFrom(o *grid) {
	copy(g.cells, o.cells)
	copy(g.near, o.near)
}

func (g *grid) put(i int, c int8) {
	g.cells[i] = c
	for _, o := range g.ring {
		if j := i + o; j >= 0 && j < len(g.near) {
			g.near[j]++
		}
	}
}

// runThrough returns the length of c's run through the empty or c-held cell i along d
// (counting i) and its number of open ends.
func (g *grid) runThrough(i, d int, c int8) (n, open int) {
	lo := 1
	for g.cells[i-lo*d] == c {
		lo++
	}
	hi := 1
	for g.cells[i+hi*d] == c {
		hi++
	}
	if g.cells[i-lo*d] == empty {
		open++
	}
	if g.cells[i+hi*d] == empty {
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
	for _, d := range g.dirs {
		if n, _ := g.runThrough(i, d, c); g.wins(n, c) {
			return true
		}
	}
	return false
}

// threat scores what c would make by playing i: fours and open threes dominate.
func (g *grid) threat(i int, c int8) int {
	s := 0
	for _, d := range g.dirs {
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
		for i, c := range g.cells {
			if c != empty || g.near[i] == 0 {
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
		g.put(pick, to)
		to = opp
	}
	return empty
}
