package baseline

import (
	"context"

	"github.com/gomoku-arena/gomoku/engine"
)

// Pattern is one scored run of stones of the baseline evaluation.
type Pattern struct {
	Color  engine.Color
	Stones []engine.Point // in line order
	Open   int            // open ends: 0, 1 or 2
	Kind   string         // five, open_four, four, open_three, closed_three, open_two, closed_two
	Score  int64          // the pattern table's score (ScoreFive, ScoreOpenFour, ...)
}

// Explanation is the baseline evaluation of a position taken apart: every run that
// scores, each colour's total, and the value the search would see at this leaf from the
// side to move's point of view (own total ×10 minus the opponent's ×12).
type Explanation struct {
	Patterns []Pattern
	Black    int64
	White    int64
	Value    int64
	ToMove   engine.Color
}

// kindOf names a run by its length and open ends (runScore's cases).
func kindOf(n, open int) string {
	switch {
	case n >= 5:
		return "five"
	case n == 4 && open == 2:
		return "open_four"
	case n == 4:
		return "four"
	case n == 3 && open == 2:
		return "open_three"
	case n == 3:
		return "closed_three"
	case n == 2 && open == 2:
		return "open_two"
	}
	return "closed_two"
}

// Explain evaluates b as the baseline does at a leaf and lists the patterns behind the
// number. It allocates (a list for people, not for the search).
func Explain(b *engine.Board) Explanation {
	s := newSearcher(context.Background(), b, Options{})
	g := s.g
	ex := Explanation{ToMove: b.ToMove()}
	for i, c := range g.Cells {
		if c != black && c != white {
			continue
		}
		for _, d := range g.Dirs {
			n, open := g.runAt(i, d, c)
			sc := runScore(n, open)
			if n == 0 || sc == 0 {
				continue
			}
			p := Pattern{Color: engine.Black, Open: open, Kind: kindOf(n, open), Score: sc}
			if c == white {
				p.Color = engine.White
				ex.White += sc
			} else {
				ex.Black += sc
			}
			for k := 0; k < n; k++ {
				p.Stones = append(p.Stones, g.Point(i+k*d))
			}
			ex.Patterns = append(ex.Patterns, p)
		}
	}
	ex.Value = s.eval()
	return ex
}
