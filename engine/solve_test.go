package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSolveFindsTheGeneratedVCFs(t *testing.T) {
	for _, tc := range generatedVCF {
		for _, rule := range tc.rules {
			t.Run(tc.name+"/"+rule.String(), func(t *testing.T) {
				b := puzzleBoard(t, rule, tc.black, tc.white, tc.toMove)
				w, ok := New(Options{HashMiB: 1}).Solve(context.Background(), b, 0, false)
				require.True(t, ok)
				assert.False(t, w.VCT)
				assert.Equal(t, tc.mateIn, w.Plies, "the shortest VCF")
				assert.Len(t, w.Line, w.Plies)
				require.NoError(t, b.Check(w.Line[0]))
				requireWinByPlayout(t, b, tc.toMove, w.Plies)
			})
		}
	}
}

func TestSolveCases(t *testing.T) {
	for _, tc := range []struct {
		name         string
		black, white string
		toMove       Color
		vct          bool
		want         bool
		wantVCT      bool
		first        string // "": any
	}{
		{"five on the board", "h8 i8 j8 k8", "h9 i9 j9 a1", Black, false, true, false, ""},
		{"opponent's four must be blocked first", "h8 i8 j8 a1", "h9 i9 j9 k9", Black, true, false, false, ""},
		{"quiet opening", "h8", "i9", Black, true, false, false, ""},
		{"open three: straight four", "h8 i8 j8", "a1 a2 a3", Black, false, true, false, ""},
		// Two open twos crossing: black wins by threes, not by fours alone.
		{"VCT only", "h8 i8 h9 i10", "a1 a3 a5 o15", Black, true, true, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := puzzleBoard(t, Freestyle, tc.black, tc.white, tc.toMove)
			w, ok := New(Options{HashMiB: 1}).Solve(context.Background(), b, 0, tc.vct)
			require.Equal(t, tc.want, ok, "%+v", w)
			if tc.wantVCT {
				assert.Positive(t, w.Nodes, "the nodes searched are reported")
			}
			if ok {
				assert.Equal(t, tc.wantVCT, w.VCT)
				require.NoError(t, b.Check(w.Line[0]))
			}
		})
	}
}

// TestLostVCTPositions: the positions of BenchmarkSolveLostVCT load, none is over, and
// the first of them (a 17-ply VCT found in about 57,000 nodes) is solved.
func TestLostVCTPositions(t *testing.T) {
	boards := lostVCTBoards(t)
	require.Len(t, boards, 57)
	for i, b := range boards {
		require.False(t, b.Outcome().Over, "position %d", i+1)
	}
	e := New(Options{HashMiB: 1})
	fw, ok := e.Solve(context.Background(), boards[0], 1_000_000, true)
	require.True(t, ok)
	assert.True(t, fw.VCT)
	assert.Equal(t, 17, fw.Plies)
}
