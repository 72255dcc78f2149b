package server

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
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
// are counted, and when he leaves his grace starts on every node.
func TestPresenceAcrossNodes(t *testing.T) {
	for name, backend := range backends(t) {
		t.Run(name, func(t *testing.T) {
			rc := backend(t)
			short := func(_ *Config, o *room.Options) { o.Grace = 300 * time.Millisecond }
			n1, n2 := newEnv(t, rc, withCluster, short), newEnv(t, rc, withCluster, short)
			id, a, b := crossNodeGame(t, n1, n1, n2)
			requireAck(t, a.move(0, "h8"))
			b.saw("black's move", func(m msg) bool { return m.typ() == protocol.TypeEvent && m.event().str("kind") == "move" })
			requireAck(t, b.move(1, "i9"))
			spec := n2.dial(id)
			spec.hello("", 0)
			a.saw("Bob and a spectator on node 2", presenceOf(func(_, w map[string]any, n int) bool {
				return w["connected"] == true && n == 1
			}))
			time.Sleep(600 * time.Millisecond) // twice the grace
			requireErr(t, a.cmd(map[string]any{"type": protocol.TypeClaimVictory}), protocol.CodeNotAllowed)

			// Bob leaves node 2: node 1 starts his grace, then Alice may claim.
			require.NoError(t, b.ws.Close())
			a.until("Bob gone", presenceOf(func(_, w map[string]any, _ int) bool { return w["connected"] == false }))
			spec.until("Bob gone, seen on node 2", presenceOf(func(_, w map[string]any, _ int) bool { return w["connected"] == false }))
			a.until("claimable", presenceOf(func(_, w map[string]any, _ int) bool { return w["claimable"] == true }))
			requireAck(t, a.cmd(map[string]any{"type": protocol.TypeClaimVictory}))
			require.Equal(t, "abandoned", a.sawEvent("game_over").event().str("reason"))
		})
	}
}

// TestClusterReceive is a known-answer table for what a node does with another node's
// message, and for forgetting a node that went silent.
func TestClusterReceive(t *testing.T) {
	ctx := context.Background()
	m := room.NewManager(room.NewMemStore(), room.Options{})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	alice, bob := room.Player{ID: "p_alice", Name: "Alice"}, room.Player{ID: "p_bob", Name: "Bob"}
	r, err := m.Create(ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	c := &cluster{node: "A", out: newOutbox(), presenceTTL: 15 * time.Second, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	seen := remoteNodes{}
	t0 := time.Unix(1764440000, 0)
	tests := []struct {
		name      string
		data      string
		ok        bool
		connected bool // Bob, afterwards
	}{
		{"not json", `0:garbage`, false, false},
		{"no node", `{"k":"presence","p":{"subs":1}}`, false, false},
		{"unknown kind", `{"k":"gossip","node":"B"}`, false, false},
		{"presence without body", `{"k":"presence","node":"B"}`, false, false},
		{"own echo ignored", `{"k":"presence","node":"A","p":{"players":{"p_bob":1},"subs":1}}`, true, false},
		{"Bob on node B", `{"k":"presence","node":"B","p":{"players":{"p_bob":1},"subs":2}}`, true, true},
		{"a probe", `{"k":"probe","node":"C"}`, true, true},
		{"AI progress (not for a human game's ply)", `{"k":"ai","node":"B","ai":{"color":"white","ply":40}}`, true, true},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.ok, c.receive(ctx, r, seen, []byte(tc.data), t0), tc.name)
		require.Eventually(t, func() bool { return r.Presence().White.Connected == tc.connected }, 2*time.Second, 5*time.Millisecond, tc.name)
	}
	assert.Equal(t, 1, r.Presence().Spectators)
	assert.Equal(t, remoteNodes{"B": t0}, seen)

	// Node B is heard of within the TTL, then not: forgotten, Bob gone.
	c.expire(ctx, r, seen, t0.Add(10*time.Second))
	assert.True(t, r.Presence().White.Connected)
	c.expire(ctx, r, seen, t0.Add(16*time.Second))
	require.Eventually(t, func() bool { return !r.Presence().White.Connected }, 2*time.Second, 5*time.Millisecond)
	assert.Empty(t, seen)
	assert.Zero(t, r.Presence().Spectators)
}

// TestOutboxCoalesces: the outbox keeps the latest presence and AI progress per room
// and a probe, and empties when taken.
func TestOutboxCoalesces(t *testing.T) {
	o := newOutbox()
	o.presence("r1", room.NodePresence{Subs: 1})
	o.presence("r1", room.NodePresence{Subs: 3})
	o.aiProgress("r1", room.AIProgress{Depth: 2})
	o.aiProgress("r1", room.AIProgress{Depth: 5})
	o.probe("r2")
	got := o.take("A")
	require.Len(t, got, 2)
	require.Len(t, got["r1"], 2)
	assert.Equal(t, nodeMsg{Kind: nodeMsgPresence, Node: "A", Presence: &room.NodePresence{Subs: 3}}, got["r1"][0])
	assert.Equal(t, 5, got["r1"][1].AI.Depth)
	assert.Equal(t, []nodeMsg{{Kind: nodeMsgProbe, Node: "A"}}, got["r2"])
	assert.Empty(t, o.take("A"))
}

// TestSilentNodeForgotten: a node that stops reporting (it died with its connections
// open) is forgotten after Config.PresenceTTL: its player is gone on the other nodes. While
// it reports, its player stays connected well past the TTL (heartbeats).
func TestSilentNodeForgotten(t *testing.T) {
	rc := backends(t)["miniredis"](t)
	fast := func(c *Config, _ *room.Options) { c.PresenceTTL = 600 * time.Millisecond }
	n1, n2 := newEnv(t, rc, withCluster, fast), newEnv(t, rc, withCluster, fast)
	_, a, _ := crossNodeGame(t, n1, n1, n2)
	bobOn := func(want bool) func(msg) bool {
		return presenceOf(func(_, w map[string]any, _ int) bool { return w["connected"] == want })
	}
	a.saw("Bob connected through node 2", bobOn(true))
	since := slices.IndexFunc(a.log, bobOn(true))
	time.Sleep(1500 * time.Millisecond) // 2.5 TTLs: node 2's heartbeats keep him
	// Read what came meanwhile: the pong follows it.
	a.send(map[string]any{"type": protocol.TypePing, "id": "flush"})
	a.until("pong", func(m msg) bool { return m.typ() == protocol.TypePong && m.str("id") == "flush" })
	for _, m := range a.log[since:] {
		require.False(t, bobOn(false)(m), "Bob never counted as gone while node 2 reports")
	}
	n2.cl.stop() // node 2 goes silent; Bob's connection to it stays open
	start := time.Now()
	a.until("Bob gone once node 2 is silent", bobOn(false))
	require.Less(t, time.Since(start), 3*time.Second)
}
