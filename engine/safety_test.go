package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSafetyCheck replays a lost game of master against the baseline (200 ms per
// move): at ply 26 the search liked k6, after which white wins by a seventeen-ply VCT
// that no search of this size sees from black's side. The safety check finds that
// VCT and plays another move, after which white has no forced win the engine can find.
func TestSafetyCheck(t *testing.T) {
	moves := mustParse(t, "h8 i8 e7 j11 e11 h9 f7 j7 g10 i10 k12 i9 i7 g9 j9 h10 i11 j8 g11 k7 l6 k8 g7 h7 d7 c7")
	b, err := BoardFromMoves(15, Freestyle, moves)
	require.NoError(t, err)
	k6 := mustParse(t, "k6")[0]

	after := b.Clone()
	require.NoError(t, after.Play(k6))
	r := New(Options{HashMiB: 1}).Search(context.Background(), after, Limits{Nodes: 20_000}, nil)
	require.Greater(t, r.Score, MateThreshold, "white wins after k6: %+v", r.Info)

	// The VCT after k6 takes the solver 3,648 nodes (a line that starts with a three,
	// tried after the fours); a node cap of 150,000 gives each checked move 7,500.
	for _, nodes := range []uint64{150_000, 400_000} {
		r := New(Options{HashMiB: 4}).Search(context.Background(), b, Limits{Nodes: nodes}, nil)
		require.NoError(t, b.Check(r.Move))
		assert.NotEqual(t, k6, r.Move, "nodes %d: %+v", nodes, r.Info)
		after := b.Clone()
		require.NoError(t, after.Play(r.Move))
		w := New(Options{HashMiB: 4}).Search(context.Background(), after, Limits{Nodes: 200_000}, nil)
		assert.LessOrEqual(t, w.Score, MateThreshold, "nodes %d: white wins after %v: %+v", nodes, r.Move, w.Info)
	}
}

// TestSafetyCheckOff: plain alpha-beta and the levels without the VCF solver keep the
// search's own choice (the classroom bench compares node counts at equal depth).
func TestSafetyCheckOff(t *testing.T) {
	s := &searcher{}
	s.cfg = searchConfig{noPrune: true}
	assert.False(t, s.safetyEnabled())
	s.cfg = searchConfig{noVCF: true}
	assert.False(t, s.safetyEnabled())
	s.cfg = searchConfig{}
	assert.True(t, s.safetyEnabled())
}
