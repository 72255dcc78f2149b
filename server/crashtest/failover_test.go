package crashtest

import (
	"context"
	"math/rand"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// failoverBound is how long a room may be unavailable after its Redis Cluster master
// dies: the replica is promoted after about 2 s (cluster-node-timeout 2000 ms), then
// the nodes must find it.
const failoverBound = 10 * time.Second

// TestClusterMasterFailover: two gomokud nodes on a Redis Cluster of three masters with
// one replica each. Three human games run across the nodes with spectators; the master
// serving the first room's slot is killed with SIGKILL mid-game. Its replica takes the
// slots over; the nodes must follow (moves refused as unavailable meanwhile, resent by
// the clients) and every game must finish within failoverBound of extra time, with
// every acknowledged move stored exactly once. Replication is asynchronous, so a move
// acknowledged in the last instant before the kill could in principle be lost; the
// check says so if it happens.
func TestClusterMasterFailover(t *testing.T) {
	requireBin(t)
	rng := seededRand(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rc := redistest.StartClusterReplicas(t, 3, 1)
	cc := rc.Client()
	nodes := startNodes(t, rc.URL(), 2)
	bases := []string{nodes[0].Base(), nodes[1].Base()}

	ledger := newLedger()
	var seats []*Seat
	var watchers []*wstest.Client
	var rooms []string
	for g := 0; g < 3; g++ {
		bn, wn := g%2, 1-g%2
		a := mustPlayer(t, ctx, bases[bn], "black"+strconv.Itoa(g))
		b := mustPlayer(t, ctx, bases[wn], "white"+strconv.Itoa(g))
		id := mustRoom(t, ctx, bases[bn], a.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "human"}})
		ca, cb := wstest.NewClient(bases[bn], id, a.Token), wstest.NewClient(bases[wn], id, b.Token)
		require.NoError(t, ca.Reconnect(ctx))
		sit(t, ctx, cb, "white")
		script := scriptedGame(rand.New(rand.NewSource(rng.Int63())), 20)
		tk := func() func() time.Duration { return think(rng.Int63(), 30*time.Millisecond, 80*time.Millisecond) }
		seats = append(seats,
			&Seat{C: ca, Color: "black", Next: scripted(script), Ledger: ledger, Think: tk()},
			&Seat{C: cb, Color: "white", Next: scripted(script), Ledger: ledger, Think: tk()})
		w := wstest.NewClient(bases[wn], id, "")
		require.NoError(t, w.Reconnect(ctx))
		watchers = append(watchers, w)
		rooms = append(rooms, id)
	}
	slotMasters(t, ctx, cc, rooms)

	play := StartPlay(ctx, seats, watchers)

	v, err := watchers[0].Wait(ctx, func(v wstest.View) bool { return v.Over() || len(v.Moves) >= 6 })
	require.NoError(t, err)
	require.False(t, v.Over())
	victim := masterOf(ctx, cc, rooms[0])
	for _, s := range rc.Masters() {
		if s.Addr() == victim {
			s.Kill()
		}
	}
	killedAt := time.Now()
	t.Logf("killed Redis master %s (slot of room %s) at ply %d", victim, rooms[0], len(v.Moves))
	_, err = watchers[0].Wait(ctx, func(w wstest.View) bool { return w.Over() || len(w.Moves) > len(v.Moves)+1 })
	for err != nil && ctx.Err() == nil {
		_ = ensure(ctx, watchers[0])
		_, err = watchers[0].Wait(ctx, func(w wstest.View) bool { return w.Over() || len(w.Moves) > len(v.Moves)+1 })
	}
	resumed := time.Since(killedAt)
	cc.ReloadState(ctx)
	t.Logf("room %s moving again %v after the kill (new master %s)", rooms[0], resumed.Round(time.Millisecond), masterOf(ctx, cc, rooms[0]))

	play.Wait(t, ctx, "room %s resumed %v after the kill", rooms[0], resumed.Round(time.Millisecond))
	for _, id := range rooms {
		acks := ledger.get(id)
		snap := verifyRoom(t, ctx, bases[1], id, acks, true)
		checkStoredRecord(t, ctx, cc, id, acks)
		t.Logf("room %s: %d moves, %d acks, %s by %s", id, len(snap.Moves), len(acks), snap.Result, snap.Reason)
	}
	unavailable := 0
	for _, s := range seats {
		unavailable += s.Unavailable
	}
	for _, c := range watchers {
		for _, p := range c.Problems() {
			t.Errorf("spectator of %s: %s", c.Room, p)
		}
	}
	t.Logf("%d moves refused as unavailable during the failover", unavailable)
	if resumed > failoverBound {
		t.Errorf("room %s was unavailable for %v after its master died (bound %v)", rooms[0], resumed.Round(time.Millisecond), failoverBound)
	}
}
