package server

import (
	"context"
	"errors"
	"math"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/puzzles"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// move serves POST /api/puzzles/attempts/{attempt}/moves {"move"}: the solver judges
// the attacker's move; the defender's best reply continues the attempt, a win or a
// wrong move ends it (rated when it is the player's first, unassisted attempt).
func (t *puzzleTrainer) move(c echo.Context) error {
	s, err := t.open(c)
	if err != nil {
		return err
	}
	body, err := readBody(c, protocol.PuzzleMaxBody)
	if err != nil {
		return err
	}
	req, err := protocol.DecodePuzzleMove(body)
	if err != nil {
		return err
	}
	mv, err := engine.ParsePoint(req.Move, s.pz.Size)
	if err != nil {
		return protocol.Errorf(protocol.CodeBadMove, "%s is not on the %d×%d board", req.Move, s.pz.Size, s.pz.Size)
	}
	// A renju forbidden point is no bad move: it is a wrong one (the trap of a
	// renju-trap puzzle), which the solver judges.
	var forbidden *engine.ForbiddenError
	if err := s.board.Check(mv); err != nil && !errors.As(err, &forbidden) {
		return protocol.Errorf(protocol.CodeBadMove, "%s cannot be played: %v", req.Move, err)
	}
	var step puzzle.Step
	err = t.solve(c, s.a.Player, func(ctx context.Context) error {
		var err error
		step, err = t.solver.Check(ctx, s.pz, s.line, mv, t.budget)
		return err
	})
	if err != nil {
		return err
	}
	a := s.a
	a.Line = append(append([]string{}, a.Line...), mv.String())
	out := protocol.PuzzleStep{}
	ctx := c.Request().Context()
	switch step.Result {
	case puzzle.Continue:
		a.Line = append(a.Line, step.Reply.String())
		if _, err := t.store.Save(ctx, s.raw, a); err != nil {
			return puzzleErr(err)
		}
		out.Result, out.Reply, out.Line = protocol.PuzzleContinue, step.Reply.String(), a.Line
		return c.JSON(http.StatusOK, out)
	case puzzle.Solved:
		out.Result = protocol.PuzzleSolved
	default:
		out.Result, out.Solution = protocol.PuzzleWrong, points(step.Solution)
	}
	done, err := t.store.Finish(ctx, a, s.raw, s.pz, step.Result == puzzle.Solved)
	if err != nil {
		return puzzleErr(err)
	}
	t.ended(done)
	if done.Outcome != puzzles.OutcomeSolved && out.Result == protocol.PuzzleSolved {
		out.Result = protocol.PuzzleWrong // another request ended the attempt first
	}
	out.Line, out.Rating = done.Line, wireChange(done.Change)
	return c.JSON(http.StatusOK, out)
}

// hint serves POST /api/puzzles/attempts/{attempt}/hint: a winning move from the
// attempt's position; the attempt is assisted from then on (it ends unrated).
func (t *puzzleTrainer) hint(c echo.Context) error {
	s, err := t.open(c)
	if err != nil {
		return err
	}
	var h engine.Point
	err = t.solve(c, s.a.Player, func(ctx context.Context) error {
		var err error
		h, err = t.solver.Hint(ctx, s.pz, s.line, t.budget)
		return err
	})
	if err != nil {
		return err
	}
	if !s.a.Assisted {
		a := s.a
		a.Assisted = true
		if _, err := t.store.Save(c.Request().Context(), s.raw, a); err != nil {
			return puzzleErr(err)
		}
	}
	return c.JSON(http.StatusOK, protocol.PuzzleHint{Hint: h.String()})
}

// solution serves POST /api/puzzles/attempts/{attempt}/solution: the winning line
// from the attempt's position; it ends the attempt as failed (rated when it is the
// player's first attempt and no hint was asked for).
func (t *puzzleTrainer) solution(c echo.Context) error {
	s, err := t.open(c)
	if err != nil {
		return err
	}
	var line []engine.Point
	err = t.solve(c, s.a.Player, func(ctx context.Context) error {
		var err error
		line, err = t.solver.Solution(ctx, s.pz, s.line, t.budget)
		return err
	})
	if err != nil {
		return err
	}
	done, err := t.store.Finish(c.Request().Context(), s.a, s.raw, s.pz, false)
	if err != nil {
		return puzzleErr(err)
	}
	t.ended(done)
	return c.JSON(http.StatusOK, protocol.PuzzleSolution{Solution: points(line), Line: done.Line, Rating: wireChange(done.Change)})
}

func points(ps []engine.Point) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// wirePuzzle is a puzzle with its stats on the wire. The puzzle's note is not served:
// it names the answer ("block the four") or the win's length, which the trainer
// leaves to the solver.
func (t *puzzleTrainer) wirePuzzle(p puzzle.Puzzle, st puzzles.Stats) protocol.Puzzle {
	return protocol.Puzzle{ID: p.ID, Rule: p.Rule.String(), Size: p.Size, ToMove: colorName(p.ToMove),
		Moves: points(p.Moves), Category: p.Category, Source: t.store.Source(p.ID), Rating: round1(st.R), RD: round1(st.RD),
		Provisional: st.Provisional(), Plays: st.Plays, SolvedBy: st.Solved}
}

func wireRating(r rating.Rating) protocol.PuzzleRating {
	return protocol.PuzzleRating{Rating: round1(r.R), RD: round1(r.RD), Provisional: r.Provisional()}
}

// wireChange is a rated attempt's change (nil when the attempt was not rated).
func wireChange(ch *puzzles.Change) *protocol.PuzzleRatingChange {
	if ch == nil || !ch.Rated {
		return nil
	}
	return &protocol.PuzzleRatingChange{Before: round1(ch.Before.R), After: round1(ch.After.R),
		RD: round1(ch.After.RD), Provisional: ch.After.Provisional()}
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }
