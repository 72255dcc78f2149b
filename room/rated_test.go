package room

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/rating"
)

func ratedSettings(s *Settings) {
	s.Rated, s.Hints, s.Time = true, false, TimeControl{BaseMS: 300_000, IncrementMS: 3_000}
}

func TestRatedSettings(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*Settings)
		ok   bool
	}{
		{"5+3 blitz", func(s *Settings) {}, true},
		{"per-move clock", func(s *Settings) { s.Time = TimeControl{PerMoveMS: 30_000} }, true},
		{"untimed", func(s *Settings) { s.Time = TimeControl{} }, false},
		{"19x19", func(s *Settings) { s.Size = 19 }, false},
		{"AI seat", func(s *Settings) { s.White = SeatSpec{Kind: AI, Level: "expert"} }, false},
		{"engine seat", func(s *Settings) { s.Black = SeatSpec{Kind: Engine, Engine: "x"} }, false},
		{"hints", func(s *Settings) { s.Hints = true }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := DefaultSettings()
			ratedSettings(&set)
			tt.mod(&set)
			got, err := set.Normalize()
			if !tt.ok {
				assert.ErrorIs(t, err, ErrBadSettings)
				return
			}
			require.NoError(t, err)
			_, ok := got.Pool()
			assert.True(t, ok)
		})
	}
	p, ok := Settings{Rule: "renju", Time: TimeControl{BaseMS: 300_000, IncrementMS: 3_000}}.Pool()
	require.True(t, ok)
	assert.Equal(t, "renju-blitz", p.ID())
}

func TestRatedSeatsAccountsOnly(t *testing.T) {
	s := created(t, ratedSettings)
	_, _, err := Apply(s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
	require.ErrorIs(t, err, ErrAccountNeeded)
	assert.Equal(t, protocol.CodeAccountRequired, protocol.Code(err))
	acc := alice
	acc.Account, acc.Rating = true, "1500?"
	s, evs := apply(t, s, Command{Kind: CmdSit, By: acc, Color: "black"}, t0)
	require.Len(t, evs, 1)
	assert.Equal(t, "1500?", s.Seat(engineColor(1)).Player.Rating)
	assert.Equal(t, "1500?", s.Summary().Black.Rating, "the lobby entry shows the waiting player's rating")
	_, _, err = Apply(s, Command{Kind: CmdSit, By: Player{ID: "x", Name: "x", Account: true, Rating: "123456789"}, Color: "white"}, t0)
	assert.ErrorIs(t, err, ErrBadRequest, "a rating longer than any displayed one")
	// Casual rooms seat guests.
	_, _, err = Apply(created(t, nil), Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
	assert.NoError(t, err)
}

// ratedFinished is a rated game Alice (black) won by five.
func ratedFinished(t *testing.T) State {
	a, b := alice, bob
	a.Account, b.Account = true, true
	s := created(t, ratedSettings)
	s, _ = apply(t, s, Command{Kind: CmdSit, By: a, Color: "black"}, t0)
	s, _ = apply(t, s, Command{Kind: CmdSit, By: b, Color: "white"}, t0)
	return play(t, s, "h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12")
}

func TestRatingEvent(t *testing.T) {
	na, nb := rating.Pair(rating.Initial(), rating.Initial(), rating.Win)
	change := RatingOf("freestyle-blitz", rating.Initial(), na, rating.Initial(), nb)
	assert.Equal(t, RatingChange{Pool: "freestyle-blitz", Black: RatingDelta{1500, 1662, true}, White: RatingDelta{1500, 1338, true}}, change)

	s := ratedFinished(t)
	require.Equal(t, PhaseOver, s.Phase())
	tests := []struct {
		name string
		cmd  Command
		err  error
	}{
		{"no change", Command{Kind: CmdRating, Game: 1}, ErrBadRequest},
		{"future game", Command{Kind: CmdRating, Game: 2, Rating: &change}, ErrBadRequest},
		{"game 0", Command{Kind: CmdRating, Game: 0, Rating: &change}, ErrBadRequest},
	}
	for _, tt := range tests {
		_, _, err := Apply(s, tt.cmd, t0)
		assert.ErrorIs(t, err, tt.err, tt.name)
	}
	s2, evs := apply(t, s, Command{Kind: CmdRating, Game: 1, Rating: &change}, t0.Add(time.Minute))
	require.Equal(t, []EventKind{EvRating}, kinds(evs))
	assert.Equal(t, &change, s2.RatingChange())
	assert.Equal(t, &change, s2.Snapshot(t0).Rating)
	_, again := apply(t, s2, Command{Kind: CmdRating, Game: 1, Rating: &change}, t0.Add(time.Minute))
	assert.Empty(t, again, "a change reported twice is stored once")

	// The event round-trips and replays.
	b, err := EncodeEvent(evs[0])
	require.NoError(t, err)
	dec, err := DecodeEvent(b)
	require.NoError(t, err)
	assert.Equal(t, evs[0], dec)

	// The next game shows no change until its own is reported.
	s3, _ := apply(t, s2, Command{Kind: CmdRematch, By: alice}, t0.Add(2*time.Minute))
	s3, _ = apply(t, s3, Command{Kind: CmdRematch, By: bob}, t0.Add(2*time.Minute))
	require.Equal(t, 2, s3.Game())
	assert.Nil(t, s3.RatingChange())
	_, _, err = Apply(s3, Command{Kind: CmdRating, Game: 2, Rating: &change}, t0)
	assert.ErrorIs(t, err, ErrGameNotStarted, "game 2 is not over")

	// Casual rooms take no rating.
	_, _, err = Apply(finished(t), Command{Kind: CmdRating, Game: 1, Rating: &change}, t0)
	assert.ErrorIs(t, err, ErrBadRequest)
}

func TestReportRatingThroughActor(t *testing.T) {
	ctx := context.Background()
	m := NewManager(NewMemStore(), Options{})
	t.Cleanup(func() { _ = m.Shutdown(ctx) })
	a, b := alice, bob
	a.Account, b.Account = true, true
	set := DefaultSettings()
	ratedSettings(&set)
	r, err := m.Create(ctx, CreateRequest{Settings: set, Creator: &a, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(ctx, Command{Kind: CmdSit, By: b, Color: "white"})
	require.NoError(t, err)
	change := RatingChange{Pool: "freestyle-blitz", Black: RatingDelta{1500, 1662, true}, White: RatingDelta{1500, 1338, true}}
	assert.ErrorIs(t, r.ReportRating(ctx, 1, change), ErrGameNotStarted, "the game is still in play")
	_, err = r.Do(ctx, Command{Kind: CmdResign, By: b})
	require.NoError(t, err)
	require.NoError(t, r.ReportRating(ctx, 1, change))
	require.NoError(t, r.ReportRating(ctx, 1, change), "reported again: acknowledged")
	assert.Equal(t, &change, r.State().RatingChange())
	evs, err := m.Store().Events(ctx, r.ID(), 1)
	require.NoError(t, err)
	n := 0
	for _, e := range evs {
		if e.Kind == EvRating {
			n++
		}
	}
	assert.Equal(t, 1, n, "one rating event")
	_, err = r.Do(ctx, Command{Kind: CmdRating, Game: 1, Rating: &change})
	assert.ErrorIs(t, err, ErrUnknownType, "clients cannot send it")
}
