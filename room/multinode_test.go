package room

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCommandOnStaleCopyCatchesUp: two Rooms over one store, A active and B passive,
// neither told of the other's writes (no Sync, as when pub/sub lags). A command at the
// node whose copy is behind gets an ack or a real refusal, never a spurious conflict
// or game_not_started: the room reloads the missing events and checks it again.
func TestCommandOnStaleCopyCatchesUp(t *testing.T) {
	e := newEnv(t, nil)
	mB := NewManager(e.store, Options{Clock: e.clock, Players: stubPlayers(nil), Passive: true})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, mB.Shutdown(ctx))
	})
	rA, err := e.m.Create(e.ctx, CreateRequest{Settings: DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	rB, err := mB.Get(e.ctx, rA.ID())
	require.NoError(t, err)
	require.True(t, rB.Passive())
	sB := e.sub(rB, carol, rB.State().Seq())

	e.do(rA, Command{Kind: CmdSit, By: bob, Color: "white"}) // B has not heard of it
	require.Equal(t, PhaseWaiting, rB.State().Phase())

	// B's copy says the game has not started: B catches up and applies the move.
	rep := e.move(rB, alice, 0, "h8")
	assert.Equal(t, rA.State().Seq()+1, rep.Seq)
	assert.Equal(t, []string{"h8"}, rB.State().Moves())
	for _, k := range []EventKind{EvSeated, EvStarted, EvMove} {
		assert.Equal(t, k, nextEvent(t, sB).Kind, "B's subscribers get the missed events in order")
	}

	// A (active) is behind now: its chat loses the seq race, A reloads and retries.
	rep = e.do(rA, Command{Kind: CmdChat, By: bob, Text: "hi"})
	assert.Equal(t, []string{"h8"}, rA.State().Moves())
	assert.Equal(t, rA.State().Seq(), rep.Seq)

	// B is behind (the chat): bob's move is valid on B's copy, conflicts in the store,
	// and is applied after the catch-up.
	rep = e.move(rB, bob, 1, "i9")
	assert.Equal(t, rB.State().Seq(), rep.Seq)
	assert.Equal(t, []string{"h8", "i9"}, rB.State().Moves())

	// A resend of that move through A (behind again) is acknowledged as a duplicate.
	rep = e.move(rA, bob, 1, "i9")
	assert.True(t, rep.Duplicate)
	// A real refusal stays one: alice's stale resend at ply 0 through B.
	_, err = rB.Do(e.ctx, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "a1"})
	require.Error(t, err)
	assert.NotEqual(t, "conflict", protocol.Code(err))
	assert.NotEqual(t, "game_not_started", protocol.Code(err))

	evs, err := e.store.Events(e.ctx, rA.ID(), 1)
	require.NoError(t, err)
	want, err := Replay(evs)
	require.NoError(t, err)
	assert.Equal(t, want, rA.State())
	assert.Equal(t, want, rB.State())
}

// racingStore lets "another node" store a chat event just before every append of the
// room under test, so each of its appends conflicts.
type racingStore struct {
	*faultStore
	now     time.Time
	appends int
}

func (s *racingStore) Append(ctx context.Context, id string, expected uint64, evs []Event, sum Summary) error {
	s.appends++
	all, err := s.MemStore.Events(ctx, id, 1)
	if err != nil {
		return err
	}
	st, err := Replay(all)
	if err != nil {
		return err
	}
	st2, other, err := Apply(st, Command{Kind: CmdChat, By: bob, Text: "first"}, s.now)
	if err != nil {
		return err
	}
	if err := s.MemStore.Append(ctx, id, st.Seq(), other, st2.Summary()); err != nil {
		return err
	}
	return s.MemStore.Append(ctx, id, expected, evs, sum)
}

// TestConflictRetriesAreBounded: a room that loses every seq race gives up after
// maxCatchUps reloads with conflict (it does not spin), and its state is the store's.
func TestConflictRetriesAreBounded(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(nil)
	require.NoError(t, r.Stop(e.ctx))
	<-r.Done()
	rs := &racingStore{faultStore: e.store, now: t0}
	evs, err := e.store.Events(e.ctx, r.ID(), 1)
	require.NoError(t, err)
	st, err := Replay(evs)
	require.NoError(t, err)
	r2 := Start(rs, st, evs, Options{Clock: e.clock, Players: stubPlayers(nil), Passive: true})
	t.Cleanup(func() { _ = r2.Stop(context.Background()) })

	_, err = r2.Do(e.ctx, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"})
	assert.Equal(t, "conflict", protocol.Code(err))
	assert.Equal(t, maxCatchUps+1, rs.appends)
	evs, err = e.store.Events(e.ctx, r.ID(), 1)
	require.NoError(t, err)
	want, err := Replay(evs)
	require.NoError(t, err)
	assert.Equal(t, want, r2.State())
	assert.Empty(t, r2.State().Moves())
}

// readCountingStore counts Events calls (store reads), failed ones included.
type readCountingStore struct {
	*faultStore
	reads atomic.Int64
}

func (s *readCountingStore) Events(ctx context.Context, id string, from uint64) ([]Event, error) {
	defer s.reads.Add(1) // counted once answered
	return s.faultStore.Events(ctx, id, from)
}

// TestReplicate: an event the room stored itself (its own pub/sub echo) costs
// nothing; events it lacks are applied from the messages without a store read, in order
// for its subscribers; a gap is filled from the store, and a failed read is retried
// after RetryDelay.
func TestReplicate(t *testing.T) {
	e := newEnv(t, nil)
	cs := &readCountingStore{faultStore: e.store}
	opts := Options{Clock: e.clock, Players: stubPlayers(nil)}
	mA := NewManager(cs, opts)
	opts.Passive = true
	mB := NewManager(cs, opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, mA.Shutdown(ctx))
		require.NoError(t, mB.Shutdown(ctx))
	})
	rA, err := mA.Create(e.ctx, CreateRequest{Settings: DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	rB, err := mB.Get(e.ctx, rA.ID())
	require.NoError(t, err)
	sB := e.sub(rB, carol, rB.State().Seq())
	from := rB.State().Seq() + 1
	e.do(rA, Command{Kind: CmdSit, By: bob, Color: "white"})
	e.move(rA, alice, 0, "h8")
	stored := func(from uint64) []Event {
		t.Helper()
		evs, err := e.store.Events(e.ctx, rA.ID(), from)
		require.NoError(t, err)
		return evs
	}
	evs := stored(from)
	require.Len(t, evs, 3)

	// Own and older events: nothing to do, nothing read.
	before := cs.reads.Load()
	for _, ev := range evs {
		rA.Replicate(ev)
	}
	// B lacks three events: applied from the messages, in order, without a read.
	for _, ev := range evs {
		rB.Replicate(ev)
	}
	for _, k := range []EventKind{EvSeated, EvStarted, EvMove} {
		assert.Equal(t, k, nextEvent(t, sB).Kind, "B's subscribers get the events in order")
	}
	assert.Equal(t, rA.State(), rB.State())
	assert.Equal(t, int64(0), cs.reads.Load()-before, "no store read")

	// A message is lost: the next one shows the gap, and B reads the store.
	e.move(rA, bob, 1, "i9")
	e.move(rA, alice, 2, "h9")
	evs = stored(rB.State().Seq() + 1)
	require.Len(t, evs, 2)
	rB.Replicate(evs[1])
	assert.Equal(t, 1, nextEvent(t, sB).Ply)
	assert.Equal(t, 2, nextEvent(t, sB).Ply)
	assert.Equal(t, rA.State(), rB.State())
	assert.Equal(t, int64(1), cs.reads.Load()-before, "one read for the gap")

	// The store fails while B fills a gap: retried after RetryDelay.
	e.move(rA, bob, 3, "i10")
	e.move(rA, alice, 4, "h10")
	evs = stored(rB.State().Seq() + 1)
	e.store.Fail(errors.New("down"))
	before = cs.reads.Load()
	rB.Replicate(evs[1])
	waitFor(t, "a failed catch-up", func() bool { return cs.reads.Load() > before })
	e.store.Fail(nil)
	assert.NotEqual(t, rA.State().Seq(), rB.State().Seq())
	e.clock.Advance(time.Second) // RetryDelay
	assert.Equal(t, 3, nextEvent(t, sB).Ply)
	assert.Equal(t, 4, nextEvent(t, sB).Ply)
	assert.Equal(t, rA.State(), rB.State())
}
