package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEloFromScore(t *testing.T) {
	tests := []struct {
		s, want float64
	}{
		{0.5, 0}, {0.75, 190.8485}, {0.25, -190.8485}, {0.9, 381.6970}, {0.95, 511.5014}, {0.6, 70.4365},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.want, EloFromScore(tt.s), 1e-3, "s=%v", tt.s)
		assert.InDelta(t, tt.s, ScoreFromElo(tt.want), 1e-6)
	}
	assert.True(t, math.IsInf(EloFromScore(1), 1))
	assert.True(t, math.IsInf(EloFromScore(0), -1))
}

func TestEloInterval(t *testing.T) {
	// 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance
	// 0.6·0.09 + 0.2·0.04 + 0.2·0.49 = 0.16, σ = 0.04, margin 0.0784.
	r := Result{Wins: 60, Draws: 20, Losses: 20}
	elo, lo, hi := r.Elo()
	assert.InDelta(t, 147.19, elo, 0.01)
	assert.InDelta(t, EloFromScore(0.7-1.959964*0.04), lo, 1e-6)
	assert.InDelta(t, EloFromScore(0.7+1.959964*0.04), hi, 1e-6)
	assert.InDelta(t, 86.23, lo, 0.01)
	assert.InDelta(t, 218.25, hi, 0.01)
	assert.Equal(t, 100, r.Games())
	assert.InDelta(t, 0.7, r.Score(), 1e-12)
}

func TestSPRT(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	assert.InDelta(t, -2.944439, lo, 1e-6)
	assert.InDelta(t, 2.944439, hi, 1e-6)
	// Known answer computed by hand.
	r := Result{Wins: 500, Draws: 200, Losses: 300} // s = 0.6
	// var = 0.5·0.16 + 0.2·0.01 + 0.3·0.36 = 0.19
	s0, s1 := 0.5, ScoreFromElo(10)
	want := 1000 * (s1 - s0) * (1.2 - s0 - s1) / (2 * 0.19)
	assert.InDelta(t, want, s.LLR(r), 1e-9)
	assert.InDelta(t, 7.027, s.LLR(r), 0.001) // s1 = 0.514387
	assert.Equal(t, AcceptH1, s.Decide(r))
	assert.Equal(t, AcceptH0, s.Decide(Result{Wins: 300, Draws: 200, Losses: 500}))
	assert.Equal(t, Continue, s.Decide(Result{Wins: 5, Draws: 2, Losses: 4}))
	assert.Equal(t, Continue, s.Decide(Result{Draws: 10}))
	assert.Equal(t, Continue, s.Decide(Result{Wins: 3}), "all wins: finite LLR")
	assert.Equal(t, AcceptH1, s.Decide(Result{Wins: 60}))
	assert.Equal(t, "H1", AcceptH1.String())
}
