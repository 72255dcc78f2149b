package analysis

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
)

// testBudget caps the search by nodes, so the results do not depend on the machine.
var testBudget = Budget{Nodes: 4000, SolverNodes: 20_000, Workers: 2}

type direct struct{}

func (direct) Background(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }

func game(t *testing.T, moves string) Game {
	t.Helper()
	ms, err := engine.ParseMoves(moves, 15)
	require.NoError(t, err)
	return Game{Size: 15, Rule: engine.Freestyle, Moves: ms}
}

func TestMarksKnownAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves string
		ply   int
		mark  string
	}{
		// Black's open three h8-j8 is a VCF (the straight four); black plays far away and
		// white blocks it.
		{"missed VCF", "h8 a1 i8 a2 j8 a3 o15 g8", 6, MarkMissedWin},
		// Playing the VCF's move is no mistake.
		{"VCF played", "h8 a1 i8 a2 j8 a3 k8", 6, ""},
		// The win only delayed: black still has it at its next turn.
		{"VCF delayed", "h8 a1 i8 a2 j8 a3 o15 n15 k8", 6, ""},
		// Black's four h8-k8 (g8 taken) must be blocked at l8: the block is no mistake.
		{"forced block", "h8 g8 i8 a1 j8 a2 k8 l8", 7, ""},
		// White does not block: the four is left unanswered.
		{"four unanswered", "h8 g8 i8 a1 j8 a2 k8 a3", 7, MarkUnanswered},
		// Black's twos h8-i8 and j9-j10 meet at j8: a double three, a VCT without a VCF.
		// Black plays c3, white takes j8; black has a VCT again (i9) and plays c13.
		{"missed VCT", "h8 a1 i8 o1 j9 a15 j10 o15 c3 j8 c13", 10, MarkMissedWin},
		{"VCT delayed", "h8 a1 i8 o1 j9 a15 j10 o15 c3 j8 c13", 8, ""},
		{"VCT played", "h8 a1 i8 o1 j9 a15 j10 o15 j8", 8, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := game(t, tc.moves)
			res, err := Analyse(context.Background(), direct{}, g, testBudget, nil, nil)
			require.NoError(t, err)
			require.Equal(t, StatusDone, res.Status)
			require.Len(t, res.Positions, len(g.Moves)+1)
			assert.Equal(t, tc.mark, res.Positions[tc.ply].Mark, "ply %d: %+v", tc.ply, res.Positions[tc.ply])
		})
	}
}

// TestAnalyseRenjuForbidden: black's double three at j8 wins in freestyle (a VCT); in
// renju it is a forbidden point, never the engine's best move nor a forced win's start.
func TestAnalyseRenjuForbidden(t *testing.T) {
	const moves = "h8 a1 i8 o1 j9 a15 j10 o15"
	for _, tc := range []struct {
		rule      engine.Rule
		forbidden bool
	}{
		{engine.Freestyle, false},
		{engine.Renju, true},
	} {
		t.Run(tc.rule.String(), func(t *testing.T) {
			g := game(t, moves)
			g.Rule = tc.rule
			boards, err := replay(g)
			require.NoError(t, err)
			var forbidden []string
			for _, f := range room.ForbiddenOf(boards[8]) {
				forbidden = append(forbidden, f.Point)
			}
			assert.Equal(t, tc.forbidden, slices.Contains(forbidden, "j8"), "%v", forbidden)
			res, err := Analyse(context.Background(), direct{}, g, testBudget, nil, nil)
			require.NoError(t, err)
			p := res.Positions[8]
			require.NotNil(t, p.Forced, "black wins either way: %+v", p)
			if !tc.forbidden {
				assert.Equal(t, "j8", p.Best)
				return
			}
			assert.NotContains(t, forbidden, p.Best)
			assert.NotContains(t, forbidden, p.Forced.Line[0])
		})
	}
}

func TestAnalyseResultShape(t *testing.T) {
	g := game(t, "h8 a1 i8 a2 j8 a3 k8 a4 l8")
	var seen []int
	res, err := Analyse(context.Background(), room.NewScheduler(2, 0), g, testBudget, nil, func(r Result) {
		assert.Equal(t, StatusRunning, r.Status)
		seen = append(seen, len(r.Positions))
	})
	require.NoError(t, err)
	assert.Equal(t, 10, res.Total)
	assert.Equal(t, []string{"h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"}, res.Moves)
	require.NotEmpty(t, seen)
	assert.Equal(t, 10, seen[len(seen)-1])
	for i := 1; i < len(seen); i++ {
		assert.LessOrEqual(t, seen[i-1], seen[i], "progress only grows")
	}
	for i, p := range res.Positions {
		assert.Equal(t, i, p.Ply)
		assert.GreaterOrEqual(t, p.Black, 0.0)
		assert.LessOrEqual(t, p.Black, 1.0)
	}
	last := res.Positions[9]
	assert.Equal(t, 1.0, last.Black, "black made five")
	assert.Empty(t, last.Best)
	// Black to move with an open four: a one-ply win, the five point as best move.
	p6 := res.Positions[8]
	require.NotNil(t, p6.Forced)
	assert.Equal(t, "vcf", p6.Forced.Kind)
	assert.Contains(t, []string{"g8", "l8"}, p6.Best)
	assert.Equal(t, 1.0, p6.Black)
}

func TestAnalyseKeepsAPartialResult(t *testing.T) {
	g := game(t, "h8 a1 i8 a2")
	full, err := Analyse(context.Background(), direct{}, g, testBudget, nil, nil)
	require.NoError(t, err)
	prev := full
	prev.Positions = append([]Position(nil), full.Positions[:3]...)
	prev.Positions[1].Score = 12345 // marks the kept position
	got, err := Analyse(context.Background(), direct{}, g, testBudget, &prev, nil)
	require.NoError(t, err)
	assert.Equal(t, 12345, got.Positions[1].Score)
	assert.Len(t, got.Positions, 5)

	// Other moves: nothing is kept.
	other := game(t, "h8 a1 i8 a3")
	got, err = Analyse(context.Background(), direct{}, other, testBudget, &prev, nil)
	require.NoError(t, err)
	assert.NotEqual(t, 12345, got.Positions[1].Score)
}

func TestAnalyseStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Analyse(ctx, room.NewScheduler(1, 0), game(t, "h8 a1"), testBudget, nil, nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Analyse(context.Background(), direct{}, game(t, "h8 h8"), testBudget, nil, nil)
	assert.ErrorIs(t, err, ErrBadGame)
}

func TestWinProbability(t *testing.T) {
	for _, tc := range []struct {
		score engine.Score
		want  float64
	}{
		{0, 0.5},
		{engine.MateScore - 3, 1},
		{-(engine.MateScore - 4), 0},
	} {
		assert.InDelta(t, tc.want, WinProbability(tc.score), 1e-9)
	}
	assert.Greater(t, WinProbability(300), WinProbability(100))
	assert.Less(t, WinProbability(-300), 0.5)
}

// TestAnalyseFindsALongVCT: in the last position of this game (from one lost to Rapfi)
// the side to move wins by a VCT of about 21 plies, beyond the depth-first solver's 15;
// the analysis engines' proof-number VCT (engine.Options.LongVCT) finds it within the
// solver budget.
func TestAnalyseFindsALongVCT(t *testing.T) {
	g := game(t, "h8j7j5k9k10j10j9l8m7i8m8l7m6m5l9j11l5k4i7g9l6i11h12k5k6n6g11h10f8l4k3j12k13k11l11i13l10l12m13j13j14i10m12")
	res, err := Analyse(context.Background(), direct{}, g, testBudget, nil, nil)
	require.NoError(t, err)
	require.Equal(t, StatusDone, res.Status)
	last := res.Positions[len(g.Moves)]
	require.NotNil(t, last.Forced, "%+v", last)
	assert.Equal(t, "vct", last.Forced.Kind)
	assert.GreaterOrEqual(t, last.Forced.Plies, 17)
}
