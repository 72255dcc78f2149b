package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

type apiErr struct {
	Error struct{ Code, Message string } `json:"error"`
}

func TestHTTPAPI(t *testing.T) {
	e := newEnv(t, nil)
	pa := e.player("Alice")

	// Create: validation errors have codes and statuses.
	var er apiErr
	require.Equal(t, http.StatusBadRequest, e.do("POST", "/api/rooms", pa.Token, `{"size":30}`, &er))
	require.Equal(t, protocol.CodeBadRequest, er.Error.Code)
	require.Equal(t, http.StatusBadRequest, e.do("POST", "/api/rooms", pa.Token, `{"size":`, &er))
	require.Equal(t, protocol.CodeBadJSON, er.Error.Code)
	require.Equal(t, http.StatusRequestEntityTooLarge, e.do("POST", "/api/rooms", pa.Token, `{"rule":"`+strings.Repeat("x", 5000)+`"}`, &er))
	require.Equal(t, protocol.CodeTooLarge, er.Error.Code)
	require.Equal(t, http.StatusBadRequest, e.do("POST", "/api/players", "", `{"name":""}`, &er))
	require.Equal(t, protocol.CodeBadRequest, er.Error.Code)

	open := e.createRoom(pa.Token, map[string]any{"me": "black", "rule": "renju", "time": map[string]any{"base_ms": 60000, "increment_ms": 1000}})
	private := e.createRoom(pa.Token, map[string]any{"me": "white", "public": false})
	vsAI := e.createRoom(pa.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "novice"}})

	var snap room.Snapshot
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms/"+open, "", nil, &snap))
	require.Equal(t, "renju", snap.Settings.Rule)
	require.Equal(t, "open", snap.Status)
	require.NotNil(t, snap.Clock)
	require.Equal(t, pa.ID, snap.Black.Player.ID)
	require.Equal(t, http.StatusNotFound, e.do("GET", "/api/rooms/nosuchroom", "", nil, &er))
	require.Equal(t, protocol.CodeNoSuchRoom, er.Error.Code)
	require.Equal(t, http.StatusNotFound, e.do("GET", "/api/rooms/bad%7Bid", "", nil, &er))

	list := func(status string) []string {
		var page struct {
			Rooms      []room.Summary `json:"rooms"`
			NextCursor string         `json:"next_cursor"`
		}
		require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms?status="+status, "", nil, &page))
		var ids []string
		for _, r := range page.Rooms {
			ids = append(ids, r.ID)
		}
		return ids
	}
	require.Eventually(t, func() bool {
		return len(list("open")) == 1 && len(list("live")) == 1
	}, 2*time.Second, 20*time.Millisecond)
	require.Equal(t, []string{open}, list("open"), "private rooms are not listed")
	require.Equal(t, []string{vsAI}, list("live"))
	require.NotContains(t, list("open"), private)
	require.Equal(t, http.StatusBadRequest, e.do("GET", "/api/rooms?status=weird", "", nil, &er))
	require.Equal(t, http.StatusBadRequest, e.do("GET", "/api/rooms?limit=1000", "", nil, &er))
	require.Equal(t, http.StatusBadRequest, e.do("GET", "/api/rooms?status=open&cursor=abc", "", nil, &er))
	require.Equal(t, protocol.CodeBadRequest, er.Error.Code)
	// Pagination.
	for i := 0; i < 3; i++ {
		e.createRoom(pa.Token, map[string]any{"me": "black"})
	}
	var page struct {
		Rooms      []room.Summary `json:"rooms"`
		NextCursor string         `json:"next_cursor"`
	}
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms?status=open&limit=3", "", nil, &page))
	require.Len(t, page.Rooms, 3)
	require.NotEmpty(t, page.NextCursor)
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms?status=open&limit=3&cursor="+page.NextCursor, "", nil, &page))
	require.Len(t, page.Rooms, 1)
	require.Empty(t, page.NextCursor)

	// Records.
	c := e.dial(vsAI)
	c.hello(pa.Token, 0)
	requireAck(t, c.move(0, "h8"))
	c.sawEvent("move")
	c.until("AI move", func(m msg) bool { return m.typ() == protocol.TypeEvent && m.event().str("color") == "white" })
	get := func(path string) (int, string, http.Header) {
		res, err := http.Get(e.ts.URL + path)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	code, body, h := get("/api/rooms/" + vsAI + "/record?format=psq")
	require.Equal(t, http.StatusOK, code)
	require.True(t, strings.HasPrefix(body, "Piskvorky 15x15"), body)
	require.Contains(t, body, "8,8,0")
	require.Contains(t, h.Get("Content-Disposition"), "attachment")
	code, body, _ = get("/api/rooms/" + vsAI + "/record?format=sgf")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, ";B[hh]")
	require.Contains(t, body, "PW[AI novice]")
	code, _, _ = get("/api/rooms/" + vsAI + "/record?format=pdf")
	require.Equal(t, http.StatusBadRequest, code)

	// Engines, health, metrics, frontend, 404.
	var eng struct {
		Levels  []LevelInfo         `json:"levels"`
		Engines []map[string]string `json:"engines"`
	}
	require.Equal(t, http.StatusOK, e.do("GET", "/api/engines", "", nil, &eng))
	require.Equal(t, "beginner", eng.Levels[0].Name)
	require.Positive(t, eng.Levels[0].BudgetMS)
	require.Equal(t, 1000, eng.Levels[0].Rating, "levels carry their published ratings")
	code, body, _ = get("/healthz")
	require.Equal(t, http.StatusOK, code, body)
	code, body, _ = get("/readyz")
	require.Equal(t, http.StatusOK, code, body)
	code, body, _ = get("/metrics")
	require.Equal(t, http.StatusOK, code)
	for _, name := range []string{"gomoku_ws_connections", "gomoku_moves_total", "gomoku_move_latency_seconds_bucket",
		"gomoku_slow_consumers_dropped_total", "gomoku_errors_total{code=\"bad_request\"}", "gomoku_redis_latency_seconds", "gomoku_rooms_live"} {
		require.Contains(t, body, name)
	}
	for _, p := range []string{"/", "/r/" + open} {
		code, body, h = get(p)
		require.Equal(t, http.StatusOK, code)
		require.Contains(t, h.Get("Content-Type"), "text/html")
		require.Contains(t, body, "/js/app.js")
	}
	code, _, h = get("/static/js/app.js")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, h.Get("Content-Type"), "javascript")
	code, body, _ = get("/no/such/page")
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, body, "<!doctype html>", "an unknown page is HTML (TestNotFoundPages)")
	code, body, _ = get("/api/nothing")
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, body, `"not_found"`)
}

func TestAIvsAI(t *testing.T) {
	e := newEnv(t, nil)
	p := e.player("Watcher")
	id := e.createRoom(p.Token, map[string]any{"me": "none", "ai_pace_ms": 0, // unpaced: the test runs on the real clock
		"black": map[string]any{"kind": "ai", "level": "beginner"}, "white": map[string]any{"kind": "ai", "level": "novice"}})
	c := e.dial(id)
	w := c.hello("", 0)
	require.Equal(t, "spectator", w["you"].(map[string]any)["role"])
	over := c.sawEvent("game_over")
	require.Contains(t, []string{"black", "white", "draw"}, over.event().str("result"))
}

func TestHint(t *testing.T) {
	e := newEnv(t, nil)
	p := e.player("Alice")
	id := e.createRoom(p.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "beginner"}})
	c := e.dial(id)
	c.hello(p.Token, 0)
	requireAck(t, c.cmd(map[string]any{"type": "hint"}))
	h := c.saw("hint", func(m msg) bool { return m.typ() == "hint" })
	require.NotEmpty(t, h.str("point"))
	require.Equal(t, true, h["ephemeral"])
	// Hints are off in rooms between people by default.
	pb := e.player("Bob")
	id2 := e.createRoom(pb.Token, map[string]any{"me": "black"})
	c2 := e.dial(id2)
	c2.hello(pb.Token, 0)
	requireErr(t, c2.cmd(map[string]any{"type": "hint"}), protocol.CodeNotAllowed)
}

func TestOriginAndPerIPCap(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) {
		c.MaxConnsPerIP = 2
		c.AllowedOrigins = []string{"https://gomoku.example"}
	})
	p := e.player("Alice")
	id := e.createRoom(p.Token, map[string]any{"me": "black"})
	h := http.Header{"Origin": {"https://evil.example"}}
	_, err := e.dialErr(id, h)
	require.ErrorContains(t, err, "403")
	require.ErrorContains(t, err, "bad_origin")
	c1, err := e.dialErr(id, http.Header{"Origin": {"https://gomoku.example"}})
	require.NoError(t, err)
	c2 := e.dial(id)
	_, err = e.dialErr(id, nil)
	require.ErrorContains(t, err, "429")
	require.ErrorContains(t, err, "too_many_connections")
	// Closing one frees its slot.
	require.NoError(t, c1.ws.Close())
	require.Eventually(t, func() bool {
		c3, err := e.dialErr(id, nil)
		if err == nil {
			_ = c3.ws.Close()
		}
		return err == nil
	}, 2*time.Second, 20*time.Millisecond)
	_ = c2
}

func TestHelloTimeout(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) { c.HelloTimeout = 200 * time.Millisecond })
	p := e.player("Alice")
	id := e.createRoom(p.Token, map[string]any{"me": "black"})
	// A spectator that says nothing after its hello.
	silent := e.dial(id)
	silent.hello("", 0)
	// A client without hello, dialled after it, is closed once HelloTimeout has passed
	// (so it has passed for the spectator as well)...
	c := e.dial(id)
	code, reason := c.closeCode()
	require.Equal(t, websocket.ClosePolicyViolation, code)
	require.Equal(t, "hello_required", reason)
	// ...which is still connected.
	silent.send(map[string]any{"type": "ping", "id": "still"})
	silent.until("pong", func(m msg) bool { return m.typ() == protocol.TypePong })
	// An unknown room closes after the error.
	c = e.dial("nosuchroom")
	c.send(map[string]any{"type": "hello", "id": "h"})
	requireErr(t, c.next(), protocol.CodeNoSuchRoom)
	code, _ = c.closeCode()
	require.Equal(t, websocket.ClosePolicyViolation, code)
}

func TestGracefulShutdownClosesWith1001(t *testing.T) {
	e := newEnv(t, nil)
	id, a, b, _, _ := twoPlayers(t, e)
	requireAck(t, a.move(0, "h8"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	require.NoError(t, e.srv.Shutdown(ctx))
	require.Less(t, time.Since(start), 3*time.Second)
	for _, c := range []*wsClient{a, b} {
		code, reason := c.closeCode()
		require.Equal(t, websocket.CloseGoingAway, code)
		require.Equal(t, "shutting_down", reason)
	}
	// The acknowledged move is stored.
	events, err := e.store.Events(context.Background(), id, 1)
	require.NoError(t, err)
	require.Equal(t, "h8", events[len(events)-1].Point)
	// Draining: new connections and rooms are refused.
	res, err := http.Get(e.ts.URL + "/readyz")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
}

// TestRestartKeepsSeatsAndMoves runs a second server on the same Redis: the token still
// holds the seat and the game continues where it was.
func TestRestartKeepsSeatsAndMoves(t *testing.T) {
	for name, backend := range backends(t) {
		t.Run(name, func(t *testing.T) {
			rc := backend(t)
			e1 := newEnv(t, rc)
			id, a, b, pa, pb := twoPlayers(t, e1)
			requireAck(t, a.move(0, "h8"))
			requireAck(t, b.move(1, "a1"))
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			require.NoError(t, e1.srv.Shutdown(ctx))

			e2 := newEnv(t, rc)
			a2 := e2.dial(id)
			w := a2.hello(pa.Token, 0)
			require.Equal(t, "black", w["you"].(map[string]any)["role"])
			snap := a2.waitType(protocol.TypeSnapshot)
			require.Equal(t, []any{"h8", "a1"}, snap["room"].(map[string]any)["moves"])
			b2 := e2.dial(id)
			b2.hello(pb.Token, snap.seq())
			requireAck(t, a2.move(2, "h9"))
			b2.sawEvent("move")
		})
	}
}

func TestAIBusyAndEngines(t *testing.T) {
	sched := room.NewScheduler(1, 0)
	e := newEnv(t, nil, func(c *Config, o *room.Options) {
		c.Engines = map[string]string{"pela": "/nonexistent/pbrain-pela"}
		o.Scheduler = sched
	})
	var eng struct {
		Engines []map[string]string `json:"engines"`
	}
	require.Equal(t, http.StatusOK, e.do("GET", "/api/engines", "", nil, &eng))
	require.Equal(t, []map[string]string{{"name": "pela"}}, eng.Engines)
	p := e.player("Alice")
	// A search holds the only slot and none may queue: AI rooms are refused.
	release, err := sched.Acquire(context.Background(), nil)
	require.NoError(t, err)
	var er apiErr
	require.Equal(t, http.StatusServiceUnavailable, e.do("POST", "/api/rooms", p.Token, map[string]any{"opponent": map[string]any{"kind": "ai", "level": "novice"}}, &er))
	require.Equal(t, protocol.CodeAIBusy, er.Error.Code)
	release()
	e.createRoom(p.Token, map[string]any{"opponent": map[string]any{"kind": "ai", "level": "novice"}})
	// Rooms between people are still created.
	e.createRoom(p.Token, map[string]any{"me": "black"})
	require.Equal(t, http.StatusBadRequest, e.do("POST", "/api/rooms", p.Token, map[string]any{"opponent": map[string]any{"kind": "engine", "engine": "nope"}}, &er))
	require.Equal(t, protocol.CodeNoSuchEngine, er.Error.Code)
}
