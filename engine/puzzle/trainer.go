package puzzle

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gomoku-arena/gomoku/engine"
)

// The trainer: the user plays the attacker's moves of a puzzle, one at a time, and the
// server answers each with the best defence until the attacker makes five. Check,
// Hint and Solution are pure functions of the puzzle and the line played since its
// start (attacker, defender, attacker, ...); they keep no state between calls.

// Mode says how the trainer plays a puzzle.
type Mode uint8

// The trainer's modes.
const (
	// Attack: the side to move has a forced win (win-in-one, vcf, vct, and the traps
	// whose answers win). The user plays the attacker's moves until the five; every
	// move must keep a forced win within the puzzle's limit (see Check).
	Attack Mode = iota + 1
	// Defence: the side to move must parry (must-block, open-three, and the traps whose
	// answers are blocks). A one-move puzzle: the correct moves are the puzzle's Answers.
	Defence
)

// String returns "attack" or "defence".
func (m Mode) String() string {
	switch m {
	case Attack:
		return "attack"
	case Defence:
		return "defence"
	}
	return "unknown"
}

// ModeOf returns the trainer's mode of p: Attack for win-in-one, vcf and vct; Defence
// for must-block and open-three; for renju-trap and overline-trap, Attack when the side
// to move has a winning point or no five point to block, Defence when it must block.
func ModeOf(p Puzzle) (Mode, error) {
	switch p.Category {
	case WinInOne, VCF, VCT:
		return Attack, nil
	case MustBlock, OpenThree:
		return Defence, nil
	case RenjuTrap, OverlineTrap:
		b, err := p.Board()
		if err != nil {
			return 0, err
		}
		me := b.ToMove()
		if len(WinningPoints(b, me)) == 0 && len(WinningPoints(b, me.Opponent())) > 0 {
			return Defence, nil
		}
		return Attack, nil
	}
	return 0, fmt.Errorf("%w: %q", ErrCategory, p.Category)
}

// Result is the outcome of one trainer step.
type Result uint8

// The results of Check.
const (
	// Continue: the move keeps a forced win; Step.Reply is the defender's answer.
	Continue Result = iota + 1
	// Solved: the move wins (a five under the puzzle's rule), or is a correct answer of
	// a defence puzzle.
	Solved
	// Wrong: the move lets the win slip (or is forbidden, or is no answer of a defence
	// puzzle); Step.Solution is a winning line from the position before it.
	Wrong
)

// String returns "continue", "solved" or "wrong" (the words of the HTTP API).
func (r Result) String() string {
	switch r {
	case Continue:
		return "continue"
	case Solved:
		return "solved"
	case Wrong:
		return "wrong"
	}
	return "unknown"
}

// Step is the trainer's verdict on one attacker move.
type Step struct {
	Result Result
	// Reply is the defender's answer when Result is Continue, else engine.NoPoint.
	Reply engine.Point
	// Solution, when Result is Wrong, is the rest of a winning line from the position
	// before the move: attacker, best defence, ..., the five (for a defence puzzle, one
	// correct answer); nil when the budget ran out before it was found (the verdict
	// stands).
	Solution []engine.Point
}

// Trainer errors. A cancelled or expired context is returned as ctx.Err().
var (
	// ErrBadMove: the move is off the board or on an occupied point (a renju
	// forbidden point is no error: it is Wrong).
	ErrBadMove = errors.New("puzzle: the move is not an empty point of the board")
	// ErrBadLine: the line is not a legal continuation of the puzzle, or the game is
	// already over (or, for a defence puzzle, not empty).
	ErrBadLine = errors.New("puzzle: the line is not a legal continuation of the puzzle")
	// ErrBudget: the node budget ran out before the verdict was certain.
	ErrBudget = errors.New("puzzle: the node budget ran out")
	// ErrNoWin: the solver finds no forced win for the attacker in the position.
	ErrNoWin = errors.New("puzzle: no forced win found")
)

// Trainer limits.
const (
	// DefaultBudget is the node budget of a call given budget 0. A step of a shipped
	// puzzle typically needs some thousands of nodes, a solution some tens of
	// thousands (docs/performance.md).
	DefaultBudget = 2_000_000
	// SolveNodes caps each solver call (VCF and VCT each). The verdicts do not depend on
	// the budget: a call whose answer would have needed more than what the budget had
	// left fails with ErrBudget instead.
	SolveNodes = 20_000
	// callNodes is what a solver call costs besides its nodes (setting up the engine's
	// board takes about as long as searching 100 nodes).
	callNodes = 100
	// Slack is how many attacker moves slower than the shortest win the solver finds
	// from the puzzle's start a line may take and still count as correct.
	Slack = 2
)

// Check judges the attacker's next move of an attack puzzle, or the answer of a defence
// puzzle. line is the moves played since the puzzle's start (attacker, defender, ...;
// empty at the start), move the attacker's next move. An attack move is accepted iff it
// makes five (Solved), or after it every legal defence still loses to the solver's
// VCF/VCT so that the whole line from the start takes at most Slack attacker moves more
// than the shortest win from the start (Continue, with the defence that makes the
// remaining win longest: ties go to a block of a five point, then to the point nearest
// the move, then to the lowest row and column). Anything else is Wrong, with a
// solution from the position before the move.
//
// budget caps the solver nodes of the call (0: DefaultBudget). e must not be used by
// anyone else during the call. Errors: ErrBadMove, ErrBadLine, ErrBudget, ErrNoWin
// (a wrong move where no winning line is found for the solution either), ctx.Err().
func Check(ctx context.Context, e *engine.Engine, p Puzzle, line []engine.Point, move engine.Point, budget uint64) (Step, error) {
	t, b, err := start(ctx, e, p, line, budget)
	if err != nil {
		return Step{}, err
	}
	switch err := b.Check(move); {
	case errors.Is(err, engine.ErrForbidden):
	case err != nil:
		return Step{}, fmt.Errorf("%w: %s: %w", ErrBadMove, move, err)
	}
	if t.mode == Defence {
		if b.Check(move) == nil && p.Accepts(move) {
			return Step{Result: Solved, Reply: engine.NoPoint}, nil
		}
		return Step{Result: Wrong, Reply: engine.NoPoint, Solution: slices.Clone(p.Answers[:1])}, nil
	}
	if b.Play(move) == nil {
		if o := b.Outcome(); o.Over && o.Winner == t.att {
			return Step{Result: Solved, Reply: engine.NoPoint}, nil
		}
		if !b.Outcome().Over {
			reply, ok, err := t.defend(b, t.limit-b.Ply())
			if err != nil {
				return Step{}, err
			}
			if ok {
				return Step{Result: Continue, Reply: reply}, nil
			}
		}
		_, _ = b.Undo()
	}
	sol, err := t.solution(b)
	if err != nil && !errors.Is(err, ErrBudget) && !errors.Is(err, ErrNoWin) {
		return Step{}, err
	}
	return Step{Result: Wrong, Reply: engine.NoPoint, Solution: sol}, nil
}

// Hint returns one correct next move after line: a winning attacker move that Check
// accepts, or for a defence puzzle its first answer. Errors as Check's.
func Hint(ctx context.Context, e *engine.Engine, p Puzzle, line []engine.Point, budget uint64) (engine.Point, error) {
	t, b, err := start(ctx, e, p, line, budget)
	if err != nil {
		return engine.NoPoint, err
	}
	if t.mode == Defence {
		return p.Answers[0], nil
	}
	m, _, err := t.attack(b)
	return m, err
}

// Solution returns the rest of a winning line after line: attacker moves (each one Hint
// would give) and the best defences (each one Check would reply), ending with the
// five; for a defence puzzle its first answer. Errors as Check's.
func Solution(ctx context.Context, e *engine.Engine, p Puzzle, line []engine.Point, budget uint64) ([]engine.Point, error) {
	t, b, err := start(ctx, e, p, line, budget)
	if err != nil {
		return nil, err
	}
	if t.mode == Defence {
		return slices.Clone(p.Answers[:1]), nil
	}
	return t.solution(b)
}

// trainer holds one call's solver, budget and limit.
type trainer struct {
	ctx   context.Context
	e     *engine.Engine
	left  uint64       // nodes left of the budget
	att   engine.Color // the attacker
	mode  Mode
	limit int            // the ply (stones on the board) by which the attacker must have made five
	first []engine.Point // the puzzle's answers, at its start: fall-back first moves
}

// start builds the trainer and the board after line, checking both.
func start(ctx context.Context, e *engine.Engine, p Puzzle, line []engine.Point, budget uint64) (*trainer, *engine.Board, error) {
	if budget == 0 {
		budget = DefaultBudget
	}
	mode, err := ModeOf(p)
	if err != nil {
		return nil, nil, err
	}
	b, err := p.Board()
	if err != nil {
		return nil, nil, err
	}
	t := &trainer{ctx: ctx, e: e, left: budget, att: b.ToMove(), mode: mode}
	if mode == Defence {
		if len(line) > 0 || len(p.Answers) == 0 {
			return nil, nil, ErrBadLine
		}
		return t, b, nil
	}
	if b.Outcome().Over {
		return nil, nil, ErrBadLine
	}
	w, ok, err := t.solve(b)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, fmt.Errorf("%w: at the puzzle's start", ErrNoWin)
	}
	t.limit = b.Ply() + w.Plies + 2*Slack
	if len(line) == 0 {
		t.first = p.Answers
	}
	for i, m := range line {
		if err := b.Play(m); err != nil || b.Outcome().Over {
			return nil, nil, fmt.Errorf("%w: move %d (%s)", ErrBadLine, i+1, m)
		}
	}
	if b.ToMove() != t.att {
		return nil, nil, fmt.Errorf("%w: the attacker is not to move", ErrBadLine)
	}
	return t, b, nil
}
