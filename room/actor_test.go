package room

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestActorOrderingAndAcks(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(nil)
	s1 := e.sub(r, carol, 1)
	s2 := e.sub(r, Player{ID: "p_dave", Name: "Dave"}, 1)
	var acks []uint64
	for ply, p := range []string{"h8", "i9", "h9", "i10"} {
		by := alice
		if ply%2 == 1 {
			by = bob
		}
		acks = append(acks, e.move(r, by, ply, p).Seq)
	}
	assert.Equal(t, []uint64{5, 6, 7, 8}, acks)
	for _, s := range []*Subscription{s1, s2} {
		var seqs []uint64
		var ks []EventKind
		for range 7 {
			ev := nextEvent(t, s)
			seqs = append(seqs, ev.Seq)
			ks = append(ks, ev.Kind)
		}
		assert.Equal(t, []uint64{2, 3, 4, 5, 6, 7, 8}, seqs, "exactly the events after seq 1, in order")
		assert.Equal(t, []EventKind{EvSeated, EvSeated, EvStarted, EvMove, EvMove, EvMove, EvMove}, ks)
	}
	// The store has the same log.
	evs, err := e.store.Events(e.ctx, r.ID(), 1)
	require.NoError(t, err)
	assert.Len(t, evs, 8)
	st, err := Replay(evs)
	require.NoError(t, err)
	assert.Equal(t, r.State().Moves(), st.Moves())
}

func TestActorPersistThenPublish(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(nil)
	s := e.sub(r, carol, r.State().Seq())
	// While the store writes, the state has not changed yet and no subscriber has it.
	checked := 0
	e.store.OnAppend = func(id string, expected uint64, evs []Event) {
		checked++
		assert.Equal(t, expected, r.State().Seq(), "state changed before the store write")
		assert.Len(t, s.C, countEphemeral(s), "an event was published before the store write")
	}
	e.move(r, alice, 0, "h8")
	assert.Equal(t, 1, checked)

	// A failed write: unavailable, nothing changes, nothing is published.
	e.store.FailAppends(1)
	before := r.State()
	_, err := r.Do(e.ctx, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "i9"})
	assert.Equal(t, "unavailable", protocol.Code(err))
	assert.Equal(t, before, r.State())
	// The client resends: applied once.
	rep := e.move(r, bob, 1, "i9")
	assert.Equal(t, uint64(6), rep.Seq)
	assert.Equal(t, EvMove, nextEvent(t, s).Kind)
	ev := nextEvent(t, s)
	assert.Equal(t, uint64(6), ev.Seq, "the failed attempt left no trace")

	// A resent duplicate is acknowledged again with the same seq, not stored twice.
	appends := e.store.Appends()
	rep = e.move(r, bob, 1, "i9")
	assert.True(t, rep.Duplicate)
	assert.Equal(t, uint64(6), rep.Seq)
	assert.Equal(t, appends, e.store.Appends())

	// The whole store down: refused with unavailable, state intact.
	e.store.Fail(errors.New("connection refused"))
	_, err = r.Do(e.ctx, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "h9"})
	assert.Equal(t, "unavailable", protocol.Code(err))
	e.store.Fail(nil)
	e.move(r, alice, 2, "h9")
}

func TestActorUnknownWriteOutcome(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(nil)
	s := e.sub(r, carol, r.State().Seq())
	// The write happens but its reply is lost: the client is told unavailable.
	e.store.LoseAcks(1)
	_, err := r.Do(e.ctx, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"})
	assert.Equal(t, "unavailable", protocol.Code(err))
	assert.Equal(t, uint64(4), r.State().Seq(), "not applied locally")
	// The client resends: the room catches up from the store and acknowledges the
	// stored move as a duplicate; it is stored once.
	rep := e.move(r, alice, 0, "h8")
	assert.True(t, rep.Duplicate)
	assert.Equal(t, uint64(5), rep.Seq)
	ev := nextEvent(t, s)
	assert.Equal(t, uint64(5), ev.Seq)
	e.move(r, bob, 1, "i9")
	evs, err := e.store.Events(e.ctx, r.ID(), 1)
	require.NoError(t, err)
	assert.Len(t, evs, 6)
	_, err = Replay(evs)
	require.NoError(t, err)
}

func countEphemeral(s *Subscription) int { return len(s.C) } // only ephemeral updates may be queued

func TestActorRefusalsHaveCodes(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(nil)
	for _, tc := range []struct {
		cmd  Command
		code string
	}{
		{Command{Kind: CmdMove, By: bob, Ply: 0, Point: "h8"}, "not_your_turn"},
		{Command{Kind: CmdMove, By: carol, Ply: 0, Point: "h8"}, "not_a_player"},
		{Command{Kind: CmdMove, By: alice, Ply: 3, Point: "h8"}, "stale_ply"},
		{Command{Kind: CmdMove, By: alice, Ply: 0, Point: "z9"}, "off_board"},
		{Command{Kind: CmdAIMove, Color: "black", Point: "h8"}, "unknown_type"},
		{Command{Kind: CmdHint, By: alice}, "not_allowed"},
		{Command{Kind: CmdSit, By: carol, Color: "white"}, "seat_taken"},
	} {
		_, err := r.Do(e.ctx, tc.cmd)
		assert.Equal(t, tc.code, protocol.Code(err), "%+v", tc.cmd)
	}
	assert.Equal(t, uint64(4), r.State().Seq())
}

func TestActorSlowSubscriberDropped(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(nil)
	slow, err := r.Subscribe(e.ctx, SubscribeOptions{Viewer: carol, FromSeq: r.State().Seq(), Queue: 2})
	require.NoError(t, err)
	fast := e.sub(r, Player{ID: "p_dave"}, r.State().Seq())
	moves := []string{"a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ply, p := range moves {
			by := alice
			if ply%2 == 1 {
				by = bob
			}
			_, err := r.Do(e.ctx, Command{Kind: CmdMove, By: by, Ply: ply, Point: p})
			assert.NoError(t, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the room blocked on a slow subscriber")
	}
	for range moves {
		assert.Equal(t, EvMove, nextEvent(t, fast).Kind)
	}
	// The slow one got what fit, then its channel was closed.
	n := 0
	for range slow.C {
		n++
	}
	assert.ErrorIs(t, slow.Err(), ErrSlowSubscriber)
	assert.Less(t, n, len(moves)+1)
	// It catches up by subscribing again with its last seq.
	again := e.sub(r, carol, 4)
	for i := range moves {
		ev := nextEvent(t, again)
		assert.Equal(t, uint64(5+i), ev.Seq)
	}
}

func TestActorSubscribeSnapshotAndResync(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.MaxBacklog = 3 })
	r := e.humans(nil)
	e.move(r, alice, 0, "h8")
	s := e.sub(r, carol, 0)
	u := next(t, s)
	require.NotNil(t, u.Snapshot)
	assert.False(t, u.Resync)
	assert.Equal(t, uint64(5), u.Snapshot.Seq)
	assert.Equal(t, []string{"h8"}, u.Snapshot.Moves)
	require.NotNil(t, u.Snapshot.Presence)

	s = e.sub(r, carol, 99) // from the future: resync
	u = next(t, s)
	require.NotNil(t, u.Snapshot)
	assert.True(t, u.Resync)

	s = e.sub(r, carol, 1) // 4 behind, more than MaxBacklog: snapshot
	u = next(t, s)
	require.NotNil(t, u.Snapshot)
	assert.True(t, u.Resync)

	s = e.sub(r, carol, 5) // up to date: nothing but presence until the next event
	e.move(r, bob, 1, "i9")
	assert.Equal(t, uint64(6), nextEvent(t, s).Seq)
}

func TestActorSubscribeCatchesUpFromStore(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.MemoryLog = 2 })
	r := e.humans(nil)
	for ply, p := range []string{"h8", "i9", "h9", "i10", "h10"} {
		by := alice
		if ply%2 == 1 {
			by = bob
		}
		e.move(r, by, ply, p)
	}
	// Seqs 3..9 missed; memory holds only the last few: the rest comes from the store.
	s := e.sub(r, carol, 2)
	for seq := uint64(3); seq <= 9; seq++ {
		assert.Equal(t, seq, nextEvent(t, s).Seq)
	}
	// Store down: the gap cannot be filled, a snapshot (resync) is sent instead.
	e.store.Fail(errors.New("down"))
	s = e.sub(r, carol, 2)
	u := next(t, s)
	require.NotNil(t, u.Snapshot)
	assert.True(t, u.Resync)
	assert.Equal(t, uint64(9), u.Snapshot.Seq)
	// Still down: a recent gap comes from memory (the log trimmed in place holds it).
	s = e.sub(r, carol, 7)
	assert.Equal(t, uint64(8), nextEvent(t, s).Seq)
	assert.Equal(t, uint64(9), nextEvent(t, s).Seq)
	e.store.Fail(nil)
}

func TestActorPresenceRejoinAndClaim(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Grace = time.Minute; o.StartGrace = 10 * time.Second })
	r := e.humans(nil)
	sa := e.sub(r, alice, r.State().Seq())
	sb, err := r.Subscribe(e.ctx, SubscribeOptions{Viewer: bob, FromSeq: r.State().Seq()})
	require.NoError(t, err)
	waitFor(t, "both connected", func() bool { p := r.Presence(); return p.Black.Connected && p.White.Connected })
	e.move(r, alice, 0, "h8")
	e.move(r, bob, 1, "i9")
	for nextEvent(t, sa).Seq < 6 { // drain what came before
	}

	// Bob drops: Alice sees a countdown with the 60 s grace.
	sb.Close()
	var pr *Presence
	for pr == nil || pr.White.Connected || pr.White.Since != t0.UnixMilli() {
		if u := next(t, sa); u.Presence != nil {
			pr = u.Presence
		}
	}
	assert.Equal(t, int64(60_000), pr.White.GraceMS)
	assert.Equal(t, t0.UnixMilli(), pr.White.Since)
	assert.False(t, pr.White.Claimable)
	_, err = r.Do(e.ctx, Command{Kind: CmdClaimVictory, By: alice})
	assert.Equal(t, "not_allowed", protocol.Code(err), "too early to claim")

	// Bob rejoins within the grace: connected again, claim still refused.
	e.clock.Advance(30 * time.Second)
	sb = e.sub(r, bob, r.State().Seq())
	waitFor(t, "bob back", func() bool { return r.Presence().White.Connected })
	_, err = r.Do(e.ctx, Command{Kind: CmdClaimVictory, By: alice})
	assert.Equal(t, "not_allowed", protocol.Code(err))

	// Bob drops again and stays away past the grace: claimable, then claimed.
	sb.Close()
	waitFor(t, "bob gone", func() bool { return !r.Presence().White.Connected })
	e.clock.Advance(61 * time.Second)
	waitFor(t, "claimable", func() bool { return r.Presence().White.Claimable })
	rep := e.do(r, Command{Kind: CmdClaimVictory, By: alice})
	ev := waitEvent(t, sa, EvGameOver)
	assert.Equal(t, rep.Seq, ev.Seq)
	assert.Equal(t, ResultBlack, ev.Result)
	assert.Equal(t, ReasonAbandoned, ev.Reason)
}

func TestActorAbandonBeforeRealStartAborts(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.StartGrace = 10 * time.Second })
	r := e.humans(nil)
	sa := e.sub(r, alice, r.State().Seq())
	e.move(r, alice, 0, "h8")
	// Bob never connected: his grace runs from the room's start.
	waitFor(t, "white gone", func() bool { return !r.Presence().White.Connected && r.Presence().White.GraceMS == 10_000 })
	e.clock.Advance(11 * time.Second)
	ev := waitEvent(t, sa, EvGameOver)
	assert.Equal(t, ResultAborted, ev.Result)
	assert.Equal(t, ReasonAbandoned, ev.Reason)
}

func TestActorClockFlagsByTimer(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(func(s *Settings) { s.Time = TimeControl{BaseMS: 10_000, IncrementMS: 1_000} })
	sa := e.sub(r, alice, r.State().Seq())
	e.sub(r, bob, r.State().Seq())
	e.clock.Advance(2 * time.Second)
	rep := e.move(r, alice, 0, "h8")
	ev := nextEvent(t, sa)
	assert.Equal(t, rep.Seq, ev.Seq)
	assert.Equal(t, int64(10_000), ev.ClockMS, "a first move is free")
	e.clock.Advance(time.Second)
	e.move(r, bob, 1, "i9")
	e.clock.Advance(2 * time.Second)
	e.move(r, alice, 2, "h9")
	waitEvent(t, sa, EvMove) // i9
	assert.Equal(t, int64(9_000), waitEvent(t, sa, EvMove).ClockMS, "black's clock ran 2 s, +1 s")
	e.clock.Advance(10*time.Second + time.Millisecond) // white's 10 s run out
	// The actor arms white's deadline once h9 is stored, which may be just after this
	// advance: keep the fake clock moving until the flag falls.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				e.clock.Advance(time.Second)
			}
		}
	}()
	ev = waitEvent(t, sa, EvGameOver)
	assert.Equal(t, ResultBlack, ev.Result)
	assert.Equal(t, ReasonTimeout, ev.Reason)
	// A late move gets game_over.
	_, err := r.Do(e.ctx, Command{Kind: CmdMove, By: bob, Ply: 3, Point: "i10"})
	assert.Equal(t, "game_over", protocol.Code(err))
}

func TestActorLateMoveFlagsFirst(t *testing.T) {
	// The move arrives after the deadline but before the timer is handled: the actor
	// flags first, the move is refused.
	e := newEnv(t, nil)
	r := e.humans(func(s *Settings) { s.Time = TimeControl{PerMoveMS: 5_000} })
	e.sub(r, alice, 0)
	e.move(r, alice, 0, "h8")
	e.move(r, bob, 1, "i9")
	e.clock.Advance(6 * time.Second)
	_, err := r.Do(e.ctx, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "h9"})
	assert.Equal(t, "game_over", protocol.Code(err))
	res, reason, _ := r.State().Result()
	assert.Equal(t, ResultWhite, res)
	assert.Equal(t, ReasonTimeout, reason)
}

// TestActorFirstMoveAborts: the room's timer aborts a game whose side to move lets its
// first-move time pass (no result), and a late first move is refused.
func TestActorFirstMoveAborts(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Grace, o.StartGrace = time.Hour, time.Hour })
	r := e.humans(func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000}; s.FirstMoveMS = 20_000 })
	sa := e.sub(r, alice, 0)
	e.sub(r, bob, 0)
	e.clock.Advance(5 * time.Second)
	e.move(r, alice, 0, "h8")
	waitEvent(t, sa, EvMove)
	e.clock.Advance(20*time.Second - time.Millisecond)
	require.NoError(t, r.control(e.ctx, func() {}))
	assert.Equal(t, PhasePlaying, r.State().Phase(), "white has 1 ms left for its first move")
	e.clock.Advance(time.Millisecond)
	ev := waitEvent(t, sa, EvGameOver)
	assert.Equal(t, ResultAborted, ev.Result)
	assert.Equal(t, ReasonFirstMove, ev.Reason)
	assert.Equal(t, &Clocks{BlackMS: 60_000, WhiteMS: 60_000}, ev.Clock)
	_, err := r.Do(e.ctx, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "i9"})
	assert.Equal(t, "game_over", protocol.Code(err))
}

func TestActorStopsWhenOverAndAlone(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Linger = time.Second })
	r := e.humans(nil)
	s := e.sub(r, alice, 0)
	e.do(r, Command{Kind: CmdResign, By: bob})
	select {
	case <-r.Done():
		t.Fatal("stopped while someone is connected")
	case <-time.After(50 * time.Millisecond):
	}
	s.Close()
	waitFor(t, "alice gone", func() bool { return !r.Presence().Black.Connected })
	e.clock.Advance(2 * time.Second)
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("room did not stop")
	}
	assert.ErrorIs(t, r.Err(), ErrRoomStopped)
	assert.Nil(t, e.m.Live(r.ID()), "the manager forgot it")
	_, err := r.Do(e.ctx, Command{Kind: CmdChat, By: alice, Text: "x"})
	assert.ErrorIs(t, err, ErrRoomClosed)
	// It comes back from the store on demand.
	r2, err := e.m.Get(e.ctx, r.ID())
	require.NoError(t, err)
	assert.Equal(t, r.State(), r2.State())
}

func TestActorIdleStopAndRestoreContinuesClock(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.IdleTimeout = time.Minute; o.Grace = time.Hour; o.StartGrace = time.Hour })
	r := e.humans(func(s *Settings) { s.Time = TimeControl{BaseMS: 300_000} })
	e.clock.Advance(10 * time.Second)
	e.move(r, alice, 0, "h8")
	e.clock.Advance(20 * time.Second)
	e.move(r, bob, 1, "i9")
	e.clock.Advance(5 * time.Second) // black has used 5 s of this turn
	require.NoError(t, r.Stop(e.ctx))
	require.Nil(t, e.m.Live(r.ID()))

	e.clock.Advance(time.Hour) // the server was down
	r2, err := e.m.Get(e.ctx, r.ID())
	require.NoError(t, err)
	c, running := r2.State().Clock(e.clock.Now())
	assert.True(t, running)
	assert.Equal(t, Clocks{BlackMS: 300_000, WhiteMS: 300_000}, c, "no downtime charged (and the first moves are free)")
	e.move(r2, alice, 2, "h9")
	assert.Equal(t, []string{"h8", "i9", "h9"}, r2.State().Moves())

	// Nobody connects: a room with a running clock does not idle-stop (it must flag)…
	e.clock.Advance(2 * time.Minute)
	select {
	case <-r2.Done():
		t.Fatal("stopped with a clock running")
	case <-time.After(50 * time.Millisecond):
	}
	// …white's clock runs out, the game ends, then the room stops.
	e.clock.Advance(5 * time.Minute)
	waitFor(t, "flag", func() bool { return r2.State().Phase() == PhaseOver })
	res, reason, _ := r2.State().Result()
	assert.Equal(t, ResultBlack, res)
	assert.Equal(t, ReasonTimeout, reason)
	e.clock.Advance(time.Minute)
	select {
	case <-r2.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("finished room did not stop")
	}
}

func TestActorIdleStop(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.IdleTimeout = time.Minute; o.Grace = time.Hour; o.StartGrace = time.Hour })
	r := e.humans(nil) // no clock
	e.clock.Advance(2 * time.Minute)
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("idle room did not stop")
	}
}

func TestManagerCreateValidation(t *testing.T) {
	e := newEnv(t, nil)
	_, err := e.m.Create(e.ctx, CreateRequest{Settings: Settings{Size: 9}})
	assert.Equal(t, "bad_request", protocol.Code(err))
	_, err = e.m.Create(e.ctx, CreateRequest{Settings: DefaultSettings(), Color: "black"})
	assert.Equal(t, "unauthorized", protocol.Code(err))
	set := DefaultSettings()
	set.White = SeatSpec{Kind: AI, Level: "novice"}
	_, err = e.m.Create(e.ctx, CreateRequest{Settings: set, Creator: &alice, Color: "white"})
	assert.Equal(t, "bad_request", protocol.Code(err), "the white seat is the AI's")
	_, err = e.m.Create(e.ctx, CreateRequest{Settings: DefaultSettings(), Creator: &alice, Color: "random"})
	assert.Equal(t, "bad_request", protocol.Code(err), "the caller draws a random colour")
	r, err := e.m.Create(e.ctx, CreateRequest{Settings: DefaultSettings(), Creator: &alice, Color: "white"})
	require.NoError(t, err)
	assert.Equal(t, engine.White, r.State().ColorOf(alice.ID))
	_, err = e.m.Create(e.ctx, CreateRequest{ID: r.ID(), Settings: DefaultSettings()})
	assert.Equal(t, "conflict", protocol.Code(err))
	_, err = e.m.Get(e.ctx, "nope")
	assert.Equal(t, "no_such_room", protocol.Code(err))
	assert.Len(t, e.m.List(), 1)
	sums, _, err := e.store.List(e.ctx, ListQuery{Status: "open"})
	require.NoError(t, err)
	assert.Len(t, sums, 1)

	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	require.NoError(t, e.m.Shutdown(ctx))
	_, err = e.m.Create(e.ctx, CreateRequest{Settings: DefaultSettings()})
	assert.Equal(t, "shutting_down", protocol.Code(err))
	<-r.Done()
}

// TestStateReadableFromAnyGoroutine: State may be read from any goroutine at any time,
// also before the room's first state change (the race detector checks the published
// copy is never the one the room's goroutine writes).
func TestStateReadableFromAnyGoroutine(t *testing.T) {
	e := newEnv(t, nil)
	created, err := e.m.Create(e.ctx, CreateRequest{Settings: DefaultSettings(), Creator: &alice, Color: "black"})
	require.NoError(t, err)
	// Stop it and bring it back from the store: a restored room has made no state
	// change of its own yet.
	require.NoError(t, created.Stop(e.ctx))
	<-created.Done()
	r, err := e.m.Get(e.ctx, created.ID())
	require.NoError(t, err)
	require.NotSame(t, created, r)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				_ = r.State().Seq()
			}
		}
	}()
	e.do(r, Command{Kind: CmdSit, By: bob, Color: "white"})
	e.move(r, alice, 0, "h8")
	close(stop)
	<-done
	assert.Equal(t, 1, len(r.State().Moves()))
}
