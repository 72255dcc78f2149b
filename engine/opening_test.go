package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixedEval scores a position by a function of its stones (a test double of a search).
func fixedEval(f func(b *Board) Score) Evaluator {
	return func(_ context.Context, b *Board) (Score, error) { return f(b), nil }
}

// shallow is the evaluator the room uses for AI seats, at a small depth.
func shallow(level string) Evaluator {
	l, _ := LevelByName(level)
	return PlayerEvaluator(NewPlayer(l, Options{HashMiB: 1}), Limits{Depth: 3})
}

func boardOf(t *testing.T, rule Rule, moves string) *Board {
	t.Helper()
	b, err := BoardFromMoves(15, rule, mustPoints(t, moves))
	require.NoError(t, err)
	return b
}

func TestChooseOpening(t *testing.T) {
	three := boardOf(t, Freestyle, "h8 i9 j8") // white to move
	five := boardOf(t, Freestyle, "h8 i9 j8 h9 h10")
	for _, tc := range []struct {
		name     string
		b        *Board
		placeTwo bool
		score    Score
		want     OpeningChoice
	}{
		{"the side to move is better: take it", three, true, 200, ChooseWhite},
		{"the side to move is worse: take the other", three, true, -200, ChooseBlack},
		{"balanced, swap2's second player places two more", three, true, 30, ChoosePlaceTwo},
		{"balanced the other way", three, true, -60, ChoosePlaceTwo},
		{"balanced without place2: the side to move", three, false, 30, ChooseWhite},
		{"balanced but slightly worse without place2", three, false, -30, ChooseBlack},
		{"swap2's last choice: white to move is worse", five, false, -150, ChooseBlack},
		{"swap2's last choice: white to move is better", five, false, 150, ChooseWhite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, s, err := ChooseOpening(context.Background(), tc.b, tc.placeTwo, fixedEval(func(*Board) Score { return tc.score }), OpeningOptions{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.score, s)
		})
	}
	t.Run("an evaluator's failure is returned", func(t *testing.T) {
		boom := errors.New("engine crashed")
		_, _, err := ChooseOpening(context.Background(), three, true, func(context.Context, *Board) (Score, error) { return 0, boom }, OpeningOptions{})
		require.ErrorIs(t, err, boom)
	})
	t.Run("cancelled: the side to move", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		got, _, err := ChooseOpening(ctx, three, true, func(ctx context.Context, _ *Board) (Score, error) { return 0, ctx.Err() }, OpeningOptions{})
		require.NoError(t, err)
		assert.Equal(t, ChooseWhite, got)
	})
}

// TestChooseOpeningSearch: with the engine's own evaluation the chooser sees a won
// position. Black has an open four after h8 i8 j8 k8 (white's stones far away), white
// to move: black wins, so the chooser takes black.
func TestChooseOpeningSearch(t *testing.T) {
	b := boardOf(t, Freestyle, "h8 a1 i8 a3 j8 o15 k8") // white to move, black has an open four
	got, s, err := ChooseOpening(context.Background(), b, true, shallow("advanced"), OpeningOptions{})
	require.NoError(t, err)
	assert.Equal(t, ChooseBlack, got, "score %d for white", s)
	assert.Negative(t, s)
}

func TestProposeOpening(t *testing.T) {
	empty := func() *Board { b, _ := NewBoard(15, Freestyle); return b }
	// The evaluator below prefers the candidate whose first stone is furthest right:
	// the proposal must be the candidate with the score nearest 0.
	byColumn := fixedEval(func(b *Board) Score { return Score(10 * (8 - b.Moves()[0].X)) })
	stones, s, err := ProposeOpening(context.Background(), empty(), 3, byColumn, OpeningOptions{Seed: 1, Candidates: 20})
	require.NoError(t, err)
	require.Len(t, stones, 3)
	assert.Equal(t, 8, stones[0].X, "the candidate scored 0")
	assert.Equal(t, Score(0), s)

	for seed := range uint64(30) {
		b := empty()
		stones, _, err := ProposeOpening(context.Background(), b, 3, fixedEval(func(*Board) Score { return 0 }), OpeningOptions{Seed: seed})
		require.NoError(t, err)
		require.Equal(t, 0, b.Ply(), "b is not modified")
		w, err := BoardFromMoves(15, Freestyle, stones)
		require.NoError(t, err, "seed %d: %v", seed, stones)
		c := stones[0]
		assert.LessOrEqual(t, max(openingTestAbs(c.X-7), openingTestAbs(c.Y-7)), 1, "the first stone is near the centre")
		for _, p := range stones[1:] {
			near := false
			for _, q := range stones {
				if q != p && max(openingTestAbs(p.X-q.X), openingTestAbs(p.Y-q.Y)) <= 2 {
					near = true
				}
			}
			assert.True(t, near, "seed %d: %v", seed, stones)
		}
		assert.False(t, w.Outcome().Over)
	}

	// Two more stones on top of three (swap2's second player): white then black.
	b := boardOf(t, Renju, "h8 i9 j8")
	more, _, err := ProposeOpening(context.Background(), b, 2, fixedEval(func(*Board) Score { return 0 }), OpeningOptions{Seed: 5})
	require.NoError(t, err)
	require.Len(t, more, 2)
	_, err = BoardFromMoves(15, Renju, append(b.Moves(), more...))
	require.NoError(t, err)

	_, _, err = ProposeOpening(context.Background(), empty(), 0, byColumn, OpeningOptions{})
	require.ErrorIs(t, err, ErrOpening)

	// Different seeds give different proposals (not every game the same opening).
	seen := map[Point]bool{}
	for seed := range uint64(10) {
		ps, _, err := ProposeOpening(context.Background(), empty(), 3, fixedEval(func(*Board) Score { return 0 }), OpeningOptions{Seed: seed, Candidates: 1})
		require.NoError(t, err)
		seen[ps[1]] = true
	}
	assert.Greater(t, len(seen), 3)
}

// TestProposeOpeningBalanced: with the engine's evaluation the proposal is more
// balanced than the candidates it rejected, and nowhere near a decided position.
func TestProposeOpeningBalanced(t *testing.T) {
	for _, rule := range []Rule{Freestyle, Standard, Renju} {
		b, _ := NewBoard(15, rule)
		eval := shallow("advanced")
		var scores []Score
		record := func(ctx context.Context, b *Board) (Score, error) {
			s, err := eval(ctx, b)
			scores = append(scores, s)
			return s, err
		}
		stones, s, err := ProposeOpening(context.Background(), b, 3, record, OpeningOptions{Seed: 42})
		require.NoError(t, err)
		require.Len(t, stones, 3)
		require.NotEmpty(t, scores)
		for _, o := range scores {
			assert.LessOrEqual(t, openingAbs(s), openingAbs(o), "%s: %v", rule, scores)
		}
		assert.Less(t, openingAbs(s), Score(300), "%s: %v scored %d", rule, stones, s)
		t.Logf("%s: %v, score %d for white; candidates %v", rule, stones, s, scores)
	}
}

func openingTestAbs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
