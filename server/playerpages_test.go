package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/migrations"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestPlayerPageAndLeaderboard: a player's page shows its ratings per pool (with the
// history and W/D/L of rated games) and its recent games with replay links, found by id
// or, for an account, by username; the leaderboard lists a pool's established players.
func TestPlayerPageAndLeaderboard(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	pa, pb := e.player("Alice"), e.player("Bob")
	require.NoError(t, e.srv.players.Claim(ctx, pa.ID, "alice", "hash"))
	require.NoError(t, e.srv.players.Claim(ctx, pb.ID, "bob", "hash"))
	end := time.Now().Add(-time.Hour)
	alice := ledger.Side{PlayerID: pa.ID, Name: "Alice", Account: true}
	bob := ledger.Side{PlayerID: pb.ID, Name: "Bob", Account: true}
	// 30 rated blitz games, Alice wins two in three (enough for both to be established),
	// then a casual one against the AI.
	for i := 1; i <= 30; i++ {
		result := "black"
		if i%3 == 0 {
			result = "white"
		}
		_, err := e.led.Record(ctx, ledger.Game{Room: "rr", Game: i, Rule: "freestyle", Pool: "freestyle-blitz", Rated: true,
			Black: alice, White: bob, Result: result, Reason: "five", Plies: 9, End: end.Add(time.Duration(i) * time.Minute)})
		require.NoError(t, err)
	}
	_, err := e.led.Record(ctx, ledger.Game{Room: "ai", Game: 1, Rule: "renju", Black: ledger.Side{Machine: "ai:novice"}, White: alice,
		Result: "draw", Reason: "draw_agreed", Plies: 30, End: end.Add(time.Hour)})
	require.NoError(t, err)

	for _, key := range []string{pa.ID, "@alice", "@ALICE"} {
		var page PlayerPage
		require.Equal(t, http.StatusOK, e.do("GET", "/api/players/"+key, "", nil, &page), key)
		assert.Equal(t, pa.ID, page.ID)
		assert.Equal(t, "alice", page.Username)
		assert.True(t, page.Account)
		require.Len(t, page.Ratings, 1, key)
		r := page.Ratings[0]
		assert.Equal(t, "freestyle-blitz", r.Pool)
		assert.Equal(t, "blitz", r.Speed)
		assert.Equal(t, 30, r.Games)
		assert.Equal(t, 20, r.Wins)
		assert.Greater(t, r.Rating, 1500, "rd %d", r.RD)
		assert.False(t, r.Provisional, "rd %d", r.RD)
		assert.Len(t, r.History, 30)
		assert.Equal(t, [3]int{20, 0, 10}, [3]int{page.Wins, page.Draws, page.Losses})
		require.Len(t, page.Games, 20, "the latest 20")
		assert.Equal(t, "ai", page.Games[0].Room, "most recent first")
		assert.Equal(t, "draw", page.Games[0].Result)
		assert.Equal(t, "ai:novice", page.Games[0].Opponent.Machine)
		assert.Equal(t, "/r/ai?game=1", page.Games[0].Replay)
		assert.Equal(t, "/r/rr?game=30", page.Games[1].Replay)
		assert.Equal(t, "Bob", page.Games[1].Opponent.Name)
		assert.Equal(t, "loss", page.Games[1].Result)
		assert.Nil(t, page.Games[0].Change, "a casual game changes no rating")
		if c := page.Games[1].Change; assert.NotNil(t, c, "a rated game shows its change") {
			assert.Less(t, c.After, c.Before, "a loss")
			assert.False(t, c.Provisional, "established after 30 games")
		}
	}
	var bobPage PlayerPage
	require.Equal(t, http.StatusOK, e.do("GET", "/api/players/@bob", "", nil, &bobPage))
	require.Len(t, bobPage.Ratings, 1)
	assert.Less(t, bobPage.Ratings[0].Rating, 1500)
	assert.Equal(t, [3]int{10, 0, 20}, [3]int{bobPage.Wins, bobPage.Draws, bobPage.Losses})

	guest := e.player("Carol")
	var carol PlayerPage
	require.Equal(t, http.StatusOK, e.do("GET", "/api/players/"+guest.ID, "", nil, &carol))
	assert.False(t, carol.Account)
	assert.Empty(t, carol.Ratings)
	assert.Empty(t, carol.Games)

	var board struct {
		Pool    string      `json:"pool"`
		Pools   []string    `json:"pools"`
		Players []LeaderRow `json:"players"`
	}
	require.Equal(t, http.StatusOK, e.do("GET", "/api/leaderboard?pool=freestyle-blitz", "", nil, &board))
	assert.Equal(t, "freestyle-blitz", board.Pool)
	assert.Contains(t, board.Pools, "renju-classical")
	require.NotEmpty(t, board.Players)
	assert.Equal(t, pa.ID, board.Players[0].ID, "the winner of every game leads")
	for i, row := range board.Players {
		assert.Equal(t, i+1, row.Rank)
		assert.NotContains(t, row.Display, "?", "established players only")
	}
	require.Equal(t, http.StatusOK, e.do("GET", "/api/leaderboard?pool=renju-rapid", "", nil, &board))
	assert.Empty(t, board.Players)

	for _, tc := range []struct {
		path, code string
		status     int
	}{
		{"/api/players/@nobody", protocol.CodeNotFound, http.StatusNotFound},
		{"/api/players/p_nobody", protocol.CodeNotFound, http.StatusNotFound},
		{"/api/leaderboard?pool=chess-blitz", protocol.CodeBadRequest, http.StatusBadRequest},
		{"/api/leaderboard?pool=freestyle-blitz&limit=0", protocol.CodeBadRequest, http.StatusBadRequest},
		{"/api/leaderboard?limit=x", protocol.CodeBadRequest, http.StatusBadRequest},
	} {
		var er apiErr
		require.Equal(t, tc.status, e.do("GET", tc.path, "", nil, &er), tc.path)
		assert.Equal(t, tc.code, er.Error.Code, tc.path)
	}
}

// TestBackfilledGamesReachThePlayerPage: a game that finished before the players' game
// indexes existed (layout v5) reaches its players' pages once the back-fill migration
// has put it in the ledger's outbox and a sweep has recorded it.
func TestBackfilledGamesReachThePlayerPage(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	id := finishedGame(t, e) // black wins
	var rec *ledger.Record
	require.Eventually(t, func() bool {
		r, err := e.led.Result(ctx, id, 1)
		rec = r
		return err == nil && r != nil
	}, 10*time.Second, 20*time.Millisecond, "recorded when it ended")
	black, white := rec.Black.PlayerID, rec.White.PlayerID

	// The store as before v5: no ledger at all; v5 applied after the game.
	keys, err := e.rc.Keys(ctx, "gomoku:{ratings}:*").Result()
	require.NoError(t, err)
	require.NoError(t, e.rc.Del(ctx, keys...).Err())
	require.NoError(t, e.rc.HSet(ctx, migrations.KeySchema, "applied:5", time.Now().UnixMilli()+1).Err())
	var page PlayerPage
	require.Equal(t, http.StatusOK, e.do("GET", "/api/players/"+white, "", nil, &page))
	require.Empty(t, page.Games)

	m := migrations.All()[migrations.BackfillGameIndex-1]
	require.Equal(t, migrations.BackfillGameIndex, m.Version)
	require.NoError(t, m.Up(ctx, e.rc))
	sweep := ledger.NewRecorder(e.led, &ledger.ManagerRooms{M: e.mgr}, nil)
	sweep.SweepAfter = 0
	require.Equal(t, 1, sweep.Sweep(ctx))
	for _, p := range []string{black, white} {
		require.Equal(t, http.StatusOK, e.do("GET", "/api/players/"+p, "", nil, &page))
		require.Len(t, page.Games, 1, p)
		assert.Equal(t, replayPath(id, 1), page.Games[0].Replay)
	}
	assert.Equal(t, "loss", page.Games[0].Result, "white lost")
	assert.Equal(t, black, page.Games[0].Opponent.PlayerID)
}
