package pairing

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// newTestStore returns a store on an in-process Redis whose room ids count up and
// whose colour coin always makes the first (or lower) seeker black.
func newTestStore(t *testing.T) (*Store, *miniredis.Miniredis) {
	t.Helper()
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	var mu sync.Mutex
	n := 0
	return NewStore(c, DefaultRules, func() (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprintf("room%d", n), true
	}), m
}

func seeker(id string, rating float64) Seeker { return Seeker{ID: id, Name: "N" + id, Rating: rating} }

func TestSeekPairsClosestCompatible(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	pool, _ := NewPool("freestyle", "3+2", false)
	other, _ := NewPool("renju", "3+2", false)
	for _, sk := range []Seeker{seeker("far", 1700), seeker("near", 1540), seeker("mid", 1580)} {
		m, err := s.Seek(ctx, pool, sk, "n-"+sk.ID, t0)
		require.NoError(t, err)
		if sk.ID == "far" {
			require.Nil(t, m)
		}
	}
	// near (1540) and mid (1580) paired when mid came; far waits.
	m, err := s.Seek(ctx, other, seeker("x", 1500), "n-x", t0)
	require.NoError(t, err)
	require.Nil(t, m, "another pool pairs nobody")
	m, err = s.Seek(ctx, pool, seeker("me", 1650), "n-me", t0)
	require.NoError(t, err)
	require.NotNil(t, m)
	require.Equal(t, "me", m.Black.ID, "coin 1: the newcomer is black")
	require.Equal(t, "far", m.White.ID)
	require.Equal(t, "Nfar", m.White.Name)
	require.Equal(t, 1700.0, m.White.Rating)
	require.Equal(t, pool.String(), m.Pool)
	n, err := s.Waiting(ctx, pool)
	require.NoError(t, err)
	require.Zero(t, n)
}

// The sweep pairs two seekers once the longer wait has widened the range enough,
// with the same rule as Rules.Compatible (the script and Go agree).
func TestSweepWidensWithWaitingTime(t *testing.T) {
	ctx := context.Background()
	pool, _ := NewPool("freestyle", "5+3", true)
	for _, c := range []struct {
		diff  float64
		after time.Duration
	}{{100, 0}, {101, 0}, {250, 14 * time.Second}, {250, 15 * time.Second}, {600, time.Hour}, {601, time.Hour}} {
		t.Run(fmt.Sprintf("%v after %v", c.diff, c.after), func(t *testing.T) {
			s, _ := newTestStore(t)
			s.TTL = 2 * time.Hour
			_, err := s.Seek(ctx, pool, seeker("a", 1400), "na", t0)
			require.NoError(t, err)
			a := Seeker{Rating: 1400, Since: t0}
			b := Seeker{Rating: 1400 + c.diff, Since: t0.Add(c.after / 2)}
			m, err := s.Seek(ctx, pool, seeker("b", b.Rating), "nb", b.Since)
			require.NoError(t, err)
			require.Equal(t, DefaultRules.Compatible(a, b, b.Since), m != nil, "on arrival")
			if m != nil {
				return
			}
			ms, err := s.Sweep(ctx, t0.Add(c.after), 4)
			require.NoError(t, err)
			require.Equal(t, DefaultRules.Compatible(a, b, t0.Add(c.after)), len(ms) == 1, "sweep")
		})
	}
}

func TestSweepPairsEachOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	pool, _ := NewPool("standard", "10+5", false)
	// 900 apart each: nobody pairs on arrival.
	for i := range 6 {
		_, err := s.Seek(ctx, pool, seeker(fmt.Sprint("p", i), float64(1000+900*i)), "n", t0)
		require.NoError(t, err)
	}
	ms, err := s.Sweep(ctx, t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Empty(t, ms, "600 is the widest range")
	s.rules.Max = 1000 // as if the rules had changed: now neighbours fit
	ms, err = s.Sweep(ctx, t0.Add(time.Hour), 2)
	require.NoError(t, err)
	require.Len(t, ms, 2, "at most as many matches as room ids")
	ms2, err := s.Sweep(ctx, t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Len(t, ms2, 1)
	seen := map[string]bool{}
	for _, m := range append(ms, ms2...) {
		for _, id := range []string{m.Black.ID, m.White.ID} {
			require.False(t, seen[id], "%s paired twice", id)
			seen[id] = true
		}
	}
	require.Len(t, seen, 6)
}

func TestCancelHeartbeatAndExpiry(t *testing.T) {
	ctx := context.Background()
	s, mr := newTestStore(t)
	pool, _ := NewPool("freestyle", "1+0", false)
	_, err := s.Seek(ctx, pool, seeker("a", 1500), "tab1", t0)
	require.NoError(t, err)

	st, _, err := heartbeat(ctx, s, "a", "tab1")
	require.NoError(t, err)
	require.Equal(t, StatusOK, st)
	st, _, err = s.Cancel(ctx, "a", "other-tab")
	require.NoError(t, err)
	require.Equal(t, StatusReplaced, st, "only the owning connection cancels")
	st, _, err = s.Cancel(ctx, "a", "tab1")
	require.NoError(t, err)
	require.Equal(t, StatusCancelled, st)
	st, _, err = heartbeat(ctx, s, "a", "tab1")
	require.NoError(t, err)
	require.Equal(t, StatusGone, st)
	n, _ := s.Waiting(ctx, pool)
	require.Zero(t, n)

	// A seek without heartbeats (its node died) runs out and pairs nobody.
	_, err = s.Seek(ctx, pool, seeker("dead", 1500), "x", t0)
	require.NoError(t, err)
	mr.FastForward(s.TTL + time.Second)
	m, err := s.Seek(ctx, pool, seeker("b", 1500), "y", t0.Add(s.TTL+time.Second))
	require.NoError(t, err)
	require.Nil(t, m)
	n, _ = s.Waiting(ctx, pool)
	require.Equal(t, int64(1), n, "the dead seek was dropped, b waits")

	// Matched: cancel is too late and returns the match; so does the heartbeat.
	m, err = s.Seek(ctx, pool, seeker("c", 1500), "z", t0.Add(s.TTL+time.Second))
	require.NoError(t, err)
	require.NotNil(t, m)
	beat := func(ctx context.Context, player, nonce string) (Status, *Match, error) {
		return heartbeat(ctx, s, player, nonce)
	}
	for _, f := range []func(context.Context, string, string) (Status, *Match, error){s.Cancel, beat} {
		st, got, err := f(ctx, "b", "y")
		require.NoError(t, err)
		require.Equal(t, StatusMatched, st)
		require.Equal(t, *m, *got)
	}
}

func TestReseekReplaces(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	p1, _ := NewPool("freestyle", "3+2", false)
	p2, _ := NewPool("freestyle", "5+3", false)
	_, err := s.Seek(ctx, p1, seeker("a", 1500), "tab1", t0)
	require.NoError(t, err)
	_, err = s.Seek(ctx, p2, seeker("a", 1500), "tab2", t0)
	require.NoError(t, err)
	n, _ := s.Waiting(ctx, p1)
	require.Zero(t, n, "a seeks in one pool at a time")
	st, _, err := heartbeat(ctx, s, "a", "tab1")
	require.NoError(t, err)
	require.Equal(t, StatusReplaced, st)
	m, err := s.Seek(ctx, p2, seeker("b", 1500), "tab3", t0)
	require.NoError(t, err)
	require.NotNil(t, m)
	require.Equal(t, "a", m.White.ID, "a is paired in the pool it seeks now")
}

func heartbeat(ctx context.Context, s *Store, player, nonce string) (Status, *Match, error) {
	b, err := s.Heartbeats(ctx, []Owned{{player, nonce}})
	if err != nil {
		return "", nil, err
	}
	return b[0].Status, b[0].Match, nil
}

// A node's heartbeat renews all its seeks in one call and reports each one's fate; a
// renewed seek outlives its TTL, one left out runs out.
func TestHeartbeatsRenewAllInOneCall(t *testing.T) {
	ctx := context.Background()
	s, mr := newTestStore(t)
	pool, _ := NewPool("freestyle", "3+2", false)
	far, _ := NewPool("renju", "3+2", false)
	for i := range 5 {
		_, err := s.Seek(ctx, pool, seeker(fmt.Sprint("r", i), float64(1000+200*i)), "n", t0)
		require.NoError(t, err)
	}
	_, err := s.Seek(ctx, far, seeker("left", 1500), "n", t0)
	require.NoError(t, err)
	_, err = s.Seek(ctx, far, seeker("m1", 2500), "n", t0)
	require.NoError(t, err)
	m, err := s.Seek(ctx, far, seeker("m2", 2500), "n", t0)
	require.NoError(t, err)
	require.NotNil(t, m)

	seeks := []Owned{{"r0", "n"}, {"r1", "n"}, {"r2", "n"}, {"r3", "n"}, {"r4", "n"},
		{"m1", "n"}, {"nobody", "n"}, {"r0", "other-tab"}}
	want := []Status{StatusOK, StatusOK, StatusOK, StatusOK, StatusOK, StatusMatched, StatusGone, StatusReplaced}
	calls := &countHook{}
	s.c.AddHook(calls)
	for round := range 3 {
		mr.FastForward(s.TTL - time.Second)
		before := calls.n.Load()
		beats, err := s.Heartbeats(ctx, seeks)
		require.NoError(t, err)
		if round > 0 { // the first call also loads the script
			require.Equal(t, int64(1), calls.n.Load()-before, "one call for every seek")
		}
		require.Len(t, beats, len(seeks))
		for i, b := range beats {
			require.Equal(t, want[i], b.Status, seeks[i].Player)
			require.Equal(t, b.Status == StatusMatched, b.Match != nil)
		}
		require.Equal(t, *m, *beats[5].Match)
	}
	n, err := s.Waiting(ctx, pool)
	require.NoError(t, err)
	require.Equal(t, int64(5), n, "renewed past three TTLs")
	require.False(t, mr.Exists(KeySeekPrefix+"left"), "the seek nobody renewed ran out")
}

// More seeks than one batch: each comes back in its place.
func TestHeartbeatsBatches(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	pool, _ := NewPool("freestyle", "3+2", false)
	seeks := make([]Owned, renewBatch+3)
	for i := range seeks {
		id := fmt.Sprint("p", i)
		seeks[i] = Owned{id, "n"}
	}
	for _, i := range []int{0, renewBatch - 1, renewBatch, renewBatch + 2} {
		_, err := s.Seek(ctx, pool, seeker(seeks[i].Player, float64(1000*i)), "n", t0)
		require.NoError(t, err)
	}
	beats, err := s.Heartbeats(ctx, seeks)
	require.NoError(t, err)
	require.Len(t, beats, len(seeks))
	for i, b := range beats {
		w := StatusGone
		if i == 0 || i == renewBatch-1 || i == renewBatch || i == renewBatch+2 {
			w = StatusOK
		}
		require.Equal(t, w, b.Status, i)
	}
}

// countHook counts the commands a client sends.
type countHook struct{ n atomic.Int64 }

func (h *countHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}
func (h *countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}
