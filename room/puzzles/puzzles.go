// Package puzzles is the server side of the puzzle trainer: the shipped and mined
// puzzles, their Glicko-2 ratings and the players' puzzle ratings, attempts, the
// choice of a player's next puzzle, and the mining of finished games, all on Redis.
// The game logic — whether a move solves a position, the defender's reply, hints,
// solutions and finding puzzles in a game — is the Solver's (package engine/puzzle);
// this package only stores and rates. A puzzle is engine/puzzle's Puzzle, note
// included; where it comes from (shipped or mined) is the Store's to say (Source).
//
// # Exactly once
//
// An attempt ends (solved, or failed: a wrong move or the solution shown) in one Lua
// script that marks it over and, when it is rated, writes the player's and the
// puzzle's new ratings together. The new ratings are computed in Go (package rating)
// from the values read just before; the script checks that the attempt and both
// ratings are still those (compare and set) and otherwise the step is computed again,
// or, when the attempt is already over, its stored outcome is returned. So a retried
// request or two nodes answering the same attempt apply its rating change once.
//
// # Rated attempts
//
// A player's first attempt of a puzzle is rated, unless the player asks for a hint or
// the solution before it ends; later attempts of the same puzzle are practice. Every
// key lives under the hash tag {puzzles}, so the scripts run on one Redis Cluster slot.
package puzzles

import (
	"context"
	"errors"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// Sources of a puzzle.
const (
	SourceShipped = "shipped"
	SourceMined   = "mined"
)

// Errors.
var (
	ErrNoSuchPuzzle  = errors.New("puzzles: no such puzzle")
	ErrNoSuchAttempt = errors.New("puzzles: no such attempt")
	ErrAttemptOver   = errors.New("puzzles: the attempt is over")
	ErrNotYours      = errors.New("puzzles: the attempt is another player's")
	ErrConflict      = errors.New("puzzles: the attempt changed meanwhile")
	ErrContention    = errors.New("puzzles: ratings kept changing")
	ErrUnavailable   = errors.New("puzzles: store unavailable")
	// ErrBadMove and ErrBudget are the Solver's: a move or line that cannot be played
	// in the puzzle, and a question the solver could not answer within its budget.
	ErrBadMove = errors.New("puzzles: the move cannot be played here")
	ErrBudget  = errors.New("puzzles: the solver's budget ran out")
)

// Solver answers the trainer's questions about a puzzle position after line (the
// moves played since the puzzle's start, attacker and defender alternating). Each
// call is bounded by budget solver nodes and by ctx. EngineSolver is engine/puzzle's;
// tests script their own.
type Solver interface {
	Check(ctx context.Context, p puzzle.Puzzle, line []engine.Point, move engine.Point, budget uint64) (puzzle.Step, error)
	Hint(ctx context.Context, p puzzle.Puzzle, line []engine.Point, budget uint64) (engine.Point, error)
	Solution(ctx context.Context, p puzzle.Puzzle, line []engine.Point, budget uint64) ([]engine.Point, error)
}

// Miner finds puzzles in a finished game: positions where the mover had a short
// forced win, verified, each with an id derived from the position up to the board's 8
// symmetries (so a position is one puzzle whichever game reaches it).
type Miner interface {
	Mine(ctx context.Context, rule engine.Rule, size int, moves []engine.Point) ([]puzzle.Puzzle, error)
}

// priors are the starting ratings of a new puzzle by category: an easy kind starts
// low, a long forced win high; the puzzle's rating then follows its solvers.
var priors = map[string]float64{
	"win-in-one":    900,
	"must-block":    1000,
	"open-three":    1400,
	"overline-trap": 1400,
	"vcf":           1500,
	"renju-trap":    1600,
	"vct":           1800,
}

// PriorRD is the rating deviation a new puzzle starts with: below a new player's, the
// category says something, but far from settled.
const PriorRD = 250.0

// Prior returns the starting rating of a puzzle of a category (1500 when unknown).
func Prior(category string) rating.Rating {
	r, ok := priors[category]
	if !ok {
		r = rating.InitialR
	}
	return rating.Rating{R: r, RD: PriorRD, Vol: rating.InitialVol}
}
