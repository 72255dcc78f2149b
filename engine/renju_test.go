package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRenjuForbiddenKnownAnswers(t *testing.T) {
	tests := []struct {
		name         string
		black, white string
		point        string
		want         Forbidden
	}{
		{"empty board", "", "", "h8", NotForbidden},
		{"simple double three", "f8 g8 h6 h7", "", "h8", DoubleThree},
		{"split three counts", "f8 h8 i6 i7", "", "i8", DoubleThree},
		{"diagonal double three", "f6 g7 i7 j6", "", "h8", DoubleThree},
		{"three blocked by white is closed", "f8 g8 h6 h7", "e8", "h8", NotForbidden},
		{"three blocked at distance two still open", "f8 g8 h6 h7", "c8", "h8", DoubleThree},
		{"three next to the edge is closed", "a8 b8 h6 h7", "", "c8", NotForbidden},
		{"four-three is allowed", "f8 g8 h5 h6 h7", "", "h8", NotForbidden},
		{"double four in two lines", "e8 f8 g8 i5 i6 i7", "", "i8", DoubleFour},
		{"double four in one line", "d8 f8 h8 j8", "", "g8", DoubleFour},
		{"six with a gap filled is an overline, not a double four", "c8 d8 e8 g8 h8", "", "f8", Overline},
		{"four-four where one four is half blocked", "e8 f8 g8 i5 i6 i7", "i4", "i8", DoubleFour},
		{"a dead four is no four", "e8 f8 g8 i5 i6 i7", "i4 i9", "i8", NotForbidden},
		{"overline", "d8 e8 f8 h8 i8", "", "g8", Overline},
		{"overline of seven", "c8 d8 e8 f8 h8 i8", "", "g8", Overline},
		{"exact five is never forbidden", "d8 e8 f8 g8", "", "h8", NotForbidden},
		{"five beats overline in another line", "d8 e8 f8 g8 h4 h5 h6 h9 h10", "", "h8", NotForbidden},
		{"five beats double three", "d8 e8 f8 g8 h6 h7 i9 j10", "", "h8", NotForbidden},
		{"occupied point", "h8", "", "h8", NotForbidden},
		// The horizontal three f8 g8 h8 can only become a straight four at i8 (d8 is
		// white), and i8 is itself a double four (with i5 i6 i7), so it is a false three:
		// h8 makes only one real three (vertical) and is allowed.
		{"false three: its four point is a double four", "f8 g8 h6 h7 i5 i6 i7", "d8", "h8", NotForbidden},
		{"same shape without the double four is forbidden", "f8 g8 h6 h7", "d8", "h8", DoubleThree},
		// Straight four that would be an overline is no open four: the three is closed.
		// b8 and j8 turn both straight fours of e8 f8 g8 into overlines: no open three.
		{"three whose fours would be overlines", "b8 e8 f8 j8 g6 g7", "", "g8", NotForbidden},
		{"same threes without the overline stones", "e8 f8 g6 g7", "", "g8", DoubleThree},
		{"straight four plus three is allowed", "e8 f8 h8 h6 h7", "", "g8", NotForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := setup(t, Renju, tt.black, tt.white)
			p, err := ParsePoint(tt.point, 15)
			require.NoError(t, err)
			before := b.Hash()
			assert.Equal(t, tt.want, b.ForbiddenAt(p))
			assert.Equal(t, before, b.Hash(), "forbidden check must not change the board")
			// The other rules never forbid anything.
			b.rule = Freestyle
			assert.Equal(t, NotForbidden, b.ForbiddenAt(p))
		})
	}
}

// TestForbiddenPointsMatchesForbiddenAt checks the skipping of ForbiddenPoints against a
// full ForbiddenAt scan over random renju positions.
func TestForbiddenPointsMatchesForbiddenAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	found := 0
	for g := 0; g < 300; g++ {
		b := compactGame(t, rng, Renju, 10+rng.IntN(30))
		var want []ForbiddenPoint
		for y := 0; y < b.Size(); y++ {
			for x := 0; x < b.Size(); x++ {
				if k := b.ForbiddenAt(Point{x, y}); k != NotForbidden {
					want = append(want, ForbiddenPoint{Point{x, y}, k})
				}
			}
		}
		require.Equal(t, want, b.ForbiddenPoints(), "game %d: %v", g, b.Moves())
		found += len(want)
	}
	require.Greater(t, found, 20, "the random positions contain forbidden points")
	free, err := BoardFromMoves(15, Freestyle, mustPoints(t, "f8 a1 g8 a3 h6 a5 h7 a7"))
	require.NoError(t, err)
	require.Nil(t, free.ForbiddenPoints(), "only renju forbids")
}

func BenchmarkForbiddenPoints(b *testing.B) {
	bd, err := BoardFromMoves(15, Renju, mustPoints(b, "h8 h9 i8 g9 j9 i9 g7 f6 i7 j10 h6 g5 k8 l9 i5 i6"))
	require.NoError(b, err)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = bd.ForbiddenPoints()
	}
}
