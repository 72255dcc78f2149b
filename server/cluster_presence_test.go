package server

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// presenceOf reports whether m is a presence message satisfying f.
func presenceOf(f func(black, white map[string]any, spectators int) bool) func(msg) bool {
	return func(m msg) bool {
		if m.typ() != "presence" {
			return false
		}
		b, _ := m["black"].(map[string]any)
		w, _ := m["white"].(map[string]any)
		n, _ := m["spectators"].(float64)
		return f(b, w, int(n))
	}
}

// TestPresenceAcrossNodes: a player connected to another node counts as connected on
// the node holding the room (no claim once the grace is over), spectators of every node
// are counted, and when he leaves his grace starts on every node. The rooms run on a
// fake clock: the grace passes when the test says so.
func TestPresenceAcrossNodes(t *testing.T) {
	for name, backend := range backends(t) {
		t.Run(name, func(t *testing.T) {
			rc := backend(t)
			clock := room.NewFakeClock(time.Now())
			short := func(_ *Config, o *room.Options) { o.Grace, o.Clock = 300*time.Millisecond, clock }
			n1, n2 := newEnv(t, rc, withCluster, short), newEnv(t, rc, withCluster, short)
			id, a, b := crossNodeGame(t, n1, n1, n2)
			requireAck(t, a.move(0, "h8"))
			b.saw("black's move", func(m msg) bool { return m.typ() == protocol.TypeEvent && m.event().str("kind") == "move" })
			requireAck(t, b.move(1, "i9"))
			spec := n2.dial(id)
			spec.hello("", 0)
			a.saw("Bob connected through node 2", presenceOf(func(_, w map[string]any, _ int) bool { return w["connected"] == true }))
			// Twice the grace: node 1 would let Alice claim now if it counted Bob as gone
			// (the claim reads the room's clock).
			clock.Advance(600 * time.Millisecond)
			requireErr(t, a.cmd(map[string]any{"type": protocol.TypeClaimVictory}), protocol.CodeNotAllowed)

			// Bob leaves node 2: node 1 starts his grace (counting node 2's spectator),
			// then Alice may claim.
			require.NoError(t, b.ws.Close())
			a.until("Bob gone, node 2's spectator counted", presenceOf(func(_, w map[string]any, n int) bool {
				return w["connected"] == false && n == 1
			}))
			spec.until("Bob gone, seen on node 2", presenceOf(func(_, w map[string]any, _ int) bool { return w["connected"] == false }))
			clock.Advance(600 * time.Millisecond)
			a.until("claimable", presenceOf(func(_, w map[string]any, _ int) bool { return w["claimable"] == true }))
			requireAck(t, a.cmd(map[string]any{"type": protocol.TypeClaimVictory}))
			require.Equal(t, "abandoned", a.sawEvent("game_over").event().str("reason"))
		})
	}
}

// TestSilentNodeForgotten: a node that stops reporting (it died with its connections
// open) is forgotten after Config.PresenceTTL: its player is gone on the other nodes. While
// it reports, its player stays connected well past the TTL (heartbeats).
func TestSilentNodeForgotten(t *testing.T) {
	rc := backends(t)["miniredis"](t)
	const ttl = 600 * time.Millisecond
	fast := func(c *Config, _ *room.Options) { c.PresenceTTL = ttl }
	n1, n2 := newEnv(t, rc, withCluster, fast), newEnv(t, rc, withCluster, fast)
	id, a, _ := crossNodeGame(t, n1, n1, n2)
	bobOn := func(want bool) func(msg) bool {
		return presenceOf(func(_, w map[string]any, _ int) bool { return w["connected"] == want })
	}
	a.saw("Bob connected through node 2", bobOn(true))
	since := slices.IndexFunc(a.log, bobOn(true))
	// Node 2's heartbeats as node 1 receives them: once they span the TTL plus two of
	// node 1's expiry periods (a third of the TTL each), node 1 would have forgotten
	// node 2 by now had it not counted them.
	heartbeats := nodeMessages(t, n1, id, n2.node.ID())
	first := time.Now()
	for n := 0; n < 3 || time.Since(first) < ttl+2*ttl/3; n++ {
		select {
		case <-heartbeats:
		case <-time.After(5 * time.Second):
			t.Fatal("node 2 stopped its heartbeats")
		}
	}
	assert.True(t, n1.mgr.Live(id).Presence().White.Connected, "node 1 still counts Bob")
	// Read what came meanwhile: the pong follows it.
	a.send(map[string]any{"type": protocol.TypePing, "id": "flush"})
	a.until("pong", func(m msg) bool { return m.typ() == protocol.TypePong && m.str("id") == "flush" })
	for _, m := range a.log[since:] {
		require.False(t, bobOn(false)(m), "Bob never counted as gone while node 2 reports")
	}
	n2.node.Stop() // node 2 goes silent; Bob's connection to it stays open
	start := time.Now()
	a.until("Bob gone once node 2 is silent", bobOn(false))
	require.Less(t, time.Since(start), 3*time.Second)
}

// nodeMessages returns the presence messages node publishes on room id's channel, as
// e's node receives them.
func nodeMessages(t *testing.T, e *testEnv, id, node string) <-chan struct{} {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	msgs, unsubscribe, err := e.store.(*roomstore.Store).Redis().Subscribe(ctx, id)
	require.NoError(t, err)
	out := make(chan struct{}, 64)
	go func() {
		for m := range msgs {
			var nm struct {
				Kind string `json:"k"`
				Node string `json:"node"`
			}
			if m.Seq == 0 && json.Unmarshal(m.Data, &nm) == nil && nm.Kind == "presence" && nm.Node == node {
				select {
				case out <- struct{}{}:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() { cancel(); unsubscribe() })
	return out
}
