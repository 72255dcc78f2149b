package baseline

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func board(t testing.TB, rule engine.Rule, moves string) *engine.Board {
	t.Helper()
	ms, err := engine.ParseMoves(moves, 15)
	require.NoError(t, err)
	b, err := engine.BoardFromMoves(15, rule, ms)
	require.NoError(t, err)
	return b
}

func TestRunScore(t *testing.T) {
	tests := []struct {
		n, open int
		want    int64
	}{
		{5, 0, ScoreFive}, {6, 1, ScoreFive}, {4, 2, ScoreOpenFour}, {4, 1, ScoreFour}, {4, 0, 0},
		{3, 2, ScoreOpenThree}, {3, 1, ScoreClosedThree}, {2, 2, ScoreOpenTwo}, {2, 1, ScoreClosedTwo},
		{1, 2, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, runScore(tt.n, tt.open), "n=%d open=%d", tt.n, tt.open)
	}
}

func TestTactics(t *testing.T) {
	tests := []struct {
		name  string
		rule  engine.Rule
		moves string
		want  []string
	}{
		{"win in one", engine.Freestyle, "h8a1i8a2j8a3k8a15", []string{"g8", "l8"}},
		{"block four", engine.Freestyle, "a1h8a2i8a3j8o15k8", []string{"g8", "l8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := board(t, tt.rule, tt.moves)
			for _, mode := range []Mode{ModeOrdered, ModeOrderedTT} {
				p := New(Options{Mode: mode, Depth: 2})
				res, err := p.Play(context.Background(), b, engine.Limits{}, nil)
				require.NoError(t, err)
				assert.Contains(t, tt.want, res.Move.String(), mode.String())
			}
		})
	}
}

func TestModesAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 12; n++ {
		b, _ := engine.NewBoard(15, engine.Freestyle)
		for b.Ply() < 3+n%4 {
			p := engine.Point{X: 5 + r.IntN(5), Y: 5 + r.IntN(5)}
			_ = b.Play(p)
		}
		if b.Outcome().Over {
			continue
		}
		var results []SearchResult
		for _, m := range []Mode{ModeMinimax, ModeAlphaBeta, ModeOrdered, ModeOrderedTT} {
			res, err := Search(context.Background(), b, Options{Mode: m, Depth: 2})
			require.NoError(t, err)
			results = append(results, res)
		}
		for _, res := range results[1:] {
			assert.Equal(t, results[0].Value, res.Value, engine.FormatMoves(b.Moves()))
			assert.LessOrEqual(t, res.Nodes, results[0].Nodes)
		}
		assert.Equal(t, results[0].Move, results[1].Move, "alpha-beta keeps minimax's move")
	}
}

func TestModesAgreeDepth3(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	b := board(t, engine.Freestyle, "h8i9j8")
	mm, err := Search(context.Background(), b, Options{Mode: ModeMinimax, Depth: 3})
	require.NoError(t, err)
	tt, err := Search(context.Background(), b, Options{Mode: ModeOrderedTT, Depth: 3})
	require.NoError(t, err)
	assert.Equal(t, mm.Value, tt.Value)
	assert.Less(t, tt.Nodes*5, mm.Nodes)
}

// TestObeysRules plays baseline self-play games under every rule and checks each move
// with the board (renju forbidden points included).
func TestObeysRules(t *testing.T) {
	for _, rule := range []engine.Rule{engine.Freestyle, engine.Standard, engine.Renju} {
		t.Run(rule.String(), func(t *testing.T) {
			b := board(t, rule, "h8i9h9")
			p := New(Options{Depth: 2, MaxCandidates: 12})
			for !b.Outcome().Over && b.Ply() < 60 {
				res, err := p.Play(context.Background(), b, engine.Limits{}, nil)
				require.NoError(t, err)
				require.NoError(t, b.Check(res.Move), "move %s at ply %d", res.Move, b.Ply())
				require.NoError(t, b.Play(res.Move))
			}
		})
	}
}

// TestRenjuForbiddenAvoided sets up black's double-three point and checks it is never chosen.
func TestRenjuForbiddenAvoided(t *testing.T) {
	// black h8 i8 ... and h9 h10: j8? no; g8 makes row g8-h8-i8 (three) and ...
	b := board(t, engine.Renju, "h8a1i8a15g10o1g9o15")
	// g8 makes two open threes (g8 h8 i8 and g8 g9 g10): forbidden for black.
	g8, _ := engine.ParsePoint("g8", 15)
	require.Equal(t, engine.DoubleThree, b.ForbiddenAt(g8))
	for _, mode := range []Mode{ModeMinimax, ModeOrdered} {
		res, err := Search(context.Background(), b, Options{Mode: mode, Depth: 1})
		require.NoError(t, err)
		assert.NotEqual(t, g8, res.Move)
		assert.NoError(t, b.Check(res.Move))
	}
	// d1 would make six for black: an overline, forbidden and no win.
	b = board(t, engine.Renju, "a1o10b1o12c1n15e1m15f1k15")
	d1, _ := engine.ParsePoint("d1", 15)
	require.Equal(t, engine.Overline, b.ForbiddenAt(d1))
	res, err := Search(context.Background(), b, Options{Depth: 2})
	require.NoError(t, err)
	assert.NotEqual(t, d1, res.Move)
}

func TestTimeLimit(t *testing.T) {
	b := board(t, engine.Freestyle, "h8i9j8i8i7g9j9j10")
	p := New(Options{Depth: 8})
	start := time.Now()
	res, err := p.Play(context.Background(), b, engine.Limits{Time: 100 * time.Millisecond}, nil)
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 400*time.Millisecond)
	assert.NoError(t, b.Check(res.Move))
}

// TestNoIterationFinished: a limit that runs out inside depth 1 still yields a legal
// move (the first candidate in the heuristic order), never NoPoint.
func TestNoIterationFinished(t *testing.T) {
	for _, mode := range []Mode{ModeMinimax, ModeAlphaBeta, ModeOrdered, ModeOrderedTT} {
		b := board(t, engine.Freestyle, "h8i9j8i8i7g9j9j10")
		res, err := New(Options{Depth: 4, Mode: mode}).Play(context.Background(), b, engine.Limits{Nodes: 1}, nil)
		require.NoError(t, err, mode)
		require.NotEqual(t, engine.NoPoint, res.Move, mode)
		assert.NoError(t, b.Check(res.Move), mode)
		assert.Zero(t, res.Depth, mode)
	}
}

func BenchmarkPatterns(b *testing.B) {
	bd := board(b, engine.Freestyle, "h8i9j8i8i7g9j9j10k10")
	s := newSearcher(context.Background(), bd, Options{})
	b.ReportAllocs()
	for b.Loop() {
		s.eval()
	}
}
