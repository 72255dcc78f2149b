package room

import (
	"context"
	"sync"
	"time"
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
// seat "connected". Queue overrides Options.SubQueue.
type SubscribeOptions struct {
	FromSeq uint64
	Viewer  Player
	Queue   int
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
		backlog = []*Update{Update{Snapshot: &snap, Resync: resync}.Encoded()}
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
			backlog = append(backlog, Update{Event: &e}.Encoded())
		}
	}
	q := o.Queue
	if q <= 0 {
		q = r.opts.SubQueue
	}
	ch := make(chan *Update, q+len(backlog)+2)
	s := &Subscription{C: ch, ch: ch, room: r, viewer: o.Viewer}
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
		r.send(s, Update{Presence: &p}.Encoded())
	}
	if r.lastAI != nil && (r.search != nil || r.passive && r.lastAI.Ply == r.state.Ply()) {
		p := *r.lastAI
		r.send(s, Update{AI: &p}.Encoded())
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
	default:
		r.drop(s, ErrSlowSubscriber)
	}
}

// broadcast queues u for every subscriber (one shared copy, encoded once).
func (r *Room) broadcast(u Update) {
	if len(r.subs) == 0 {
		return
	}
	p := u.Encoded()
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
}
