package roomstore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// leaseNode is a node with a Manager whose rooms are active only with their lease.
func (f *fixture) leaseNode(t *testing.T, name string) (*room.Manager, *LeaseKeeper) {
	c := redis.NewClient(&redis.Options{Addr: f.mr.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = c.Close() })
	st := New(eventlog.New(c, eventlog.WithClock(f.clock.Now)))
	k := NewLeaseKeeper(st, name, 3*time.Second, nil)
	m := room.NewManager(st, room.Options{Clock: f.clock, Lease: k.Acquire})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	return m, k
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		require.True(t, time.Now().Before(deadline), "timed out: %s", what)
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLeaseFailover(t *testing.T) {
	f := newFixture(t)
	mA, kA := f.leaseNode(t, "A")
	mB, kB := f.leaseNode(t, "B")
	set := room.DefaultSettings()
	set.White = room.SeatSpec{Kind: room.AI, Level: "beginner"}

	// Room 1: created on A (A holds the lease, active); Alice's connection is on B.
	r1A, err := mA.Create(f.ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	assert.False(t, r1A.Passive())
	r1B, err := mB.Get(f.ctx, r1A.ID())
	require.NoError(t, err)
	assert.True(t, r1B.Passive(), "B does not hold the lease")
	// Room 2: created on A, nobody on B.
	r2A, err := mA.Create(f.ctx, room.CreateRequest{Settings: set, Creator: &bob, Color: "black"})
	require.NoError(t, err)
	move(t, r2A, bob, 0, "h8")
	waitUntil(t, "AI reply in room 2", func() bool { return r2A.State().Ply() == 2 })

	kA.Tick(f.ctx, mA)
	kB.Tick(f.ctx, mB)
	assert.ElementsMatch(t, []string{r1A.ID(), r2A.ID()}, kA.Held())
	assert.Empty(t, kB.Held())

	// A dies without releasing anything; its leases run out.
	require.NoError(t, mA.Shutdown(f.ctx))
	f.mr.FastForward(4 * time.Second)
	kB.Tick(f.ctx, mB)
	assert.ElementsMatch(t, []string{r1A.ID(), r2A.ID()}, kB.Held(), "B took both rooms over")
	assert.False(t, r1B.Passive(), "room 1 active on B")
	r2B := mB.Live(r2A.ID())
	require.NotNil(t, r2B, "room 2 adopted by B")
	assert.False(t, r2B.Passive())

	// Both continue on B: the AI answers there.
	move(t, r1B, alice, 0, "h8")
	waitUntil(t, "AI reply in room 1 on B", func() bool { return r1B.State().Ply() == 2 })
	move(t, r2B, bob, 2, "a1")
	waitUntil(t, "AI reply in room 2 on B", func() bool { return r2B.State().Ply() == 4 })

	// Graceful hand-over: B releases, the leases are free at once.
	kB.ReleaseAll(f.ctx)
	holder, _, err := New(eventlog.New(redis.NewClient(&redis.Options{Addr: f.mr.Addr()}))).Redis().LeaseHolder(f.ctx, r1A.ID())
	require.NoError(t, err)
	assert.Empty(t, holder)
}

func TestLeaseLostTurnsPassive(t *testing.T) {
	f := newFixture(t)
	mA, kA := f.leaseNode(t, "A")
	set := room.DefaultSettings()
	set.Time = room.TimeControl{BaseMS: 60_000}
	r, err := mA.Create(f.ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	assert.False(t, r.Passive())
	// Another node steals the lease after it expired (A was frozen).
	f.mr.FastForward(4 * time.Second)
	c := redis.NewClient(&redis.Options{Addr: f.mr.Addr()})
	defer c.Close()
	ok, err := eventlog.New(c).AcquireLease(f.ctx, r.ID(), "B", 3*time.Second)
	require.NoError(t, err)
	require.True(t, ok)
	kA.Tick(f.ctx, mA)
	assert.True(t, r.Passive(), "A stops acting for the room")
	assert.Empty(t, kA.Held())
}

// TestPassiveNodeBehindCatchesUp: A holds the lease and stores events B has not heard
// of (no Sync: pub/sub lags). Commands through B's passive copy are acked or refused
// for real after B reloads from Redis — never conflict or game_not_started.
func TestPassiveNodeBehindCatchesUp(t *testing.T) {
	f := newFixture(t)
	mA, _ := f.leaseNode(t, "A")
	mB, _ := f.leaseNode(t, "B")
	rA, err := mA.Create(f.ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	rB, err := mB.Get(f.ctx, rA.ID())
	require.NoError(t, err)
	require.True(t, rB.Passive(), "B does not hold the lease")
	sub, err := rB.Subscribe(f.ctx, room.SubscribeOptions{Viewer: alice, FromSeq: rB.State().Seq()})
	require.NoError(t, err)
	defer sub.Close()

	_, err = rA.Do(f.ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	require.Equal(t, room.PhaseWaiting, rB.State().Phase(), "B is behind")

	// Refused on B's stale copy (game_not_started): B reloads, the move is applied.
	rep := move(t, rB, alice, 0, "h8")
	assert.Equal(t, uint64(5), rep.Seq, "created, seated, seated, started, move")
	var kinds []room.EventKind
	for len(kinds) < 3 {
		if u := <-sub.C; u.Event != nil {
			kinds = append(kinds, u.Event.Kind)
		}
	}
	assert.Equal(t, []room.EventKind{room.EvSeated, room.EvStarted, room.EvMove}, kinds)

	// A stores a chat B has not heard of: bob's move through B conflicts in Redis, B
	// reloads and applies it on the fresh state.
	_, err = rA.Do(f.ctx, room.Command{Kind: room.CmdChat, By: alice, Text: "gl"})
	require.NoError(t, err)
	rep = move(t, rB, bob, 1, "i9")
	assert.Equal(t, uint64(7), rep.Seq)

	// A resend through A (behind again) is acked with the stored seq (Redis takes the
	// identical append as already done); a real refusal stays one: an old ply via B.
	rep = move(t, rA, bob, 1, "i9")
	assert.Equal(t, uint64(7), rep.Seq)
	_, err = rB.Do(f.ctx, room.Command{Kind: room.CmdMove, By: alice, Ply: 0, Point: "a1"})
	assert.NotContains(t, []string{"", "conflict", "game_not_started"}, room.Code(err))

	evs, err := New(eventlog.New(redis.NewClient(&redis.Options{Addr: f.mr.Addr()}))).Events(f.ctx, rA.ID(), 1)
	require.NoError(t, err)
	want, err := room.Replay(evs)
	require.NoError(t, err)
	assert.Equal(t, want, rA.State())
	assert.Equal(t, want, rB.State())
}

// renewCounter counts lease renewal scripts and the round trips that carried them.
type renewCounter struct{ trips, scripts atomic.Int64 }

func (*renewCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *renewCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.count([]redis.Cmder{cmd})
		return next(ctx, cmd)
	}
}
func (c *renewCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.count(cmds)
		return next(ctx, cmds)
	}
}
func (c *renewCounter) count(cmds []redis.Cmder) {
	n := 0
	for _, cmd := range cmds {
		if cmd.Name() == "evalsha" && len(cmd.Args()) == 8 && cmd.Args()[6] == int64(3000) {
			n++ // EVALSHA sha 2 owner-key state-key node 3000 now: an acquire or a renewal
		}
	}
	if n > 0 {
		c.trips.Add(1)
		c.scripts.Add(int64(n))
	}
}

// TestLeaseKeeperRenewsInOneRoundTrip: a node's renewals of all its rooms take one
// round trip, and a room whose lease another node took meanwhile turns passive.
func TestLeaseKeeperRenewsInOneRoundTrip(t *testing.T) {
	f := newFixture(t)
	c := redis.NewClient(&redis.Options{Addr: f.mr.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = c.Close() })
	rc := &renewCounter{}
	c.AddHook(rc)
	st := New(eventlog.New(c, eventlog.WithClock(f.clock.Now)))
	k := NewLeaseKeeper(st, "A", 3*time.Second, nil)
	m := room.NewManager(st, room.Options{Clock: f.clock, Lease: k.Acquire})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	const n = 40
	rooms := make([]*room.Room, n)
	for i := range rooms {
		p := room.Player{ID: fmt.Sprintf("p%d", i), Name: "p"}
		r, err := m.Create(f.ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &p, Color: "black"})
		require.NoError(t, err)
		require.False(t, r.Passive())
		rooms[i] = r
	}
	k.Tick(f.ctx, m) // loads the renewal script
	// Room 0's lease runs out and node B takes it.
	_, err := c.Del(f.ctx, eventlog.KeysFor(rooms[0].ID()).Owner).Result()
	require.NoError(t, err)
	ok, err := st.Redis().AcquireLease(f.ctx, rooms[0].ID(), "B", 3*time.Second)
	require.NoError(t, err)
	require.True(t, ok)

	trips, scripts := rc.trips.Load(), rc.scripts.Load()
	k.Tick(f.ctx, m)
	// One round trip for the n renewals, one for the attempt to take room 0 back.
	assert.Equal(t, int64(2), rc.trips.Load()-trips, "one round trip for the renewals")
	assert.Equal(t, int64(n+1), rc.scripts.Load()-scripts)
	assert.True(t, rooms[0].Passive(), "lost lease: passive")
	assert.Len(t, k.Held(), n-1)
	for _, r := range rooms[1:] {
		assert.False(t, r.Passive())
		holder, _, err := st.Redis().LeaseHolder(f.ctx, r.ID())
		require.NoError(t, err)
		assert.Equal(t, "A", holder)
	}
}

// TestFailoverChargesTheTurnUntilLastRenewal: node A runs a timed game and renews its
// lease while black thinks, then dies; node B takes the room over after the lease ran
// out. Black is charged for the time up to A's last renewal, not for the gap.
func TestFailoverChargesTheTurnUntilLastRenewal(t *testing.T) {
	f := newFixture(t)
	mA, kA := f.leaseNode(t, "A")
	mB, kB := f.leaseNode(t, "B")
	set := room.DefaultSettings()
	set.Time = room.TimeControl{BaseMS: 300_000}
	rA, err := mA.Create(f.ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	_, err = rA.Do(f.ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	move(t, rA, alice, 0, "h8")
	f.clock.Advance(10 * time.Second)
	move(t, rA, bob, 1, "i9") // white used 10 s; black to move
	f.clock.Advance(2 * time.Second)
	kA.Tick(f.ctx, mA) // renewed 2 s into black's turn
	f.clock.Advance(time.Second)
	kA.Tick(f.ctx, mA) // and at 3 s; then A dies
	require.NoError(t, mA.Shutdown(f.ctx))
	f.clock.Advance(5 * time.Second)
	f.mr.FastForward(5 * time.Second)
	kB.Tick(f.ctx, mB)
	rB := mB.Live(rA.ID())
	require.NotNil(t, rB, "B adopted the room")
	require.False(t, rB.Passive())
	c, running := rB.State().Clock(f.clock.Now())
	assert.True(t, running)
	assert.Equal(t, room.Clocks{BlackMS: 297_000, WhiteMS: 290_000}, c, "3 s charged, the 5 s gap not")
}
