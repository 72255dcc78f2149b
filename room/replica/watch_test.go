package replica

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
)

// commandCounter counts the Redis commands named name (lower case), in pipelines too.
type commandCounter struct {
	name string
	n    atomic.Int64
}

func (*commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.count(cmd)
		return next(ctx, cmd)
	}
}
func (c *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			c.count(cmd)
		}
		return next(ctx, cmds)
	}
}
func (c *commandCounter) count(cmd redis.Cmder) {
	if cmd.Name() == c.name {
		c.n.Add(1)
	}
}

// startedNode is a node with its replication running (watchers, lease keeper).
func (f *fixture) startedNode(t *testing.T, name string, hooks ...redis.Hook) *room.Manager {
	n := New(f.store(t, hooks...), Config{Node: name})
	m := room.NewManager(n.keeper.st, room.Options{Clock: f.Clock, Replicator: n})
	n.Start(m.Get)
	t.Cleanup(func() {
		_ = m.Shutdown(context.Background())
		n.Stop()
	})
	return m
}

// TestWatcherAppliesCarriedEvents: node B's copy of a room follows node A's moves from
// the events their pub/sub messages carry: after its restore and the catch-up when its
// subscription starts, B reads no event from Redis, and its subscribers get every event
// in order.
func TestWatcherAppliesCarriedEvents(t *testing.T) {
	f := newFixture(t)
	lrange := &commandCounter{name: "lrange"}
	mA := f.startedNode(t, "A")
	mB := f.startedNode(t, "B", lrange)
	rA, err := mA.Create(f.Ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	rB, err := mB.Get(f.Ctx, rA.ID())
	require.NoError(t, err)
	require.True(t, rB.Passive())
	sub, err := rB.Subscribe(f.Ctx, room.SubscribeOptions{FromSeq: rB.Seq()})
	require.NoError(t, err)
	defer sub.Close()
	waitUntil(t, "B's restore and its watcher's first catch-up", func() bool { return lrange.n.Load() == 2 })

	_, err = rA.Do(f.Ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	move(t, rA, alice, 0, "h8")
	move(t, rA, bob, 1, "i9")
	var kinds []room.EventKind
	for len(kinds) < 4 {
		if u := <-sub.C; u.Event != nil {
			kinds = append(kinds, u.Event.Kind)
		}
	}
	assert.Equal(t, []room.EventKind{room.EvSeated, room.EvStarted, room.EvMove, room.EvMove}, kinds)
	assert.Equal(t, rA.State(), rB.State())
	assert.Equal(t, int64(2), lrange.n.Load(), "no event read from Redis")
}
