package server

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// holdLiveSlots takes every slot of sched's live lane until the test ends: the board's
// analyses then wait for one (queued) and never end by themselves.
func holdLiveSlots(t *testing.T, sched *room.Scheduler) {
	_, _, slots := sched.Stats()
	for range slots {
		release, err := sched.Acquire(context.Background(), nil)
		require.NoError(t, err)
		t.Cleanup(release)
	}
}

// heldBoard is a board whose analyses never end by themselves (holdLiveSlots), with
// room for 16 at once, tokenCaller's clients and the limits given.
func heldBoard(t *testing.T, perCaller, perIP int) *analysisBoard {
	sched := room.NewScheduler(1, -1)
	holdLiveSlots(t, sched)
	a := newAnalysisBoard(sched)
	a.gate = room.NewScheduler(16, 8)
	a.caller = tokenCaller
	a.limits = newCallerLimits(perCaller, perIP, errBoardPerCaller, errBoardPerIP)
	return a
}

// tokenCaller is a Server.analysisCaller for tests: the bearer token is the player id.
func tokenCaller(c echo.Context) (who, ip string) {
	ip = c.RealIP()
	if tok, ok := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer "); ok {
		return "player:" + tok, ip
	}
	return "ip:" + ip, ip
}

func TestBoardPerClientLimit(t *testing.T) {
	a := heldBoard(t, protocol.AnalysisPerClient, 5)
	ts := analysisServer(t, a)
	for _, tc := range []struct {
		name, ip, token string
		want            string // "" or the refusal's message part
	}{
		{"anonymous 1", "192.0.2.1", "", ""},
		{"anonymous 2", "192.0.2.1", "", ""},
		{"anonymous over", "192.0.2.1", "", "as many analyses as you may"},
		{"another address", "192.0.2.2", "", ""},
		{"a player at the same address", "192.0.2.1", "ann", ""},
		{"the player again", "192.0.2.1", "ann", ""},
		{"the player over", "192.0.2.1", "ann", "as many analyses as you may"},
		{"the player from elsewhere, still over", "192.0.2.9", "ann", "as many analyses as you may"},
		{"another player at that address", "192.0.2.1", "bob", ""},
		{"the address's cap over the players", "192.0.2.1", "cid", "from your address"},
		{"cid elsewhere", "192.0.2.3", "cid", ""},
	} {
		status, ch, body, stop := openStreamAs(t, ts.URL, openPosition, tc.ip, tc.token)
		if tc.want != "" {
			requireRefused(t, status, body, 429, protocol.CodeAnalysisLimit)
			require.Contains(t, string(body), tc.want, tc.name)
			continue
		}
		require.Equal(t, 200, status, "%s: %s", tc.name, body)
		defer stop()
		require.Equal(t, "position", next(t, ch).name, tc.name)
	}
}

func TestBoardAddressQuota(t *testing.T) {
	a := heldBoard(t, 8, 8)
	a.quota = newTimeQuota(40*time.Second, time.Hour)
	a.ipQuota = newTimeQuota(50*time.Second, time.Hour)
	ts := analysisServer(t, a)
	// Ann takes 30 s of her 40 and of the address's 50; Bob, at the same address, gets
	// the 20 s the address has left, and Cid none: each has time, the address has not.
	status, ch, body, stop := openStreamAs(t, ts.URL, openPosition, "192.0.2.1", "ann")
	require.Equal(t, 200, status, string(body))
	defer stop()
	require.Equal(t, "position", next(t, ch).name)
	status, ch, body, stop2 := openStreamAs(t, ts.URL, openPosition, "192.0.2.1", "bob")
	require.Equal(t, 200, status, string(body))
	defer stop2()
	require.Equal(t, "position", next(t, ch).name)
	status, _, body, _ = openStreamAs(t, ts.URL, openPosition, "192.0.2.1", "cid")
	requireRefused(t, status, body, 429, protocol.CodeAnalysisLimit)
	require.Contains(t, string(body), "of your address")
	grant, refund := a.quota.take("player:bob", time.Hour, time.Now())
	refund(grant)
	require.Equal(t, 20*time.Second, grant, "bob was charged only what the address granted")
	// Elsewhere Cid has his own time.
	status, ch, body, stop3 := openStreamAs(t, ts.URL, openPosition, "192.0.2.7", "cid")
	require.Equal(t, 200, status, string(body))
	defer stop3()
	require.Equal(t, "position", next(t, ch).name)
}

// TestBoardLimitsThePlayer: on the server a client is the player of its bearer
// token wherever it connects from, and an address without a token.
func TestBoardLimitsThePlayer(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) { c.TrustedProxies = clusterProxies })
	ann := e.player("Ann")
	for i := range protocol.AnalysisPerClient {
		status, ch, body, stop := openStreamAs(t, e.ts.URL, openPosition, "192.0.2."+strconv.Itoa(10+i), ann.Token)
		require.Equal(t, 200, status, string(body))
		defer stop()
		require.Equal(t, "position", next(t, ch).name)
	}
	status, _, body, _ := openStreamAs(t, e.ts.URL, openPosition, "192.0.2.99", ann.Token)
	requireRefused(t, status, body, 429, protocol.CodeAnalysisLimit)
	require.Contains(t, string(body), "as many analyses as you may")
	// Without her token the request is the address's, which has none running.
	status, ch, body, stop := openStreamAs(t, e.ts.URL, openPosition, "192.0.2.99", "")
	require.Equal(t, 200, status, string(body))
	defer stop()
	require.Equal(t, "position", next(t, ch).name)
}
