package replica

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
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestLeaseFailover: rooms created on A run active there and passive on B; when A dies
// B takes over the room it has a copy of and adopts the one it has not.
func TestLeaseFailover(t *testing.T) {
	f := newFixture(t)
	mA, nA := f.leaseNode(t, "A")
	mB, nB := f.leaseNode(t, "B")
	set := room.DefaultSettings()
	set.White = room.SeatSpec{Kind: room.AI, Level: "beginner"}

	// Room 1: created on A (A holds the lease, active); Alice's connection is on B.
	r1A, err := mA.Create(f.Ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	assert.False(t, r1A.Passive())
	r1B, err := mB.Get(f.Ctx, r1A.ID())
	require.NoError(t, err)
	assert.True(t, r1B.Passive(), "B does not hold the lease")
	// Room 2: created on A, nobody on B.
	r2A, err := mA.Create(f.Ctx, room.CreateRequest{Settings: set, Creator: &bob, Color: "black"})
	require.NoError(t, err)
	move(t, r2A, bob, 0, "h8")
	waitUntil(t, "AI reply in room 2", func() bool { return r2A.State().Ply() == 2 })

	f.tick(nA, mA)
	f.tick(nB, mB)
	assert.ElementsMatch(t, []string{r1A.ID(), r2A.ID()}, nA.keeper.Held())
	assert.Empty(t, nB.keeper.Held())

	// A dies without releasing anything; its leases run out.
	require.NoError(t, mA.Shutdown(f.Ctx))
	f.MR.FastForward(4 * time.Second)
	f.tick(nB, mB)
	assert.ElementsMatch(t, []string{r1A.ID(), r2A.ID()}, nB.keeper.Held(), "B took both rooms over")
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
	nB.keeper.ReleaseAll(f.Ctx)
	holder, _, err := f.store(t).Redis().LeaseHolder(f.Ctx, r1A.ID())
	require.NoError(t, err)
	assert.Empty(t, holder)
}

func TestLeaseLostTurnsPassive(t *testing.T) {
	f := newFixture(t)
	mA, nA := f.leaseNode(t, "A")
	set := room.DefaultSettings()
	set.Time = room.TimeControl{BaseMS: 60_000}
	r, err := mA.Create(f.Ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	assert.False(t, r.Passive())
	// Another node steals the lease after it expired (A was frozen).
	f.MR.FastForward(4 * time.Second)
	c := redis.NewClient(&redis.Options{Addr: f.MR.Addr()})
	defer c.Close()
	ok, err := eventlog.New(c).AcquireLease(f.Ctx, r.ID(), "B", 3*time.Second)
	require.NoError(t, err)
	require.True(t, ok)
	f.tick(nA, mA)
	assert.True(t, r.Passive(), "A stops acting for the room")
	assert.Empty(t, nA.keeper.Held())
}

// TestPassiveNodeBehindCatchesUp: A holds the lease and stores events B has not heard
// of (no Sync: pub/sub lags). Commands through B's passive copy are acked or refused
// for real after B reloads from Redis — never conflict or game_not_started.
func TestPassiveNodeBehindCatchesUp(t *testing.T) {
	f := newFixture(t)
	mA, _ := f.leaseNode(t, "A")
	mB, _ := f.leaseNode(t, "B")
	rA, err := mA.Create(f.Ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	rB, err := mB.Get(f.Ctx, rA.ID())
	require.NoError(t, err)
	require.True(t, rB.Passive(), "B does not hold the lease")
	sub, err := rB.Subscribe(f.Ctx, room.SubscribeOptions{Viewer: alice, FromSeq: rB.State().Seq()})
	require.NoError(t, err)
	defer sub.Close()

	_, err = rA.Do(f.Ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
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
	_, err = rA.Do(f.Ctx, room.Command{Kind: room.CmdChat, By: alice, Text: "gl"})
	require.NoError(t, err)
	rep = move(t, rB, bob, 1, "i9")
	assert.Equal(t, uint64(7), rep.Seq)

	// A resend through A (behind again) is acked with the stored seq (Redis takes the
	// identical append as already done); a real refusal stays one: an old ply via B.
	rep = move(t, rA, bob, 1, "i9")
	assert.Equal(t, uint64(7), rep.Seq)
	_, err = rB.Do(f.Ctx, room.Command{Kind: room.CmdMove, By: alice, Ply: 0, Point: "a1"})
	assert.NotContains(t, []string{"", "conflict", "game_not_started"}, protocol.Code(err))

	evs, err := f.store(t).Events(f.Ctx, rA.ID(), 1)
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
	rc := &renewCounter{}
	m, nA := f.leaseNode(t, "A", rc)
	st, k := nA.keeper.st, nA.keeper
	c := st.Redis().Client()
	const n = 40
	rooms := make([]*room.Room, n)
	for i := range rooms {
		p := room.Player{ID: fmt.Sprintf("p%d", i), Name: "p"}
		r, err := m.Create(f.Ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &p, Color: "black"})
		require.NoError(t, err)
		require.False(t, r.Passive())
		rooms[i] = r
	}
	f.tick(nA, m) // loads the renewal script
	// Room 0's lease runs out and node B takes it.
	_, err := c.Del(f.Ctx, eventlog.KeysFor(rooms[0].ID()).Owner).Result()
	require.NoError(t, err)
	ok, err := st.Redis().AcquireLease(f.Ctx, rooms[0].ID(), "B", 3*time.Second)
	require.NoError(t, err)
	require.True(t, ok)

	trips, scripts := rc.trips.Load(), rc.scripts.Load()
	f.tick(nA, m)
	// One round trip for the n renewals; room 0, just lost, is not tried again.
	assert.Equal(t, int64(1), rc.trips.Load()-trips, "one round trip for the renewals")
	assert.Equal(t, int64(n), rc.scripts.Load()-scripts)
	assert.True(t, rooms[0].Passive(), "lost lease: passive")
	assert.Len(t, k.Held(), n-1)
	for _, r := range rooms[1:] {
		assert.False(t, r.Passive())
		holder, _, err := st.Redis().LeaseHolder(f.Ctx, r.ID())
		require.NoError(t, err)
		assert.Equal(t, "A", holder)
	}
}

// timedGame creates a 5-minute game between Alice (black) and Bob on m and plays until
// black is to move, white having used 10 s.
func timedGame(t *testing.T, f *fixture, m *room.Manager) *room.Room {
	t.Helper()
	set := room.DefaultSettings()
	set.Time = room.TimeControl{BaseMS: 300_000}
	r, err := m.Create(f.Ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(f.Ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	move(t, r, alice, 0, "h8")
	f.Clock.Advance(10 * time.Second)
	move(t, r, bob, 1, "i9") // a first move: white's clock does not run
	return r
}

// nodeDiesInBlacksTurn plays a timed game on node A until black is to move (white took
// 10 s for its first move, which runs no clock); copy (when set) then loads it on B as a passive copy. A renews its lease 2 s
// and 3 s into black's turn and dies; 5 s later, the lease expired, B runs its lease
// keeper. It returns B's room.
func nodeDiesInBlacksTurn(t *testing.T, f *fixture, copy bool) *room.Room {
	mA, nA := f.leaseNode(t, "A")
	mB, nB := f.leaseNode(t, "B")
	rA := timedGame(t, f, mA)
	if copy {
		rB, err := mB.Get(f.Ctx, rA.ID())
		require.NoError(t, err)
		require.True(t, rB.Passive())
	}
	f.Clock.Advance(2 * time.Second)
	f.tick(nA, mA)
	f.Clock.Advance(time.Second)
	f.tick(nA, mA)
	require.NoError(t, mA.Shutdown(f.Ctx))
	f.Clock.Advance(5 * time.Second)
	f.MR.FastForward(5 * time.Second)
	f.tick(nB, mB)
	rB := mB.Live(rA.ID())
	require.NotNil(t, rB, "B runs the room")
	require.False(t, rB.Passive(), "B took the room over")
	return rB
}

// TestFailoverChargesTheTurnUntilLastRenewal: node A dies while black thinks, and B,
// which had no copy of the room, adopts it. Nobody could move in between: black is
// charged for the time up to A's last renewal, not for the gap.
func TestFailoverChargesTheTurnUntilLastRenewal(t *testing.T) {
	f := newFixture(t)
	rB := nodeDiesInBlacksTurn(t, f, false)
	c, running := rB.State().Clock(f.Clock.Now())
	assert.True(t, running)
	assert.Equal(t, room.Clocks{BlackMS: 297_000, WhiteMS: 300_000}, c, "3 s charged, the 5 s gap not")
}

// TestTakeoverChargesTheHandOver: B runs a passive copy of A's timed game (a client is
// connected there, and could move); A dies while black thinks, and B takes over. B's
// copy ran all along, so black is charged the real time of the turn, the hand-over
// included (it used to be free thinking time on every node death).
func TestTakeoverChargesTheHandOver(t *testing.T) {
	f := newFixture(t)
	rB := nodeDiesInBlacksTurn(t, f, true)
	c, running := rB.State().Clock(f.Clock.Now())
	assert.True(t, running)
	assert.Equal(t, room.Clocks{BlackMS: 292_000, WhiteMS: 300_000}, c, "8 s charged: the 5 s hand-over too")
}

// TestPassiveCopyChargesTheRealTurn: B loads its passive copy of A's timed game 2.5 s
// into black's turn, half a second after A's last renewal; A dies and B takes over.
// Black is charged the real time of the whole turn, on the copy and after the
// take-over (a copy loaded between two renewals used to leave the time since the last
// one uncharged).
func TestPassiveCopyChargesTheRealTurn(t *testing.T) {
	f := newFixture(t)
	mA, nA := f.leaseNode(t, "A")
	mB, nB := f.leaseNode(t, "B")
	rA := timedGame(t, f, mA)
	f.Clock.Advance(2 * time.Second)
	f.tick(nA, mA)
	f.Clock.Advance(500 * time.Millisecond)
	rB := passiveCopy(t, f, mB, rA.ID())
	c, _ := rB.State().Clock(f.Clock.Now())
	assert.Equal(t, room.Clocks{BlackMS: 297_500, WhiteMS: 300_000}, c, "the copy charges the real 2.5 s")

	dieAndTakeOver(t, f, mA, 5*time.Second, nB, mB, rB)
	c, _ = rB.State().Clock(f.Clock.Now())
	assert.Equal(t, room.Clocks{BlackMS: 292_500, WhiteMS: 300_000}, c, "7.5 s charged, the hand-over included")
}

// TestRestartCreditSurvivesAHandOver: every node is down for an hour in black's turn;
// C starts and adopts the room without charging the hour, and stores that credit in
// Redis. B then loads a passive copy, C dies and B takes over: B charges the turn as C
// did, the hand-over included, and not the hour.
func TestRestartCreditSurvivesAHandOver(t *testing.T) {
	f := newFixture(t)
	mA, nA := f.leaseNode(t, "A")
	rA := timedGame(t, f, mA)
	f.Clock.Advance(2 * time.Second)
	f.tick(nA, mA)
	require.NoError(t, mA.Shutdown(f.Ctx))
	f.Clock.Advance(time.Hour)
	f.MR.FastForward(time.Hour)

	mC, nC := f.leaseNode(t, "C")
	f.tick(nC, mC)
	rC := mC.Live(rA.ID())
	require.NotNil(t, rC, "C adopted the room")
	require.False(t, rC.Passive())
	c, _ := rC.State().Clock(f.Clock.Now())
	assert.Equal(t, room.Clocks{BlackMS: 298_000, WhiteMS: 300_000}, c, "2 s charged, the hour down not")
	f.Clock.Advance(time.Second)
	f.tick(nC, mC)

	mB, nB := f.leaseNode(t, "B")
	rB := passiveCopy(t, f, mB, rA.ID())
	c, _ = rB.State().Clock(f.Clock.Now())
	assert.Equal(t, room.Clocks{BlackMS: 297_000, WhiteMS: 300_000}, c, "B's copy applies C's stored credit")
	dieAndTakeOver(t, f, mC, 4*time.Second, nB, mB, rB)
	c, _ = rB.State().Clock(f.Clock.Now())
	assert.Equal(t, room.Clocks{BlackMS: 293_000, WhiteMS: 300_000}, c, "7 s charged in all: the hand-over too, the hour not")
}

// passiveCopy loads room id on m, which must run it passive (another node holds it).
func passiveCopy(t *testing.T, f *fixture, m *room.Manager, id string) *room.Room {
	t.Helper()
	r, err := m.Get(f.Ctx, id)
	require.NoError(t, err)
	require.True(t, r.Passive())
	return r
}

// dieAndTakeOver stops the holder's Manager (its node dies), lets its lease run out for
// d and runs node n's lease keeper: n's copy r takes the room over.
func dieAndTakeOver(t *testing.T, f *fixture, holder *room.Manager, d time.Duration, n *Node, m *room.Manager, r *room.Room) {
	t.Helper()
	require.NoError(t, holder.Shutdown(f.Ctx))
	f.Clock.Advance(d)
	f.MR.FastForward(d)
	f.tick(n, m)
	require.False(t, r.Passive(), "the copy took the room over")
}

// blockingHook holds every command named name, while on, until its context ends.
type blockingHook struct {
	name string
	on   atomic.Bool
}

func (*blockingHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *blockingHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if h.on.Load() && cmd.Name() == h.name {
			<-ctx.Done()
			return ctx.Err()
		}
		return next(ctx, cmd)
	}
}
func (h *blockingHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if h.on.Load() && cmd.Name() == h.name {
				<-ctx.Done()
				return ctx.Err()
			}
		}
		return next(ctx, cmds)
	}
}

// TestStuckRoomDelaysNoRenewal: node B takes over a room whose catch-up hangs (its
// event reads never answer). The call has a deadline: the round ends within it, the
// other room's lease is renewed, and the stuck room's lease is given back.
func TestStuckRoomDelaysNoRenewal(t *testing.T) {
	f := newFixture(t)
	stuck := &blockingHook{name: "lrange"}
	mA, nA := f.leaseNode(t, "A")
	mB, nB := f.leaseNode(t, "B", stuck)
	rX, err := mA.Create(f.Ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	rXB, err := mB.Get(f.Ctx, rX.ID())
	require.NoError(t, err)
	require.True(t, rXB.Passive())
	rY, err := mB.Create(f.Ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &bob, Color: "black"})
	require.NoError(t, err)
	require.False(t, rY.Passive())
	require.NoError(t, mA.Shutdown(f.Ctx))
	nA.keeper.ReleaseAll(f.Ctx) // X's lease is free: B will take it over
	f.MR.FastForward(2 * time.Second)

	stuck.on.Store(true)
	start := time.Now()
	f.tick(nB, mB)
	took := time.Since(start)
	stuck.on.Store(false)
	assert.Less(t, took, 2*time.Second, "the round waited for the stuck room only until the call deadline (1 s)")
	assert.True(t, rXB.Passive(), "not taken over without catching up")
	holder, _, err := nB.rs.LeaseHolder(f.Ctx, rX.ID())
	require.NoError(t, err)
	assert.Empty(t, holder, "the stuck room's lease is given back")
	holder, ttl, err := nB.rs.LeaseHolder(f.Ctx, rY.ID())
	require.NoError(t, err)
	assert.Equal(t, "B", holder)
	assert.Greater(t, ttl, 2*time.Second, "the other room's lease was renewed")
}
