package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// pairingNode starts one gomokud node on rc for quick-pairing tests (many connections
// from loopback allowed) and returns its base URL.
func pairingNode(tb testing.TB, rc redis.UniversalClient) string {
	tb.Helper()
	cfg := DefaultConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.MaxConnsPerIP, cfg.RateLimit, cfg.RateBurst = 5000, 200, 200
	mgr := room.NewManager(roomStore(rc, cfg), room.Options{Logger: cfg.Logger})
	ping := func(ctx context.Context) error { return rc.Ping(ctx).Err() }
	srv, err := NewWith(cfg, Deps{Rooms: &ManagerRooms{M: mgr, Ping: ping}, Players: NewRedisPlayers(rc), Ping: ping,
		Logins: NewLoginLimiter(rc, time.Now), Pairing: pairing.NewStore(rc, pairing.DefaultRules, newPairedRoom)})
	require.NoError(tb, err)
	ts := httptest.NewServer(srv.Handler())
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		ts.Close()
	})
	return ts.URL
}

// seekers registers n players and opens a lobby connection for each, alternating
// between bases.
func seekers(tb testing.TB, rc redis.UniversalClient, n int, bases ...string) ([]Player, []*wstest.Client) {
	tb.Helper()
	ctx := context.Background()
	ps := make([]Player, n)
	ls := make([]*wstest.Client, n)
	for i := range n {
		p, tok, err := register(ctx, NewRedisPlayers(rc), fmt.Sprint("P", i), "")
		require.NoError(tb, err)
		ps[i] = p
		ls[i], err = wstest.DialLobby(ctx, bases[i%len(bases)], tok)
		require.NoError(tb, err)
		tb.Cleanup(ls[i].Close)
	}
	return ps, ls
}

// 1,000 seekers on two nodes of one real Redis, two pools, one in ten cancelling at
// once: every seeker ends paired exactly once (both sides told the same room, seated
// at opposite colours) or not paired (cancelled, or the one left waiting in its pool).
// Under the race detector (5-10x slower) 200 seekers: a thousand seated at once on two
// loaded cores outlast the seating's command timeout there.
func TestQuickPairingTwoNodes1000(t *testing.T) {
	rc := redistest.Start(t, redistest.WithoutAOF()).Client()
	a, b := pairingNode(t, rc), pairingNode(t, rc)
	n := 1000
	if raceEnabled {
		n = 200
	}
	ps, ls := seekers(t, rc, n, a, b)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	type outcome struct {
		paired   []wstest.Msg
		canceled bool
	}
	out := make([]outcome, n)
	var settled atomic.Int64 // seekers whose outcome is known
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clock := []string{"3+2", "5+3"}[i%2]
			_, err := ls[i].Seek(ctx, "s", "freestyle", clock, false)
			if !assert.NoError(t, err) {
				return
			}
			if i%10 == 0 {
				_ = ls[i].Send(map[string]any{"type": "cancel", "id": "c"})
			}
			for {
				m, err := ls[i].NextOf(ctx, protocol.TypePaired, protocol.TypeSeekEnded)
				if err != nil {
					return // still seeking when the test ends it
				}
				if m.Type == protocol.TypeSeekEnded {
					assert.Equal(t, protocol.SeekCancelled, m.Reason)
					assert.Zero(t, i%10, "only cancellers' seeks end unpaired")
					out[i].canceled = true
					settled.Add(1)
					return
				}
				out[i].paired = append(out[i].paired, m)
				settled.Add(1)
				if i%10 != 0 {
					return
				}
				// A canceller paired first reads on: a second paired would show here.
			}
		}()
	}
	// Everyone but at most one seeker per pool settles; then the connections close
	// so that the readers end.
	require.Eventually(t, func() bool { return settled.Load() >= int64(n-2) }, time.Minute, 20*time.Millisecond)
	store := pairing.NewStore(rc, pairing.DefaultRules, newPairedRoom)
	waiting := 0
	for _, clock := range []string{"3+2", "5+3"} {
		pool, _ := pairing.NewPool("freestyle", clock, false)
		w, err := store.Waiting(ctx, pool)
		require.NoError(t, err)
		waiting += int(w)
	}
	require.Equal(t, n-int(settled.Load()), waiting, "whoever did not settle is still seeking")
	for _, l := range ls {
		l.Close()
	}
	wg.Wait()

	byRoom := map[string][]string{}
	paired, cancelled := 0, 0
	for i, o := range out {
		require.LessOrEqual(t, len(o.paired), 1, "%s paired twice", ps[i].ID)
		require.False(t, len(o.paired) == 1 && o.canceled, "%s paired and cancelled", ps[i].ID)
		if o.canceled {
			cancelled++
		}
		if len(o.paired) == 1 {
			paired++
			m := o.paired[0]
			byRoom[m.RoomID] = append(byRoom[m.RoomID], ps[i].ID+"/"+m.Color+"/"+m.Opponent.ID)
		}
	}
	for id, sides := range byRoom {
		require.Len(t, sides, 2, "room %s", id)
		sort.Strings(sides)
		s1, s2 := strings.Split(sides[0], "/"), strings.Split(sides[1], "/") // player, colour, opponent
		require.Equal(t, s1[0], s2[2])
		require.Equal(t, s2[0], s1[2])
		require.NotEqual(t, s1[1], s2[1])
	}
	require.LessOrEqual(t, n-paired-cancelled, 2, "at most one seeker left waiting per pool")
	t.Logf("%d paired in %d rooms, %d cancelled, %d left waiting", paired, len(byRoom), cancelled, n-paired-cancelled)
}

// BenchmarkQuickPairing measures the pairing latency once a match exists: from the
// second seek of a compatible pair to both pages told their room (two nodes, each
// seeker on its own). Real Redis with GOMOKU_INTEGRATION=1, else miniredis.
func BenchmarkQuickPairing(b *testing.B) {
	var rc redis.UniversalClient
	if redistest.Enabled() {
		rc = redistest.Start(b, redistest.WithoutAOF()).Client()
	} else {
		c := redis.NewClient(&redis.Options{Addr: miniredis.RunT(b).Addr()})
		b.Cleanup(func() { _ = c.Close() })
		rc = c
	}
	a, c := pairingNode(b, rc), pairingNode(b, rc)
	_, ls := seekers(b, rc, 2*b.N, a, c)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		x, y := ls[2*i], ls[2*i+1]
		if _, err := x.Seek(ctx, "s", "freestyle", "3+2", false); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := y.Send(map[string]any{"type": "seek", "id": "s", "clock": "3+2"}); err != nil {
			b.Fatal(err)
		}
		for _, l := range []*wstest.Client{x, y} {
			if _, err := l.NextOf(ctx, protocol.TypePaired); err != nil {
				b.Fatal(err)
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}
