package engine

import (
	"context"
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

// falseMateGame is a game against Rapfi: after its fifteen plies white (the engine)
// played f5, and black's answer i8 stops white's short VCF (e4 e5 g6) although it is
// neither a point of that line, a four of black's nor a three point of white's.
const falseMateGame = "h8 g7 g10 e7 j10 e8 h10 i10 h9 h7 f7 h11 j9 e6 e9"

// TestKeptDefencesAreNotAllTheDefences: the moves kept against an opponent VCF leave
// out i8, which the VCF does not beat (refutedByVCF finds none), while other moves left
// out are refuted.
func TestKeptDefencesAreNotAllTheDefences(t *testing.T) {
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, falseMateGame+" f5"))
	require.NoError(t, err)
	s := New(Options{HashMiB: 1}).s
	s.pos.setup(b)
	line, ok := s.opponentVCF(0)
	require.True(t, ok, "white's VCF")

	buf := make([]scoredMove, maxMoves)
	n := s.genMoves(buf, true, 0, -1)
	k := s.pos.keepDefences(buf, n, &line)
	i8 := cellIndex(8, 7)
	refuted := 0
	for i, sm := range buf[:n] {
		if int(sm.move) == i8 {
			require.GreaterOrEqual(t, i, k, "i8 is left out")
			require.Zero(t, s.refutedByVCF(i8, 0), "i8 holds against the VCF")
		} else if i >= k && s.refutedByVCF(int(sm.move), 0) > 0 {
			refuted++
		}
	}
	require.Greater(t, refuted, 0, "other moves left out lose to the VCF")
}

// TestNoFalseMateFromKeptDefences: a node whose kept defences all lose claimed a loss
// although i8 held, and the transposition table carried it to the root: searched after
// the position two plies on, f5 was reported as a win in 13 plies (the game went on
// f5 i8 and white lost). The left-out moves are now refuted one by one first.
func TestNoFalseMateFromKeptDefences(t *testing.T) {
	later, err := BoardFromMoves(15, Freestyle, mustPoints(t, falseMateGame+" f5 i8"))
	require.NoError(t, err)
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, falseMateGame))
	require.NoError(t, err)
	search := func(keptOnly bool) Result {
		e := New(Options{HashMiB: 64})
		e.s.cfg.keptOnly = keptOnly
		e.Search(context.Background(), later, Limits{Nodes: 150_000}, nil)
		return e.Search(context.Background(), b, Limits{Nodes: 150_000}, nil)
	}
	r := search(false)
	require.LessOrEqual(t, r.Score, MateThreshold, "no win for white: %v %d %v", r.Move, r.Score, r.PV)
	// The example still shows the fault: trusting the kept defences alone claims the win.
	old := search(true)
	require.Greater(t, old.Score, MateThreshold, "the kept defences alone: %v %d %v", old.Move, old.Score, old.PV)
}
