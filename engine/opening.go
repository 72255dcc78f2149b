package engine

import (
	"context"
	"errors"
)

// OpeningChoice is a decision of the swap and swap2 opening rules: take a colour, or
// (swap2's second player) place two more stones and hand the choice back.
type OpeningChoice int

// Opening choices.
const (
	ChooseBlack OpeningChoice = iota + 1
	ChooseWhite
	ChoosePlaceTwo
)

// String returns the choice's protocol name: black, white or place2.
func (c OpeningChoice) String() string {
	switch c {
	case ChooseBlack:
		return "black"
	case ChooseWhite:
		return "white"
	case ChoosePlaceTwo:
		return "place2"
	}
	return "?"
}

// Evaluator scores a position for the side to move (as a search Result's Score).
type Evaluator func(ctx context.Context, b *Board) (Score, error)

// PlayerEvaluator returns an Evaluator that asks p for a search of b within limits (a
// shallow one: the opening decisions evaluate several positions) and reads its score.
func PlayerEvaluator(p Player, limits Limits) Evaluator {
	return func(ctx context.Context, b *Board) (Score, error) {
		res, err := p.Play(ctx, b, limits, nil)
		if err != nil {
			return 0, err
		}
		return res.Score, nil
	}
}

// OpeningOptions tunes the opening decisions; zero values mean the defaults.
type OpeningOptions struct {
	// Candidates is how many placements ProposeOpening evaluates (default 8).
	Candidates int
	// Seed varies the candidate placements, so that the same player does not propose
	// the same opening every game.
	Seed uint64
	// Margin is the score (centi-stones, either way) within which neither colour is
	// clearly better: then swap2's second player places two more stones (default 60).
	Margin Score
}

// Opening defaults.
const (
	DefaultOpeningCandidates       = 8
	DefaultOpeningMargin     Score = 60
)

// ErrOpening is returned for a proposal that cannot be made (a bad stone count, or no
// room on the board).
var ErrOpening = errors.New("engine: no opening proposal possible")

func (o OpeningOptions) withDefaults() OpeningOptions {
	if o.Candidates <= 0 {
		o.Candidates = DefaultOpeningCandidates
	}
	if o.Margin <= 0 {
		o.Margin = DefaultOpeningMargin
	}
	return o
}

// ProposeOpening returns n stones (1..5) to add to b, in order (their colours alternate
// from b's side to move), that leave a position eval finds balanced: of Candidates
// random placements near the centre (or near the stones already there), the one whose
// score is nearest 0. The score returned is for the side to move after the stones. When
// ctx ends early the best placement evaluated so far is returned (the first candidate if
// none was); b is not modified.
func ProposeOpening(ctx context.Context, b *Board, n int, eval Evaluator, opts OpeningOptions) ([]Point, Score, error) {
	opts = opts.withDefaults()
	if n < 1 || n > 5 {
		return nil, 0, ErrOpening
	}
	rng := opts.Seed ^ b.Hash()
	var first, best []Point
	var bestScore Score
	evaluated := false
	for i := 0; i < opts.Candidates; i++ {
		w := b.Clone()
		stones, ok := candidate(w, n, &rng)
		if !ok {
			continue
		}
		if first == nil {
			first = stones
		}
		if ctx.Err() != nil {
			break
		}
		s, err := eval(ctx, w)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, 0, err
		}
		if !evaluated || openingAbs(s) < openingAbs(bestScore) {
			best, bestScore, evaluated = stones, s, true
		}
	}
	switch {
	case evaluated:
		return best, bestScore, nil
	case first != nil:
		return first, 0, nil
	}
	return nil, 0, ErrOpening
}

// ChooseOpening decides a choice on b, where the chooser may take either colour (and,
// with placeTwo, place two more stones instead): the colour eval finds better, or two
// more stones when neither is better by more than Margin. The score is for b's side
// to move. When ctx ends before the evaluation, the side to move is taken.
func ChooseOpening(ctx context.Context, b *Board, placeTwo bool, eval Evaluator, opts OpeningOptions) (OpeningChoice, Score, error) {
	opts = opts.withDefaults()
	stm := ChooseBlack
	if b.ToMove() == White {
		stm = ChooseWhite
	}
	s, err := eval(ctx, b)
	if err != nil {
		if ctx.Err() != nil {
			return stm, 0, nil
		}
		return 0, 0, err
	}
	switch {
	case placeTwo && openingAbs(s) <= opts.Margin && b.Ply()+2 < b.Size()*b.Size():
		return ChoosePlaceTwo, s, nil
	case s >= 0:
		return stm, s, nil
	case stm == ChooseBlack:
		return ChooseWhite, s, nil
	}
	return ChooseBlack, s, nil
}

// candidate plays n random stones on w: the first of an empty board within one line of
// the centre, every other one within two lines of a stone already there, never one that
// ends the game or is forbidden. It returns the stones played.
func candidate(w *Board, n int, rng *uint64) ([]Point, bool) {
	out := make([]Point, 0, n)
	size := w.Size()
	for len(out) < n {
		placed := false
		for try := 0; try < 64 && !placed; try++ {
			var p Point
			if w.Ply() == 0 {
				c := size / 2
				p = Point{X: c - 1 + int(splitmix(rng)%3), Y: c - 1 + int(splitmix(rng)%3)}
			} else {
				ms := w.Moves()
				m := ms[splitmix(rng)%uint64(len(ms))]
				p = Point{X: m.X - 2 + int(splitmix(rng)%5), Y: m.Y - 2 + int(splitmix(rng)%5)}
			}
			if w.Check(p) != nil {
				continue
			}
			if err := w.Play(p); err != nil {
				continue
			}
			if w.Outcome().Over {
				if _, err := w.Undo(); err != nil {
					return nil, false
				}
				continue
			}
			out = append(out, p)
			placed = true
		}
		if !placed {
			return nil, false
		}
	}
	return out, true
}

func openingAbs(s Score) Score {
	if s < 0 {
		return -s
	}
	return s
}
