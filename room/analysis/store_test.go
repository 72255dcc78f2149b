package analysis

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog"
)

func newRedisStore(t *testing.T) (*RedisStore, *miniredis.Miniredis, redis.UniversalClient) {
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	return NewRedisStore(c, time.Hour), mr, c
}

func TestRedisStoreLeaseAndSave(t *testing.T) {
	st, mr, c := newRedisStore(t)
	ctx := context.Background()
	res, leased, err := st.Load(ctx, "r1", 2)
	require.NoError(t, err)
	assert.Nil(t, res)
	assert.False(t, leased)

	ok, err := st.Lease(ctx, "r1", 2, "a", time.Minute)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = st.Lease(ctx, "r1", 2, "b", time.Minute)
	require.NoError(t, err)
	assert.False(t, ok, "the lease is exclusive")
	ok, err = st.Lease(ctx, "r1", 3, "b", time.Minute)
	require.NoError(t, err)
	assert.True(t, ok, "another game has its own lease")
	ok, err = st.Lease(ctx, "r1", 2, "a", time.Minute)
	require.NoError(t, err)
	assert.True(t, ok, "the holder extends it")

	assert.ErrorIs(t, st.Save(ctx, "r1", 2, "b", Result{Status: StatusDone}), ErrLeaseLost)
	want := Result{Status: StatusDone, Size: 15, Moves: []string{"h8"}, Total: 2, Positions: []Position{{Ply: 0, Best: "h8", Black: 0.5}}}
	require.NoError(t, st.Save(ctx, "r1", 2, "a", want))
	res, leased, err = st.Load(ctx, "r1", 2)
	require.NoError(t, err)
	assert.True(t, leased)
	assert.Equal(t, &want, res)

	rk, lk := Keys("r1", 2)
	assert.Equal(t, "gomoku:{room:r1}:analysis:2", rk)
	assert.Equal(t, eventlog.KeysFor("r1").Events[:len("gomoku:{room:r1}")], rk[:len("gomoku:{room:r1}")], "the room's hash tag")
	assert.Equal(t, time.Hour, mr.TTL(rk), "at least the retention")

	require.NoError(t, st.Release(ctx, "r1", 2, "b"), "not the holder: nothing happens")
	assert.True(t, mr.Exists(lk))
	require.NoError(t, st.Release(ctx, "r1", 2, "a"))
	assert.False(t, mr.Exists(lk))
	ok, err = st.Lease(ctx, "r1", 2, "b", time.Minute)
	require.NoError(t, err)
	assert.True(t, ok)

	// A lease that ran out is free again.
	mr.FastForward(2 * time.Minute)
	ok, err = st.Lease(ctx, "r1", 2, "a", time.Minute)
	require.NoError(t, err)
	assert.True(t, ok)

	// Kept as long as the room's events when they live longer.
	require.NoError(t, c.RPush(ctx, eventlog.KeysFor("r1").Events, "{}").Err())
	require.NoError(t, c.Expire(ctx, eventlog.KeysFor("r1").Events, 30*24*time.Hour).Err())
	require.NoError(t, st.Save(ctx, "r1", 2, "a", want))
	assert.Equal(t, 30*24*time.Hour, mr.TTL(rk))
}

// gate is a Runner whose work waits until the test opens it, and counts its runs.
type gate struct {
	open chan struct{}
	runs atomic.Int32
}

func (g *gate) Background(ctx context.Context, fn func(context.Context) error) error {
	g.runs.Add(1)
	select {
	case <-g.open:
	case <-ctx.Done():
		return ctx.Err()
	}
	return fn(ctx)
}

func TestServiceComputesOnceAcrossNodes(t *testing.T) {
	st, _, _ := newRedisStore(t)
	ctx := context.Background()
	ga, gb := &gate{open: make(chan struct{})}, &gate{open: make(chan struct{})}
	a := NewService(st, ga, "node-a", WithBudget(testBudget))
	b := NewService(st, gb, "node-b", WithBudget(testBudget))
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	g := game(t, "h8 a1 i8 a2 j8 a3 k8 a4 l8")

	ended := make(chan struct{})
	_, started, err := a.Start(ctx, "r1", 1, g, func() { close(ended) })
	require.NoError(t, err)
	require.True(t, started)
	res, started, err := b.Start(ctx, "r1", 1, g, func() { t.Error("node b started nothing") })
	require.NoError(t, err)
	assert.False(t, started)
	assert.Nil(t, res, "nothing stored yet")
	_, leased, err := b.Get(ctx, "r1", 1)
	require.NoError(t, err)
	assert.True(t, leased, "node a computes it")

	close(ga.open)
	require.Eventually(t, func() bool {
		r, _, err := b.Get(ctx, "r1", 1)
		return err == nil && r != nil && r.Status == StatusDone
	}, time.Minute, 5*time.Millisecond)
	<-ended // onEnd is called when the work ends
	res, started, err = b.Start(ctx, "r1", 1, g, nil)
	require.NoError(t, err)
	assert.False(t, started)
	assert.Equal(t, StatusDone, res.Status)
	assert.Len(t, res.Positions, 10)
	assert.Zero(t, gb.runs.Load(), "node b never computed")
	require.Eventually(t, func() bool { _, l, _ := a.Get(ctx, "r1", 1); return !l }, time.Minute, 5*time.Millisecond,
		"the lease is released")
}

func TestServiceResumesAndLimits(t *testing.T) {
	st, _, _ := newRedisStore(t)
	ctx := context.Background()
	g := game(t, "h8 a1 i8 a2")
	ga := &gate{open: make(chan struct{})}
	a := NewService(st, ga, "node-a", WithBudget(Budget{Nodes: 4000, SolverNodes: 20_000, Workers: 1}), WithMaxJobs(1))
	_, _, err := a.Start(ctx, "r1", 1, g, nil)
	require.NoError(t, err)
	_, _, err = a.Start(ctx, "r2", 1, g, nil)
	assert.ErrorIs(t, err, ErrBusy, "one job at a time here")
	a.Close() // interrupted before any position: the lease is released
	_, leased, err := st.Load(ctx, "r1", 1)
	require.NoError(t, err)
	assert.False(t, leased)

	// A partial result is resumed from its stored positions.
	ok, err := st.Lease(ctx, "r1", 1, "x", time.Minute)
	require.NoError(t, err)
	require.True(t, ok)
	partial, err := Analyse(ctx, direct{}, Game{Size: 15, Rule: g.Rule, Moves: g.Moves[:0]}, testBudget, nil, nil)
	require.NoError(t, err)
	partial.Status, partial.Moves, partial.Total = StatusRunning, []string{"h8", "a1", "i8", "a2"}, 5
	partial.Positions[0].Score = 4242
	require.NoError(t, st.Save(ctx, "r1", 1, "x", partial))
	require.NoError(t, st.Release(ctx, "r1", 1, "x"))
	b := NewService(st, direct{}, "node-b", WithBudget(testBudget))
	t.Cleanup(b.Close)
	_, _, err = b.Start(ctx, "r1", 1, g, nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		r, _, err := b.Get(ctx, "r1", 1)
		return err == nil && r != nil && r.Status == StatusDone
	}, time.Minute, 5*time.Millisecond)
	r, _, err := b.Get(ctx, "r1", 1)
	require.NoError(t, err)
	assert.Equal(t, 4242, r.Positions[0].Score, "the stored position was kept")
	assert.Len(t, r.Positions, 5)
}
