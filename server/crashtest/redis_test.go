package crashtest

import (
	"context"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// TestRedisRestartDuringPlay restarts Redis during play, against real
// processes: redis-server (AOF, appendfsync always) is killed with SIGKILL mid-game and
// restarted, without restarting gomokud. During the outage a move is refused with
// unavailable (never acked, not applied) and /readyz fails; after Redis is back
// /readyz passes, the acked moves are there, the AI seat whose search ended during
// the outage gets its move stored, and both games play on to the end. A second phase
// kills Redis twice more (once with -short) at random moments while both games run.
func TestRedisRestartDuringPlay(t *testing.T) {
	requireBin(t)
	rng := seededRand(t)
	ctx, cancel := context.WithTimeout(context.Background(), 80*time.Second)
	defer cancel()

	rs := redistest.Start(t)
	node := StartNode(t, "gomokud", rs.URL())
	base := node.Base()
	ledger := newLedger()

	// A human game and a human-vs-AI game.
	a, b := mustPlayer(t, ctx, base, "alice"), mustPlayer(t, ctx, base, "bob")
	hid := mustRoom(t, ctx, base, a.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "human"}})
	ca, cb := wstest.NewClient(base, hid, a.Token), wstest.NewClient(base, hid, b.Token)
	require.NoError(t, ca.Reconnect(ctx))
	sit(t, ctx, cb, "white")
	filler, restarts2 := 40, 2
	if testing.Short() {
		filler, restarts2 = 16, 1
	}
	script := scriptedGame(rand.New(rand.NewSource(rng.Int63())), filler)
	black := &Seat{C: ca, Color: "black", Next: scripted(script), Ledger: ledger,
		Think: think(rng.Int63(), 20*time.Millisecond, 100*time.Millisecond)}
	white := &Seat{C: cb, Color: "white", Next: scripted(script), Ledger: ledger,
		Think: think(rng.Int63(), 20*time.Millisecond, 100*time.Millisecond)}

	h := mustPlayer(t, ctx, base, "human")
	aid := mustRoom(t, ctx, base, h.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "novice"}})
	ch := wstest.NewClient(base, aid, h.Token)
	require.NoError(t, ch.Reconnect(ctx))
	human := &Seat{C: ch, Color: "black", Next: blocker(rand.New(rand.NewSource(rng.Int63()))), Ledger: ledger, ResignAt: 90,
		Think: think(rng.Int63(), 20*time.Millisecond, 100*time.Millisecond)}

	// Phase 1: 10 acked moves in the human game, 2 in the AI game.
	for ply := 0; ply < 10; ply++ {
		c := ca
		if ply%2 == 1 {
			c = cb
		}
		r, err := c.Move(ctx, "p1-"+script[ply], ply, script[ply])
		require.NoError(t, err)
		require.Equal(t, "ack", r.Type, "move %d: %+v", ply, r)
		ledger.add(hid, ackRec{Ply: ply, Point: script[ply], Seq: r.Seq})
	}
	move := func(c *wstest.Client, ply int, p string) wstest.Msg {
		r, err := c.Move(ctx, "p1-"+p, ply, p)
		require.NoError(t, err)
		return r
	}
	for i := 0; i < 2; i++ {
		v, err := ch.Wait(ctx, func(v wstest.View) bool { return v.ToMove() == "black" && v.Phase == "playing" })
		require.NoError(t, err)
		p := human.Next(v)
		r := move(ch, len(v.Moves), p)
		require.Equal(t, "ack", r.Type, "%+v", r)
		ledger.add(aid, ackRec{Ply: len(v.Moves), Point: p, Seq: r.Seq})
	}
	// The AI is now searching its reply; Redis dies under it.
	_, err := cb.Wait(ctx, func(v wstest.View) bool { return len(v.Moves) == 10 })
	require.NoError(t, err)
	rs.Kill()
	t.Logf("redis killed")
	require.Eventually(t, func() bool { return !Ready(ctx, base) }, 10*time.Second, 50*time.Millisecond, "/readyz still ready with Redis down")

	const offScript = "n14" // never in a scripted game (odd, odd)
	for i := 0; i < 2; i++ {
		t0 := time.Now()
		r := move(ca, 10, offScript)
		require.Equal(t, "error", r.Type, "a move while Redis is down must not be acked: %+v", r)
		require.Equal(t, "unavailable", r.Code, "%+v", r)
		t.Logf("move refused with %s in %v: %s", r.Code, time.Since(t0).Round(time.Millisecond), r.Message)
	}
	if snap, err := GetRoom(ctx, base, hid); err == nil {
		require.Len(t, snap.Moves, 10, "refused move changed the live room: %v", snap.Moves)
	} else {
		t.Logf("GET room during outage: %v", err)
	}
	require.False(t, Ready(ctx, base), "/readyz with Redis down")
	time.Sleep(time.Duration(300+rng.Intn(700)) * time.Millisecond)

	rs.Restart()
	t.Logf("redis restarted")
	require.Eventually(t, func() bool { return Ready(ctx, base) }, 10*time.Second, 50*time.Millisecond, "/readyz not ready after Redis came back")
	// The refused move was not applied: the scripted one is played at ply 10.
	for deadline := time.Now().Add(15 * time.Second); ; {
		r := move(ca, 10, script[10])
		if r.Type == "ack" {
			ledger.add(hid, ackRec{Ply: 10, Point: script[10], Seq: r.Seq, Duplicate: r.Duplicate})
			break
		}
		require.Equal(t, "unavailable", r.Code, "%+v", r)
		require.True(t, time.Now().Before(deadline), "moves still refused 15 s after Redis came back: %+v", r)
		time.Sleep(100 * time.Millisecond)
	}
	// The AI game continues without a gomokud restart: the AI move lands.
	_, err = ch.Wait(ctx, func(v wstest.View) bool { return len(v.Moves) >= 4 || v.Over() })
	require.NoError(t, err, "the AI seat did not move after Redis came back")

	// Phase 2: all seats play on; Redis dies twice more at random moments.
	play := StartPlay(ctx, []*Seat{black, white, human}, nil)
	restarts := 1
	for i := 0; i < restarts2; i++ {
		select {
		case <-play.Done():
		case <-time.After(time.Duration(300+rng.Intn(1000)) * time.Millisecond):
			rs.Kill()
			time.Sleep(time.Duration(1500+rng.Intn(2000)) * time.Millisecond)
			rs.Restart()
			restarts++
			t.Logf("redis restart %d", restarts)
		}
	}
	play.Wait(t, ctx, "human game %d moves, AI game %d moves", len(ca.View().Moves), len(ch.View().Moves))
	t.Logf("moves refused as unavailable in phase 2: black %d, white %d, human-vs-AI %d", black.Unavailable, white.Unavailable, human.Unavailable)

	snap := verifyRoom(t, ctx, base, hid, ledger.get(hid), true)
	require.NotContains(t, snap.Moves, offScript, "a move refused with unavailable was applied")
	require.Equal(t, script, snap.Moves)
	asnap := verifyRoom(t, ctx, base, aid, ledger.get(aid), true)
	t.Logf("human game %s: %d moves, %s by %s; AI game %s: %d moves, %s by %s; %d Redis restarts",
		hid, len(snap.Moves), snap.Result, snap.Reason, aid, len(asnap.Moves), asnap.Result, asnap.Reason, restarts)
	for _, c := range []*wstest.Client{ca, cb, ch} {
		for _, p := range c.Problems() {
			t.Errorf("client %s: %s", c.Room, p)
		}
	}
	require.True(t, node.Running(), "gomokud must survive Redis restarts")
}

// TestUnavailableMessageHidesInternals: the `unavailable` refusal a client gets while
// Redis is down must not carry internal details (the Redis address, the Go error chain):
// docs/protocol.md says the message is for humans, and internal errors are generic.
func TestUnavailableMessageHidesInternals(t *testing.T) {
	requireBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	rs := redistest.Start(t)
	node := StartNode(t, "gomokud", rs.URL())
	base := node.Base()
	a, b := mustPlayer(t, ctx, base, "alice"), mustPlayer(t, ctx, base, "bob")
	id := mustRoom(t, ctx, base, a.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "human"}})
	ca, cb := wstest.NewClient(base, id, a.Token), wstest.NewClient(base, id, b.Token)
	require.NoError(t, ca.Reconnect(ctx))
	sit(t, ctx, cb, "white")
	rs.Kill()
	r, err := ca.Move(ctx, "m0", 0, "h8")
	require.NoError(t, err)
	require.Equal(t, "unavailable", r.Code, "%+v", r)
	rs.Restart()
	t.Logf("unavailable message: %q", r.Message)
	for _, leak := range []string{rs.Addr(), "dial tcp", "eventlog", id} {
		if strings.Contains(r.Message, leak) {
			t.Fatalf("the unavailable message sent to the client contains %q: %q", leak, r.Message)
		}
	}
}
