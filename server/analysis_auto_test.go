package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/analysis"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// aiGameResigned plays h8 against the AI in a room created with body, waits for the
// AI's answer and resigns: a finished game with a result. Nobody asks for its analysis.
func aiGameResigned(t *testing.T, e *testEnv, body map[string]any) string {
	t.Helper()
	p := e.player("Alice")
	id := e.createRoom(p.Token, body)
	c := e.dial(id)
	c.hello(p.Token, 0)
	requireAck(t, c.move(0, "h8"))
	c.saw("the AI's move", func(m msg) bool {
		return m.typ() == protocol.TypeEvent && m.event().str("kind") == "move" && m.event().str("color") == "white"
	})
	requireAck(t, c.cmd(map[string]any{"type": "resign"}))
	c.sawEvent("game_over")
	return id
}

// TestAutomaticAnalysis: the finished game of a room with auto_analysis (the default
// against the AI) is analysed without any page asking; a game between people, or
// against the AI with the setting off, is not.
func TestAutomaticAnalysis(t *testing.T) {
	e := newEnv(t, nil)
	svc := e.srv.deps.Analysis
	ctx := context.Background()
	ai := map[string]any{"kind": "ai", "level": "beginner"}

	id := aiGameResigned(t, e, map[string]any{"me": "black", "opponent": ai})
	require.Eventually(t, func() bool {
		res, _, err := svc.Get(ctx, id, 1)
		return err == nil && res != nil && res.Status == analysis.StatusDone
	}, 2*time.Minute, 10*time.Millisecond, "analysed by itself")
	var got analysisJSON
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms/"+id+"/analysis", "", nil, &got))
	assert.Equal(t, "done", got.Status)
	require.Len(t, got.Positions, got.Total)
	assert.Equal(t, "h8", got.Positions[0].Played)
	// Asking again computes nothing and counts against nobody's limit.
	require.Equal(t, http.StatusAccepted, e.do("POST", "/api/rooms/"+id+"/analysis", "", nil, &got))
	assert.Equal(t, "done", got.Status)

	for _, tc := range []struct {
		name string
		id   func() string
	}{
		{"between people", func() string { return finishedGame(t, e) }},
		{"against the AI, setting off", func() string {
			return aiGameResigned(t, e, map[string]any{"me": "black", "opponent": ai, "auto_analysis": false})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := tc.id()
			// The node that stored the end was told of it: once its queue has let the
			// game go, nothing was started or stored.
			require.Eventually(t, func() bool { return !svc.Queued(id, 1) }, time.Minute, time.Millisecond)
			res, leased, err := svc.Get(ctx, id, 1)
			require.NoError(t, err)
			assert.Nil(t, res)
			assert.False(t, leased)
			var er struct{ Error protocol.Error }
			require.Equal(t, http.StatusNotFound, e.do("GET", "/api/rooms/"+id+"/analysis", "", nil, &er))
			assert.Equal(t, protocol.CodeNotFound, er.Error.Code, "a page finds nothing and offers the button")
		})
	}
}

// TestAutomaticAnalysisQueuedByAPage: a game of an auto_analysis room whose end
// reached no queue (its node stopped first) is queued by the first page that reads it.
func TestAutomaticAnalysisQueuedByAPage(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	id := aiGameResigned(t, e, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "beginner"}})
	// As if the node had died: the analysis the end started is stopped and forgotten.
	svc := e.srv.deps.Analysis
	require.Eventually(t, func() bool { _, l, _ := svc.Get(ctx, id, 1); return l || !svc.Queued(id, 1) }, time.Minute, time.Millisecond)
	svc.Close()
	rk, lk := analysis.Keys(id, 1)
	require.NoError(t, e.rc.Del(ctx, rk, lk).Err())
	e.srv.deps.Analysis = newAnalysisService(e.rc, time.Hour, "", e.mgr, e.srv.rooms.(gameSource), &analysisGameEnds{GameEnds: nopEnds{}},
		e.srv.log, analysis.WithBudget(analysis.Budget{Nodes: 4000, SolverNodes: 20_000, Workers: 2}))
	t.Cleanup(e.srv.deps.Analysis.Close)

	var got analysisJSON
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms/"+id+"/analysis", "", nil, &got))
	assert.Contains(t, []string{"queued", "running"}, got.Status)
	assert.Equal(t, 3, got.Total, "h8, the AI's move, the end")
	require.Eventually(t, func() bool {
		got = analysisJSON{}
		return e.do("GET", "/api/rooms/"+id+"/analysis", "", nil, &got) == http.StatusOK && got.Status == "done"
	}, 2*time.Minute, 20*time.Millisecond)
}

// nopEnds is a roomstore.GameEnds that does nothing.
type nopEnds struct{}

func (nopEnds) Ending(context.Context, string, int, time.Time) error { return nil }
func (nopEnds) Ended(string, int)                                    {}

// TestGameAnalysisLimits: a client (the player of the token, else the address) has
// at most protocol.AnalysisPerClient post-game analyses computing at once, an address
// protocol.AnalysisPerAddress; over that, analysis_limit.
func TestGameAnalysisLimits(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) { c.TrustedProxies = clusterProxies })
	// Slow analyses: the work waits until the test lets it go.
	hold := make(chan struct{})
	e.srv.deps.Analysis.Close()
	e.srv.deps.Analysis = analysis.NewService(analysis.NewRedisStore(e.rc, time.Hour), heldRunner{hold}, "", analysis.WithMaxJobs(16))
	t.Cleanup(e.srv.deps.Analysis.Close)
	e.srv.gameAnalyses = newCallerLimits(protocol.AnalysisPerClient, 3, errGamesPerCaller, errGamesPerIP)
	ann, bob := e.player("Ann"), e.player("Bob")
	games := make([]string, 7)
	for i := range games {
		games[i] = finishedGameOf(t, e, ann, bob)
	}
	post := func(id, token, ip string) (int, string) {
		h := map[string]string{"X-Forwarded-For": ip}
		if token != "" {
			h["Authorization"] = "Bearer " + token
		}
		r := e.raw("POST", "/api/rooms/"+id+"/analysis", h)
		return r.status, string(r.body)
	}
	for _, tc := range []struct {
		name, game, token, ip string
		want                  string // "" (accepted) or a part of the refusal
	}{
		{"ann 1", games[0], ann.Token, "192.0.2.1", ""},
		{"ann 2", games[1], ann.Token, "192.0.2.1", ""},
		{"ann asks again for one she started", games[1], ann.Token, "192.0.2.1", ""},
		{"ann 3", games[2], ann.Token, "192.0.2.9", "as many of your games"},
		{"somebody else's game running", games[0], bob.Token, "192.0.2.1", ""},
		{"bob at ann's address", games[2], bob.Token, "192.0.2.1", ""},
		{"the address is full", games[3], bob.Token, "192.0.2.1", "for your address"},
		{"bob elsewhere", games[3], bob.Token, "192.0.2.2", ""},
		{"anonymous", games[4], "", "192.0.2.3", ""},
		{"a bad token counts as the address", games[5], "nope", "192.0.2.3", ""},
		{"the address's client is full", games[6], "", "192.0.2.3", "as many of your games"},
	} {
		status, body := post(tc.game, tc.token, tc.ip)
		if tc.want == "" {
			require.Equal(t, http.StatusAccepted, status, "%s: %s", tc.name, body)
			continue
		}
		require.Equal(t, http.StatusTooManyRequests, status, "%s: %s", tc.name, body)
		require.Contains(t, body, protocol.CodeAnalysisLimit, tc.name)
		require.Contains(t, body, tc.want, tc.name)
	}
	// The analyses end: the slots are free again.
	close(hold)
	require.Eventually(t, func() bool {
		status, _ := post(games[2], ann.Token, "192.0.2.1")
		return status == http.StatusAccepted
	}, 2*time.Minute, 20*time.Millisecond)
}

// heldRunner runs background work once hold is closed.
type heldRunner struct{ hold chan struct{} }

func (h heldRunner) Background(ctx context.Context, fn func(context.Context) error) error {
	select {
	case <-h.hold:
	case <-ctx.Done():
		return ctx.Err()
	}
	return fn(ctx)
}
