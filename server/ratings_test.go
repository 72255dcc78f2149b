package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// account makes p an account (as signing up does) without going through the API.
func (e *testEnv) account(p player, username string) {
	e.t.Helper()
	require.NoError(e.t, e.rc.HSet(context.Background(), playerKey(p.ID), "username", username).Err())
}

var ratedBlitz = map[string]any{"rated": true, "time": map[string]any{"base_ms": 300_000, "increment_ms": 3_000}, "me": "black"}

func TestRatedRoomEndToEnd(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob, guest := e.player("Alice"), e.player("Bob"), e.player("Guest")
	e.account(alice, "alice")
	e.account(bob, "bob")

	var errBody struct{ Error struct{ Code string } }
	require.Equal(t, http.StatusForbidden, e.do("POST", "/api/rooms", guest.Token, ratedBlitz, &errBody))
	assert.Equal(t, protocol.CodeAccountRequired, errBody.Error.Code)
	bad := map[string]any{"rated": true, "me": "black"}
	require.Equal(t, http.StatusBadRequest, e.do("POST", "/api/rooms", alice.Token, bad, &errBody), "untimed rooms are casual")

	// A guest cannot take a rated seat.
	id := e.createRoom(alice.Token, ratedBlitz)
	g := e.dial(id)
	g.hello(guest.Token, 0)
	requireErr(t, g.cmd(map[string]any{"type": "sit", "color": "white"}), protocol.CodeAccountRequired)

	a := e.dial(id)
	a.hello(alice.Token, 0)
	b := e.dial(id)
	b.hello(bob.Token, 0)
	requireAck(t, b.cmd(map[string]any{"type": "sit", "color": "white"}))
	seated := b.sawEvent("seated").event()
	assert.Equal(t, "1500?", seated["player"].(map[string]any)["rating"], "ratings show next to names")
	requireAck(t, a.move(0, "h8"))
	requireAck(t, b.move(1, "h9"))
	requireAck(t, b.cmd(map[string]any{"type": "resign"}))
	ev := a.sawEvent("rating").event()
	change := ev["rating"].(map[string]any)
	assert.Equal(t, "freestyle-blitz", change["pool"])
	assert.Equal(t, map[string]any{"before": 1500.0, "after": 1662.0, "provisional": true}, change["black"])
	assert.Equal(t, map[string]any{"before": 1500.0, "after": 1338.0, "provisional": true}, change["white"])

	rs, err := e.led.Ratings(context.Background(), alice.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, rs["freestyle-blitz"].Wins)
	games, err := e.led.Games(context.Background(), bob.ID, 0, 10)
	require.NoError(t, err)
	require.Len(t, games, 1)
	assert.Equal(t, "loss", games[0].Result)

	// A new room in the same pool seats Alice with her new rating.
	id2 := e.createRoom(alice.Token, ratedBlitz)
	var snap struct {
		Black struct{ Player struct{ Rating string } }
	}
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms/"+id2, "", nil, &snap))
	assert.Equal(t, "1662?", snap.Black.Player.Rating)
}

// TestPairingPools: GET /api/pairing/pools lists every rule × clock one may seek with
// the rating pool of its speed class (base + 40 × increment).
func TestPairingPools(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "/api/pairing/pools", nil)
	rec := httptest.NewRecorder()
	require.NoError(t, pairingPools(echo.New().NewContext(req, rec)))
	require.Equal(t, http.StatusOK, rec.Code)
	var got struct{ Pools []SeekPool }
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &got))
	require.Len(t, got.Pools, len(rating.Rules)*len(pairing.Clocks), "every seekable pool has a rating pool")
	find := func(rule, clock string) string {
		for _, p := range got.Pools {
			if p.Rule == rule && p.Clock == clock {
				return p.RatingPool
			}
		}
		return ""
	}
	for _, c := range []struct{ rule, clock, want string }{
		{"freestyle", "1+0", "freestyle-bullet"},
		{"freestyle", "3+2", "freestyle-blitz"}, // 3 min + 40 × 2 s = 4:20
		{"renju", "5+3", "renju-blitz"},         // 7 min
		{"standard", "10+5", "standard-rapid"},  // 13:20
		{"freestyle", "15+10", "freestyle-rapid"},
		{"renju", "30+20", "renju-classical"},
	} {
		require.Equal(t, c.want, find(c.rule, c.clock), "%s %s", c.rule, c.clock)
	}
}
