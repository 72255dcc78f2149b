package room

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// Room is a live room: one goroutine (the actor) owns its State and serialises every
// input — commands, subscriptions, timers, AI results — through bounded channels. A
// command's events are appended to the Store first; only when that succeeded does the
// state change, the command get its Reply and subscribers see the events.
type Room struct {
	id    string
	opts  Options
	store Store

	cmdC        chan request
	subC        chan subRequest
	ctrlC       chan func()
	unsubC      chan *Subscription
	aiC         chan aiMsg
	stopC       chan struct{}
	done        chan struct{}
	stop        sync.Once
	cur         atomic.Pointer[State]
	pres        atomic.Pointer[Presence]
	localPres   atomic.Pointer[NodePresence]
	reason      atomic.Value // error: why the room stopped
	passiveFlag atomic.Bool
	replC       chan struct{} // Replicate's wake-up (capacity 1)
	inMu        sync.Mutex
	in          replicaInbox // events handed over by Replicate

	// Owned by the actor goroutine.
	state       State
	log         []Event // recent events (tail of the log)
	subs        map[*Subscription]struct{}
	conns       map[string]int          // open subscriptions per player id (this node's)
	remote      map[string]NodePresence // other nodes' subscriptions, by node (presence.go)
	remoteSubs  int                     // their sum
	since       map[string]time.Time    // last presence change per player id
	started     time.Time
	noSubsAt    time.Time // when the last subscriber left (zero while someone is connected)
	search      *search
	hints       map[*search]request
	players     [2]engine.Player // by seat of game 1
	hintPlayer  engine.Player
	retryAt     time.Time // retry of a failed timer-driven write
	unsure      bool      // a write failed: reload before the next one
	passive     bool      // no clocks, abandonment timers or AI searches here
	shared      bool      // other nodes write this room too (Sync called or a seq conflict seen)
	pendingAI   *aiMsg    // AI move whose write failed, retried at retryAt
	paced       *aiMsg    // AI vs AI move held until pacedAt (the room's pace)
	pacedAt     time.Time
	replRetryAt time.Time // retry of a replication catch-up whose store read failed
	spareIn     []Event   // the replicaInbox's other buffer
	lastAI      *AIProgress
	presSent    Presence       // the presence subscribers last got by broadcast
	presSentAt  time.Time      // when
	presDue     time.Time      // a batched spectator-count change is sent then (zero: none)
	wg          sync.WaitGroup // search goroutines
	ctx         context.Context
	cancel      context.CancelFunc
	onStop      func(*Room) // the Manager's, called last on the room's goroutine
}

// Reply acknowledges a command: Seq is the seq of its last stored event (the current
// seq for no-op commands). Duplicate is set for a resent move acknowledged again.
// Hint answers a hint command.
type Reply struct {
	Seq       uint64
	Duplicate bool
	Hint      *Hint
}

type request struct {
	cmd      Command
	internal bool          // internal kinds allowed (from this package only)
	reply    chan response // buffered (1)
}

type response struct {
	Reply
	err error
}

// ID returns the room id.
func (r *Room) ID() string { return r.id }

// State returns the room's current state (safe from any goroutine).
func (r *Room) State() State { return *r.cur.Load() }

// Seq returns the seq of the room's last event (safe from any goroutine; cheaper than
// State().Seq()).
func (r *Room) Seq() uint64 { return r.cur.Load().Seq() }

// Presence returns the latest presence (safe from any goroutine).
func (r *Room) Presence() Presence { return *r.pres.Load() }

// Snapshot returns the room's snapshot with presence, at the room clock's now.
func (r *Room) Snapshot() Snapshot {
	s := r.State().Snapshot(r.opts.Clock.Now())
	p := r.Presence()
	s.Presence = &p
	return s
}

// Passive reports whether the room is passive (safe from any goroutine).
func (r *Room) Passive() bool { return r.passiveFlag.Load() }

// Done is closed when the room has stopped and its goroutines have ended.
func (r *Room) Done() <-chan struct{} { return r.done }

// Err returns why the room stopped (nil while it runs).
func (r *Room) Err() error {
	if e, ok := r.reason.Load().(error); ok {
		return e
	}
	return nil
}

// Do sends cmd to the room and waits for its reply. Refusals are the package's
// sentinels (errors.Is; protocol.Code reads their codes); ErrRoomClosed when the room stopped; ctx's error when ctx ended first
// (the command may or may not have been applied then).
func (r *Room) Do(ctx context.Context, cmd Command) (Reply, error) {
	return r.do(ctx, request{cmd: cmd, reply: make(chan response, 1)})
}

// Abandon ends the room's game without a result (aborted, reason abandoned) before it
// really started, whoever sits there, as the actor does when a seated player left
// before the game started. Quick pairing closes with it the room of a match it failed
// to seat, a room nobody sat in included: that one would otherwise stay unfinished
// for good (among the rooms every node restores). ErrGameOver when the game is over,
// ErrAbortTooLate when it really started.
func (r *Room) Abandon(ctx context.Context) error {
	_, err := r.do(ctx, request{cmd: Command{Kind: CmdAbandon}, internal: true, reply: make(chan response, 1)})
	return err
}

func (r *Room) do(ctx context.Context, req request) (Reply, error) {
	select {
	case r.cmdC <- req:
	case <-r.done:
		return Reply{}, ErrRoomClosed
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
	select {
	case res := <-req.reply:
		return res.Reply, res.err
	case <-r.done:
		// The actor may have answered just before stopping.
		select {
		case res := <-req.reply:
			return res.Reply, res.err
		default:
		}
		return Reply{}, ErrRoomClosed
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

// Stop stops the room and waits until its goroutines have ended (or ctx ends).
func (r *Room) Stop(ctx context.Context) error {
	r.stop.Do(func() { close(r.stopC) })
	select {
	case <-r.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Start runs a live room for state (as rebuilt by Replay, whose last events are log)
// on store. Most callers use a Manager instead.
func Start(store Store, state State, log []Event, opts Options) *Room {
	return start(store, state, log, opts, nil)
}

// start is Start with the function the room calls last when it stops.
func start(store Store, state State, log []Event, opts Options, onStop func(*Room)) *Room {
	opts = opts.withDefaults()
	now := opts.Clock.Now()
	r := &Room{
		id: state.ID(), opts: opts, store: store,
		cmdC:    make(chan request, opts.CommandQueue),
		subC:    make(chan subRequest, 16),
		ctrlC:   make(chan func(), 4),
		replC:   make(chan struct{}, 1),
		passive: opts.Passive,
		unsubC:  make(chan *Subscription, 16),
		aiC:     make(chan aiMsg, 16),
		stopC:   make(chan struct{}),
		done:    make(chan struct{}),
		state:   state,
		subs:    map[*Subscription]struct{}{},
		conns:   map[string]int{},
		since:   map[string]time.Time{},
		hints:   map[*search]request{},
		started: now, noSubsAt: now,
		onStop: onStop,
	}
	if n := len(log); n > opts.MemoryLog {
		log = log[n-opts.MemoryLog:]
	}
	r.log = append([]Event(nil), log...)
	r.ctx, r.cancel = context.WithCancel(context.Background())
	// Publish a copy: r.state belongs to the room's goroutine, which overwrites it.
	published := r.state
	r.cur.Store(&published)
	r.passiveFlag.Store(r.passive)
	r.publishPresence(false)
	go r.loop()
	return r
}

func (r *Room) loop() {
	var timer Timer
	var wake time.Time
	defer func() {
		if timer != nil {
			timer.Stop()
		}
		r.shutdown()
	}()
	r.afterChange()
	for {
		if r.shouldStop() {
			r.reason.Store(ErrRoomStopped)
			return
		}
		next := r.nextWake()
		if !next.Equal(wake) {
			if timer != nil {
				timer.Stop()
				timer = nil
			}
			wake = next
			if !next.IsZero() {
				timer = r.opts.Clock.NewTimer(next.Sub(r.opts.Clock.Now()))
			}
		}
		var timerC <-chan time.Time
		if timer != nil {
			timerC = timer.C()
		}
		select {
		case <-r.stopC:
			r.reason.Store(ErrRoomStopped)
			return
		case req := <-r.cmdC:
			rep, err := r.handle(req)
			if err == errDeferred {
				continue
			}
			req.reply <- response{rep, err}
		case sr := <-r.subC:
			r.subscribe(sr)
		case f := <-r.ctrlC:
			f()
		case <-r.replC:
			r.onReplicate()
		case s := <-r.unsubC:
			r.drop(s, ErrUnsubscribed)
		case m := <-r.aiC:
			r.aiResult(m)
		case <-timerC:
			timer, wake = nil, time.Time{}
			r.onTimer()
		}
	}
}

var errDeferred = errors.New("room: reply deferred")

func (r *Room) handle(req request) (Reply, error) {
	cmd := req.cmd
	switch cmd.Kind {
	case CmdHint:
		return r.startHint(req)
	case CmdAIMove, CmdForfeit, CmdAbandon, CmdTimeout, CmdAutoClaim, CmdStart, CmdRating:
		if !req.internal {
			return Reply{}, fmt.Errorf("%w: internal command", ErrUnknownType)
		}
	case CmdClaimVictory:
		if me := r.state.ColorOf(cmd.By.ID); me != engine.Empty {
			cmd.GoneSince, cmd.Grace = r.goneSince(me.Opponent()), r.opts.Grace
		}
	}
	return r.exec(cmd)
}

// exec applies cmd (after flagging an expired clock), persists, then publishes.
func (r *Room) exec(cmd Command) (Reply, error) {
	now := r.opts.Clock.Now()
	if !r.passive && cmd.Kind != CmdTimeout && r.state.Expired(now) {
		if _, err := r.commit(Command{Kind: CmdTimeout}, now); err != nil {
			return Reply{}, err
		}
	}
	return r.commit(cmd, now)
}

// maxCatchUps bounds how often one command reloads from the store and is checked
// again after the room found its copy behind the store (another node wrote).
const maxCatchUps = 3

// commit applies cmd to the current state, persists its events, then publishes them.
// When the store shows that another writer got there first (seq conflict), or a passive
// room refuses cmd, the room catches up from the store (as Sync does) and checks cmd
// again against the fresh state, at most maxCatchUps times: the client gets an ack or
// the refusal of the real state, not a spurious conflict.
func (r *Room) commit(cmd Command, now time.Time) (Reply, error) {
	for tries := 0; ; tries++ {
		rep, err, again := r.commitOnce(cmd, now, tries < maxCatchUps)
		if !again {
			return rep, err
		}
	}
}

// commitOnce is one attempt of commit; again reports that the room caught up with the
// store and cmd must be checked again (only when mayRetry).
func (r *Room) commitOnce(cmd Command, now time.Time, mayRetry bool) (rep Reply, err error, again bool) {
	state0 := r.state
	st, events, err := Apply(r.state, cmd, now)
	var dup *DuplicateError
	if errors.As(err, &dup) {
		return Reply{Seq: dup.Seq, Duplicate: true}, nil, false
	}
	if err != nil {
		// With several nodes writing (a passive room, or one that has synced or lost a
		// seq race) the copy may be behind the store (pub/sub not there yet): the
		// refusal may come from a stale state, so check with the store. Refusals are
		// rare and rate-limited per connection by the server; a single node never
		// pays this read.
		if (r.passive || r.shared) && mayRetry && !errors.Is(err, ErrInternal) {
			if r.reload() && r.state.Seq() != state0.Seq() {
				return Reply{}, nil, true
			}
		}
		return Reply{}, err, false
	}
	if len(events) == 0 {
		return Reply{Seq: r.state.Seq()}, nil, false
	}
	if r.unsure {
		// The outcome of the last failed write is unknown: catch up first.
		if !r.reload() {
			return Reply{}, ErrUnavailable, false
		}
		if r.state.Seq() != state0.Seq() {
			return Reply{}, nil, true // the failed write did happen: re-check cmd
		}
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.opts.StoreTimeout)
	err = r.store.Append(ctx, r.id, r.state.Seq(), events, st.Summary())
	cancel()
	if err != nil {
		if errors.Is(err, ErrSeqConflict) {
			// Another node stored events first: catch up and check cmd again.
			r.shared = true
			if r.reload() && r.state.Seq() != state0.Seq() && mayRetry {
				return Reply{}, nil, true
			}
			return Reply{}, fmt.Errorf("%w: %v", ErrConflict, err), false
		}
		r.opts.Logger.Warn("room: append failed", "room", r.id, "err", err)
		r.unsure = true
		return Reply{}, fmt.Errorf("%w: %v", ErrUnavailable, err), false
	}
	r.setState(st, events)
	return Reply{Seq: st.Seq()}, nil, false
}

// setState installs a stored state and publishes its events.
func (r *Room) setState(st State, events []Event) {
	r.state = st
	r.cur.Store(&st)
	r.log = append(r.log, events...)
	if n := len(r.log); n > 2*r.opts.MemoryLog { // trim amortized: keep ≥ MemoryLog
		// In place: the array (about 2×MemoryLog events) is reused, not reallocated
		// every MemoryLog moves. Nothing outside the actor holds r.log's elements.
		k := copy(r.log, r.log[n-r.opts.MemoryLog:])
		clear(r.log[k:n])
		r.log = r.log[:k]
	}
	for i := range events {
		e := events[i].clone()
		r.broadcast(Update{Event: &e})
	}
	r.afterChange()
}

// reload catches up with events stored by another writer (seq conflict) or by a write
// whose outcome was unknown. It reports whether the store answered.
func (r *Room) reload() bool {
	ctx, cancel := context.WithTimeout(r.ctx, r.opts.StoreTimeout)
	defer cancel()
	events, err := r.store.Events(ctx, r.id, r.state.Seq()+1)
	if err != nil {
		return false
	}
	r.unsure = false
	if len(events) == 0 {
		return true
	}
	st, err := ReplayFrom(r.state, events)
	if err != nil {
		r.opts.Logger.Error("room: reload failed", "room", r.id, "err", err)
		return true
	}
	r.setState(st, events)
	return true
}

// afterChange reconciles the AI search and presence with the state.
func (r *Room) afterChange() {
	r.syncAI()
	r.publishPresence(true)
}

// shutdown cancels searches, waits for them, ends subscriptions and pending hints.
func (r *Room) shutdown() {
	r.cancel()
	r.wg.Wait()
	reason := r.Err()
	for s := range r.subs {
		r.closeSub(s, reason)
	}
	for _, req := range r.hints {
		req.reply <- response{err: ErrRoomClosed}
	}
	r.hints = nil
	for _, p := range []engine.Player{r.players[0], r.players[1], r.hintPlayer} {
		if c, ok := p.(io.Closer); ok {
			_ = c.Close()
		}
	}
	r.players, r.hintPlayer = [2]engine.Player{}, nil
	// Drain requests that raced with the stop.
	for {
		select {
		case req := <-r.cmdC:
			req.reply <- response{err: ErrRoomClosed}
			continue
		default:
		}
		break
	}
	if r.onStop != nil {
		r.onStop(r)
	}
	close(r.done)
}

// control runs f on the actor and waits for it.
func (r *Room) control(ctx context.Context, f func()) error {
	done := make(chan struct{})
	select {
	case r.ctrlC <- func() { f(); close(done) }:
	case <-r.done:
		return ErrRoomClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-r.done:
		return ErrRoomClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}
