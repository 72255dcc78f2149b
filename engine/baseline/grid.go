package baseline

import "github.com/gomoku-arena/gomoku/engine/internal/padgrid"

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
	empty = padgrid.Empty
	black = padgrid.Black
	white = padgrid.White
	wall  = padgrid.Wall
)

// grid is the baseline's own copy of the stones (see padgrid).
type grid struct{ padgrid.Grid }

func newGrid(size int) *grid { return &grid{padgrid.New(size)} }

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
	for i, c := range g.Cells {
		if c != black && c != white {
			continue
		}
		for _, d := range g.Dirs {
			n, open := g.runAt(i, d, c)
			if n == 0 {
				continue
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

// runAt returns the length and open ends of the run of colour c that starts at i in
// direction d, or n == 0 when i is not the start of one.
func (g *grid) runAt(i, d int, c int8) (n, open int) {
	if g.Cells[i-d] == c {
		return 0, 0
	}
	n = 1
	for g.Cells[i+n*d] == c {
		n++
	}
	if g.Cells[i-d] == empty {
		open++
	}
	if g.Cells[i+n*d] == empty {
		open++
	}
	return n, open
}

// pointScore is the move-ordering heuristic: the pattern score colour c would get on
// the four lines through the empty cell i by playing there.
func (g *grid) pointScore(i int, c int8) int64 {
	var s int64
	for _, d := range g.Dirs {
		lo := 1
		for g.Cells[i-lo*d] == c {
			lo++
		}
		hi := 1
		for g.Cells[i+hi*d] == c {
			hi++
		}
		open := 0
		if g.Cells[i-lo*d] == empty {
			open++
		}
		if g.Cells[i+hi*d] == empty {
			open++
		}
		s += runScore(lo+hi-1, open)
	}
	return s
}
