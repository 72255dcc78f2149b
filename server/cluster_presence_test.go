package server

import (
	"slices"
	"testing"
	"time"

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
	n2.node.Stop() // node 2 goes silent; Bob's connection to it stays open
	start := time.Now()
	a.until("Bob gone once node 2 is silent", bobOn(false))
	require.Less(t, time.Since(start), 3*time.Second)
}
