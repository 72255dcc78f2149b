package replica

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/internal/roomtest"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

var (
	alice, bob = roomtest.Alice, roomtest.Bob
	t0         = roomtest.T0
	move       = roomtest.Move
)

// fixture is the shared one (a miniredis, a fake clock) with this package's nodes.
type fixture struct{ *roomtest.Fixture }

func newFixture(t *testing.T) *fixture { return &fixture{roomtest.New(t)} }

// store returns a room store on its own Redis client (as one node has), with the
// fixture's clock; hooks are added to the client.
func (f *fixture) store(t *testing.T, hooks ...redis.Hook) *roomstore.Store {
	c := redis.NewClient(&redis.Options{Addr: f.MR.Addr(), MaxRetries: -1})
	for _, h := range hooks {
		c.AddHook(h)
	}
	t.Cleanup(func() { _ = c.Close() })
	return roomstore.New(eventlog.New(c, eventlog.WithClock(f.Clock.Now)))
}

// leaseNode is a node whose Manager runs rooms active only with their lease (3 s). Its
// lease keeper runs only when the test calls Tick, and it starts no watchers: the test
// decides when a node hears of the others' events.
func (f *fixture) leaseNode(t *testing.T, name string, hooks ...redis.Hook) (*room.Manager, *Node) {
	n := New(f.store(t, hooks...), Config{Node: name, LeaseTTL: 3 * time.Second})
	n.cancel() // no watchers, no loops
	t.Cleanup(n.Stop)
	m := room.NewManager(n.keeper.st, room.Options{Clock: f.Clock, Replicator: n})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	return m, n
}

// tick runs one round of n's lease keeper, adopting through m.
func (f *fixture) tick(n *Node, m *room.Manager) { n.keeper.Tick(f.Ctx, m.Get) }

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, 5*time.Millisecond, "timed out: %s", what)
}
