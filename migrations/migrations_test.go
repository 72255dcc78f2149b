package migrations

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...interface{}) {}

func TestMain(m *testing.M) {
	redis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}

type backend struct {
	addr string
	kill func()
}

var backends = []struct {
	name string
	mk   func(t *testing.T) backend
}{
	{"miniredis", func(t *testing.T) backend {
		m := miniredis.RunT(t)
		m.ClockTTL(true)
		return backend{m.Addr(), m.Close}
	}},
	{"redis-server", func(t *testing.T) backend {
		s := redistest.Start(t)
		return backend{s.Addr(), s.Kill}
	}},
}

func eachBackend(t *testing.T, f func(t *testing.T, b backend, newClient func() *redis.Client)) {
	for _, bk := range backends {
		t.Run(bk.name, func(t *testing.T) {
			b := bk.mk(t)
			f(t, b, func() *redis.Client {
				c := redis.NewClient(&redis.Options{Addr: b.addr, MaxRetries: 1})
				t.Cleanup(func() { _ = c.Close() })
				return c
			})
		})
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)) }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestEmptyStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ backend, newClient func() *redis.Client) {
		ctx, c := ctxT(t), newClient()
		cur, latest, pending, err := Status(ctx, c)
		require.NoError(t, err)
		assert.Equal(t, 0, cur)
		assert.Equal(t, Latest(), latest)
		require.Len(t, pending, Latest())
		assert.Equal(t, 1, pending[0].Version)

		require.NoError(t, Apply(ctx, c, quiet()))
		cur, _, pending, err = Status(ctx, c)
		require.NoError(t, err)
		assert.Equal(t, Latest(), cur)
		assert.Empty(t, pending)
		h, err := c.HGetAll(ctx, KeySchema).Result()
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprint(Latest()), h["version"])
		assert.Contains(t, h, "applied:1")
		assert.Contains(t, h, "applied:2")
		assert.Contains(t, h, "applied:3")
		assert.Contains(t, h, "created")

		// Re-running is a no-op.
		require.NoError(t, Apply(ctx, c, quiet()))
		h2, err := c.HGetAll(ctx, KeySchema).Result()
		require.NoError(t, err)
		assert.Equal(t, h, h2)
		n, err := c.Exists(ctx, KeyLock).Result()
		require.NoError(t, err)
		assert.Zero(t, n, "lock released")
	})
}

// TestUpgradePopulatedV1 builds a store the way layout v1 wrote it (lobby
// scores in seconds), upgrades it, and checks that the current eventlog
// code then reads it correctly.
func TestUpgradePopulatedV1(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ backend, newClient func() *redis.Client) {
		ctx, c := ctxT(t), newClient()
		require.NoError(t, apply(ctx, c, quiet(), All()[:1], defaults))
		cur, _, pending, err := Status(ctx, c)
		require.NoError(t, err)
		require.Equal(t, 1, cur)
		require.Len(t, pending, Latest()-1)

		now := time.Now().Truncate(time.Second)
		st := eventlog.New(c, eventlog.WithLobbyInScript(false))
		const rooms = 300
		defer func(b int) { msBatch = b }(msBatch)
		msBatch = 64 // several conversion batches per key
		for i := 0; i < rooms; i++ {
			id := fmt.Sprintf("r%04d", i)
			require.NoError(t, v1CreateRoom(ctx, c, id, map[string]string{"i": fmt.Sprint(i)}, `{"kind":"created"}`))
			at := now.Add(-time.Duration(rooms-i) * time.Minute) // r0299 most recent
			switch {
			case i%3 == 0:
				require.NoError(t, v1Touch(ctx, c, id, at, "finished"))
			case i%3 == 1:
				require.NoError(t, v1Touch(ctx, c, id, at, "live", "open"))
			default:
				require.NoError(t, v1Touch(ctx, c, id, at, "live"))
			}
		}
		// A v2 node in a rolling upgrade already wrote an ms score: kept as is.
		msScore := float64(now.UnixMilli() + 5)
		require.NoError(t, c.ZAdd(ctx, "gomoku:lobby:live", redis.Z{Score: msScore, Member: "fresh"}).Err())

		require.NoError(t, Apply(ctx, c, quiet()))
		cur, _, _, err = Status(ctx, c)
		require.NoError(t, err)
		require.Equal(t, Latest(), cur)

		for _, key := range lobbyKeysV2 {
			zs, err := c.ZRangeWithScores(ctx, key, 0, -1).Result()
			require.NoError(t, err)
			for _, z := range zs {
				require.GreaterOrEqual(t, z.Score, msFloor, "%s %v", key, z.Member)
			}
		}
		sc, err := c.ZScore(ctx, "gomoku:lobby:live", "fresh").Result()
		require.NoError(t, err)
		assert.Equal(t, msScore, sc)
		sc, err = c.ZScore(ctx, "gomoku:lobby:finished", "r0000").Result()
		require.NoError(t, err)
		assert.Equal(t, float64(now.Add(-rooms*time.Minute).UnixMilli()), sc)

		// The current store reads the migrated rooms and indexes: most recent first, and
		// finished games within the retention are not pruned as ancient.
		ids, _, err := st.List(ctx, eventlog.IndexLive, "", 3)
		require.NoError(t, err)
		assert.Equal(t, []string{"fresh", "r0299", "r0298"}, ids)
		n, err := st.Count(ctx, eventlog.IndexFinished)
		require.NoError(t, err)
		assert.Equal(t, int64(rooms/3), n)
		ids, _, err = st.List(ctx, eventlog.IndexFinished, "", 1000)
		require.NoError(t, err)
		assert.Len(t, ids, rooms/3)
		assert.Equal(t, "r0297", ids[0])
		live, err := st.LiveRooms(ctx)
		require.NoError(t, err)
		assert.Len(t, live, rooms-rooms/3+1, "v3 active index filled from live and open")
		assert.Equal(t, "r0001", live[0], "least recently active first")
		assert.Equal(t, "fresh", live[len(live)-1])

		f, seq, err := st.Load(ctx, "r0007")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), seq)
		assert.Equal(t, "7", f["i"])
		_, err = st.Append(ctx, "r0007", 1, [][]byte{[]byte(`{"kind":"move"}`)}, nil, eventlog.Touch(time.Time{}, eventlog.IndexLive))
		require.NoError(t, err)

		// Re-running migration 2 itself changes nothing.
		before, err := c.ZRangeWithScores(ctx, "gomoku:lobby:open", 0, -1).Result()
		require.NoError(t, err)
		require.NoError(t, up2(ctx, c))
		after, err := c.ZRangeWithScores(ctx, "gomoku:lobby:open", 0, -1).Result()
		require.NoError(t, err)
		assert.Equal(t, before, after)
		before, err = c.ZRangeWithScores(ctx, keyActiveV3, 0, -1).Result()
		require.NoError(t, err)
		require.NoError(t, up3(ctx, c))
		after, err = c.ZRangeWithScores(ctx, keyActiveV3, 0, -1).Result()
		require.NoError(t, err)
		assert.Equal(t, before, after)
	})
}

func TestBogusTinyScoresTerminate(t *testing.T) {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	ctx := ctxT(t)
	for i := 0; i < msBatch+10; i++ {
		require.NoError(t, c.ZAdd(ctx, "gomoku:lobby:live", redis.Z{Score: float64(i), Member: fmt.Sprint(i)}).Err())
	}
	require.NoError(t, up2(ctx, c))
	zs, err := c.ZRangeWithScores(ctx, "gomoku:lobby:live", 0, 0).Result()
	require.NoError(t, err)
	assert.Equal(t, msFloor, zs[0].Score)
}

// TestConcurrentStartups races nodes on an empty store: each migration runs
// exactly once, never two at a time, and every node ends up on the latest
// version. The slow migration outlives the lock TTL, so renewal is exercised.
func TestConcurrentStartups(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ backend, newClient func() *redis.Client) {
		ctx := ctxT(t)
		var running, maxRunning atomic.Int32
		list := All()
		list = append(list, Migration{Latest() + 1, "slow test migration", func(ctx context.Context, c redis.UniversalClient) error {
			time.Sleep(700 * time.Millisecond)
			return nil
		}})
		runs := make([]atomic.Int32, len(list))
		for i := range list {
			up := list[i].Up
			i := i
			list[i].Up = func(ctx context.Context, c redis.UniversalClient) error {
				r := running.Add(1)
				defer running.Add(-1)
				for {
					m := maxRunning.Load()
					if r <= m || maxRunning.CompareAndSwap(m, r) {
						break
					}
				}
				runs[i].Add(1)
				return up(ctx, c)
			}
		}
		o := options{lockTTL: 2 * time.Second, pollWait: 10 * time.Millisecond}
		const nodes = 8
		var wg sync.WaitGroup
		errs := make([]error, nodes)
		for n := 0; n < nodes; n++ {
			c := newClient()
			wg.Add(1)
			go func(n int) {
				defer wg.Done()
				errs[n] = apply(ctx, c, quiet(), list, o)
			}(n)
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		for i := range runs {
			assert.Equal(t, int32(1), runs[i].Load(), "migration %d", i+1)
		}
		assert.Equal(t, int32(1), maxRunning.Load())
		v, err := version(ctx, newClient())
		require.NoError(t, err)
		assert.Equal(t, Latest()+1, v)
	})
}

// TestDeadMigratorLock: a node died holding the lock; the next one waits for
// the lock to expire and then migrates.
func TestDeadMigratorLock(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ backend, newClient func() *redis.Client) {
		ctx, c := ctxT(t), newClient()
		require.NoError(t, c.Set(ctx, KeyLock, "dead-node", 400*time.Millisecond).Err())
		start := time.Now()
		require.NoError(t, apply(ctx, c, quiet(), All(), options{lockTTL: time.Second, pollWait: 20 * time.Millisecond}))
		assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
		v, err := version(ctx, c)
		require.NoError(t, err)
		assert.Equal(t, Latest(), v)
	})
}

func TestFailedMigrationIsRetried(t *testing.T) {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	ctx := ctxT(t)
	fail := true
	list := append(All(), Migration{Latest() + 1, "flaky", func(context.Context, redis.UniversalClient) error {
		if fail {
			return errors.New("boom")
		}
		return nil
	}})
	err := apply(ctx, c, quiet(), list, defaults)
	require.ErrorContains(t, err, "boom")
	v, err := version(ctx, c)
	require.NoError(t, err)
	assert.Equal(t, Latest(), v, "versions before the failure are recorded")
	assert.False(t, m.Exists(KeyLock), "lock released on failure")
	fail = false
	require.NoError(t, apply(ctx, c, quiet(), list, defaults))
	v, err = version(ctx, c)
	require.NoError(t, err)
	assert.Equal(t, Latest()+1, v)
}

func TestTooNewAndUnavailable(t *testing.T) {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	ctx := ctxT(t)
	m.HSet(KeySchema, "version", "99")
	assert.ErrorIs(t, Apply(ctx, c, quiet()), ErrTooNew)
	cur, latest, pending, err := Status(ctx, c)
	require.NoError(t, err)
	assert.Equal(t, 99, cur)
	assert.Equal(t, Latest(), latest)
	assert.Empty(t, pending)
	m.HSet(KeySchema, "version", "x")
	assert.Error(t, Apply(ctx, c, quiet()))
	m.Close()
	assert.ErrorIs(t, Apply(ctx, c, quiet()), ErrUnavailable)
	_, _, _, err = Status(ctx, c)
	assert.ErrorIs(t, err, ErrUnavailable)
}

func TestApplyOnCluster(t *testing.T) {
	cl := redistest.StartCluster(t, 3)
	c := cl.Client()
	ctx := ctxT(t)
	require.NoError(t, apply(ctx, c, quiet(), All()[:1], defaults))
	for i := 0; i < 50; i++ {
		require.NoError(t, v1Touch(ctx, c, fmt.Sprint("room", i), time.Unix(1_700_000_000+int64(i), 0), "live"))
	}
	require.NoError(t, Apply(ctx, c, quiet()))
	cur, _, _, err := Status(ctx, c)
	require.NoError(t, err)
	assert.Equal(t, Latest(), cur)
	sc, err := c.ZScore(ctx, "gomoku:lobby:live", "room7").Result()
	require.NoError(t, err)
	assert.Equal(t, float64(1_700_000_007_000), sc)
	sc, err = c.ZScore(ctx, keyActiveV3, "room7").Result()
	require.NoError(t, err)
	assert.Equal(t, float64(1_700_000_007_000), sc)
}

// TestMigrationAbortsWhenItLosesTheLock: another node takes the lock while a long
// migration runs (this one stalled past the lock's TTL). The migration's context ends
// with ErrLockLost at the next renewal, the attempt stops without recording its version,
// and the next attempt, under a lock of its own, applies it.
func TestMigrationAbortsWhenItLosesTheLock(t *testing.T) {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	ctx := ctxT(t)
	runs := 0
	var cause error
	list := append(All(), Migration{Latest() + 1, "long", func(ctx context.Context, c redis.UniversalClient) error {
		runs++
		if runs > 1 {
			return nil
		}
		if err := c.Set(ctx, KeyLock, "another-node", time.Minute).Err(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			cause = context.Cause(ctx)
			// Give the lock back as the other node would when done.
			return errors.Join(ctx.Err(), c.Del(context.WithoutCancel(ctx), KeyLock).Err())
		case <-time.After(10 * time.Second):
			return errors.New("the migration went on without its lock")
		}
	}})
	require.NoError(t, apply(ctx, c, quiet(), list, options{lockTTL: 300 * time.Millisecond, pollWait: 10 * time.Millisecond}))
	assert.ErrorIs(t, cause, ErrLockLost)
	assert.Equal(t, 2, runs)
	v, err := version(ctx, c)
	require.NoError(t, err)
	assert.Equal(t, Latest()+1, v)
}
