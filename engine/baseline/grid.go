package baseline

import "github.com/gomoku-arena/gomoku/engine"

// Pattern scores of the classic course-project evaluation.
const (
	ScoreFive        = 100000
	ScoreOpenFour    = 10000
	ScoreFour        = 5000
	ScoreOpenThree   = 2000
	ScoreClosedThree = 500
	ScoreOpenTwo     = 200
	ScoreClosedTwo   = 50
)

// cell contents of the padded grid.
const (
	empty int8 = 0
	black int8 = 1
	white int8 = 2
	wall  int8 = 3
)

// grid is the baseline's own copy of the stones: a board padded with a wall border so
// that line scans need no bounds checks, plus a count of stones within two points of
// every cell (the candidate generator).
type grid struct {
	size  int
	w     int // padded width: size + 2
	cells []int8
	near  []int16
	dirs  [4]int
	ring  []int // index offsets of the 5x5 neighbourhood (centre excluded)
}

func newGrid(size int) *grid {
	w := size + 2
	g := &grid{size: size, w: w, cells: make([]int8, w*w), near: make([]int16, w*w)}
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

func (g *grid) put(i int, c int8) {
	g.cells[i] = c
	for _, o := range g.ring {
		if j := i + o; j >= 0 && j < len(g.near) {
			g.near[j]++
		}
	}
}

func (g *grid) remove(i int) {
	g.cells[i] = empty
	for _, o := range g.ring {
		if j := i + o; j >= 0 && j < len(g.near) {
			g.near[j]--
		}
	}
}

// runScore scores a run of n stones with the given number of open ends.
func runScore(n, open int) int64 {
	switch {
	case n >= 5:
		return ScoreFive
	case open == 0:
		return 0
	case n == 4:
		if open == 2 {
			return ScoreOpenFour
		}
		return ScoreFour
	case n == 3:
		if open == 2 {
			return ScoreOpenThree
		}
		return ScoreClosedThree
	case n == 2:
		if open == 2 {
			return ScoreOpenTwo
		}
		return ScoreClosedTwo
	}
	return 0
}

// patterns returns the pattern totals of black and white over the whole board: every
// maximal run of stones in each of the four directions is scored once by its length and
// open ends. This is the classic full-board evaluation, recomputed at every leaf.
func (g *grid) patterns() (sb, sw int64) {
	for i, c := range g.cells {
		if c != black && c != white {
			continue
		}
		for _, d := range g.dirs {
			if g.cells[i-d] == c {
				continue // not the start of the run
			}
			n := 1
			for g.cells[i+n*d] == c {
				n++
			}
			open := 0
			if g.cells[i-d] == empty {
				open++
			}
			if g.cells[i+n*d] == empty {
				open++
			}
			s := runScore(n, open)
			if c == black {
				sb += s
			} else {
				sw += s
			}
		}
	}
	return sb, sw
}

// pointScore is the move-ordering heuristic: the pattern score colour c would get on
// the four lines through the empty cell i by playing there.
func (g *grid) pointScore(i int, c int8) int64 {
	var s int64
	for _, d := range g.dirs {
		lo := 1
		for g.cells[i-lo*d] == c {
			lo++
		}
		hi := 1
		for g.cells[i+hi*d] == c {
			hi++
		}
		open := 0
		if g.cells[i-lo*d] == empty {
			open++
		}
		if g.cells[i+hi*d] == empty {
			open++
		}
		s += runScore(lo+hi-1, open)
	}
	return s
}
