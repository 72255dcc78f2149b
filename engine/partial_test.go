package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsePartial: a move that beat the previous best in an interrupted iteration
// replaces it (score and PV with it), but not a proven result, and not when nothing
// beat it.
func TestUsePartial(t *testing.T) {
	h8, i9 := Point{X: 7, Y: 7}, Point{X: 8, Y: 6}
	s := &searcher{}
	reset := func(score Score) {
		s.info = Info{Depth: 5, Score: score, Best: h8, PV: []Point{h8}}
		s.partial = int16(cellIndex(i9.X, i9.Y))
		s.partialScore = 40
		s.partialLen = copy(s.partialPV[:], []int16{s.partial, int16(cellIndex(7, 8))})
	}
	reset(10)
	s.usePartial()
	assert.Equal(t, i9, s.info.Best)
	assert.Equal(t, Score(40), s.info.Score)
	assert.Equal(t, []Point{i9, {X: 7, Y: 8}}, s.info.PV)
	assert.Equal(t, 5, s.info.Depth, "the depth is the last finished iteration's")

	reset(mateIn(3))
	s.usePartial()
	assert.Equal(t, h8, s.info.Best, "a proven win stands")

	reset(10)
	s.partial = -1
	s.usePartial()
	assert.Equal(t, h8, s.info.Best)
}

// TestPartialResultsConsistent: under node caps that stop the search in every phase of
// an iteration, the result is legal and its PV starts with it.
func TestPartialResultsConsistent(t *testing.T) {
	b, err := BoardFromMoves(15, Freestyle, mustParse(t, "h8 h7 i7 g9 j8 g8 g7 i9 h9 f8"))
	require.NoError(t, err)
	e := New(Options{HashMiB: 1})
	for nodes := uint64(500); nodes < 60_000; nodes = nodes * 3 / 2 {
		e.Clear()
		r := e.Search(context.Background(), b, Limits{Nodes: nodes}, nil)
		require.NoError(t, b.Check(r.Move), "nodes %d", nodes)
		require.NotEmpty(t, r.PV, "nodes %d", nodes)
		assert.Equal(t, r.Move, r.PV[0], "nodes %d", nodes)
	}
}
