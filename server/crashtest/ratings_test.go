package crashtest

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/server/wstest"
)

// TestRatingsExactlyOnce (invariant 10): two gomokud nodes on one redis-server (AOF,
// appendfsync always). Two pairs of accounts play rated games with black on node1 and
// white on node2; each game ends by a resignation sent through a random node, and that
// node is killed with SIGKILL at a random moment around it (before the game_over append,
// between the append and the ledger, or after) and restarted. The surviving node and the
// restarted one both sweep the ledger's outbox. Every game must end counted exactly
// once: each player's pool record counts its games, its history has one point per
// game, its game index one entry per game, and each room's log one rating event.
func TestRatingsExactlyOnce(t *testing.T) {
	rng := seededRand(t)
	rs, nodes := startCluster(t, 2)
	rc := rs.Client()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	players := make([]Player, 4)
	for i := range players {
		players[i] = mustPlayer(t, ctx, nodes[i%2].Base(), "p"+strconv.Itoa(i))
		// An account, as signing up makes one (the rated rooms need accounts).
		require.NoError(t, rc.HSet(ctx, "gomoku:{player:"+players[i].ID+"}", "username", "user"+strconv.Itoa(i)).Err())
	}
	games := 6
	if testing.Short() {
		games = 4
	}
	played := map[string]int{}
	var rooms []string
	for g := 0; g < games; g++ {
		black, white := players[2*(g%2)], players[2*(g%2)+1]
		if g%4 >= 2 {
			black, white = white, black
		}
		id := mustRoom(t, ctx, nodes[0].Base(), black.Token, map[string]any{"me": "black", "rated": true,
			"time": map[string]any{"base_ms": 300_000, "increment_ms": 3_000}})
		rooms = append(rooms, id)
		cb := wstest.NewClient(nodes[0].Base(), id, black.Token)
		cw := wstest.NewClient(nodes[1].Base(), id, white.Token)
		require.NoError(t, cb.Reconnect(ctx))
		sit(t, ctx, cw, "white")
		for ply, p := range []string{"h8", "h9", "i8"} {
			c := cb
			if ply%2 == 1 {
				c = cw
			}
			r, err := c.Move(ctx, "m"+strconv.Itoa(ply), ply, p)
			require.NoError(t, err)
			require.Equal(t, "ack", r.Type, "ply %d: %+v", ply, r)
		}
		// White resigns through node k, which is killed around it.
		k := rng.Intn(2)
		res := cw
		if k == 0 {
			res = wstest.NewClient(nodes[0].Base(), id, white.Token)
			require.NoError(t, res.Reconnect(ctx))
		}
		require.NoError(t, res.Send(map[string]any{"type": "resign", "id": "resign"}))
		time.Sleep(time.Duration(rng.Intn(15)) * time.Millisecond) // the kill's moment
		nodes[k].Kill()
		t.Logf("game %d (room %s): node%d killed around the resignation", g, id, k+1)
		nodes[k].Restart()
		// Resign again until the game is over (the first may have been lost with the node).
		other := cb
		if k == 0 {
			other = cw
		}
		require.NoError(t, other.Reconnect(ctx))
		for v := other.View(); !v.Over(); v = other.View() {
			r, err := other.Do(ctx, map[string]any{"type": "resign", "id": "again" + strconv.Itoa(g)})
			if err == nil && r.Type == "error" && r.Code != "game_over" && r.Code != "not_a_player" {
				require.True(t, transient(r.Code), "resign: %+v", r)
			}
			wctx, wcancel := context.WithTimeout(ctx, 2*time.Second)
			_, _ = other.Wait(wctx, wstest.View.Over)
			wcancel()
			if ctx.Err() != nil {
				t.Fatalf("game %d never ended", g)
			}
		}
		played[black.ID]++
		played[white.ID]++
		for _, c := range []*wstest.Client{cb, cw, res} {
			c.Close()
		}
	}

	// Both nodes' recorders empty the outbox (the sweep takes games older than 10 s).
	require.Eventually(t, func() bool {
		n, err := rc.ZCard(ctx, "gomoku:{ratings}:pending").Result()
		return err == nil && n == 0
	}, 90*time.Second, 250*time.Millisecond, "the ledger's outbox never emptied")

	for _, id := range rooms {
		require.Equal(t, 1, countRatingEvents(t, ctx, rc, id), "room %s: one rating event", id)
		ok, err := rc.Exists(ctx, "gomoku:{ratings}:result:"+id+":1").Result()
		require.NoError(t, err)
		require.Equal(t, int64(1), ok, "room %s recorded", id)
	}
	for _, p := range players {
		raw, err := rc.HGet(ctx, "gomoku:{ratings}:p:"+p.ID, "freestyle-blitz").Result()
		require.NoError(t, err)
		assert.Contains(t, raw, `"n":`+strconv.Itoa(played[p.ID])+`,`, "player %s: games counted once", p.ID)
		n, err := rc.LLen(ctx, "gomoku:{ratings}:p:"+p.ID+":hist:freestyle-blitz").Result()
		require.NoError(t, err)
		assert.Equal(t, int64(played[p.ID]), n, "player %s: one history point per game", p.ID)
		n, err = rc.ZCard(ctx, "gomoku:{ratings}:p:"+p.ID+":games").Result()
		require.NoError(t, err)
		assert.Equal(t, int64(played[p.ID]), n, "player %s: one index entry per game", p.ID)
	}
}

func countRatingEvents(t *testing.T, ctx context.Context, rc redis.Cmdable, id string) int {
	evs, err := rc.LRange(ctx, "gomoku:{room:"+id+"}:events", 0, -1).Result()
	require.NoError(t, err)
	n := 0
	for _, e := range evs {
		if strings.Contains(e, `"kind":"rating"`) {
			n++
		}
	}
	return n
}
