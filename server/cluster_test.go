package server

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/replica"
)

// TestTwoNodes: players on different nodes of one Redis play each other; a spectator on
// either node sees every event in order.
func TestTwoNodes(t *testing.T) {
	for name, backend := range backends(t) {
		t.Run(name, func(t *testing.T) {
			rc := backend(t)
			n1, n2 := newEnv(t, rc, withCluster), newEnv(t, rc, withCluster)
			id, a, b := crossNodeGame(t, n1, n1, n2)
			s1, s2 := n1.dial(id), n2.dial(id)
			s1.hello("", 1)
			s2.hello("", 1)
			for ply := 0; ply < 9; ply++ {
				c, p := a, blackFive[ply/2]
				if ply%2 == 1 {
					c, p = b, whiteMoves[ply/2]
				}
				// Wait until the mover's node has seen the previous move.
				if ply > 0 {
					c.saw("previous move", func(m msg) bool {
						return m.typ() == protocol.TypeEvent && m.event().str("kind") == "move" && int(m.event()["ply"].(float64)) == ply-1
					})
				}
				requireAck(t, c.move(ply, p))
			}
			stored, err := n1.store.Events(context.Background(), id, 1)
			require.NoError(t, err)
			last := stored[len(stored)-1]
			require.Equal(t, "game_over", string(last.Kind))
			for _, c := range []*wsClient{a, b, s1, s2} {
				c.waitSeq(last.Seq)
				require.Equal(t, "five", c.sawEvent("game_over").event().str("reason"))
			}
			for _, s := range []*wsClient{s1, s2} {
				require.Len(t, s.events, len(stored)-1) // every event after "created", contiguous (checked on receipt)
			}
		})
	}
}

// crossNodeGame creates Alice's room (black) on host, connects her through aliceNode and
// Bob through bobNode, where he sits at white; it returns once Alice has seen the game
// start (her node has caught up with Bob's sit).
func crossNodeGame(t *testing.T, host, aliceNode, bobNode *testEnv) (id string, a, b *wsClient) {
	t.Helper()
	pa, pb := host.player("Alice"), host.player("Bob")
	id = host.createRoom(pa.Token, map[string]any{"me": "black"})
	a = aliceNode.dial(id)
	a.hello(pa.Token, 0)
	b = bobNode.dial(id)
	b.hello(pb.Token, 0)
	requireAck(t, b.cmd(map[string]any{"type": "sit", "color": "white"}))
	a.saw("the game started", func(m msg) bool { // in the snapshot or after it
		if m.typ() == protocol.TypeSnapshot {
			return m["room"].(map[string]any)["phase"] == "playing"
		}
		return m.typ() == protocol.TypeEvent && m.event().str("kind") == "started"
	})
	return id, a, b
}

// TestAIRoomAcrossNodesAndFailover: the AI seat runs on the node holding the lease while
// the human plays from another node (connected there: the lease holder does not end the
// game by abandonment, and the human watches the machine think); when that node shuts
// down, the other takes the room over and the game goes on to the end. The rooms run on
// a fake clock: the grace passes when the test says so.
func TestAIRoomAcrossNodesAndFailover(t *testing.T) {
	rc := backends(t)["miniredis"](t)
	clock := room.NewFakeClock(time.Now())
	short := func(_ *Config, o *room.Options) { o.Grace, o.Clock = 300*time.Millisecond, clock }
	n1, n2 := newEnv(t, rc, withCluster, short), newEnv(t, rc, withCluster, short)
	p := n1.player("Alice")
	id := n1.createRoom(p.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "beginner"}})
	c := n2.dial(id)
	c.hello(p.Token, 0)
	shutdownAt := 4
	start := clock.Now()
	for {
		board := boardFromEvents(t, c.events)
		if over := findEvent(c.events, "game_over"); over != nil {
			require.Contains(t, []string{"black", "white", "draw"}, over.str("result"))
			require.Greater(t, board.Ply(), shutdownAt, "the game went on after the failover")
			break
		}
		require.Less(t, board.Ply(), 225)
		if board.Ply() == 2 && clock.Now().Before(start.Add(time.Second)) {
			// The game really started; twice the grace later node 1 still counts the
			// human connected through node 2, so its AI seat claims nothing.
			clock.Advance(600 * time.Millisecond)
			r := n1.mgr.Live(id)
			require.NotNil(t, r)
			require.True(t, r.Presence().Black.Connected, "node 1 counts the human on node 2")
		}
		if board.Ply() == shutdownAt && n1.mgr.Live(id) != nil {
			require.True(t, slices.ContainsFunc(c.log, func(m msg) bool { return m.typ() == "ai" }),
				"the human on node 2 watched node 1's search")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			require.NoError(t, n1.srv.Shutdown(ctx)) // releases n1's leases
			cancel()
		}
		if board.ToMove() == engine.Black {
			if r := c.move(board.Ply(), pickMove(board).String()); r.typ() == protocol.TypeError {
				requireErr(t, r, protocol.CodeGameOver)
				c.sawEvent("game_over")
			}
			continue
		}
		c.next()
	}
}

// TestRoomHolderEndpoint: /admin/rooms/:id/holder names the node holding a room's lease,
// on every node; a malformed id is refused, and a server without leases says so.
func TestRoomHolderEndpoint(t *testing.T) {
	rc := backends(t)["miniredis"](t)
	n1, n2 := newEnv(t, rc, withCluster), newEnv(t, rc, withCluster)
	id := n1.createRoom(n1.player("Alice").Token, map[string]any{"me": "black"})
	var h replica.Holder
	require.Equal(t, http.StatusOK, n1.do("GET", "/admin/rooms/"+id+"/holder", "", nil, &h))
	assert.Equal(t, replica.Holder{Room: id, Holder: n1.node.ID(), LeaseTTLMS: h.LeaseTTLMS, Node: n1.node.ID(),
		LiveHere: true, ActiveHere: true}, h)
	assert.Positive(t, h.LeaseTTLMS)
	require.Equal(t, http.StatusOK, n2.do("GET", "/admin/rooms/"+id+"/holder", "", nil, &h))
	assert.Equal(t, n1.node.ID(), h.Holder)
	assert.Equal(t, n2.node.ID(), h.Node)
	assert.False(t, h.LiveHere)
	assert.Equal(t, http.StatusNotFound, n1.do("GET", "/admin/rooms/no%20such/holder", "", nil, nil))
	single := newEnv(t, nil)
	assert.Equal(t, http.StatusNotFound, single.do("GET", "/admin/rooms/"+id+"/holder", "", nil, nil))
}
