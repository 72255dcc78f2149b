package room

import (
	"context"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vsAI creates a room with Alice (black) against an AI seat (white), with Alice subscribed.
func (e *env) vsAI(mod func(*Settings)) (*Room, *Subscription) {
	set := DefaultSettings()
	set.White = SeatSpec{Kind: AI, Level: "novice"}
	if mod != nil {
		mod(&set)
	}
	r, err := e.m.Create(e.ctx, CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(e.t, err)
	return r, e.sub(r, alice, r.State().Seq())
}

func TestAISeatStubPlaysWithProgress(t *testing.T) {
	stub := &stubPlayer{name: "stub", infos: 3}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub) })
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	var sawThinking, sawDepth bool
	for {
		u := next(t, s)
		if u.AI != nil {
			assert.Equal(t, "white", u.AI.Color)
			sawThinking = sawThinking || u.AI.Status == AIThinking
			sawDepth = sawDepth || (u.AI.Depth > 0 && len(u.AI.PV) == 1 && u.AI.Nodes > 0)
		}
		if u.Event != nil && u.Event.Kind == EvMove && u.Event.Color == "white" {
			assert.Equal(t, "h8", u.Event.Point)
			assert.Equal(t, 1, u.Event.Ply)
			break
		}
	}
	assert.True(t, sawThinking)
	assert.True(t, sawDepth, "progress carries depth, nodes, pv")
	assert.Equal(t, []string{"a1", "h8"}, r.State().Moves())
	// The AI saw the position after Alice's move.
	b, _ := engine.BoardFromMoves(15, engine.Freestyle, []engine.Point{{X: 0, Y: 0}})
	assert.Equal(t, []uint64{b.Hash()}, stub.boards)
}

func TestAIProgressThrottled(t *testing.T) {
	stub := &stubPlayer{name: "stub", infos: 20000}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub); o.Clock = RealClock{} })
	r, s := e.vsAI(nil)
	start := time.Now()
	e.move(r, alice, 0, "a1")
	n := 0
	for {
		u := next(t, s)
		if u.AI != nil {
			n++
		}
		if u.Event != nil && u.Event.Color == "white" {
			break
		}
	}
	el := time.Since(start)
	assert.LessOrEqual(t, float64(n), 2+10*el.Seconds(), "≤ 10 progress updates a second (%d in %v)", n, el)
	assert.GreaterOrEqual(t, n, 1)
}

func TestAISearchCancelledOnTakeback(t *testing.T) {
	stub := &stubPlayer{name: "stub", gate: make(chan struct{})}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub) })
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	waitFor(t, "search started", func() bool { return stub.started.Load() == 1 })
	rep := e.do(r, Command{Kind: CmdTakebackRequest, By: alice})
	ev := waitEvent(t, s, EvTakeback)
	assert.Equal(t, rep.Seq, ev.Seq)
	assert.Equal(t, 1, ev.Plies)
	waitFor(t, "search cancelled", func() bool { return stub.cancelled.Load() == 1 })
	assert.Empty(t, r.State().Moves())

	// Alice plays elsewhere: a new search for the new position, whose move is applied.
	e.move(r, alice, 0, "o15")
	waitFor(t, "second search", func() bool { return stub.started.Load() == 2 })
	stub.gate <- struct{}{}
	ev = waitEvent(t, s, EvMove)
	for ev.Color != "white" {
		ev = waitEvent(t, s, EvMove)
	}
	assert.Equal(t, []string{"o15", "h8"}, r.State().Moves())
}

func TestAIStaleResultDropped(t *testing.T) {
	// The player ignores cancellation and answers for a position that is gone.
	stub := &stubPlayer{name: "stub", gate: make(chan struct{}), ignoreCtx: true}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub) })
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	waitFor(t, "search started", func() bool { return stub.started.Load() == 1 })
	e.do(r, Command{Kind: CmdResign, By: alice})
	waitEvent(t, s, EvGameOver)
	seq := r.State().Seq()
	stub.gate <- struct{}{} // the stale answer arrives
	// Rematch: the AI (now black) thinks about the new empty board; its answer for the
	// old position was never applied.
	e.do(r, Command{Kind: CmdRematch, By: alice})
	waitFor(t, "new search", func() bool { return stub.started.Load() == 2 })
	assert.Equal(t, seq+1, r.State().Seq(), "only the rematch event was added")
	assert.Empty(t, r.State().Moves())
	stub.gate <- struct{}{}
	ev := waitEvent(t, s, EvMove)
	assert.Equal(t, "black", ev.Color)
	assert.Equal(t, 0, ev.Ply)
}

func TestAISearchCancelledOnResignAbortAndStop(t *testing.T) {
	stub := &stubPlayer{name: "stub", gate: make(chan struct{})}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub) })
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	waitFor(t, "search 1", func() bool { return stub.started.Load() == 1 })
	e.do(r, Command{Kind: CmdAbort, By: alice}) // before both sides moved
	ev := waitEvent(t, s, EvGameOver)
	assert.Equal(t, ResultAborted, ev.Result)
	waitFor(t, "cancelled 1", func() bool { return stub.cancelled.Load() == 1 })

	// Rematch: the AI has black and starts thinking at once; stopping the room cancels it.
	e.do(r, Command{Kind: CmdRematch, By: alice})
	waitFor(t, "search 2", func() bool { return stub.started.Load() == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, r.Stop(ctx))
	assert.Equal(t, int32(2), stub.cancelled.Load())
	_, ok := <-s.C
	for ok {
		_, ok = <-s.C
	}
	assert.ErrorIs(t, s.Err(), ErrRoomStopped)
}

func TestAIWinsWhenHumanAbandons(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Grace = time.Minute })
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	waitEvent(t, s, EvMove) // a1
	waitEvent(t, s, EvMove) // the AI's reply: the game really started
	s.Close()
	waitFor(t, "alice gone", func() bool { return !r.Presence().Black.Connected })
	watcher := e.sub(r, carol, r.State().Seq())
	e.clock.Advance(61 * time.Second)
	ev := waitEvent(t, watcher, EvGameOver)
	assert.Equal(t, ResultWhite, ev.Result)
	assert.Equal(t, ReasonAbandoned, ev.Reason)
}

func TestAIForfeitsWhenPlayerFails(t *testing.T) {
	for _, stub := range []*stubPlayer{{name: "fails", fail: true}, {name: "panics", panics: true}} {
		t.Run(stub.name, func(t *testing.T) {
			e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub) })
			r, s := e.vsAI(nil)
			e.move(r, alice, 0, "a1")
			ev := waitEvent(t, s, EvGameOver)
			assert.Equal(t, ResultBlack, ev.Result)
			assert.Equal(t, ReasonForfeit, ev.Reason)
		})
	}
}

func TestAIVsAIStub(t *testing.T) {
	e := newEnv(t, nil)
	set := DefaultSettings()
	set.Black = SeatSpec{Kind: AI, Level: "novice"}
	set.White = SeatSpec{Kind: Engine, Engine: "stub"}
	set.AIPaceMS = 0 // unpaced: the fake clock does not move (TestAIVsAIPace)
	r, err := e.m.Create(e.ctx, CreateRequest{Settings: set})
	require.NoError(t, err)
	// The stub game may end before a subscription from seq 0 (a snapshot, no backlog)
	// could see its game_over event, so the room's state is what is waited for.
	waitFor(t, "the game's end", func() bool { return r.State().Phase() == PhaseOver })
	result, _, _ := r.State().Result()
	assert.NotEmpty(t, result)
	evs, err := e.store.Events(e.ctx, r.ID(), 1)
	require.NoError(t, err)
	st, err := Replay(evs)
	require.NoError(t, err)
	assert.Equal(t, r.State(), st)
	assert.Greater(t, st.Ply(), 8)
}

func TestAIRealEngineTinyBudget(t *testing.T) {
	e := newEnv(t, func(o *Options) {
		o.Players = DefaultPlayers
		o.Clock = RealClock{}
		o.AILimits = func(l engine.Limits) engine.Limits { l.Time = 5 * time.Millisecond; l.Depth = 2; return l }
	})
	set := DefaultSettings()
	set.Rule = "renju"
	set.Black = SeatSpec{Kind: AI, Level: "beginner"}
	set.White = SeatSpec{Kind: AI, Level: "novice"}
	// Unpaced: at the default pace of one move a second a long game would outlast the deadline.
	set.AIPaceMS = 0
	r, err := e.m.Create(e.ctx, CreateRequest{Settings: set})
	require.NoError(t, err)
	s := e.sub(r, carol, 0)
	deadline := time.After(60 * time.Second)
	for r.State().Phase() != PhaseOver {
		select {
		case <-s.C:
		case <-deadline:
			t.Fatalf("AI vs AI game not over after 60 s at ply %d", r.State().Ply())
		}
	}
	evs, err := e.store.Events(e.ctx, r.ID(), 1)
	require.NoError(t, err)
	st, err := Replay(evs)
	require.NoError(t, err, "every AI move was legal")
	res, reason, _ := st.Result()
	t.Logf("real engine AI vs AI: %s by %s in %d plies", res, reason, st.Ply())

	// Human vs the real engine: it answers.
	r2, s2 := e.vsAI(func(s *Settings) { s.White = SeatSpec{Kind: AI, Level: "beginner"} })
	e.move(r2, alice, 0, "h8")
	ev := waitEvent(t, s2, EvMove)
	for ev.Color != "white" {
		ev = waitEvent(t, s2, EvMove)
	}
	assert.Equal(t, 1, ev.Ply)
}

func TestAIHint(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(func(s *Settings) { s.Hints = true })
	rep := e.do(r, Command{Kind: CmdHint, By: alice})
	require.NotNil(t, rep.Hint)
	assert.Equal(t, "h8", rep.Hint.Point)
	_, err := r.Do(e.ctx, Command{Kind: CmdHint, By: bob})
	assert.Equal(t, "not_your_turn", protocol.Code(err))
	_, err = r.Do(e.ctx, Command{Kind: CmdHint, By: carol})
	assert.Equal(t, "not_a_player", protocol.Code(err))
	assert.Equal(t, uint64(4), r.State().Seq(), "hints are not stored")
}

func TestSchedulerCapsAndQueues(t *testing.T) {
	s := NewScheduler(1, 1)
	ctx := context.Background()
	rel1, err := s.Acquire(ctx, func() { t.Error("first acquire must not queue") })
	require.NoError(t, err)
	require.NoError(t, s.Admit())
	queued := make(chan struct{}, 1)
	got := make(chan func(), 1)
	go func() {
		rel, err := s.Acquire(ctx, func() { queued <- struct{}{} })
		assert.NoError(t, err)
		got <- rel
	}()
	<-queued
	run, wait, slots := s.Stats()
	assert.Equal(t, [3]int{1, 1, 1}, [3]int{run, wait, slots})
	assert.ErrorIs(t, s.Admit(), ErrAIBusy)
	assert.Equal(t, "ai_busy", protocol.Code(s.Admit()))

	// A cancelled waiter leaves the queue.
	cctx, cancel := context.WithCancel(ctx)
	errC := make(chan error, 1)
	go func() { _, err := s.Acquire(cctx, nil); errC <- err }()
	waitFor(t, "second waiter", func() bool { _, w, _ := s.Stats(); return w == 2 })
	cancel()
	assert.ErrorIs(t, <-errC, context.Canceled)

	rel1()
	rel2 := <-got
	run, wait, _ = s.Stats()
	assert.Equal(t, [2]int{1, 0}, [2]int{run, wait})
	rel2()
	rel2() // idempotent
	run, _, _ = s.Stats()
	assert.Equal(t, 0, run)
}

func TestAIQueuedStatusAndBusyRefusal(t *testing.T) {
	sched := NewScheduler(1, 1)
	e := newEnv(t, func(o *Options) { o.Scheduler = sched })
	hold, err := sched.Acquire(context.Background(), nil) // the only slot is busy
	require.NoError(t, err)
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	for {
		if u := next(t, s); u.AI != nil {
			assert.Equal(t, AIQueued, u.AI.Status)
			break
		}
	}
	// Saturated (1 running, 1 waiting ≥ queue 1): another AI room is refused.
	set := DefaultSettings()
	set.White = SeatSpec{Kind: AI, Level: "novice"}
	_, err = e.m.Create(e.ctx, CreateRequest{Settings: set, Creator: &bob, Color: "black"})
	assert.Equal(t, "ai_busy", protocol.Code(err))
	// Human rooms are still fine.
	_, err = e.m.Create(e.ctx, CreateRequest{Settings: DefaultSettings(), Creator: &bob, Color: "black"})
	assert.NoError(t, err)
	hold()
	ev := waitEvent(t, s, EvMove)
	assert.Equal(t, "white", ev.Color)
}

func TestPassiveRoomRunsNoSearchUntilActive(t *testing.T) {
	stub := &stubPlayer{name: "stub"}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub); o.Passive = true })
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	// The move's reply follows the room's decision on the AI search (made on its
	// goroutine before replying): ask the goroutine whether it started one.
	var searching bool
	require.NoError(t, r.control(e.ctx, func() { searching = r.search != nil }))
	assert.False(t, searching, "a passive room does not search")
	assert.Equal(t, int32(0), stub.started.Load())
	require.NoError(t, r.SetPassive(e.ctx, false))
	ev := waitEvent(t, s, EvMove)
	for ev.Color != "white" {
		ev = waitEvent(t, s, EvMove)
	}
	assert.Equal(t, int32(1), stub.started.Load())
}

func TestAIMoveWriteRetried(t *testing.T) {
	stub := &stubPlayer{name: "stub", gate: make(chan struct{})}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub); o.RetryDelay = time.Second })
	r, s := e.vsAI(nil)
	e.move(r, alice, 0, "a1")
	waitFor(t, "search", func() bool { return stub.started.Load() == 1 })
	attempted := make(chan struct{}, 4)
	e.store.OnAppend = func(string, uint64, []Event) { attempted <- struct{}{} }
	e.store.FailAppends(1)
	stub.gate <- struct{}{} // the AI answers; storing its move fails
	<-attempted
	require.NoError(t, r.control(e.ctx, func() {}), "the room has handled the failed write")
	assert.Equal(t, 1, r.State().Ply(), "nothing applied without the store")
	e.clock.Advance(time.Second) // the retry
	ev := waitEvent(t, s, EvMove)
	for ev.Color != "white" {
		ev = waitEvent(t, s, EvMove)
	}
	assert.Equal(t, 1, ev.Ply)
	assert.Equal(t, int32(1), stub.started.Load(), "the result was kept, not searched again")
}

func TestAILimitsFollowClock(t *testing.T) {
	stub := &stubPlayer{name: "stub"}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub) })
	r, s := e.vsAI(func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000, IncrementMS: 2_000, PerMoveMS: 10_000} })
	e.clock.Advance(3 * time.Second)
	e.move(r, alice, 0, "a1")
	waitEvent(t, s, EvMove)
	waitEvent(t, s, EvMove)
	e.clock.Advance(3 * time.Second)
	e.move(r, alice, 2, "a3")
	waitEvent(t, s, EvMove)
	waitEvent(t, s, EvMove)
	require.Len(t, stub.limits, 2)
	l := stub.limits[0]
	require.NotNil(t, l.Clock)
	assert.Equal(t, 60*time.Second, l.Clock.Left, "white's clock has not run yet")
	assert.Equal(t, 7500*time.Millisecond, l.Time, "a first move stays well inside the first-move time")
	l = stub.limits[1]
	require.NotNil(t, l.Clock)
	assert.Equal(t, 60*time.Second, l.Clock.Left, "the stub answers at once")
	assert.Equal(t, 2*time.Second, l.Clock.Increment)
	assert.Equal(t, 9500*time.Millisecond, l.Time, "per-move limit minus a 0.5 s margin")
	for _, l := range stub.limits {
		assert.Equal(t, GameSeed(r.ID(), 1), l.Seed, "the level noise is seeded per game")
	}
}

func TestManagerJoin(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Linger = time.Second })
	r := e.humans(nil)
	e.do(r, Command{Kind: CmdResign, By: bob})
	e.clock.Advance(2 * time.Second) // finished and nobody there: it stops
	<-r.Done()
	r2, sub, err := e.m.Join(e.ctx, r.ID(), SubscribeOptions{Viewer: alice})
	require.NoError(t, err)
	defer sub.Close()
	u := next(t, sub)
	require.NotNil(t, u.Snapshot)
	assert.Equal(t, "finished", u.Snapshot.Status)
	assert.NotSame(t, r, r2)
	_, _, err = e.m.Join(e.ctx, "missing", SubscribeOptions{})
	assert.Equal(t, "no_such_room", protocol.Code(err))
}
