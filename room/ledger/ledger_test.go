package ledger

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/rating"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func newMini(t *testing.T) (*Ledger, *miniredis.Miniredis, redis.UniversalClient) {
	t.Helper()
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	return New(c, WithRetention(24*time.Hour), WithClock(func() time.Time { return t0 })), mr, c
}

func rated(room string, game int, result string, end time.Time) Game {
	return Game{Room: room, Game: game, Rule: "freestyle", Pool: "freestyle-blitz", Rated: true,
		Black:  Side{PlayerID: "alice", Name: "Alice", Account: true},
		White:  Side{PlayerID: "bob", Name: "Bob", Account: true},
		Result: result, Reason: "five", Plies: 31, End: end}
}

func TestRecordRatedGame(t *testing.T) {
	l, _, _ := newMini(t)
	ctx := context.Background()
	rec, err := l.Record(ctx, rated("r1", 1, "black", t0))
	require.NoError(t, err)
	wantA, wantB := rating.Pair(rating.Initial(), rating.Initial(), rating.Win)
	assert.Equal(t, wantA, *rec.Black.After)
	assert.Equal(t, wantB, *rec.White.After)

	rs, err := l.Ratings(ctx, "alice")
	require.NoError(t, err)
	require.Contains(t, rs, "freestyle-blitz")
	assert.Equal(t, wantA, rs["freestyle-blitz"].Rating)
	assert.Equal(t, 1, rs["freestyle-blitz"].Wins)

	gs, err := l.Games(ctx, "bob", 0, 10)
	require.NoError(t, err)
	require.Len(t, gs, 1)
	assert.Equal(t, Loss, gs[0].Result)
	assert.Equal(t, "alice", gs[0].Opponent.PlayerID)
	assert.Equal(t, wantB, *gs[0].After)

	h, err := l.History(ctx, "alice", "freestyle-blitz", 0)
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.Equal(t, wantA.R, h[0].R)

	top, err := l.Leaderboard(ctx, "freestyle-blitz", 10)
	require.NoError(t, err)
	assert.Empty(t, top, "provisional ratings stay off the leaderboard")
}

func TestRecordIsIdempotent(t *testing.T) {
	l, _, _ := newMini(t)
	ctx := context.Background()
	g := rated("r1", 1, "white", t0)
	first, err := l.Record(ctx, g)
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		again, err := l.Record(ctx, g)
		require.NoError(t, err)
		assert.Equal(t, first, again)
	}
	rs, err := l.Ratings(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, 1, rs["freestyle-blitz"].Games)
	h, err := l.History(ctx, "bob", "freestyle-blitz", 0)
	require.NoError(t, err)
	assert.Len(t, h, 1)
	gs, err := l.Games(ctx, "alice", 0, 10)
	require.NoError(t, err)
	assert.Len(t, gs, 1)
}

func TestRecordUsesRatingsAsStored(t *testing.T) {
	l, _, _ := newMini(t)
	ctx := context.Background()
	_, err := l.Record(ctx, rated("r1", 1, "black", t0))
	require.NoError(t, err)
	rec, err := l.Record(ctx, rated("r2", 1, "black", t0.Add(time.Minute)))
	require.NoError(t, err)
	a1, b1 := rating.Pair(rating.Initial(), rating.Initial(), rating.Win)
	a1 = rating.Age(a1, time.Minute)
	b1 = rating.Age(b1, time.Minute)
	a2, b2 := rating.Pair(a1, b1, rating.Win)
	assert.Equal(t, a1, *rec.Black.Before)
	assert.Equal(t, a2, *rec.Black.After)
	assert.Equal(t, b2, *rec.White.After)
}

func TestLeaderboardEstablished(t *testing.T) {
	l, _, _ := newMini(t)
	ctx := context.Background()
	for i := 0; i < 25; i++ { // two new players are established after 23 games together
		res := "black"
		if i%3 == 2 {
			res = "draw"
		}
		_, err := l.Record(ctx, rated(fmt.Sprintf("r%d", i), 1, res, t0.Add(time.Duration(i)*time.Minute)))
		require.NoError(t, err)
	}
	top, err := l.Leaderboard(ctx, "freestyle-blitz", 10)
	require.NoError(t, err)
	require.NotEmpty(t, top)
	assert.Equal(t, "alice", top[0].PlayerID)
	assert.Equal(t, "Alice", top[0].Name)
	assert.False(t, top[0].Provisional())

	// A year later both are provisional again and off the board.
	later := New(l.c, WithClock(func() time.Time { return t0.AddDate(1, 0, 0) }))
	top, err = later.Leaderboard(ctx, "freestyle-blitz", 10)
	require.NoError(t, err)
	assert.Empty(t, top)
}

func TestCasualGamesIndexed(t *testing.T) {
	l, mr, _ := newMini(t)
	ctx := context.Background()
	g := Game{Room: "ai1", Game: 2, Rule: "renju", Result: "white", Reason: "resign", End: t0,
		Black: Side{PlayerID: "guest1", Name: "Guest"}, White: Side{Machine: "ai:expert"}}
	rec, err := l.Record(ctx, g)
	require.NoError(t, err)
	assert.Nil(t, rec.Black.After)
	gs, err := l.Games(ctx, "guest1", 0, 10)
	require.NoError(t, err)
	require.Len(t, gs, 1)
	assert.Equal(t, Loss, gs[0].Result)
	assert.Equal(t, "ai:expert", gs[0].Opponent.Machine)
	rs, err := l.Ratings(ctx, "guest1")
	require.NoError(t, err)
	assert.Empty(t, rs)
	// A guest's index and an unrated game's record expire with the retention.
	assert.Equal(t, 24*time.Hour, mr.TTL(GamesKey("guest1")))
	assert.Equal(t, 24*time.Hour, mr.TTL(ResultKey("ai1", 2)))
	require.NoError(t, l.Keep(ctx, "guest1"))
	assert.Zero(t, mr.TTL(GamesKey("guest1")))
}

func TestAbortedGameIndexedForNobody(t *testing.T) {
	l, _, _ := newMini(t)
	ctx := context.Background()
	g := rated("r1", 1, "aborted", t0)
	require.NoError(t, l.MarkPending(ctx, "r1", 1, t0))
	_, err := l.Record(ctx, g)
	require.NoError(t, err)
	gs, err := l.Games(ctx, "alice", 0, 10)
	require.NoError(t, err)
	assert.Empty(t, gs)
	rs, err := l.Ratings(ctx, "alice")
	require.NoError(t, err)
	assert.Empty(t, rs)
	p, err := l.Pending(ctx, t0.Add(time.Hour), 10)
	require.NoError(t, err)
	assert.Empty(t, p)
}

func TestPendingOutbox(t *testing.T) {
	l, _, _ := newMini(t)
	ctx := context.Background()
	require.NoError(t, l.MarkPending(ctx, "a:b", 3, t0))
	require.NoError(t, l.MarkPending(ctx, "c", 1, t0.Add(time.Minute)))
	p, err := l.Pending(ctx, t0.Add(30*time.Second), 10)
	require.NoError(t, err)
	assert.Equal(t, []PendingGame{{Room: "a:b", Game: 3, At: t0}}, p)
	_, err = l.Record(ctx, rated("a:b", 3, "draw", t0))
	require.NoError(t, err)
	p, err = l.Pending(ctx, t0.Add(30*time.Second), 10)
	require.NoError(t, err)
	assert.Len(t, p, 1, "a rated game stays until its room has the change")
	require.NoError(t, l.Unmark(ctx, "a:b", 3))
	casual := Game{Room: "c", Game: 1, Rule: "freestyle", Result: "draw", End: t0, Black: Side{PlayerID: "x"}, White: Side{PlayerID: "y"}}
	_, err = l.Record(ctx, casual)
	require.NoError(t, err)
	p, err = l.Pending(ctx, t0.Add(time.Hour), 10)
	require.NoError(t, err)
	assert.Empty(t, p)
}

func TestRecordRefusesBadGames(t *testing.T) {
	l, _, _ := newMini(t)
	good := rated("r", 1, "black", t0)
	tests := []struct {
		name string
		mod  func(*Game)
	}{
		{"room id with a brace", func(g *Game) { g.Room = "a{b" }},
		{"game 0", func(g *Game) { g.Game = 0 }},
		{"unknown result", func(g *Game) { g.Result = "won" }},
		{"unknown pool", func(g *Game) { g.Pool = "freestyle-daily" }},
		{"rated without pool", func(g *Game) { g.Pool = "" }},
		{"rated against a machine", func(g *Game) { g.White = Side{Machine: "ai:expert"} }},
		{"rated against oneself", func(g *Game) { g.White.PlayerID = "alice" }},
		{"bad player id", func(g *Game) { g.Black.PlayerID = "x y" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := good
			tt.mod(&g)
			_, err := l.Record(context.Background(), g)
			assert.ErrorIs(t, err, ErrBadGame)
		})
	}
}

func TestParsePending(t *testing.T) {
	tests := []struct {
		in   string
		room string
		game int
		ok   bool
	}{
		{"abc:1", "abc", 1, true},
		{"a:b:12", "a:b", 12, true},
		{"abc", "", 0, false},
		{":1", "", 0, false},
		{"abc:0", "", 0, false},
		{"abc:x", "", 0, false},
	}
	for _, tt := range tests {
		room, game, ok := parsePending(tt.in)
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.room, room, tt.in)
		assert.Equal(t, tt.game, game, tt.in)
	}
}

func FuzzDecodePoolRating(f *testing.F) {
	f.Add(`{"r":1500,"rd":80,"vol":0.06,"n":3}`)
	f.Add(`{"r":"x"}`)
	f.Add(``)
	f.Fuzz(func(t *testing.T, s string) {
		p := decodePoolRating(s)
		assert.True(t, p.Valid(), "a stored field always decodes to a usable rating")
	})
}

func BenchmarkRecord(b *testing.B) {
	mr := miniredis.RunT(b)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer c.Close()
	l := New(c)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := l.Record(ctx, rated(fmt.Sprintf("r%d", i), 1, "black", t0.Add(time.Duration(i)*time.Second))); err != nil {
			b.Fatal(err)
		}
	}
}
