package roomstore

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/internal/roomtest"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

var (
	alice, bob = roomtest.Alice, roomtest.Bob
	t0         = roomtest.T0
	move       = roomtest.Move
)

// fixture is the shared one (a miniredis, a fake clock) with this package's nodes.
type fixture struct{ *roomtest.Fixture }

func newFixture(t *testing.T) *fixture { return &fixture{roomtest.New(t)} }

// node returns a Manager on its own Redis client, as one gomokud node would have.
func (f *fixture) node(t *testing.T) (*room.Manager, *Store) {
	c := redis.NewClient(&redis.Options{Addr: f.MR.Addr(), MaxRetries: -1, DialTimeout: time.Second,
		ReadTimeout: time.Second, WriteTimeout: time.Second})
	t.Cleanup(func() { _ = c.Close() })
	st := New(eventlog.New(c, eventlog.WithClock(f.Clock.Now)))
	m := room.NewManager(st, room.Options{Clock: f.Clock, StoreTimeout: 2 * time.Second})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = m.Shutdown(ctx)
	})
	return m, st
}

func (f *fixture) humans(t *testing.T, m *room.Manager, public bool) *room.Room {
	set := room.DefaultSettings()
	set.Public = public
	r, err := m.Create(f.Ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	return r
}

func TestRoomOnRedisPlayRestoreList(t *testing.T) {
	f := newFixture(t)
	m, st := f.node(t)
	r := f.humans(t, m, true)
	open, _, err := st.List(f.Ctx, room.ListQuery{Status: "open"})
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Equal(t, r.ID(), open[0].ID)
	assert.Equal(t, "Alice", open[0].Black.Name)

	_, err = r.Do(f.Ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	live, _, err := st.List(f.Ctx, room.ListQuery{Status: "live"})
	require.NoError(t, err)
	require.Len(t, live, 1)
	open, _, _ = st.List(f.Ctx, room.ListQuery{Status: "open"})
	assert.Empty(t, open)

	move(t, r, alice, 0, "h8")
	move(t, r, bob, 1, "a1")
	move(t, r, alice, 2, "h9")

	// The node goes away; another node restores the room from Redis and continues.
	ctx, cancel := context.WithTimeout(f.Ctx, 5*time.Second)
	defer cancel()
	require.NoError(t, m.Shutdown(ctx))
	ids, err := st.LiveRooms(f.Ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{r.ID()}, ids)

	m2, st2 := f.node(t)
	n, err := m2.RestoreAll(f.Ctx, ids)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	r2 := m2.Live(r.ID())
	require.NotNil(t, r2)
	assert.Equal(t, r.State(), r2.State())
	for i, p := range []string{"a2", "h10", "a3", "h11", "a4", "h12"} {
		by := bob
		if i%2 == 1 {
			by = alice
		}
		move(t, r2, by, 3+i, p)
	}
	res, reason, _ := r2.State().Result()
	assert.Equal(t, "black", res)
	assert.Equal(t, "five", reason)

	fin, _, err := st2.List(f.Ctx, room.ListQuery{Status: "finished"})
	require.NoError(t, err)
	require.Len(t, fin, 1)
	assert.Equal(t, "black", fin[0].Result)
	evs, err := st2.Events(f.Ctx, r.ID(), 1)
	require.NoError(t, err)
	rebuilt, err := room.Replay(evs)
	require.NoError(t, err)
	assert.Equal(t, r2.State(), rebuilt)
	later, err := st2.Events(f.Ctx, r.ID(), 5)
	require.NoError(t, err)
	assert.Equal(t, uint64(5), later[0].Seq)
	assert.Equal(t, evs[4:], later)
	sum, err := st2.Summary(f.Ctx, r.ID())
	require.NoError(t, err)
	assert.Equal(t, "finished", sum.Status)
	ttl := f.MR.TTL(eventlog.KeysFor(r.ID()).State)
	assert.Positive(t, ttl, "finished rooms expire after the retention")
}

func TestRoomOnRedisPrivateNotListed(t *testing.T) {
	f := newFixture(t)
	m, st := f.node(t)
	r := f.humans(t, m, false)
	for _, status := range []string{"open", "live"} {
		l, _, err := st.List(f.Ctx, room.ListQuery{Status: status})
		require.NoError(t, err)
		assert.Empty(t, l)
	}
	ids, err := st.LiveRooms(f.Ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{r.ID()}, ids, "still restorable")
}

func TestRoomOnRedisUnavailableChangesNothing(t *testing.T) {
	f := newFixture(t)
	m, st := f.node(t)
	r := f.humans(t, m, true)
	_, err := r.Do(f.Ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	move(t, r, alice, 0, "h8")

	f.MR.Close() // Redis goes down
	before := r.State()
	_, err = r.Do(f.Ctx, room.Command{Kind: room.CmdMove, By: bob, Ply: 1, Point: "i9"})
	assert.Equal(t, "unavailable", protocol.Code(err))
	assert.Equal(t, before, r.State())

	require.NoError(t, f.MR.Restart()) // it comes back with its data
	var rep room.Reply
	for try := 0; ; try++ { // the client resends until acknowledged
		rep, err = r.Do(f.Ctx, room.Command{Kind: room.CmdMove, By: bob, Ply: 1, Point: "i9"})
		if err == nil {
			break
		}
		require.Equal(t, "unavailable", protocol.Code(err))
		require.Less(t, try, 20)
		time.Sleep(50 * time.Millisecond)
	}
	assert.Equal(t, uint64(6), rep.Seq)
	evs, err := st.Events(f.Ctx, r.ID(), 1)
	require.NoError(t, err)
	assert.Len(t, evs, 6, "stored once")
}

func TestRoomOnRedisSeqConflictBetweenNodes(t *testing.T) {
	f := newFixture(t)
	mA, _ := f.node(t)
	mB, st := f.node(t)
	rA := f.humans(t, mA, true)
	_, err := rA.Do(f.Ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)
	rB, err := mB.Get(f.Ctx, rA.ID()) // the same room live on a second node (no lease)
	require.NoError(t, err)

	move(t, rA, alice, 0, "h8")
	// B has not seen it: exactly one writer wins seq 5; B loses, reloads, checks the
	// move again and gives the real refusal (not a spurious conflict).
	_, err = rB.Do(f.Ctx, room.Command{Kind: room.CmdMove, By: alice, Ply: 0, Point: "a1"})
	assert.Equal(t, "not_your_turn", protocol.Code(err))
	assert.Equal(t, []string{"h8"}, rB.State().Moves(), "B caught up")
	// A resend of A's move through B is a duplicate.
	rep := move(t, rB, alice, 0, "h8")
	assert.True(t, rep.Duplicate)
	evs, err := st.Events(f.Ctx, rA.ID(), 1)
	require.NoError(t, err)
	assert.Len(t, evs, 5)
}

// TestRoomOnRedisRandomGames: state rebuilt from Redis equals the live state after
// random command sequences.
func TestRoomOnRedisRandomGames(t *testing.T) {
	f := newFixture(t)
	m, st := f.node(t)
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 1))
		r := f.humans(t, m, true)
		_, err := r.Do(f.Ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
		require.NoError(t, err)
		for range 120 {
			s := r.State()
			who := alice
			if s.ColorOf(bob.ID) == s.ToMove() {
				who = bob
			}
			cmd := room.Command{Kind: room.CmdMove, By: who, Ply: s.Ply(),
				Point: string(rune('e'+rng.IntN(6))) + string(rune('4'+rng.IntN(6)))}
			switch rng.IntN(12) {
			case 0:
				cmd = room.Command{Kind: room.CmdTakebackRequest, By: who}
			case 1:
				cmd = room.Command{Kind: room.CmdTakebackAccept, By: []room.Player{alice, bob}[rng.IntN(2)]}
			case 2:
				cmd = room.Command{Kind: room.CmdChat, By: who, Text: "hi"}
			case 3:
				cmd = room.Command{Kind: room.CmdRematch, By: []room.Player{alice, bob}[rng.IntN(2)]}
			}
			f.Clock.Advance(time.Duration(rng.IntN(3000)) * time.Millisecond)
			_, _ = r.Do(f.Ctx, cmd)
		}
		// A write whose reply was lost (timeout under load) is in the store but not yet
		// in the room, which catches up before its next write: Sync does it now.
		_, err = r.Sync(f.Ctx)
		require.NoError(t, err)
		evs, err := st.Events(f.Ctx, r.ID(), 1)
		require.NoError(t, err)
		rebuilt, err := room.Replay(evs)
		require.NoError(t, err)
		require.Equal(t, r.State(), rebuilt, "seed %d", seed)
		t.Logf("seed %d: %d events, game %d", seed, len(evs), rebuilt.Game())
	}
}

// TestTwoNodesActiveAndPassive: the player's connection is on a passive node (B); the
// room's clocks and AI seat run on the active node (A); each catches up with Sync, as
// it would on a pub/sub notification.
func TestTwoNodesActiveAndPassive(t *testing.T) {
	f := newFixture(t)
	mA, _ := f.node(t)
	mB, _ := f.node(t)
	set := room.DefaultSettings()
	set.White = room.SeatSpec{Kind: room.AI, Level: "beginner"}
	set.Time = room.TimeControl{BaseMS: 60_000}
	rA, err := mA.Create(f.Ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	rB, err := mB.Get(f.Ctx, rA.ID())
	require.NoError(t, err)
	require.NoError(t, rB.SetPassive(f.Ctx, true))
	sub, err := rB.Subscribe(f.Ctx, room.SubscribeOptions{Viewer: alice, FromSeq: rB.State().Seq()})
	require.NoError(t, err)
	defer sub.Close()

	move(t, rB, alice, 0, "h8") // stored through B
	seq, err := rA.Sync(f.Ctx)  // A hears of it: its AI answers
	require.NoError(t, err)
	assert.Equal(t, uint64(4), seq, "created, seated, started, move")
	deadline := time.Now().Add(10 * time.Second)
	for rA.State().Ply() < 2 {
		require.True(t, time.Now().Before(deadline), "the AI on A did not answer")
		time.Sleep(5 * time.Millisecond)
	}
	_, err = rB.Sync(f.Ctx) // B hears of the AI move and shows it to Alice
	require.NoError(t, err)
	for {
		u := <-sub.C
		if u.Event != nil && u.Event.Kind == room.EvMove && u.Event.Color == "white" {
			break
		}
	}
	assert.Equal(t, rA.State(), rB.State())

	// Only the active node flags: B stays quiet past the deadline, A ends the game.
	f.Clock.Advance(2 * time.Minute)
	deadline = time.Now().Add(5 * time.Second)
	for rA.State().Phase() != room.PhaseOver {
		require.True(t, time.Now().Before(deadline), "A did not flag")
		time.Sleep(5 * time.Millisecond)
	}
	assert.Equal(t, room.PhasePlaying, rB.State().Phase())
	_, err = rB.Sync(f.Ctx)
	require.NoError(t, err)
	res, reason, _ := rB.State().Result()
	assert.Equal(t, "white", res)
	assert.Equal(t, "timeout", reason)
}

// TestTurnCredit: the turn credit round-trips through the state hash, is zero when
// none was stored, and is not written once events were appended after the seq it is
// for.
func TestTurnCredit(t *testing.T) {
	f := newFixture(t)
	m, st := f.node(t)
	r := f.humans(t, m, true)
	c, err := st.TurnCredit(f.Ctx, r.ID())
	require.NoError(t, err)
	assert.Zero(t, c)
	want := room.TurnCredit{TurnStartMS: t0.UnixMilli(), MS: 61_000}
	require.NoError(t, st.SetTurnCredit(f.Ctx, r.ID(), r.Seq(), want))
	c, err = st.TurnCredit(f.Ctx, r.ID())
	require.NoError(t, err)
	assert.Equal(t, want, c)
	err = st.SetTurnCredit(f.Ctx, r.ID(), r.Seq()-1, room.TurnCredit{TurnStartMS: 1, MS: 1})
	assert.ErrorIs(t, err, room.ErrSeqConflict)
	c, err = st.TurnCredit(f.Ctx, r.ID())
	require.NoError(t, err)
	assert.Equal(t, want, c, "unchanged by the refused write")
}
