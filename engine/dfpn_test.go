package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// defenderLoses reports whether, after the side to move on bd plays m, the depth-first
// VCT proves within depth plies that every defence loses: an independent check of a
// win the proof-number search found.
func defenderLoses(bd *Board, m Point, depth int) bool {
	e := New(Options{HashMiB: 1})
	s := e.s
	s.pos.setup(bd)
	s.vtt.clear()
	s.nodes, s.stopped, s.nextPoll = 0, false, pollEvery
	s.vctStop = 5_000_000
	s.pos.make(cellIndex(m.X, m.Y))
	return s.vctDefend(1, depth, 0) > 0
}

// TestProofNumberVCTWinsAreWins: on the first positions of the games lost to AIWine
// and to Rapfi, every VCT the proof-number search finds within 30,000 nodes is
// confirmed by the depth-first VCT searching every defence.
func TestProofNumberVCTWinsAreWins(t *testing.T) {
	if testing.Short() {
		t.Skip("solves 40 positions and checks the wins")
	}
	pn := New(Options{HashMiB: 1})
	pn.s.cfg.vctSolver = vctProofNumber
	boards := append(lostVCTBoards(t)[:12], movesFileBoards(t, "testdata/rapfi-losses.txt")[:28]...)
	proved := 0
	for i, bd := range boards {
		fw, ok := pn.Solve(context.Background(), bd, 30_000, true)
		if !ok || !fw.VCT {
			continue
		}
		proved++
		assert.True(t, defenderLoses(bd, fw.Line[0], fw.Plies+4), "position %d: %v wins in %d plies", i+1, fw.Line[0], fw.Plies)
	}
	assert.Greater(t, proved, 15)
}

// TestBothVCTSolversFindMore: on the first positions of the games lost to Rapfi, Solve
// with Options.LongVCT finds more of Rapfi's wins within 200,000 nodes than the
// depth-first VCT alone (the default).
func TestBothVCTSolversFindMore(t *testing.T) {
	if testing.Short() {
		t.Skip("solves 40 positions twice")
	}
	both, df := New(Options{HashMiB: 1, LongVCT: true}), New(Options{HashMiB: 1})
	nBoth, nDF := 0, 0
	for _, bd := range movesFileBoards(t, "testdata/rapfi-losses.txt")[:40] {
		if _, ok := both.Solve(context.Background(), bd, 200_000, true); ok {
			nBoth++
		}
		if _, ok := df.Solve(context.Background(), bd, 200_000, true); ok {
			nDF++
		}
	}
	assert.Greater(t, nBoth, nDF)
	t.Logf("wins found: both solvers %d, depth-first %d of 40", nBoth, nDF)
}

// TestBothVCTSolversFindTheLongWin: in a position of a game lost to Rapfi, Rapfi (to
// move) wins by a VCT of about 23 plies that the depth-first VCT, limited to 19
// plies, cannot find in 200,000 nodes; with Options.LongVCT (depth-first, then
// proof-number on what is left) Solve finds it within 20,000 nodes, and the win holds
// against every defence.
func TestBothVCTSolversFindTheLongWin(t *testing.T) {
	bd := movesFileBoards(t, "testdata/rapfi-losses.txt")[52]
	_, ok := New(Options{HashMiB: 1}).Solve(context.Background(), bd, 200_000, true)
	assert.False(t, ok, "the depth-first VCT alone")

	fw, ok := New(Options{HashMiB: 1, LongVCT: true}).Solve(context.Background(), bd, 20_000, true)
	require.True(t, ok)
	assert.True(t, fw.VCT)
	assert.GreaterOrEqual(t, fw.Plies, 21)
	assert.True(t, defenderLoses(bd, fw.Line[0], fw.Plies+4), "%v wins in %d plies", fw.Line[0], fw.Plies)
}

// TestDfpnTableDepth: a proof holds at any depth; a disproof only for searches with
// no more depth left than the one that found it.
func TestDfpnTableDepth(t *testing.T) {
	var tab dfpnTable
	const proved, disproved = 0x1234, 0x5678
	tab.store(proved, 0, dfpnInf, 21, 0, 42)
	tab.store(disproved, dfpnInf, 0, 0, 9, -1)
	for _, depth := range []int{3, 9, 27} {
		pn, dn, win := tab.probe(proved, depth)
		assert.Equal(t, [3]int{0, int(dfpnInf), 21}, [3]int{int(pn), int(dn), win}, "proved, depth %d", depth)
	}
	pn, dn, _ := tab.probe(disproved, 9)
	assert.Equal(t, [2]uint32{dfpnInf, 0}, [2]uint32{pn, dn}, "disproved at this depth")
	pn, dn, _ = tab.probe(disproved, 11)
	assert.Equal(t, [2]uint32{1, 1}, [2]uint32{pn, dn}, "unknown with more depth")
	pn, dn, _ = tab.probe(0x9999, 5)
	assert.Equal(t, [2]uint32{1, 1}, [2]uint32{pn, dn}, "not stored")
}
