package room

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRemotePresenceCountsOtherNodes: a player connected through another node is
// connected here (no countdown, no claim); when that node forgets him his grace starts
// then, and spectators of every node are counted.
func TestRemotePresenceCountsOtherNodes(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Grace = time.Minute; o.StartGrace = 10 * time.Second })
	r := e.humans(nil)
	sa := e.sub(r, alice, r.State().Seq())
	// Bob is on node B with a second tab, and node B has 3 spectators.
	require.NoError(t, r.SetRemotePresence(e.ctx, "B", NodePresence{Players: map[string]int{bob.ID: 2}, Subs: 5}))
	waitFor(t, "bob connected through B", func() bool { p := r.Presence(); return p.White.Connected && p.Spectators == 3 })
	e.move(r, alice, 0, "h8")
	e.move(r, bob, 1, "i9")
	e.clock.Advance(2 * time.Minute)
	_, err := r.Do(e.ctx, Command{Kind: CmdClaimVictory, By: alice})
	assert.Equal(t, "not_allowed", protocol.Code(err), "bob is connected through node B")
	assert.False(t, r.Presence().White.Claimable)

	// A local spectator and a node C with Bob's third tab.
	spec := e.sub(r, Player{}, r.State().Seq())
	require.NoError(t, r.SetRemotePresence(e.ctx, "C", NodePresence{Players: map[string]int{bob.ID: 1}, Subs: 1}))
	waitFor(t, "4 spectators", func() bool { return r.Presence().Spectators == 4 })
	// B goes: Bob is still on C.
	require.NoError(t, r.SetRemotePresence(e.ctx, "B", NodePresence{}))
	waitFor(t, "B's spectators gone", func() bool { return r.Presence().Spectators == 1 })
	assert.True(t, r.Presence().White.Connected)
	// C goes too: Bob's grace starts now.
	gone := e.clock.Now()
	require.NoError(t, r.SetRemotePresence(e.ctx, "C", NodePresence{}))
	waitFor(t, "bob gone", func() bool { return !r.Presence().White.Connected })
	assert.Equal(t, gone.UnixMilli(), r.Presence().White.Since)
	e.clock.Advance(61 * time.Second)
	waitFor(t, "claimable", func() bool { return r.Presence().White.Claimable })
	e.do(r, Command{Kind: CmdClaimVictory, By: alice})
	assert.Equal(t, ReasonAbandoned, waitEvent(t, sa, EvGameOver).Reason)
	spec.Close()
}

// TestRemoteSubscribersKeepRoomAlive: a room with no local subscriber but both players
// on another node does not stop when idle; once they leave it does (the game was
// aborted meanwhile: nobody had moved within the start grace).
func TestRemoteSubscribersKeepRoomAlive(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.IdleTimeout = time.Minute })
	r := e.humans(nil)
	require.NoError(t, r.SetRemotePresence(e.ctx, "B", NodePresence{Players: map[string]int{alice.ID: 1, bob.ID: 1}, Subs: 2}))
	e.clock.Advance(2 * time.Minute)
	require.NoError(t, r.SetRemotePresence(e.ctx, "B", NodePresence{Players: map[string]int{alice.ID: 1, bob.ID: 1}, Subs: 2}))
	select {
	case <-r.Done():
		t.Fatal("the room stopped while node B's clients were connected")
	case <-time.After(50 * time.Millisecond):
	}
	require.NoError(t, r.SetRemotePresence(e.ctx, "B", NodePresence{}))
	e.clock.Advance(2 * time.Minute)
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the idle room did not stop after node B's clients left")
	}
}

// recorder is a Replicator that records what the Manager and its rooms tell it.
type recorder struct {
	passive bool // Active answers !passive

	mu       sync.Mutex
	started  []string
	stopped  []string
	presence []NodePresence
	progress []AIProgress
}

func (rec *recorder) Active(context.Context, string) bool { return !rec.passive }
func (rec *recorder) Started(r *Room) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.started = append(rec.started, r.ID())
}
func (rec *recorder) Stopped(r *Room) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.stopped = append(rec.stopped, r.ID())
}
func (rec *recorder) LocalPresence(_ string, p NodePresence) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.presence = append(rec.presence, p)
}
func (rec *recorder) AIProgress(_ string, p AIProgress) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.progress = append(rec.progress, p)
}

// TestReplicatorHooks: the Manager tells its Replicator when a room starts (created or
// restored) and when it stops, and starts rooms passive when Active says so.
func TestReplicatorHooks(t *testing.T) {
	rec := &recorder{passive: true}
	e := newEnv(t, func(o *Options) { o.Replicator = rec })
	r := e.humans(nil)
	assert.True(t, r.Passive(), "Active said no")
	require.NoError(t, r.Stop(e.ctx))
	rec.passive = false
	r2, err := e.m.Get(e.ctx, r.ID())
	require.NoError(t, err)
	assert.False(t, r2.Passive())
	require.NoError(t, e.m.Shutdown(e.ctx))
	rec.mu.Lock()
	defer rec.mu.Unlock()
	assert.Equal(t, []string{r.ID(), r.ID()}, rec.started)
	assert.Equal(t, []string{r.ID(), r.ID()}, rec.stopped)
}

// TestLocalPresenceReported: the Replicator hears of this node's subscriptions as they
// change, and LocalPresence returns the latest.
func TestLocalPresenceReported(t *testing.T) {
	rec := &recorder{}
	mu, got := &rec.mu, &rec.presence
	e := newEnv(t, func(o *Options) { o.Replicator = rec })
	r := e.humans(nil)
	sa := e.sub(r, alice, r.State().Seq())
	spec := e.sub(r, Player{}, r.State().Seq())
	assert.Equal(t, NodePresence{Players: map[string]int{alice.ID: 1}, Subs: 2}, r.LocalPresence())
	sa.Close()
	waitFor(t, "alice's subscription gone", func() bool { return r.LocalPresence().Subs == 1 })
	spec.Close()
	waitFor(t, "nobody", func() bool { return r.LocalPresence().Empty() })
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, *got, 4)
	assert.Equal(t, NodePresence{Players: map[string]int{alice.ID: 1}, Subs: 1}, (*got)[0])
	assert.Equal(t, NodePresence{Players: map[string]int{}, Subs: 1}, (*got)[2])
	assert.True(t, (*got)[3].Empty())
}

// TestRelayAIProgress: a passive copy shows another node's AI progress for the current
// ply to its subscribers and to joiners; stale or active-copy relays are ignored.
func TestRelayAIProgress(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Passive = true })
	r := e.humans(nil)
	s := e.sub(r, alice, r.State().Seq())
	ply := r.State().Ply()
	require.NoError(t, r.RelayAIProgress(e.ctx, AIProgress{Color: "white", Status: AIThinking, Ply: ply + 3, Depth: 9}))
	require.NoError(t, r.RelayAIProgress(e.ctx, AIProgress{Color: "black", Status: AIThinking, Ply: ply, Depth: 4, PV: []string{"h8"}}))
	var u Update
	for u.AI == nil {
		u = next(t, s)
	}
	assert.Equal(t, 4, u.AI.Depth, "the stale relay (another ply) is not shown")
	assert.Equal(t, []string{"h8"}, u.AI.PV)
	joiner := e.sub(r, Player{}, r.State().Seq())
	u = Update{}
	for u.AI == nil {
		u = next(t, joiner)
	}
	assert.Equal(t, 4, u.AI.Depth, "a joiner gets the latest progress")

	require.NoError(t, r.SetPassive(e.ctx, false))
	require.NoError(t, r.RelayAIProgress(e.ctx, AIProgress{Color: "black", Status: AIThinking, Ply: ply, Depth: 7}))
	deadline := time.After(200 * time.Millisecond)
	for {
		select {
		case u := <-s.C:
			require.NotNil(t, u)
			assert.Nil(t, u.AI, "an active copy ignores relays")
			continue
		case <-deadline:
		}
		break
	}
}

// aliveStore is a MemStore that knows when the room last ran (AliveStore).
type aliveStore struct {
	*MemStore
	mu sync.Mutex
	at time.Time
}

func (s *aliveStore) AliveAt(context.Context, string) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.at, nil
}

func (s *aliveStore) set(t time.Time) {
	s.mu.Lock()
	s.at = t
	s.mu.Unlock()
}

// TestRestoreAndTakeoverCharges: a room restored after a crash charges the side to move
// for its turn up to the room's last sign of life and not for the downtime after it;
// a passive copy that takes over charges the real time of the turn, the hand-over
// included (it ran all along, and its clients could move).
func TestRestoreAndTakeoverCharges(t *testing.T) {
	noLeak(t)
	clock := NewFakeClock(t0)
	st := &aliveStore{MemStore: NewMemStore()}
	opts := Options{Clock: clock, Players: stubPlayers(nil), Grace: time.Hour, StartGrace: time.Hour}
	ctx := context.Background()
	m := NewManager(st, opts)
	set := DefaultSettings()
	set.Time = TimeControl{BaseMS: 300_000}
	r, err := m.Create(ctx, CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	do := func(r *Room, c Command) {
		t.Helper()
		_, err := r.Do(ctx, c)
		require.NoError(t, err)
	}
	do(r, Command{Kind: CmdSit, By: bob, Color: "white"})
	clock.Advance(10 * time.Second)
	do(r, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"})
	clock.Advance(20 * time.Second)
	do(r, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "i9"})
	clock.Advance(5 * time.Second) // black has used 5 s of this turn when the node dies
	st.set(clock.Now())
	require.NoError(t, m.Shutdown(ctx))

	clock.Advance(time.Hour) // down
	m2 := NewManager(st, opts)
	t.Cleanup(func() { _ = m2.Shutdown(context.Background()) })
	r2, err := m2.Get(ctx, r.ID())
	require.NoError(t, err)
	c, running := r2.State().Clock(clock.Now())
	assert.True(t, running)
	assert.Equal(t, Clocks{BlackMS: 295_000, WhiteMS: 300_000}, c, "the 5 s used before the crash are charged (the first moves are free), the hour down is not")

	// A passive copy (another node's) takes over: nothing is free.
	passive := opts
	passive.Passive = true
	m3 := NewManager(st, passive)
	t.Cleanup(func() { _ = m3.Shutdown(context.Background()) })
	r3, err := m3.Get(ctx, r.ID())
	require.NoError(t, err)
	clock.Advance(3 * time.Second) // r2's node runs black's turn 3 s more, then dies
	st.set(clock.Now())
	clock.Advance(4 * time.Second) // the lease expires; r3's node takes over
	require.NoError(t, r3.SetPassive(ctx, false))
	c, _ = r3.State().Clock(clock.Now())
	assert.Equal(t, Clocks{BlackMS: 288_000, WhiteMS: 300_000}, c, "3 s more and the 4 s hand-over charged")
	clock.Advance(288 * time.Second)
	_, err = r3.Do(ctx, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "h9"})
	require.Error(t, err, "black's time ran out on the real clock")
	assert.Equal(t, PhaseOver, r3.State().Phase())
}
