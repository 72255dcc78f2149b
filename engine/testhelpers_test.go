package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// mustPoints parses a space-separated list of points for a 15x15 board.
func mustPoints(t testing.TB, s string) []Point {
	t.Helper()
	ps, err := ParseMoves(s, 15)
	require.NoError(t, err)
	return ps
}

// setup places stones directly (no move list, no legality) on a 15x15 board.
func setup(t testing.TB, rule Rule, black, white string) *Board {
	t.Helper()
	b, err := NewBoard(15, rule)
	require.NoError(t, err)
	for _, p := range mustPoints(t, black) {
		b.put(p, Black)
	}
	for _, p := range mustPoints(t, white) {
		b.put(p, White)
	}
	return b
}

// fillers are white (or black) moves far from the action: column a and o with gaps,
// so they never make a line of their own.
var fillers = []Point{{0, 0}, {0, 2}, {0, 4}, {0, 6}, {0, 8}, {0, 10}, {0, 12}, {0, 14},
	{14, 0}, {14, 2}, {14, 4}, {14, 6}, {14, 8}, {14, 10}, {14, 12}, {14, 14}}

// playBlack plays the black moves in order, answering each with a filler white move,
// and returns the board with black to move.
func playBlack(t testing.TB, rule Rule, black string) *Board {
	t.Helper()
	b, err := NewBoard(15, rule)
	require.NoError(t, err)
	for i, p := range mustPoints(t, black) {
		require.NoError(t, b.Play(p))
		require.NoError(t, b.Play(fillers[i]))
	}
	return b
}
