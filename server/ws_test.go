package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// twoPlayers creates a human-vs-human room (Alice black) and connects both players,
// Bob seated white.
func twoPlayers(t *testing.T, e *testEnv) (id string, a, b *wsClient, pa, pb player) {
	pa, pb = e.player("Alice"), e.player("Bob")
	id = e.createRoom(pa.Token, map[string]any{"me": "black"})
	a = e.dial(id)
	w := a.hello(pa.Token, 0)
	require.Equal(t, "black", w["you"].(map[string]any)["role"])
	require.Equal(t, protocol.TypeSnapshot, a.next().typ())
	b = e.dial(id)
	w = b.hello(pb.Token, 0)
	require.Equal(t, "spectator", w["you"].(map[string]any)["role"])
	requireAck(t, b.cmd(map[string]any{"type": "sit", "color": "white"}))
	return id, a, b, pa, pb
}

var blackFive = []string{"h8", "h9", "h10", "h11", "h12"}
var whiteMoves = []string{"a1", "a2", "a3", "a4"}

func TestHumanVsHumanToFive(t *testing.T) {
	for name, backend := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, backend(t))
			id, a, b, _, _ := twoPlayers(t, e)
			spec := e.dial(id)
			spec.hello("", 0)
			var lastAck uint64
			for ply := 0; ply < 9; ply++ {
				c, p := a, blackFive[ply/2]
				if ply%2 == 1 {
					c, p = b, whiteMoves[ply/2]
				}
				ack := requireAck(t, c.move(ply, p))
				require.Greater(t, ack.seq(), lastAck)
				lastAck = ack.seq()
			}
			for _, c := range []*wsClient{a, b, spec} {
				over := c.sawEvent("game_over")
				require.Equal(t, "black", over.event().str("result"))
				require.Equal(t, "five", over.event().str("reason"))
			}
			// A move after the end is refused with its code.
			requireErr(t, b.move(9, "b1"), protocol.CodeGameOver)
			var snap room.Snapshot
			require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms/"+id, "", nil, &snap))
			require.Equal(t, "finished", snap.Status)
			require.Len(t, snap.Moves, 9)
			// Record download.
			res, err := http.Get(e.ts.URL + "/api/rooms/" + id + "/record?format=sgf")
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, res.StatusCode)
			res.Body.Close()
		})
	}
}

// TestSpectatorSeesEveryEventInOrder compares a spectator's stream to the store.
func TestSpectatorSeesEveryEventInOrder(t *testing.T) {
	e := newEnv(t, nil)
	pa, pb := e.player("Alice"), e.player("Bob")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	spec := e.dial(id)
	spec.hello("", 1) // from seq 1: replay everything after the created event
	a := e.dial(id)
	a.hello(pa.Token, 0)
	b := e.dial(id)
	b.hello(pb.Token, 0)
	requireAck(t, b.cmd(map[string]any{"type": "sit", "color": "white"}))
	requireAck(t, a.cmd(map[string]any{"type": "chat", "text": "good luck"}))
	for ply := 0; ply < 9; ply++ {
		c, p := a, blackFive[ply/2]
		if ply%2 == 1 {
			c, p = b, whiteMoves[ply/2]
		}
		requireAck(t, c.move(ply, p))
	}
	stored, err := e.store.Events(context.Background(), id, 1)
	require.NoError(t, err)
	last := stored[len(stored)-1].Seq
	spec.waitSeq(last)
	require.Len(t, spec.events, len(stored)-1)
	for i, m := range spec.events {
		want := stored[i+1]
		require.Equal(t, want.Seq, m.seq())
		require.Equal(t, string(want.Kind), m.event().str("kind"))
		require.Equal(t, want.Point, m.event().str("point"))
	}
}

func TestRejoinGetsExactlyMissedEvents(t *testing.T) {
	for name, backend := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, backend(t))
			id, a, b, pa, _ := twoPlayers(t, e)
			requireAck(t, a.move(0, "h8"))
			last := requireAck(t, b.move(1, "a1")).seq()
			a.waitSeq(last)
			seen := a.lastSeq
			require.NoError(t, a.ws.Close()) // network drop
			requireAck(t, b.cmd(map[string]any{"type": "chat", "text": "still there?"}))
			// Alice is gone: it is still her turn; Bob cannot move for her.
			requireErr(t, b.move(2, "b2"), protocol.CodeNotYourTurn)
			b.saw("presence gone", func(m msg) bool {
				p, _ := m["black"].(map[string]any)
				return m.typ() == "presence" && p != nil && p["connected"] == false
			})
			a2 := e.dial(id)
			w := a2.hello(pa.Token, seen)
			require.Equal(t, "black", w["you"].(map[string]any)["role"], "the token brings the seat back")
			m := a2.next()
			require.Equal(t, protocol.TypeEvent, m.typ(), "%v", m)
			require.Equal(t, seen+1, m.seq())
			require.Equal(t, "chat", m.event().str("kind"))
			// Play continues from the new connection.
			requireAck(t, a2.move(2, "h9"))
			b.waitSeq(a2.lastSeq)
		})
	}
}

func TestReloadWithTokenGetsSeatBack(t *testing.T) {
	e := newEnv(t, nil)
	id, a, _, pa, _ := twoPlayers(t, e)
	requireAck(t, a.move(0, "h8"))
	require.NoError(t, a.ws.Close())
	// A reload: a fresh page with only the token, no last seq.
	a2 := e.dial(id)
	w := a2.hello(pa.Token, 0)
	require.Equal(t, "black", w["you"].(map[string]any)["role"])
	require.Equal(t, pa.ID, w["you"].(map[string]any)["player_id"])
	snap := a2.next()
	require.Equal(t, protocol.TypeSnapshot, snap.typ())
	room := snap["room"].(map[string]any)
	require.Equal(t, []any{"h8"}, room["moves"])
}

func TestDuplicateAndStaleMoves(t *testing.T) {
	e := newEnv(t, nil)
	_, a, b, _, _ := twoPlayers(t, e)
	first := requireAck(t, a.move(0, "h8"))
	// Resend (same ply and point, new or same id): acknowledged again, not applied again.
	a.send(map[string]any{"type": "move", "id": "again", "ply": 0, "point": "h8"})
	dup := requireAck(t, a.reply("again"))
	require.Equal(t, first.seq(), dup.seq())
	require.Equal(t, true, dup["duplicate"])
	// Out of turn comes first; on your turn a stale or future ply is refused.
	requireErr(t, a.move(0, "a1"), protocol.CodeNotYourTurn)
	requireErr(t, b.move(0, "a1"), protocol.CodeStalePly)
	requireErr(t, b.move(5, "a1"), protocol.CodeStalePly)
	requireAck(t, b.move(1, "a1"))
	requireErr(t, b.move(2, "a2"), protocol.CodeNotYourTurn)
	requireErr(t, a.move(2, "h8"), protocol.CodeOccupied)
	requireErr(t, a.move(2, "z99"), protocol.CodeOffBoard)
	snap, err := e.mgr.Live(b.roomID(e)).State(), error(nil)
	require.NoError(t, err)
	require.Equal(t, 2, snap.Ply())
}

func (c *wsClient) roomID(e *testEnv) string {
	for _, r := range e.mgr.Rooms() {
		return r.ID()
	}
	return ""
}

func TestTokens(t *testing.T) {
	e := newEnv(t, nil)
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	// HTTP: missing and wrong tokens.
	var er struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	require.Equal(t, http.StatusUnauthorized, e.do("POST", "/api/rooms", "", map[string]any{}, &er))
	require.Equal(t, protocol.CodeUnauthorized, er.Error.Code)
	require.Equal(t, http.StatusUnauthorized, e.do("POST", "/api/rooms", "nope", map[string]any{}, &er))
	require.Equal(t, protocol.CodeUnauthorized, er.Error.Code)
	// WebSocket: a wrong token is refused, the connection stays and can hello again.
	c := e.dial(id)
	c.send(map[string]any{"type": "hello", "id": "h1", "token": "forged"})
	requireErr(t, c.next(), protocol.CodeUnauthorized)
	c.send(map[string]any{"type": "move", "id": "m", "ply": 0, "point": "h8"})
	requireErr(t, c.next(), protocol.CodeHelloRequired)
	c.hello("", 0)
	// A spectator cannot act for a seat.
	requireErr(t, c.move(0, "h8"), protocol.CodeNotAPlayer)
	requireErr(t, c.cmd(map[string]any{"type": "resign"}), protocol.CodeNotAPlayer)
	requireErr(t, c.cmd(map[string]any{"type": "chat", "text": "hi"}), protocol.CodeUnauthorized)
	requireErr(t, c.cmd(map[string]any{"type": "sit", "color": "white"}), protocol.CodeUnauthorized)
	// Another player's token cannot move for Alice either.
	pb := e.player("Bob")
	b := e.dial(id)
	b.hello(pb.Token, 0)
	requireErr(t, b.move(0, "h8"), protocol.CodeNotAPlayer)
	// /api/players/me
	var me struct{ ID, Name string }
	require.Equal(t, http.StatusOK, e.do("GET", "/api/players/me", pa.Token, nil, &me))
	require.Equal(t, pa.ID, me.ID)
}

func TestBadInput(t *testing.T) {
	e := newEnv(t, nil)
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	c := e.dial(id)
	c.hello(pa.Token, 0)
	cases := []struct{ frame, code string }{
		{`{"type":"move","id":"x1",`, protocol.CodeBadJSON},
		{`not json`, protocol.CodeBadJSON},
		{`{"type":"teleport","id":"x2"}`, protocol.CodeUnknownType},
		{`{"type":"move","id":"x3","ply":"zero","point":"h8"}`, protocol.CodeBadJSON},
		{`{"type":"move","id":"x4","point":"h8"}`, protocol.CodeBadRequest},
		{`{"type":"sit","id":"x5","color":"green"}`, protocol.CodeBadRequest},
		{`{"type":"chat","id":"x6","text":"` + strings.Repeat("字", 301) + `"}`, protocol.CodeTooLarge},
		{`{"type":"chat","id":"x7","text":"` + strings.Repeat("x", 5000) + `"}`, protocol.CodeTooLarge},
		{`{"type":"hello","id":"x8"}`, protocol.CodeBadRequest},
	}
	for _, tc := range cases {
		c.send(tc.frame)
		m := c.until("error for "+protocol.Truncate(tc.frame, 12), func(m msg) bool { return m.typ() == protocol.TypeError })
		requireErr(t, m, tc.code)
	}
	// Nothing changed; the connection still works.
	requireAck(t, c.cmd(map[string]any{"type": "chat", "text": "still fine"}))
	c.send(map[string]any{"type": "ping", "id": "p"})
	c.until("pong", func(m msg) bool { return m.typ() == protocol.TypePong && m.str("id") == "p" })
	// A frame beyond the hard limit closes the connection with 1009.
	c.send(`{"type":"chat","text":"` + strings.Repeat("x", hardReadLimit+10) + `"}`)
	code, _ := c.closeCode()
	require.Equal(t, websocket.CloseMessageTooBig, code)
}

func TestFloodHitsRateLimit(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) { c.RateLimit, c.RateBurst = 5, 5 })
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	c := e.dial(id)
	c.hello(pa.Token, 0)
	for i := 0; i < 40; i++ {
		if err := c.ws.WriteMessage(websocket.TextMessage, []byte(fmt.Sprintf(`{"type":"ping","id":"f%d"}`, i))); err != nil {
			break
		}
	}
	limited := false
	for {
		m, err := c.nextErr(5 * time.Second)
		if err != nil {
			var ce *websocket.CloseError
			require.True(t, asErr(err, &ce), "%v", err)
			require.Equal(t, websocket.ClosePolicyViolation, ce.Code)
			require.Equal(t, "rate_limited", ce.Text)
			break
		}
		if m.typ() == protocol.TypeError {
			require.Equal(t, protocol.CodeRateLimited, m.str("code"))
			require.NotEmpty(t, m.str("id"), "the refused message's id is echoed")
			limited = true
		}
	}
	require.True(t, limited, "rate_limited errors come before the close")
}

func TestSlowConsumerDroppedAndRecovers(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, o *room.Options) {
		c.SendQueue = 8
		o.SubQueue = 8
	})
	id, a, b, pa, _ := twoPlayers(t, e)
	requireAck(t, a.move(0, "h8"))
	b.waitSeq(a.lastSeq)
	a.waitSeq(a.lastSeq)
	seen := a.lastSeq
	// Alice's network stalls: her writer blocks; Bob keeps chatting.
	resume := e.stallClient(a)
	for i := 0; i < 40; i++ {
		requireAck(t, b.cmd(map[string]any{"type": "chat", "text": fmt.Sprintf("msg %d", i)}))
	}
	resume()
	code, reason := a.closeCode()
	require.Equal(t, websocket.CloseTryAgainLater, code)
	require.Equal(t, "slow_consumer", reason)
	require.EqualValues(t, 1, testutilCounter(e.srv.metrics.SlowConsumers))
	// Alice reconnects with her last seq and gets exactly what she missed.
	stored, err := e.store.Events(context.Background(), id, 1)
	require.NoError(t, err)
	a2 := e.dial(id)
	a2.hello(pa.Token, seen)
	a2.waitSeq(stored[len(stored)-1].Seq)
	require.Equal(t, len(stored)-int(seen), len(a2.events))
}

func TestGameAgainstAI(t *testing.T) {
	for name, backend := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, backend(t))
			p := e.player("Alice")
			id := e.createRoom(p.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "beginner"}})
			c := e.dial(id)
			c.hello(p.Token, 0)
			snap := c.waitType(protocol.TypeSnapshot)
			require.Equal(t, "playing", snap["room"].(map[string]any)["phase"])
			for {
				board := boardFromEvents(t, c.events)
				if over := findEvent(c.events, "game_over"); over != nil {
					require.Contains(t, []string{"black", "white", "draw"}, over.str("result"))
					t.Logf("game over after %d plies: %s by %s", board.Ply(), over.str("result"), over.str("reason"))
					break
				}
				require.Less(t, board.Ply(), 225)
				if board.ToMove() == engine.Black {
					if r := c.move(board.Ply(), pickMove(board).String()); r.typ() == protocol.TypeError {
						requireErr(t, r, protocol.CodeGameOver) // the AI's winning move was just stored
						c.sawEvent("game_over")
					}
					continue
				}
				c.next()
			}
			// Progress may arrive before the ack of the move that started the search
			// (the search starts when the move is stored), so look at every message.
			sawAI := slices.ContainsFunc(c.log, func(m msg) bool { return m.typ() == "ai" })
			require.True(t, sawAI, "AI progress is streamed")
		})
	}
}

// boardFromEvents replays the move events of game 1.
func boardFromEvents(t *testing.T, events []msg) *engine.Board {
	b, err := engine.NewBoard(15, engine.Freestyle)
	require.NoError(t, err)
	for _, m := range events {
		ev := m.event()
		if ev.str("kind") == "move" {
			p, err := engine.ParsePoint(ev.str("point"), 15)
			require.NoError(t, err)
			require.NoError(t, b.Play(p))
		}
	}
	return b
}

func findEvent(events []msg, kind string) msg {
	for _, m := range events {
		if m.event().str("kind") == kind {
			return m.event()
		}
	}
	return nil
}

// pickMove returns a legal point for the side to move: the first empty point spiralling
// out from the centre, preferring to extend its own stones on a line.
func pickMove(b *engine.Board) engine.Point {
	n := b.Size()
	for r := 0; r < n; r++ {
		for dx := -r; dx <= r; dx++ {
			for dy := -r; dy <= r; dy++ {
				p := engine.Point{X: n/2 + dx, Y: n/2 + dy}
				if p.Valid(n) && b.Check(p) == nil {
					return p
				}
			}
		}
	}
	return engine.Point{}
}
