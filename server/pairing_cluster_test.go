package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
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

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// pairingNode starts one gomokud node for quick-pairing tests (many connections from
// loopback allowed) on the Redis of rc, with its own client as a separate process has,
// and returns its base URL and its rooms. wrap (optional) stands between the node and
// its rooms.
func pairingNode(tb testing.TB, rc redis.UniversalClient, wrap ...func(*ManagerRooms) Rooms) (string, *room.Manager) {
	tb.Helper()
	return tunedPairingNode(tb, rc, nil, wrap...)
}

// tunedPairingNode is pairingNode whose seek pool tune adjusts (nil: as in production).
func tunedPairingNode(tb testing.TB, rc redis.UniversalClient, tune func(*pairing.Store), wrap ...func(*ManagerRooms) Rooms) (string, *room.Manager) {
	tb.Helper()
	if c, ok := rc.(*redis.Client); ok {
		own := redis.NewClient(&redis.Options{Addr: c.Options().Addr})
		tb.Cleanup(func() { _ = own.Close() })
		rc = own
	}
	cfg := DefaultConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.MaxConnsPerIP, cfg.RateLimit, cfg.RateBurst = 5000, 200, 200
	mgr := room.NewManager(roomStore(rc, cfg), room.Options{Logger: cfg.Logger})
	ping := func(ctx context.Context) error { return rc.Ping(ctx).Err() }
	var rooms Rooms = &ManagerRooms{M: mgr, Ping: ping}
	for _, w := range wrap {
		rooms = w(rooms.(*ManagerRooms))
	}
	pool := pairing.NewStore(rc, pairing.DefaultRules, newPairedRoom)
	if tune != nil {
		tune(pool)
	}
	srv, err := NewWith(cfg, Deps{Rooms: rooms, Players: NewRedisPlayers(rc), Ping: ping,
		Logins: NewLoginLimiter(rc, time.Now), Pairing: pool})
	require.NoError(tb, err)
	ts := httptest.NewServer(srv.Handler())
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		ts.Close()
	})
	return ts.URL, mgr
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
// at opposite colours) or not paired (cancelled, told the match failed, or the one
// left waiting in its pool), and the rooms agree with what the pages were told: every
// player seated in a game is told so, every player told is seated there, nobody sits
// in two games, and a failed match's room holds no game. Under the race detector 200
// seekers: there the thousand lobby clients of the test, each decoding every pushed
// list, take most of two cores (docs/performance.md).
func TestQuickPairingTwoNodes1000(t *testing.T) {
	rc := redistest.Start(t, redistest.WithoutAOF()).Client()
	a, ma := pairingNode(t, rc)
	b, mb := pairingNode(t, rc)
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
		failed   bool // told match_failed
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
					if m.Reason == protocol.SeekMatchFailed {
						out[i].failed = true
					} else {
						assert.Equal(t, protocol.SeekCancelled, m.Reason)
						assert.Zero(t, i%10, "only cancellers' seeks end cancelled")
						out[i].canceled = true
					}
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
	// Everyone but at most one seeker per pool settles, and whoever did not is still
	// seeking (not in a match whose outcome is on its way); then the connections close
	// so that the readers end.
	store := pairing.NewStore(rc, pairing.DefaultRules, newPairedRoom)
	waiting := func() int {
		w := 0
		for _, clock := range []string{"3+2", "5+3"} {
			pool, _ := pairing.NewPool("freestyle", clock, false)
			c, err := store.Waiting(ctx, pool)
			require.NoError(t, err)
			w += int(c)
		}
		return w
	}
	require.Eventually(t, func() bool { s := settled.Load(); return s >= int64(n-2) && int(s)+waiting() == n },
		time.Minute, 20*time.Millisecond, "whoever did not settle is still seeking")
	for _, l := range ls {
		l.Close()
	}
	wg.Wait()

	byRoom := map[string][]string{}
	told := map[string]string{} // player id → "room/colour" it was told
	paired, cancelled, failed := 0, 0, 0
	for i, o := range out {
		require.LessOrEqual(t, len(o.paired), 1, "%s paired twice", ps[i].ID)
		require.False(t, len(o.paired) == 1 && (o.canceled || o.failed), "%s paired and told it ended", ps[i].ID)
		if o.canceled {
			cancelled++
		}
		if o.failed {
			failed++
		}
		if len(o.paired) == 1 {
			paired++
			m := o.paired[0]
			byRoom[m.RoomID] = append(byRoom[m.RoomID], ps[i].ID+"/"+m.Color+"/"+m.Opponent.ID)
			told[ps[i].ID] = m.RoomID + "/" + m.Color
		}
	}
	requireSeatedAsTold(t, rc, told, ma, mb)
	for id, sides := range byRoom {
		require.Len(t, sides, 2, "room %s", id)
		sort.Strings(sides)
		s1, s2 := strings.Split(sides[0], "/"), strings.Split(sides[1], "/") // player, colour, opponent
		require.Equal(t, s1[0], s2[2])
		require.Equal(t, s2[0], s1[2])
		require.NotEqual(t, s1[1], s2[1])
	}
	require.LessOrEqual(t, n-paired-cancelled-failed, 2, "at most one seeker left waiting per pool")
	t.Logf("%d paired in %d rooms, %d cancelled, %d told the match failed, %d left waiting",
		paired, len(byRoom), cancelled, failed, n-paired-cancelled-failed)
}

// requireSeatedAsTold checks the rooms against what the pages were told (told: player
// id → "room/colour" of its paired message): each room live on the nodes or stored as
// unfinished whose game is not over seats two players, each told that room and colour;
// each player told is seated there; nobody sits in two games.
func requireSeatedAsTold(t *testing.T, rc redis.UniversalClient, told map[string]string, mgrs ...*room.Manager) {
	t.Helper()
	ctx := context.Background()
	ids, err := rc.ZRange(ctx, eventlog.KeyRoomsActive, 0, -1).Result()
	require.NoError(t, err)
	for _, m := range mgrs {
		for _, r := range m.Rooms() {
			ids = append(ids, r.ID())
		}
	}
	for _, rt := range told {
		ids = append(ids, strings.Split(rt, "/")[0])
	}
	sort.Strings(ids)
	ids = slices.Compact(ids)
	store := roomStore(rc, DefaultConfig())
	seated := map[string]string{} // player id → "room/colour" it sits at in a game
	for _, id := range ids {
		events, err := store.Events(ctx, id, 1)
		require.NoError(t, err, id)
		st, err := room.Replay(events)
		require.NoError(t, err, id)
		// A failed match's room is closed. A paired game whose first move the test's
		// players never made ends aborted after its first-move time (a long run under
		// load): it started, so its seats still count.
		if st.Phase() == room.PhaseOver && st.Summary().Reason != room.ReasonFirstMove {
			continue
		}
		if st.Phase() != room.PhaseOver {
			require.Equal(t, room.PhasePlaying, st.Phase(), "room %s: a paired room's game has started", id)
		}
		for _, c := range []engine.Color{engine.Black, engine.White} {
			p := st.Seat(c).Player
			require.NotNil(t, p, "room %s: %s seat", id, c)
			require.NotContains(t, seated, p.ID, "%s sits in two games", p.ID)
			seated[p.ID] = id + "/" + c.String()
		}
	}
	require.Equal(t, told, seated, "every player seated is told, every player told is seated")
}

// A match whose seating fails is retried; when every attempt fails both pages are told
// match_failed and the room is closed (a seat the failed attempts filled ends aborted),
// so nobody is seated opposite a player told it failed. One node makes the match, the
// other only learns its outcome.
func TestQuickPairingSeatingFails(t *testing.T) {
	for _, c := range []struct {
		name  string
		fails int64 // attempts that fail (after seating black)
		want  string
	}{
		{"one attempt fails, the retry seats both", 1, protocol.TypePaired},
		{"every attempt fails", seatAttempts, protocol.TypeSeekEnded},
	} {
		t.Run(c.name, func(t *testing.T) {
			mr := miniredis.RunT(t)
			rc := redis.NewClient(&redis.Options{Addr: mr.Addr()})
			t.Cleanup(func() { _ = rc.Close() })
			flaky := &flakyPairs{}
			flaky.fails.Store(c.fails)
			a, ma := pairingNode(t, rc, func(m *ManagerRooms) Rooms { flaky.ManagerRooms = m; return flaky })
			b, mb := pairingNode(t, rc)
			ps, ls := seekers(t, rc, 2, b, a) // the second seeker, on a, makes the match
			ctx := testCtx(t)
			_, err := ls[0].Seek(ctx, "s", "freestyle", "3+2", false)
			require.NoError(t, err)
			_, err = ls[1].Seek(ctx, "s", "freestyle", "3+2", false)
			require.NoError(t, err)
			told := map[string]string{}
			for i, l := range ls {
				m, err := l.NextOf(ctx, protocol.TypePaired, protocol.TypeSeekEnded)
				require.NoError(t, err)
				require.Equal(t, c.want, m.Type)
				if m.Type == protocol.TypeSeekEnded {
					require.Equal(t, protocol.SeekMatchFailed, m.Reason)
				} else {
					told[ps[i].ID] = m.RoomID + "/" + m.Color
				}
			}
			require.Equal(t, min(c.fails+1, seatAttempts), flaky.calls.Load(), "attempts")
			requireSeatedAsTold(t, rc, told, ma, mb)
		})
	}
}

// flakyPairs fails the first fails seatings after seating black only, as an attempt
// that ran out of time half-way would.
type flakyPairs struct {
	*ManagerRooms
	fails, calls atomic.Int64
}

func (f *flakyPairs) SeatPair(ctx context.Context, id string, settings room.Settings, black, white Player) error {
	f.calls.Add(1)
	if f.fails.Add(-1) < 0 {
		return f.ManagerRooms.SeatPair(ctx, id, settings, black, white)
	}
	r, err := f.M.Create(ctx, room.CreateRequest{ID: id, Settings: settings})
	if errors.Is(err, room.ErrConflict) {
		r, err = f.M.Get(ctx, id)
	}
	if err == nil {
		_, err = r.Do(ctx, room.Command{Kind: room.CmdSit, By: room.Player{ID: black.ID, Name: black.Name}, Color: "black"})
	}
	return errors.Join(err, context.DeadlineExceeded)
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
	a, _ := pairingNode(b, rc)
	c, _ := pairingNode(b, rc)
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
