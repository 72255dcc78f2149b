package baseline

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func TestExplainKnownPosition(t *testing.T) {
	// Black h8 i8 j8: an open three; white a1 a2: a two against the edge.
	ex := Explain(board(t, engine.Freestyle, "h8a1i8a2j8"))
	require.Equal(t, engine.White, ex.ToMove)
	require.Len(t, ex.Patterns, 2)
	kinds := map[string]Pattern{}
	for _, p := range ex.Patterns {
		kinds[p.Kind] = p
	}
	three := kinds["open_three"]
	require.Equal(t, engine.Black, three.Color)
	require.Equal(t, "h8i8j8", engine.FormatMoves(three.Stones))
	require.Equal(t, int64(ScoreOpenThree), three.Score)
	two := kinds["closed_two"]
	require.Equal(t, engine.White, two.Color)
	require.Equal(t, 1, two.Open)
	require.Equal(t, int64(ScoreOpenThree), ex.Black)
	require.Equal(t, int64(ScoreClosedTwo), ex.White)
	require.Equal(t, 10*ex.White-12*ex.Black, ex.Value, "white to move: own ×10, black's ×12")
}

// TestExplainAddsUp checks the explanation against the evaluation the search uses.
func TestExplainAddsUp(t *testing.T) {
	for _, pos := range []string{"h8 i9 j7", "h8 g7 i9 j10 g9 i7", "h8a1i8a2j8a3k8a15", "h8i8h9i9h10i10h11i11"} {
		b := board(t, engine.Freestyle, pos)
		ex := Explain(b)
		s := newSearcher(t.Context(), b, Options{})
		sb, sw := s.g.patterns()
		require.Equal(t, sb, ex.Black, pos)
		require.Equal(t, sw, ex.White, pos)
		require.Equal(t, s.eval(), ex.Value, pos)
		var sum [3]int64
		for _, p := range ex.Patterns {
			require.Equal(t, runScore(len(p.Stones), p.Open), p.Score)
			sum[p.Color] += p.Score
		}
		require.Equal(t, ex.Black, sum[engine.Black])
		require.Equal(t, ex.White, sum[engine.White])
	}
}
