package analysis

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loader serves the games of a map; a missing game is not to be analysed.
func loader(games map[string]Game, loads *atomic.Int32) Loader {
	return func(_ context.Context, roomID string, game int) (Game, bool, error) {
		loads.Add(1)
		g, ok := games[roomID]
		return g, ok && game == 1, nil
	}
}

func TestEnqueueAnalysesOnceAcrossNodes(t *testing.T) {
	st, _, _ := newRedisStore(t)
	ctx := context.Background()
	games := map[string]Game{"ai": game(t, "h8 a1 i8 a2 j8 a3 k8 a4 l8")}
	var loads atomic.Int32
	ga, gb := &gate{open: make(chan struct{})}, &gate{open: make(chan struct{})}
	a := NewService(st, ga, "node-a", WithBudget(testBudget), WithAuto(loader(games, &loads)))
	b := NewService(st, gb, "node-b", WithBudget(testBudget), WithAuto(loader(games, &loads)))
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)

	require.True(t, a.Enqueue("ai", 1))
	require.Eventually(t, func() bool { _, l, _ := a.Get(ctx, "ai", 1); return l }, time.Minute, time.Millisecond,
		"node a leases the game")
	require.True(t, b.Enqueue("ai", 1), "node b is told of the game too")
	require.Eventually(t, func() bool { return !b.Queued("ai", 1) }, time.Minute, time.Millisecond)
	close(gb.open)
	close(ga.open)
	require.Eventually(t, func() bool {
		r, _, err := a.Get(ctx, "ai", 1)
		return err == nil && r != nil && r.Status == StatusDone
	}, time.Minute, 5*time.Millisecond)
	assert.Zero(t, gb.runs.Load(), "node b never computed: the lease")
	assert.Positive(t, ga.runs.Load())

	// Enqueued again (a page asked): done, nothing computed again.
	runs := ga.runs.Load()
	require.True(t, a.Enqueue("ai", 1))
	require.Eventually(t, func() bool { return !a.Queued("ai", 1) }, time.Minute, time.Millisecond)
	assert.Equal(t, runs, ga.runs.Load())
}

func TestEnqueueSkipsGamesTheLoaderRefuses(t *testing.T) {
	st, _, _ := newRedisStore(t)
	ctx := context.Background()
	var loads atomic.Int32
	s := NewService(st, direct{}, "node-a", WithBudget(testBudget), WithAuto(loader(map[string]Game{}, &loads)))
	t.Cleanup(s.Close)
	require.True(t, s.Enqueue("people", 1))
	require.Eventually(t, func() bool { return !s.Queued("people", 1) }, time.Minute, time.Millisecond)
	assert.EqualValues(t, 1, loads.Load())
	res, leased, err := s.Get(ctx, "people", 1)
	require.NoError(t, err)
	assert.Nil(t, res)
	assert.False(t, leased)

	plain := NewService(st, direct{}, "node-b")
	t.Cleanup(plain.Close)
	assert.False(t, plain.Enqueue("people", 1), "no automatic analyses without WithAuto")
}

func TestEnqueueWaitsForASlot(t *testing.T) {
	st, _, _ := newRedisStore(t)
	ctx := context.Background()
	g := game(t, "h8 a1 i8 a2")
	games := map[string]Game{"r1": g, "r2": g, "r3": g}
	var loads atomic.Int32
	gt := &gate{open: make(chan struct{})}
	// Two slots: automatic analyses take one, a request the other.
	s := NewService(st, gt, "node-a", WithBudget(Budget{Nodes: 2000, SolverNodes: 10_000, Workers: 1}),
		WithMaxJobs(2), WithAuto(loader(games, &loads)))
	t.Cleanup(s.Close)
	require.True(t, s.Enqueue("r1", 1))
	require.True(t, s.Enqueue("r2", 1))
	require.Eventually(t, func() bool { _, l, _ := s.Get(ctx, "r1", 1); return l }, time.Minute, time.Millisecond)
	_, started, err := s.Start(ctx, "r3", 1, g, nil)
	require.NoError(t, err)
	assert.True(t, started, "a request still finds a slot")
	_, leased, err := s.Get(ctx, "r2", 1)
	require.NoError(t, err)
	assert.False(t, leased, "the second automatic analysis waits")
	assert.True(t, s.Queued("r2", 1))
	close(gt.open)
	for _, id := range []string{"r1", "r2", "r3"} {
		require.Eventually(t, func() bool {
			r, _, err := s.Get(ctx, id, 1)
			return err == nil && r != nil && r.Status == StatusDone
		}, time.Minute, 5*time.Millisecond, id)
	}
}
