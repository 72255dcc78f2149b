package puzzles

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

func shippedByID(t *testing.T, id string) puzzle.Puzzle {
	t.Helper()
	ps, err := puzzle.Shipped()
	require.NoError(t, err)
	for _, p := range ps {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no shipped puzzle %s", id)
	return puzzle.Puzzle{}
}

// The engine solver plays a shipped VCF through: each attacker move of the solution
// is accepted with a defence until the five; a wrong first move is refuted.
func TestEngineSolverPlaysAShippedPuzzle(t *testing.T) {
	ctx := context.Background()
	s := NewEngineSolver()
	for _, id := range []string{"vcf-001", "win-in-one-001"} {
		t.Run(id, func(t *testing.T) {
			p := shippedByID(t, id)
			var line []engine.Point
			solved := false
			for i := 0; i < 20 && !solved; i++ {
				h, err := s.Hint(ctx, p, line, 0)
				require.NoError(t, err)
				sol, err := s.Solution(ctx, p, line, 0)
				require.NoError(t, err)
				require.NotEmpty(t, sol)
				st, err := s.Check(ctx, p, line, sol[0], 0)
				require.NoError(t, err)
				switch st.Result {
				case puzzle.Solved:
					solved = true
				case puzzle.Continue:
					line = append(line, sol[0], st.Reply)
				default:
					t.Fatalf("the solution's move %s was judged wrong (hint %s)", sol[0], h)
				}
			}
			assert.True(t, solved)

			far := engine.Point{X: 0, Y: 0}
			b, err := engine.BoardFromMoves(p.Size, p.Rule, p.Moves)
			require.NoError(t, err)
			if b.Check(far) == nil {
				st, err := s.Check(ctx, p, nil, far, 0)
				require.NoError(t, err)
				assert.Equal(t, puzzle.Wrong, st.Result)
			}
			_, err = s.Check(ctx, p, nil, p.Moves[0], 0)
			assert.ErrorIs(t, err, ErrBadMove, "an occupied point")
		})
	}
}
