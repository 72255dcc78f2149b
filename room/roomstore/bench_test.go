package roomstore

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

// benchClient is a real redis-server (AOF everysec, as bench.sh) with
// GOMOKU_INTEGRATION=1, else miniredis (whose own work and allocations, in this
// process, are then part of the figures).
func benchClient(b *testing.B) (redis.UniversalClient, string) {
	addr, name := "", "miniredis"
	if os.Getenv("GOMOKU_INTEGRATION") == "1" {
		addr, name = redistest.Start(b, redistest.WithFsync("everysec")).Addr(), "redis-server"
	} else {
		addr = miniredis.RunT(b).Addr()
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	b.Cleanup(func() { _ = c.Close() })
	return c, name
}

// BenchmarkMovePersisted: one op is one move applied, persisted (the append script on
// Redis) and published to the room's subscribers, through the room actor on the
// Redis store, as the server runs it: rooms=1 measures latency, rooms=64 the batched
// path with 64 rooms moving at once. Allocations are the node's (plus miniredis's
// without GOMOKU_INTEGRATION=1).
func BenchmarkMovePersisted(b *testing.B) {
	c, name := benchClient(b)
	for _, rooms := range []int{1, 64} {
		b.Run(fmt.Sprintf("%s/rooms=%d", name, rooms), func(b *testing.B) {
			st := New(eventlog.New(c))
			m := room.NewManager(st, room.Options{})
			defer m.Shutdown(context.Background())
			players := make([]*benchGame, rooms)
			for i := range players {
				players[i] = newBenchGame(b, m, i)
			}
			per := b.N / rooms
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for _, g := range players {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range per {
						g.move(b)
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			if el := time.Since(start); per > 0 {
				b.ReportMetric(float64(per*rooms)/el.Seconds(), "moves/s")
			}
		})
	}
}

// benchGame is a room with two humans moving in turn (rematch when a game ends).
type benchGame struct {
	r     *room.Room
	p     [2]room.Player
	sub   *room.Subscription
	next  int
	board int
}

func newBenchGame(b *testing.B, m *room.Manager, i int) *benchGame {
	ctx := context.Background()
	g := &benchGame{p: [2]room.Player{{ID: fmt.Sprintf("pa%d", i), Name: "a"}, {ID: fmt.Sprintf("pb%d", i), Name: "b"}}}
	r, err := m.Create(ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &g.p[0], Color: "black"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := r.Do(ctx, room.Command{Kind: room.CmdSit, By: g.p[1], Color: "white"}); err != nil {
		b.Fatal(err)
	}
	g.r = r
	// A subscriber that reads everything, like a connection.
	g.sub, err = r.Subscribe(ctx, room.SubscribeOptions{Viewer: g.p[0], Queue: 1 << 12})
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		for range g.sub.C {
		}
	}()
	return g
}

// move plays the next point of a fixed pattern that never makes five in a row.
func (g *benchGame) move(b *testing.B) {
	ctx := context.Background()
	st := g.r.State()
	if st.Phase() != room.PhasePlaying || st.Ply() >= 200 {
		if st.Phase() == room.PhasePlaying {
			by := g.p[0]
			if st.ColorOf(by.ID) != st.ToMove() {
				by = g.p[1]
			}
			if _, err := g.r.Do(ctx, room.Command{Kind: room.CmdResign, By: by}); err != nil {
				b.Fatal(err)
			}
		}
		for _, by := range g.p {
			if _, err := g.r.Do(ctx, room.Command{Kind: room.CmdRematch, By: by}); err != nil {
				b.Fatal(err)
			}
		}
		st = g.r.State()
	}
	ply := st.Ply()
	by := g.p[0]
	if st.ColorOf(by.ID) != st.ToMove() {
		by = g.p[1]
	}
	// Columns filled two by two from the left: runs of at most four, no five.
	x, y := ply/15, ply%15
	if (x/2)%2 == 1 {
		y = 14 - y
	}
	p := fmt.Sprintf("%c%d", 'a'+x, y+1)
	if _, err := g.r.Do(ctx, room.Command{Kind: room.CmdMove, By: by, Ply: ply, Point: p}); err != nil {
		b.Fatalf("move %s at %d: %v", p, ply, err)
	}
}
