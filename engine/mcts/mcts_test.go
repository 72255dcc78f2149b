package mcts

import (
	"context"
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

func TestTactics(t *testing.T) {
	tests := []struct {
		name  string
		moves string
		want  []string
	}{
		{"win in one", "h8a1i8a2j8a3k8a15", []string{"g8", "l8"}},
		{"block four", "a1h8a2i8a3j8o15k8", []string{"g8", "l8"}},
		{"block open three", "h8a1i8a15j8", []string{"g8", "k8", "f8", "l8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Options{Seed: 1, Iterations: 600, MaxPlies: 30})
			res, err := p.Play(context.Background(), board(t, engine.Freestyle, tt.moves), engine.Limits{}, nil)
			require.NoError(t, err)
			assert.Contains(t, tt.want, res.Move.String())
		})
	}
}

func TestSeededAndLegal(t *testing.T) {
	for _, rule := range []engine.Rule{engine.Freestyle, engine.Standard, engine.Renju} {
		b := board(t, rule, "h8i9h9")
		a, err := New(Options{Seed: 7, Iterations: 40, MaxPlies: 30}).Play(context.Background(), b, engine.Limits{}, nil)
		require.NoError(t, err)
		c, err := New(Options{Seed: 7, Iterations: 40, MaxPlies: 30}).Play(context.Background(), b, engine.Limits{}, nil)
		require.NoError(t, err)
		assert.Equal(t, a.Move, c.Move, "same seed, same move")
		p := New(Options{Seed: 3, Iterations: 10, MaxPlies: 30})
		for !b.Outcome().Over && b.Ply() < 12 {
			res, err := p.Play(context.Background(), b, engine.Limits{}, nil)
			require.NoError(t, err)
			require.NoError(t, b.Play(res.Move), "%s at ply %d", res.Move, b.Ply())
		}
	}
}

func TestTimeBound(t *testing.T) {
	b := board(t, engine.Freestyle, "h8i9h9i8")
	var reports int
	start := time.Now()
	res, err := New(Options{Seed: 1}).Play(context.Background(), b, engine.Limits{Time: 150 * time.Millisecond}, func(engine.Info) { reports++ })
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 150*time.Millisecond+time.Second, "budget plus one playout and scheduling on a loaded machine")
	assert.Positive(t, reports)
	assert.NoError(t, b.Check(res.Move))
	assert.Positive(t, res.Nodes)
}
