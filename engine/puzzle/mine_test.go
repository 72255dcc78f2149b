package puzzle

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/record"
)

// recorded reads a game of testdata (PSQ records of engine games).
func recorded(t testing.TB, name string) []engine.Point {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	g, _, err := record.Parse(data, 15)
	require.NoError(t, err)
	require.Equal(t, 15, g.Size)
	return g.Moves
}

func TestMineRecordedGames(t *testing.T) {
	type found struct {
		ply      int // stones on the board
		category string
		toMove   engine.Color
		moves    int // attacker moves of the solution, the five included
	}
	tests := []struct {
		file string
		rule engine.Rule
		want []found
	}{
		{"freestyle.psq", engine.Freestyle, []found{{14, VCT, engine.Black, 5}, {20, VCT, engine.Black, 3}}},
		{"standard.psq", engine.Standard, []found{{24, VCT, engine.Black, 4}, {28, VCF, engine.Black, 2}}},
		{"renju.psq", engine.Renju, []found{{22, VCF, engine.Black, 3}}},
	}
	e := newEngine()
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			moves := recorded(t, tt.file)
			ps, err := Mine(ctx, e, tt.rule, 15, moves, MineOptions{})
			require.NoError(t, err)
			var got []found
			for _, p := range ps {
				sol, err := Solution(ctx, e, p, nil, 0)
				require.NoError(t, err, p.ID)
				got = append(got, found{len(p.Moves), p.Category, p.ToMove, (len(sol) + 1) / 2})
				assert.Equal(t, moves[:len(p.Moves)], p.Moves, "a position of the game")
				assert.Equal(t, "mined-"+keyHash(CanonicalKey(p)), p.ID)
				mode, err := ModeOf(p)
				require.NoError(t, err)
				assert.Equal(t, Attack, mode)
				// The round trip through the file format, and the answers the solver's.
				q, err := ParseLine(p.Format())
				require.NoError(t, err)
				assert.Equal(t, p, q)
				if p.Category == VCF {
					assert.NoError(t, Verify(p, NewSolver()), "a mined VCF's answers are the solver's")
				}
				assert.Contains(t, p.Answers, sol[0])
				playOut(t, e, p, nil, sol)
			}
			assert.Equal(t, tt.want, got)
			again, err := Mine(ctx, e, tt.rule, 15, moves, MineOptions{})
			require.NoError(t, err)
			assert.Equal(t, ps, again, "mining is deterministic")
		})
	}
}

func TestMineOptions(t *testing.T) {
	e := newEngine()
	ctx := context.Background()
	moves := recorded(t, "freestyle.psq")
	// The VCT in 5 of ply 14 is over a limit of 4; the one of ply 20 is not.
	ps, err := Mine(ctx, e, engine.Freestyle, 15, moves, MineOptions{MaxVCT: 4})
	require.NoError(t, err)
	require.Len(t, ps, 1)
	assert.Len(t, ps[0].Moves, 20)
	ps, err = Mine(ctx, e, engine.Freestyle, 15, moves, MineOptions{Nodes: 50})
	require.NoError(t, err)
	assert.Empty(t, ps, "no position verifies within 50 nodes")

	_, err = Mine(ctx, e, engine.Freestyle, 15, append(moves[:3:3], moves[0]), MineOptions{})
	assert.ErrorIs(t, err, engine.ErrOccupied)
	_, err = Mine(ctx, e, engine.Freestyle, 9, moves, MineOptions{})
	assert.ErrorIs(t, err, engine.ErrBadSize)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = Mine(cancelled, e, engine.Freestyle, 15, moves, MineOptions{})
	assert.ErrorIs(t, err, context.Canceled)
}

// symmetric returns p with every move mapped by symmetry s.
func symmetric(p Puzzle, s [6]int) Puzzle {
	q := p
	q.Moves = make([]engine.Point, len(p.Moves))
	for i, m := range p.Moves {
		q.Moves[i] = transform(s, m, p.Size)
	}
	return q
}

func TestCanonicalKeySymmetries(t *testing.T) {
	ps, err := Shipped()
	require.NoError(t, err)
	keys := map[string]string{}
	for _, p := range ps {
		k := CanonicalKey(p)
		images := map[string]bool{}
		for _, s := range symmetries {
			q := symmetric(p, s)
			_, err := q.Board()
			require.NoError(t, err, "%s: the image is a legal game", p.ID)
			assert.Equal(t, k, CanonicalKey(q), "%s under %v", p.ID, s)
			images[engine.FormatMoves(q.Moves)] = true
		}
		assert.Len(t, images, 8, "%s: eight different images", p.ID)
		if other, dup := keys[k]; dup {
			a, b := shipped(t, other), p
			assert.ElementsMatch(t, a.Moves, b.Moves, "%s and %s share a key but not the stones", other, p.ID)
		}
		keys[k] = p.ID
	}

	p := Puzzle{Rule: engine.Freestyle, Size: 15, ToMove: engine.Black, Moves: pts(t, "h8 i9 h9 j10")}
	order := p
	order.Moves = pts(t, "h9 j10 h8 i9")
	assert.Equal(t, CanonicalKey(p), CanonicalKey(order), "the move order does not count")
	moved := p
	moved.Moves = pts(t, "h8 i9 h10 j10")
	assert.NotEqual(t, CanonicalKey(p), CanonicalKey(moved))
	big := p
	big.Size = 17
	assert.NotEqual(t, CanonicalKey(p), CanonicalKey(big))
	renju := p
	renju.Rule = engine.Renju
	assert.NotEqual(t, CanonicalKey(p), CanonicalKey(renju))
	assert.Contains(t, CanonicalKey(renju), "black", "renju keys name the colour to move")
	assert.NotContains(t, CanonicalKey(p), "black", "freestyle keys name the sides, not the colours")
}

func TestMineUnderSymmetries(t *testing.T) {
	e := newEngine()
	ctx := context.Background()
	for _, tt := range []struct {
		file string
		rule engine.Rule
	}{{"freestyle.psq", engine.Freestyle}, {"standard.psq", engine.Standard}, {"renju.psq", engine.Renju}} {
		t.Run(tt.file, func(t *testing.T) {
			moves := recorded(t, tt.file)
			ps, err := Mine(ctx, e, tt.rule, 15, moves, MineOptions{})
			require.NoError(t, err)
			var want []string
			for _, p := range ps {
				want = append(want, p.ID)
			}
			require.NotEmpty(t, want)
			syms := symmetries[1:]
			if raceEnabled {
				syms = syms[4:5] // a sample: the race detector slows the solver tenfold
			}
			for _, s := range syms {
				img := symmetric(Puzzle{Size: 15, Moves: moves}, s).Moves
				ps, err := Mine(ctx, e, tt.rule, 15, img, MineOptions{})
				require.NoError(t, err)
				var got []string
				for _, p := range ps {
					got = append(got, p.ID)
				}
				assert.Equal(t, want, got, "the mirrored game gives the same puzzles (%v)", s)
			}
		})
	}
}
