package replica

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
)

// TestReceive is a known-answer table for what a node does with another node's
// message, and for forgetting a node that went silent.
func TestReceive(t *testing.T) {
	ctx := context.Background()
	m := room.NewManager(room.NewMemStore(), room.Options{})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	r, err := m.Create(ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	c := &Node{cfg: Config{Node: "A"}.withDefaults(), out: newOutbox(), log: slog.New(slog.DiscardHandler)}
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
