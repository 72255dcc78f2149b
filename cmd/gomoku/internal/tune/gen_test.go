package tune

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

// noMoveGame is renju self-play game 929 of seed 11 (10,000 nodes a move): white's
// last stone left black only forbidden points, with one point empty. The generator
// asked the engine for a move there and stopped with an error; it now ends the game
// as a draw.
const noMoveGame = "renju 15 draw 3 h8g9i9g7i8g8g10i7h7g6g5i10f7h9j8h6k7h10l8k8l9l7j9j11k12m9j6j7k11k10l12j10l10l11i5h4h5j5f5e5j12m12i12h12h11j13i13h14f9e8f8f6e6k6i4m8n9m6m7n5o4g13i11e11i15i14l6m5k5j4i2i3n7m11m10n8g4h3f3e2c3g14f14j3k3k14j14e10e9d10f12c10b10d11d9e12f13b9a8f11c11d12d13c13f10g12h13m4d7c8m3l13n11l3k2k4l4n2n1n3l5j2j1c7c6d6f4e3n13f2e4d4d5g2c4b3c5c2d2c12b14b2b4m15b8n15b12l15b13b11k15a9m13o15g15i1e14o14n6o5n12n10h15j15d14c14m2e1o12f1g1o11b1a10m1o7a11f15e7l1o9a7g11c15a6d8a12a1b15l14m14d15b5b6a3a13a2a4c1d3h1h2k1l2o1o2d1n4g3i6a5o3o6c9o8o10e15e13a14k9o13k13n14a15"

func TestGameEndsWhenBlackCannotMove(t *testing.T) {
	g, err := ParseGame(noMoveGame)
	require.NoError(t, err, "an unfinished board is read as a draw")
	require.Equal(t, engine.Empty, g.Winner)
	b, err := engine.NewBoard(g.Size, g.Rule)
	require.NoError(t, err)
	for _, m := range g.Moves {
		require.NoError(t, b.Play(m))
	}
	require.False(t, b.Outcome().Over)
	require.Equal(t, engine.Black, b.ToMove())
	require.Less(t, b.Ply(), g.Size*g.Size, "points are left, all forbidden")
	require.False(t, b.HasLegalMove())
	_, err = b.Undo()
	require.NoError(t, err)
	require.True(t, b.HasLegalMove(), "white, before its last stone, could play")
}
