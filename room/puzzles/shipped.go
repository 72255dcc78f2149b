package puzzles

import (
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

// Shipped returns the verified puzzle suite shipped with Gomoku Arena (package
// engine/puzzle, the suite of `gomoku puzzles`) as trainer puzzles.
func Shipped() ([]Puzzle, error) {
	ps, err := puzzle.Shipped()
	if err != nil {
		return nil, err
	}
	out := make([]Puzzle, len(ps))
	for i, p := range ps {
		out[i] = fromEngine(p, SourceShipped)
	}
	return out, nil
}

func fromEngine(p puzzle.Puzzle, source string) Puzzle {
	return Puzzle{ID: p.ID, Source: source, Category: p.Category, Rule: p.Rule, Size: p.Size, ToMove: p.ToMove,
		Moves: p.Moves, Answers: p.Answers}
}

// toEngine is p as package engine/puzzle takes it.
func toEngine(p Puzzle) puzzle.Puzzle {
	return puzzle.Puzzle{ID: p.ID, Category: p.Category, Rule: p.Rule, Size: p.Size, ToMove: p.ToMove,
		Moves: p.Moves, Answers: p.Answers}
}
