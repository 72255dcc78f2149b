package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tacticFillers are far-away points (at least four apart) used to balance the stone
// counts of a test position; they never form or block a line of the puzzle.
var tacticFillers = []Point{{0, 0}, {4, 0}, {8, 0}, {12, 0}, {0, 14}, {4, 14}, {8, 14}, {12, 14},
	{14, 2}, {14, 6}, {14, 10}, {0, 5}, {0, 9}}

// puzzleBoard builds a 15x15 board holding the given black and white stones (renju
// notation, space separated) with toMove to play, playing the stones alternately and
// balancing the counts with filler stones.
func puzzleBoard(t testing.TB, rule Rule, black, white string, toMove Color) *Board {
	t.Helper()
	bs, err := ParseMoves(black, 15)
	require.NoError(t, err)
	ws, err := ParseMoves(white, 15)
	require.NoError(t, err)
	f := 0
	wantB := len(ws)
	if toMove == White {
		wantB = len(ws) + 1
	}
	for len(bs) < wantB {
		bs = append(bs, tacticFillers[f])
		f++
	}
	for len(ws) < len(bs)-btoi(toMove == White) {
		ws = append(ws, tacticFillers[f])
		f++
	}
	var moves []Point
	for i := range bs {
		moves = append(moves, bs[i])
		if i < len(ws) {
			moves = append(moves, ws[i])
		}
	}
	b, err := BoardFromMoves(15, rule, moves)
	require.NoError(t, err)
	require.False(t, b.Outcome().Over)
	require.Equal(t, toMove, b.ToMove())
	return b
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tactic is one known-answer case.
type tactic struct {
	name   string
	rules  []Rule
	black  string
	white  string
	toMove Color
	accept string // accepted answers; empty: any move that wins (checked by play-out)
	reject string // moves that must not be played
	mateIn int    // >0: the side to move wins in at most this many plies
}

var allRules = []Rule{Freestyle, Standard, Renju}

var tactics = []tactic{
	{name: "win in one", rules: allRules, black: "h8 i8 j8 k8", white: "h9 i9 j9 k10", toMove: Black, accept: "g8 l8", mateIn: 1},
	{name: "white wins in one", rules: allRules, black: "h9 i9 j9 n13 c13", white: "h8 i8 j8 k8", toMove: White, accept: "g8 l8", mateIn: 1},
	{name: "block a four", rules: allRules, black: "h8 i8 j8 k8", white: "g8 h9", toMove: White, accept: "l8"},
	{name: "black blocks a four", rules: allRules, black: "g8 h9 c3", white: "h8 i8 j8 k8", toMove: Black, accept: "l8"},
	{name: "answer an open three", rules: allRules, black: "h8 i8 j8", white: "h10 j10", toMove: White, accept: "f8 g8 k8 l8"},
	{name: "answer a split three", rules: allRules, black: "h8 i8 k8", white: "h10 k10", toMove: White, accept: "g8 j8 l8"},
	{name: "four-three wins", rules: allRules, black: "h8 i8 j8 k9 k10", white: "g8 e12 c10", toMove: Black, accept: "k8", mateIn: 5},
	{name: "vcf 5: double four", rules: []Rule{Freestyle, Standard}, black: "i8 j8 h9 h10 h11 k9 k10 k11",
		white: "g8 h12 k12 m8", toMove: Black, mateIn: 5}, // h8 or k8, or h7 (then j9: open four on the diagonal)
	{name: "vcf 7: double four after two fours", rules: []Rule{Freestyle, Standard}, black: "i8 j8 h9 h10 h11 k9 k10 l10 m9 n8",
		white: "g8 h12 k12 m8 j12 c12", toMove: Black, mateIn: 7},
	{name: "vct: double three", rules: []Rule{Freestyle, Standard}, black: "h8 i8 j9 j10", white: "c3 m3 c13", toMove: Black, accept: "j8", mateIn: 7},
	{name: "vct: white double three in renju", rules: []Rule{Renju}, black: "c3 m3 c13 m13 e3", white: "h8 i8 j9 j10", toMove: White, accept: "j8", mateIn: 7},
	{name: "renju: black avoids a double three", rules: []Rule{Renju}, black: "h8 i8 j9 j10", white: "c3 m3 c13", toMove: Black, reject: "j8"},
	{name: "overline wins only in freestyle", rules: []Rule{Freestyle}, black: "h8 i8 j8 k8 m8", white: "g8 h9 i9 j9", toMove: Black, accept: "l8", mateIn: 1},
	{name: "renju: black never plays an overline", rules: []Rule{Renju}, black: "h8 i8 j8 k8 m8", white: "g8 h9 i9 j9", toMove: Black, reject: "l8"},
}

func TestTactics(t *testing.T) {
	for _, tc := range append(tactics, generatedVCF...) {
		for _, rule := range tc.rules {
			t.Run(tc.name+"/"+rule.String(), func(t *testing.T) {
				b := puzzleBoard(t, rule, tc.black, tc.white, tc.toMove)
				e := New(Options{HashMiB: 4})
				limit := 3 * time.Second
				if raceEnabled && tc.mateIn > 0 {
					// The race detector slows the search about tenfold; a proven win
					// ends the search at once.
					limit = 20 * time.Second
				}
				res := e.Search(context.Background(), b, Limits{Time: limit, Depth: 12}, nil)
				require.NoError(t, b.Check(res.Move), "illegal answer %v", res.Move)
				if tc.accept != "" {
					assert.Contains(t, strings.Fields(tc.accept), res.Move.String(), "answer (score %v, pv %v)", res.Score, res.PV)
				}
				if tc.reject != "" {
					assert.NotContains(t, strings.Fields(tc.reject), res.Move.String())
				}
				if tc.mateIn > 0 {
					require.Positive(t, res.Score.MatePlies(), "no win found: %v %v", res.Score, res.PV)
					assert.LessOrEqual(t, res.Score.MatePlies(), tc.mateIn, "win too slow")
					// The win must hold against the engine's best defence.
					requireWinByPlayout(t, b, tc.toMove, res.Score.MatePlies())
				}
			})
		}
	}
}

// requireWinByPlayout plays the position out, engine against engine, and requires
// that side wins within plies moves.
func requireWinByPlayout(t *testing.T, b *Board, side Color, plies int) {
	t.Helper()
	b = b.Clone()
	att, def := New(Options{HashMiB: 4}), New(Options{HashMiB: 4})
	limit := 500 * time.Millisecond
	if raceEnabled {
		limit = 5 * time.Second
	}
	for i := 0; i < plies && !b.Outcome().Over; i++ {
		e := att
		if b.ToMove() != side {
			e = def
		}
		res := e.Search(context.Background(), b, Limits{Time: limit, Depth: 10}, nil)
		require.NoError(t, b.Play(res.Move))
	}
	require.True(t, b.Outcome().Over, "no five after %d plies: %s", plies, FormatMoves(b.Moves()))
	require.Equal(t, side, b.Outcome().Winner, "wrong winner: %s", FormatMoves(b.Moves()))
}
