package room

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChatEventCarriesAuthorAndChannel(t *testing.T) {
	s := seated(t, nil)
	tests := []struct {
		name    string
		by      Player
		channel string
		color   string
	}{
		{"black player", alice, ChannelPlayers, "black"},
		{"white player", bob, ChannelPlayers, "white"},
		{"spectator", carol, ChannelSpectators, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, evs := apply(t, s, Command{Kind: CmdChat, By: tc.by, Text: " hi "}, t0)
			require.Len(t, evs, 1)
			e := evs[0]
			assert.Equal(t, tc.channel, e.Channel)
			assert.Equal(t, tc.color, e.Color)
			require.NotNil(t, e.Player)
			assert.Equal(t, tc.by, *e.Player)
			assert.Equal(t, "hi", e.Text)
			assert.Empty(t, e.Name, "the author is in Player")
		})
	}
}

func TestChatHistoryKeepsAuthorsAcrossARematch(t *testing.T) {
	s := finished(t)
	s, _ = apply(t, s, Command{Kind: CmdChat, By: alice, Text: "gg"}, t0)
	s, _ = apply(t, s, Command{Kind: CmdRematch, By: bob}, t0)
	s, _ = apply(t, s, Command{Kind: CmdRematch, By: alice}, t0)
	require.Equal(t, "white", s.ColorOf(alice.ID).String(), "colours swapped")
	s, _ = apply(t, s, Command{Kind: CmdChat, By: alice, Text: "again"}, t0)
	s, _ = apply(t, s, Command{Kind: CmdChat, By: carol, Text: "go"}, t0)
	var got []string
	for _, l := range s.Snapshot(t0).Chat {
		got = append(got, fmt.Sprintf("%s %s %s %s: %s", l.Channel, l.Player.ID, l.Player.Name, l.Color, l.Text))
	}
	assert.Equal(t, []string{
		"players p_alice Alice black: gg",
		"players p_alice Alice white: again",
		"spectators p_carol Carol : go",
	}, got)
}

// TestChatReplaysLogsOfEarlierFormat replays chat events as they were stored before
// they carried the author and the channel: a player by colour only (resolved to the
// seat holder at that point of the log, not today's), a spectator by name only.
func TestChatReplaysLogsOfEarlierFormat(t *testing.T) {
	_, created, err := NewState("r1", DefaultSettings(), t0)
	require.NoError(t, err)
	at := t0.UnixMilli()
	log := []Event{
		created,
		{Seq: 2, Kind: EvSeated, At: at, Game: 1, Color: "black", Player: &alice},
		{Seq: 3, Kind: EvSeated, At: at, Game: 1, Color: "white", Player: &bob},
		{Seq: 4, Kind: EvStarted, At: at, Game: 1},
		{Seq: 5, Kind: EvChat, At: at, Game: 1, Color: "white", Text: "hello"},
		{Seq: 6, Kind: EvChat, At: at, Game: 1, Name: "Carol", Text: "hi all"},
		{Seq: 7, Kind: EvGameOver, At: at, Game: 1, Result: "black", Reason: ReasonResign},
		{Seq: 8, Kind: EvRematch, At: at, Game: 2},
		{Seq: 9, Kind: EvChat, At: at, Game: 2, Color: "white", Text: "my turn to be white"},
		{Seq: 10, Kind: EvChat, At: at, Game: 2},
	}
	s, err := Replay(log)
	require.NoError(t, err)
	want := []ChatLine{
		{Seq: 5, At: at, Channel: ChannelPlayers, Player: bob, Color: "white", Text: "hello"},
		{Seq: 6, At: at, Channel: ChannelSpectators, Player: Player{Name: "Carol"}, Text: "hi all"},
		{Seq: 9, At: at, Channel: ChannelPlayers, Player: alice, Color: "white", Text: "my turn to be white"},
	}
	assert.Equal(t, want, s.Chat(), "an empty line is not kept")
	// Encoding round trip of the new form: what the store keeps replays the same.
	s2, evs := apply(t, s, Command{Kind: CmdChat, By: carol, Text: "new"}, t0)
	b, err := EncodeEvent(evs[0])
	require.NoError(t, err)
	back, err := DecodeEvent(b)
	require.NoError(t, err)
	s3, err := ReplayFrom(s, []Event{back})
	require.NoError(t, err)
	assert.Equal(t, s2.Chat(), s3.Chat())
}

func TestChatHistoryIsBounded(t *testing.T) {
	s := seated(t, nil)
	before := s
	for i := range MaxChatHistory + 5 {
		s, _ = apply(t, s, Command{Kind: CmdChat, By: carol, Text: fmt.Sprint(i)}, t0)
	}
	h := s.Chat()
	require.Len(t, h, MaxChatHistory)
	assert.Equal(t, "5", h[0].Text)
	assert.Equal(t, fmt.Sprint(MaxChatHistory+4), h[len(h)-1].Text)
	assert.Empty(t, before.Chat(), "an earlier State is not changed")
}
