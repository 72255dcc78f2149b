package room

import (
	"context"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// Subscription is a subscriber's bounded queue of updates. C is closed when the
// subscription ends: by Close, when the room stops, or when the subscriber fell so
// far behind that its queue filled up (Err is then ErrSlowSubscriber; the client
// reconnects with its last seq and catches up from the store). The updates are shared
// by every subscriber of the room and must not be modified. The queue holds pointers
// so that an idle subscriber's queue costs 8 bytes a slot.
type Subscription struct {
	C      <-chan *Update
	ch     chan *Update
	room   *Room
	viewer Player
	notify func()
	once   sync.Once
	mu     sync.Mutex
	err    error
}

// Err returns why the subscription ended (nil while it runs).
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close ends the subscription (idempotent). Its channel is closed by the room.
func (s *Subscription) Close() {
	s.once.Do(func() {
		select {
		case s.room.unsubC <- s:
		case <-s.room.done:
		}
	})
}

// SubscribeOptions: FromSeq is the last seq the client has seen (0: none, send a
// snapshot). Viewer identifies the client: a seated player's subscriptions make the
// seat "connected". Queue overrides Options.SubQueue. Notify, when set, is called on the
// room's goroutine after each update queued for the subscriber (not for the backlog
// queued before Subscribe returns) and when C is closed; it must not block. It lets a
// consumer that does not keep a goroutine blocked on C (a parked connection writer)
// start one when there is work.
type SubscribeOptions struct {
	FromSeq uint64
	Viewer  Player
	Queue   int
	Notify  func()
}

type subRequest struct {
	opts  SubscribeOptions
	reply chan *Subscription
}

// Subscribe registers a subscriber. Its first updates are exactly the persisted events
// after FromSeq (from memory or the store), or a Snapshot when FromSeq is 0, unknown
// or too old (Resync set when FromSeq was not 0), then a Presence update, then the
// live stream.
func (r *Room) Subscribe(ctx context.Context, opts SubscribeOptions) (*Subscription, error) {
	req := subRequest{opts: opts, reply: make(chan *Subscription, 1)}
	select {
	case r.subC <- req:
	case <-r.done:
		return nil, ErrRoomClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case s := <-req.reply:
		return s, nil
	case <-r.done:
		select {
		case s := <-req.reply:
			return s, nil // C is closed: the room stopped right after
		default:
		}
		return nil, ErrRoomClosed
	}
}

func (r *Room) subscribe(req subRequest) {
	o := req.opts
	cur := r.state.Seq()
	var backlog []*Update
	snapshot := func(resync bool) {
		snap := r.state.Snapshot(r.opts.Clock.Now())
		p := r.presence()
		snap.Presence = &p
		backlog = []*Update{{Snapshot: &snap, Resync: resync}}
	}
	switch {
	case o.FromSeq == 0:
		snapshot(false)
	case o.FromSeq > cur || cur-o.FromSeq > uint64(r.opts.MaxBacklog):
		snapshot(true)
	case o.FromSeq < cur:
		events, ok := r.eventsAfter(o.FromSeq)
		if !ok {
			snapshot(true)
			break
		}
		for i := range events {
			e := events[i]
			backlog = append(backlog, &Update{Event: &e})
		}
	}
	q := o.Queue
	if q <= 0 {
		q = r.opts.SubQueue
	}
	ch := make(chan *Update, q+len(backlog)+2)
	s := &Subscription{C: ch, ch: ch, room: r, viewer: o.Viewer, notify: o.Notify}
	for _, u := range backlog {
		ch <- u
	}
	r.subs[s] = struct{}{}
	r.noSubsAt = time.Time{}
	if id := o.Viewer.ID; id != "" {
		if r.count(id) == 0 {
			r.since[id] = r.opts.Clock.Now()
		}
		r.conns[id]++
	}
	r.localChanged()
	if !r.publishPresence(true) {
		// Not broadcast (unchanged, or a spectator count waiting for the batch): the
		// new subscriber still gets the current presence on join.
		p := *r.pres.Load()
		r.send(s, &Update{Presence: &p})
	}
	if r.lastAI != nil && (r.search != nil || r.passive && r.lastAI.Ply == r.state.Ply()) {
		p := *r.lastAI
		r.send(s, &Update{AI: &p})
	}
	req.reply <- s
}

// eventsAfter returns the events with seq > from: from memory or the store.
func (r *Room) eventsAfter(from uint64) ([]Event, bool) {
	if len(r.log) > 0 && r.log[0].Seq <= from+1 {
		i := int(from + 1 - r.log[0].Seq)
		out := make([]Event, 0, len(r.log)-i)
		for _, e := range r.log[i:] {
			out = append(out, e.clone())
		}
		return out, true
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.opts.StoreTimeout)
	defer cancel()
	events, err := r.store.Events(ctx, r.id, from+1)
	if err != nil || len(events) == 0 || events[0].Seq != from+1 || events[len(events)-1].Seq != r.state.Seq() {
		return nil, false
	}
	return events, true
}

// send queues u for s without blocking: a full queue drops the subscriber. Ephemeral
// updates are skipped instead when the queue is three-quarters full.
func (r *Room) send(s *Subscription, u *Update) {
	if u.Ephemeral() && len(s.ch) >= cap(s.ch)*3/4 {
		return
	}
	select {
	case s.ch <- u:
		if s.notify != nil {
			s.notify()
		}
	default:
		r.drop(s, ErrSlowSubscriber)
	}
}

// broadcast queues u for every subscriber (one shared copy).
func (r *Room) broadcast(u Update) {
	p := &u
	for s := range r.subs {
		r.send(s, p)
	}
}

// drop ends subscription s (if still registered) with reason.
func (r *Room) drop(s *Subscription, reason error) {
	if _, ok := r.subs[s]; !ok {
		return
	}
	r.closeSub(s, reason)
	delete(r.subs, s)
	if id := s.viewer.ID; id != "" {
		r.conns[id]--
		if r.conns[id] <= 0 {
			delete(r.conns, id)
		}
		if r.count(id) == 0 {
			r.since[id] = r.opts.Clock.Now()
		}
	}
	r.localChanged()
	if !r.anySubs() {
		r.noSubsAt = r.opts.Clock.Now()
	}
	r.publishPresence(true)
}

func (r *Room) closeSub(s *Subscription, reason error) {
	s.mu.Lock()
	s.err = reason
	s.mu.Unlock()
	close(s.ch)
	if s.notify != nil {
		s.notify()
	}
}

// connected reports whether seat c is connected (machines always are).
func (r *Room) connected(c engine.Color) bool {
	seat := r.state.Seat(c)
	if seat.Spec.IsMachine() {
		return true
	}
	return seat.Player != nil && r.count(seat.Player.ID) > 0
}

// goneSince returns since when the human at seat c is disconnected (zero if connected,
// empty or a machine). A player never seen since the room (re)started counts from then.
func (r *Room) goneSince(c engine.Color) time.Time {
	seat := r.state.Seat(c)
	if seat.Spec.IsMachine() || seat.Player == nil || r.count(seat.Player.ID) > 0 {
		return time.Time{}
	}
	if t, ok := r.since[seat.Player.ID]; ok {
		return t
	}
	return r.started
}

// graceFor returns the abandonment grace that applies now: StartGrace in a game in
// which not both sides have moved (then the game is aborted), else Grace.
func (r *Room) graceFor() time.Duration {
	if r.state.Phase() == PhasePlaying && !r.state.ReallyStarted() {
		return r.opts.StartGrace
	}
	return r.opts.Grace
}

// graceEnd returns when seat c's grace ends while c is gone and that still calls for
// action: before the game really started (or while waiting) the room aborts then, so
// the time is returned even when past until that happened; afterwards only until the
// presence has announced that the opponent may claim.
func (r *Room) graceEnd(c engine.Color) time.Time {
	if r.state.Phase() == PhaseOver {
		return time.Time{}
	}
	gone := r.goneSince(c)
	if gone.IsZero() {
		return time.Time{}
	}
	end := gone.Add(r.graceFor())
	if r.state.Phase() == PhaseWaiting || !r.state.ReallyStarted() || r.opts.Clock.Now().Before(end) {
		return end
	}
	p := r.pres.Load()
	if sp := p.Black; c == engine.Black && !sp.Claimable || c == engine.White && !p.White.Claimable {
		return end
	}
	return time.Time{}
}

// graceOver reports whether seat c is gone beyond its grace at now.
func (r *Room) graceOver(c engine.Color, now time.Time) bool {
	gone := r.goneSince(c)
	return r.state.Phase() != PhaseOver && !gone.IsZero() && !now.Before(gone.Add(r.graceFor()))
}

// presence computes the current presence report.
func (r *Room) presence() Presence {
	now := r.opts.Clock.Now()
	seat := func(c engine.Color) SeatPresence {
		sp := SeatPresence{Connected: r.connected(c), GraceMS: r.graceFor().Milliseconds()}
		if sp.Connected {
			if pl := r.state.Seat(c).Player; pl != nil {
				sp.Since = r.since[pl.ID].UnixMilli()
			}
			return sp
		}
		gone := r.goneSince(c)
		if gone.IsZero() {
			return sp // empty seat
		}
		sp.Since = gone.UnixMilli()
		sp.Claimable = r.state.Phase() == PhasePlaying && r.state.ReallyStarted() && r.graceOver(c, now)
		return sp
	}
	// Spectators are the subscriptions not held by a seated human (counted in O(1):
	// a burst of joins must not cost O(n²)).
	seated := 0
	for _, c := range []engine.Color{engine.Black, engine.White} {
		pl := r.state.Seat(c).Player
		if pl == nil || pl.ID == "" || r.state.ColorOf(pl.ID) != c {
			continue // empty, a machine, or the same player already counted at black
		}
		seated += r.count(pl.ID)
	}
	return Presence{Black: seat(engine.Black), White: seat(engine.White), Spectators: len(r.subs) + r.remoteSubs - seated}
}

// publishPresence stores the current presence and, when broadcast is set and it
// differs from what subscribers last got, sends it to them as an ephemeral update:
// at once when a seat's presence changed, batched when only the spectator count did
// (at most one such update per Options.PresenceInterval; the timer flushes the last
// count). It reports whether it broadcast.
func (r *Room) publishPresence(broadcast bool) bool {
	p := r.presence()
	r.pres.Store(&p)
	if !broadcast {
		if len(r.subs) == 0 {
			r.presSent = p // nobody to tell: joiners get the presence on join
		}
		return false
	}
	if p == r.presSent {
		r.presDue = time.Time{}
		return false
	}
	now := r.opts.Clock.Now()
	seatChange := p.Black != r.presSent.Black || p.White != r.presSent.White
	if seatChange || !now.Before(r.presSentAt.Add(r.opts.PresenceInterval)) {
		r.sendPresence(p, now)
		return true
	}
	if r.presDue.IsZero() {
		r.presDue = r.presSentAt.Add(r.opts.PresenceInterval)
	}
	return false
}

func (r *Room) sendPresence(p Presence, now time.Time) {
	// Set before broadcasting: a slow subscriber dropped by the broadcast re-enters
	// publishPresence.
	r.presSent, r.presSentAt, r.presDue = p, now, time.Time{}
	cp := p
	r.broadcast(Update{Presence: &cp})
}

// flushPresence sends a batched spectator count whose time has come.
func (r *Room) flushPresence(now time.Time) {
	if r.presDue.IsZero() || now.Before(r.presDue) {
		return
	}
	p := r.presence()
	r.pres.Store(&p)
	if p == r.presSent {
		r.presDue = time.Time{}
		return
	}
	r.sendPresence(p, now)
}
