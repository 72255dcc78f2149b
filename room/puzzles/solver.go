package puzzles

import (
	"context"
	"errors"
	"sync"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

// EngineSolver is the Solver and Miner of package engine/puzzle. An engine serves
// one call at a time, so the solver keeps a pool of them (small tables: the trainer's
// searches are short).
type EngineSolver struct {
	pool sync.Pool
	// Mining bounds each mined game (engine/puzzle's defaults when zero).
	Mining puzzle.MineOptions
}

// NewEngineSolver returns the solver.
func NewEngineSolver() *EngineSolver {
	s := &EngineSolver{}
	s.pool.New = func() any { return engine.New(engine.Options{HashMiB: 1}) }
	return s
}

func (s *EngineSolver) with(fn func(e *engine.Engine) error) error {
	e := s.pool.Get().(*engine.Engine)
	defer s.pool.Put(e)
	return solverErr(fn(e))
}

// solverErr maps engine/puzzle's errors to the trainer's.
func solverErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, puzzle.ErrBadMove), errors.Is(err, puzzle.ErrBadLine):
		return errors.Join(ErrBadMove, err)
	case errors.Is(err, puzzle.ErrBudget), errors.Is(err, puzzle.ErrNoWin):
		return errors.Join(ErrBudget, err)
	}
	return err
}

// Check implements Solver: engine/puzzle's verdict, a wrong move whose refutation
// the solver did not find within the budget counting as wrong all the same.
func (s *EngineSolver) Check(ctx context.Context, p puzzle.Puzzle, line []engine.Point, move engine.Point, budget uint64) (puzzle.Step, error) {
	var st puzzle.Step
	err := s.with(func(e *engine.Engine) error {
		var err error
		st, err = puzzle.Check(ctx, e, p, line, move, budget)
		if errors.Is(err, puzzle.ErrNoWin) {
			st, err = puzzle.Step{Result: puzzle.Wrong}, nil
		}
		return err
	})
	return st, err
}

// Hint implements Solver.
func (s *EngineSolver) Hint(ctx context.Context, p puzzle.Puzzle, line []engine.Point, budget uint64) (engine.Point, error) {
	var h engine.Point
	err := s.with(func(e *engine.Engine) error {
		var err error
		h, err = puzzle.Hint(ctx, e, p, line, budget)
		return err
	})
	return h, err
}

// Solution implements Solver.
func (s *EngineSolver) Solution(ctx context.Context, p puzzle.Puzzle, line []engine.Point, budget uint64) ([]engine.Point, error) {
	var sol []engine.Point
	err := s.with(func(e *engine.Engine) error {
		var err error
		sol, err = puzzle.Solution(ctx, e, p, line, budget)
		return err
	})
	return sol, err
}

// Mine implements Miner: the verified puzzles of a finished game, with engine/puzzle's
// ids (the same for a position reached in any game, in any of its symmetric forms).
func (s *EngineSolver) Mine(ctx context.Context, rule engine.Rule, size int, moves []engine.Point) ([]puzzle.Puzzle, error) {
	var found []puzzle.Puzzle
	err := s.with(func(e *engine.Engine) error {
		var err error
		found, err = puzzle.Mine(ctx, e, rule, size, moves, s.Mining)
		return err
	})
	return found, err
}
