package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpponentVCF: black's seven-ply VCF of a generated position is found from the
// side of white (given the move), and the moves kept against it are its points,
// white's fours and black's three points; a quiet point away from it is not.
func TestOpponentVCF(t *testing.T) {
	b := setup(t, Freestyle, "h8 k10 g6 f11 i10 l9 j7 k8 l7 l8 j6 j9 j8 n8 l10 m10",
		"i8 k9 h9 e11 j10 k6 k5 i6 m6 l6 m7 h11 j5 m8 l11 n11")
	e := New(Options{HashMiB: 1})
	s := e.s
	s.pos.setup(b)
	s.pos.side = White // the board was set up stone by stone, without a move list
	line, ok := s.opponentVCF(0)
	require.True(t, ok, "black's VCF")
	require.GreaterOrEqual(t, line[0], int16(0))

	buf := make([]scoredMove, maxMoves)
	n := s.genMoves(buf, true, 0, -1)
	k := s.pos.keepDefences(buf, n, &line)
	require.Greater(t, k, 0)
	require.Less(t, k, n, "quiet moves are dropped")
	kept := map[int16]bool{}
	for _, sm := range buf[:k] {
		kept[sm.move] = true
	}
	require.True(t, kept[line[0]], "the first four of the line is kept")
	require.False(t, kept[int16(cellIndex(2, 2))], "a far quiet point is dropped")

	// No VCF for the side that is not threatened.
	s.pos.side = Black
	_, ok = s.opponentVCF(0)
	require.False(t, ok)
}
