package server

import (
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecordOfSwap2Game: the record of a game opened with swap2 has the stones as
// played (the opening's five, then the game), the players at their chosen colours.
func TestRecordOfSwap2Game(t *testing.T) {
	alice, bob := room.Player{ID: "a", Name: "Alice"}, room.Player{ID: "b", Name: "Bob"}
	set := room.DefaultSettings()
	set.Opening = room.OpeningSwap2
	now := time.Unix(1_700_000_000, 0)
	s, _, err := room.NewState("r1", set, now)
	require.NoError(t, err)
	for _, c := range []room.Command{
		{Kind: room.CmdSit, By: alice, Color: "black"},
		{Kind: room.CmdSit, By: bob, Color: "white"},
		{Kind: room.CmdMove, By: alice, Ply: 0, Point: "h8"},
		{Kind: room.CmdMove, By: alice, Ply: 1, Point: "i9"},
		{Kind: room.CmdMove, By: alice, Ply: 2, Point: "j8"},
		{Kind: room.CmdChoose, By: bob, Choice: room.ChoicePlace2},
		{Kind: room.CmdMove, By: bob, Ply: 3, Point: "h9"},
		{Kind: room.CmdMove, By: bob, Ply: 4, Point: "h10"},
		{Kind: room.CmdChoose, By: alice, Choice: room.ChoiceWhite},
		{Kind: room.CmdMove, By: alice, Ply: 5, Point: "k8"},
	} {
		s, _, err = room.Apply(s, c, now)
		require.NoError(t, err, "%s", c.Kind)
	}
	rec := newGameRecord(s, 1, room.GameSpan{})
	sgf, err := formatRecord(rec, "sgf")
	require.NoError(t, err)
	assert.Contains(t, string(sgf), "PB[Bob]PW[Alice]GC[opening swap2]")
	assert.Contains(t, string(sgf), ";B[hh]\n;W[ig]\n;B[jh]\n;W[hg]\n;B[hf]\n;W[kh])")
	psq, err := formatRecord(rec, "psq")
	require.NoError(t, err)
	assert.Contains(t, string(psq), "8,8,0\r\n9,7,0\r\n10,8,0\r\n8,7,0\r\n8,6,0\r\n11,8,0\r\n-1")
}
