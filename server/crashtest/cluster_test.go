package crashtest

import (
	"context"
	"encoding/json"
	"math/rand"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// TestClusterGames plays across nodes at the server level: three gomokud nodes on a
// local Redis Cluster of three masters (redis+cluster://…). Four human games have their
// players on node1 and node2 (alternating) and a spectator on node3; a human plays an
// expert AI and two novice AIs play an exhibition, both created on node1 and watched
// from node3. The rooms' hash tags spread them over the masters. The node holding the
// AI room's lease is killed with SIGKILL while the AI searches: another node takes the
// lease on the cluster and the game goes on. At the end every acknowledged move is in
// the room's stored event list exactly once (read straight from the cluster), every
// spectator saw every event in order, the finished rooms are in the lobby's finished
// index and out of the live one, and no node logged a cluster error (CROSSSLOT, MOVED
// left unhandled, a script or pub/sub failure).
func TestClusterGames(t *testing.T) {
	requireBin(t)
	rng := seededRand(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()

	rc := redistest.StartCluster(t, 3)
	cc := rc.Client()
	nodes := startNodes(t, rc.URL(), 3)
	t.Logf("cluster %s and 3 nodes up in %v", rc.URL(), time.Since(start).Round(time.Millisecond))
	bases := []string{nodes[0].Base(), nodes[1].Base(), nodes[2].Base()}
	client := func(node int, room, token string) *wstest.Client {
		c := wstest.NewClient(bases[node], room, token)
		for j := 1; j < len(bases); j++ { // a load balancer's failover
			c.Alt = append(c.Alt, bases[(node+j)%len(bases)])
		}
		return c
	}
	ledger := newLedger()
	var seats []*Seat
	var watchers []*wstest.Client
	var rooms []string
	tk := func() func() time.Duration { return think(rng.Int63(), 10*time.Millisecond, 40*time.Millisecond) }

	// Human games across node1 and node2, spectators on node3.
	for g := 0; g < 4; g++ {
		bn, wn := g%2, 1-g%2
		a := mustPlayer(t, ctx, bases[bn], "black"+strconv.Itoa(g))
		b := mustPlayer(t, ctx, bases[wn], "white"+strconv.Itoa(g))
		id := mustRoom(t, ctx, bases[bn], a.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "human"}})
		ca, cb := client(bn, id, a.Token), client(wn, id, b.Token)
		require.NoError(t, ca.Reconnect(ctx))
		sit(t, ctx, cb, "white")
		script := scriptedGame(rand.New(rand.NewSource(rng.Int63())), 12)
		seats = append(seats,
			&Seat{C: ca, Color: "black", Next: scripted(script), Ledger: ledger, Think: tk()},
			&Seat{C: cb, Color: "white", Next: scripted(script), Ledger: ledger, Think: tk()})
		w := client(2, id, "")
		require.NoError(t, w.Reconnect(ctx))
		watchers = append(watchers, w)
		rooms = append(rooms, id)
	}
	// A human (node1) against an expert AI (1 s searches, so that the kill lands in one).
	h := mustPlayer(t, ctx, bases[0], "human")
	aiRoom := mustRoom(t, ctx, bases[0], h.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "expert"}})
	hc := client(0, aiRoom, h.Token)
	require.NoError(t, hc.Reconnect(ctx))
	seats = append(seats, &Seat{C: hc, Color: "black", Next: blocker(rand.New(rand.NewSource(rng.Int63()))),
		Ledger: ledger, Think: tk(), ResignAt: 14})
	aiWatch := client(2, aiRoom, "")
	require.NoError(t, aiWatch.Reconnect(ctx))
	watchers = append(watchers, aiWatch)
	rooms = append(rooms, aiRoom)
	// An AI-vs-AI exhibition.
	{
		x := mustPlayer(t, ctx, bases[0], "host")
		id := mustRoom(t, ctx, bases[0], x.Token, map[string]any{"me": "none", "ai_pace_ms": 0, // unpaced: the test runs on the real clock
			"black": map[string]any{"kind": "ai", "level": "novice"}, "white": map[string]any{"kind": "ai", "level": "novice"}})
		w := client(2, id, "")
		require.NoError(t, w.Reconnect(ctx))
		watchers = append(watchers, w)
		rooms = append(rooms, id)
	}
	masters := slotMasters(t, ctx, cc, rooms)
	slots := map[int64]bool{}
	for _, id := range rooms {
		slots[cc.ClusterKeySlot(ctx, "gomoku:{room:"+id+"}:state").Val()] = true
	}
	require.Greater(t, len(slots), 1, "the rooms share one hash slot")
	if len(masters) < 2 {
		t.Logf("note: this run's %d rooms all hash to one master", len(rooms))
	}

	checkShardedPubSub(t, ctx, cc, rooms)

	play := StartPlay(ctx, seats, watchers)

	// kill -9 the AI room's lease holder while the AI searches.
	v, err := aiWatch.Wait(ctx, func(v wstest.View) bool { return v.Over() || (len(v.Moves) >= 4 && v.ToMove() == "white") })
	require.NoError(t, err)
	require.False(t, v.Over(), "the AI game ended before the kill")
	victim, owner := ownerNode(t, ctx, cc, nodes, aiRoom)
	ply := len(v.Moves)
	nodes[victim].Kill()
	killedAt := time.Now()
	require.Equal(t, v.LastSeq, storedSeq(t, ctx, cc, aiRoom), "the AI move was stored before the kill: the kill did not land mid-search")
	t.Logf("killed %s (%s, lease holder of AI room %s) at %v, AI to move at ply %d",
		nodes[victim].Name, owner, aiRoom, killedAt.Sub(start).Round(time.Millisecond), ply)
	leaseKey := "gomoku:{room:" + aiRoom + "}:owner"
	var newOwner string
	for ctx.Err() == nil {
		if o, _ := cc.Get(ctx, leaseKey).Result(); o != "" && o != owner {
			newOwner = o
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	leaseTook := time.Since(killedAt)
	t.Logf("lease of AI room %s taken by %s %v after the kill", aiRoom, newOwner, leaseTook.Round(time.Millisecond))
	_, err = aiWatch.Wait(ctx, func(v wstest.View) bool { return v.Over() || len(v.Moves) > ply })
	for err != nil && ctx.Err() == nil { // a watcher on the dead node reconnects elsewhere
		_ = ensure(ctx, aiWatch)
		_, err = aiWatch.Wait(ctx, func(v wstest.View) bool { return v.Over() || len(v.Moves) > ply })
	}
	require.NoError(t, err, "the AI did not move after the takeover")
	took := time.Since(killedAt)
	t.Logf("AI move at ply %d seen %v after the kill", ply, took.Round(time.Millisecond))
	require.Less(t, leaseTook, 5*time.Second, "another node takes the lease within 5 s")
	nodes[victim].Restart()

	play.Wait(t, ctx)
	t.Logf("%d games finished at %v", len(rooms), time.Since(start).Round(time.Millisecond))

	for i, id := range rooms {
		acks := ledger.get(id)
		snap := verifyRoom(t, ctx, bases[(i+1)%3], id, acks, true)
		checkStoredRecord(t, ctx, cc, id, acks)
		t.Logf("room %s (master %s): %d moves, %d acks, %s by %s, seq %d", id, masterOf(ctx, cc, id), len(snap.Moves), len(acks), snap.Result, snap.Reason, snap.Seq)
		require.Equal(t, snap.Moves, watchers[i].View().Moves, "the spectator of room %s (node3) saw other moves", id)
	}
	for _, c := range watchers {
		for _, p := range c.Problems() {
			t.Errorf("spectator of %s: %s", c.Room, p)
		}
	}
	for _, s := range seats {
		for _, p := range s.C.Problems() {
			t.Errorf("%s of %s: %s", s.Color, s.C.Room, p)
		}
	}
	require.NotEmpty(t, ledger.get(aiRoom), "no acknowledged move in the AI room")
	checkLobby(t, ctx, bases, rooms)
	checkNodeLogs(t, nodes)
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

// slotMasters logs which cluster master holds each room's slot and returns the masters used.
func slotMasters(t *testing.T, ctx context.Context, cc *redis.ClusterClient, rooms []string) map[string][]string {
	out := map[string][]string{}
	for _, id := range rooms {
		m := masterOf(ctx, cc, id)
		out[m] = append(out[m], id)
	}
	t.Logf("rooms by master: %v", out)
	return out
}

// checkShardedPubSub checks that the nodes follow each live room over sharded pub/sub
// on the master of the room's slot (SSUBSCRIBE, not a cluster-wide SUBSCRIBE), and logs
// how many pub/sub connections each master holds.
func checkShardedPubSub(t *testing.T, ctx context.Context, cc *redis.ClusterClient, rooms []string) {
	t.Helper()
	for _, id := range rooms {
		ch := "gomoku:{room:" + id + "}:chan"
		m, err := cc.MasterForKey(ctx, ch)
		require.NoError(t, err)
		var shard, classic map[string]int64
		require.Eventually(t, func() bool { // nodes subscribe their live rooms within ~250 ms
			shard, err = m.PubSubShardNumSub(ctx, ch).Result()
			return err == nil && shard[ch] >= 1
		}, 5*time.Second, 50*time.Millisecond, "room %s: no node follows it with SSUBSCRIBE on its master %s", id, m.Options().Addr)
		classic, err = m.PubSubNumSub(ctx, ch).Result()
		require.NoError(t, err)
		require.Zero(t, classic[ch], "room %s: classic SUBSCRIBE on a cluster", id)
	}
	var mu sync.Mutex
	conns := map[string]int{}
	require.NoError(t, cc.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		list, err := m.ClientList(ctx).Result()
		n := 0
		for _, line := range strings.Split(list, "\n") {
			if strings.Contains(line, " ssub=") && !strings.Contains(line, " ssub=0 ") {
				n++
			}
		}
		mu.Lock()
		conns[m.Options().Addr] = n
		mu.Unlock()
		return err
	}))
	t.Logf("sharded pub/sub connections per master for %d live rooms on 3 nodes: %v", len(rooms), conns)
}

// masterOf returns the address of the master serving room id's hash slot.
func masterOf(ctx context.Context, cc *redis.ClusterClient, id string) string {
	c, err := cc.MasterForKey(ctx, "gomoku:{room:"+id+"}:state")
	if err != nil {
		return "?" + err.Error()
	}
	return c.Options().Addr
}

// checkStoredRecord reads room id's event list straight from Redis and checks that
// every acknowledged move is in it exactly once, at its ply, and that the list is as
// long as the stored seq.
func checkStoredRecord(t *testing.T, ctx context.Context, rc redis.Cmdable, id string, acks []ackRec) {
	t.Helper()
	raw, err := rc.LRange(ctx, "gomoku:{room:"+id+"}:events", 0, -1).Result()
	require.NoError(t, err)
	require.Equal(t, storedSeq(t, ctx, rc, id), uint64(len(raw)), "room %s: event list length != stored seq", id)
	type at struct{ ply, n int }
	moves := map[string]*at{}
	for i, r := range raw {
		var e room.Event
		require.NoError(t, json.Unmarshal([]byte(r), &e), "room %s: stored event %d: %s", id, i+1, r)
		if e.Kind != "move" {
			continue
		}
		if m := moves[e.Point]; m != nil {
			m.n++
		} else {
			moves[e.Point] = &at{ply: e.Ply, n: 1}
		}
	}
	for _, a := range acks {
		m := moves[a.Point]
		switch {
		case m == nil:
			t.Errorf("room %s: acked move %s at ply %d not in the stored record", id, a.Point, a.Ply)
		case m.n != 1:
			t.Errorf("room %s: acked move %s stored %d times", id, a.Point, m.n)
		case m.ply != a.Ply:
			t.Errorf("room %s: acked move %s at ply %d stored at ply %d", id, a.Point, a.Ply, m.ply)
		}
	}
}

// checkLobby: every node lists the finished public rooms as finished and none as live.
func checkLobby(t *testing.T, ctx context.Context, bases, rooms []string) {
	t.Helper()
	list := func(base, status string) map[string]bool {
		var out struct {
			Rooms []struct {
				ID string `json:"id"`
			} `json:"rooms"`
		}
		require.NoError(t, call(ctx, http.MethodGet, base+"/api/rooms?limit=100&status="+status, "", nil, &out), "lobby %s on %s", status, base)
		ids := map[string]bool{}
		for _, r := range out.Rooms {
			ids[r.ID] = true
		}
		return ids
	}
	for _, base := range bases {
		fin, live := list(base, "finished"), list(base, "live")
		for _, id := range rooms {
			require.True(t, fin[id], "room %s missing from the finished lobby on %s", id, base)
			require.False(t, live[id], "finished room %s still in the live lobby on %s", id, base)
		}
	}
}

// clusterTrouble matches log lines that point at a Redis Cluster problem.
var clusterTrouble = regexp.MustCompile(`CROSSSLOT|MOVED|ASK |CLUSTERDOWN|unknown command|ERR .*script|NOSCRIPT`)

// checkNodeLogs fails on cluster errors and lists ERROR lines of the nodes' logs.
func checkNodeLogs(t *testing.T, nodes []*Node) {
	t.Helper()
	for _, n := range nodes {
		var errLines []string
		for _, line := range strings.Split(string(n.Log()), "\n") {
			if clusterTrouble.MatchString(line) {
				t.Errorf("%s logged a cluster error: %s", n.Name, line)
			}
			if strings.Contains(line, "level=ERROR") {
				errLines = append(errLines, line)
			}
		}
		sort.Strings(errLines)
		if len(errLines) > 0 {
			t.Logf("%s: %d ERROR lines, e.g. %s", n.Name, len(errLines), errLines[0])
		}
	}
}
