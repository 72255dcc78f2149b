package room

import (
	"context"
	"time"
)

// Replication: with several nodes on one store, each node that has a room loaded runs
// a copy of it. Every copy applies its own clients' commands (the seq-checked append
// lets one writer win each seq), takes in the events the other copies stored
// (Replicate, Sync), and counts the other nodes' connections in its presence
// (SetRemotePresence, presence.go). Exactly one copy, the one whose node holds the
// room's lease, is active: it runs the clocks' flag, the abandonment timers and the AI
// seats; the others are passive (SetPassive) and show that copy's AI progress
// (RelayAIProgress). Package room/replica does the node's side of this over Redis.

// Replicator connects a Manager's rooms to the copies other nodes run of them (package
// room/replica implements it). The Manager asks Active before a room starts (true:
// this node holds the room's lease and runs it active, false: passive), calls Started
// once the room runs and Stopped when it has stopped (on the room's goroutine, last).
// The room calls LocalPresence when this node's subscriptions to it change and
// AIProgress with the progress of every AI search it runs. Started, Stopped,
// LocalPresence and AIProgress must not block.
type Replicator interface {
	Active(ctx context.Context, id string) bool
	Started(r *Room)
	Stopped(r *Room)
	LocalPresence(id string, p NodePresence)
	AIProgress(id string, p AIProgress)
}

// LastAlive returns when the node running room id last showed it was alive, zero when
// the store does not know (see AliveStore).
func LastAlive(ctx context.Context, store Store, id string) time.Time {
	as, ok := store.(AliveStore)
	if !ok {
		return time.Time{}
	}
	t, err := as.AliveAt(ctx, id)
	if err != nil {
		return time.Time{}
	}
	return t
}

// Sync catches up with the events other nodes appended to the store (after a
// subscription to the room's channel starts, or after messages were lost) and
// publishes them to this room's subscribers. It returns the room's seq afterwards.
func (r *Room) Sync(ctx context.Context) (uint64, error) {
	var seq uint64
	ok := true
	err := r.control(ctx, func() {
		r.shared = true
		ok = r.reload()
		seq = r.state.Seq()
	})
	if err != nil {
		return 0, err // seq and ok may still be written: the call may run after ctx ended
	}
	if !ok {
		return seq, ErrUnavailable
	}
	return seq, nil
}

// replicaInbox holds the events handed over by Replicate until the room's goroutine
// takes them.
type replicaInbox struct {
	events []Event
	upTo   uint64 // highest seq handed over (never decreases)
	gap    bool   // events were dropped (the inbox was full): read the store
}

// maxInbox bounds the events waiting in a room's replicaInbox; beyond it they are
// dropped and the room reads them from the store.
const maxInbox = 256

// Replicate hands the room an event another node stored (carried by the room's
// pub/sub message). It never blocks. An event the room already has (always the case
// for its own writes, unless the message overtook the store's reply) costs nothing;
// the others are applied on the room's goroutine and published to its subscribers, in
// seq order. When the events received do not continue the room's log (a message was
// lost or dropped) the room reads the missing ones from the store as Sync does, and
// again after RetryDelay while the store does not answer.
func (r *Room) Replicate(e Event) {
	if e.Seq <= r.Seq() {
		return
	}
	r.inMu.Lock()
	if len(r.in.events) >= maxInbox {
		r.in.events, r.in.gap = r.in.events[:0], true
	}
	if !r.in.gap {
		r.in.events = append(r.in.events, e)
	}
	r.in.upTo = max(r.in.upTo, e.Seq)
	r.inMu.Unlock()
	select {
	case r.replC <- struct{}{}:
	default: // a wake-up is pending: it will see this event
	}
}

// onReplicate applies the events handed over by Replicate (on the actor, after the
// room's own append completed); a gap is filled from the store.
func (r *Room) onReplicate() {
	r.replRetryAt = time.Time{}
	r.inMu.Lock()
	events, upTo, gap := r.in.events, r.in.upTo, r.in.gap
	r.in.events, r.in.gap = r.spareIn[:0], false
	r.inMu.Unlock()
	r.spareIn = events
	if upTo <= r.state.Seq() {
		return
	}
	r.shared = true
	if !gap {
		run := events
		for len(run) > 0 && run[0].Seq <= r.state.Seq() {
			run = run[1:]
		}
		n := 0
		for n < len(run) && run[n].Seq == r.state.Seq()+uint64(n)+1 {
			n++
		}
		if n > 0 {
			st, err := ReplayFrom(r.state, run[:n])
			if err == nil {
				r.setState(st, run[:n])
			} else {
				r.opts.Logger.Warn("room: replicated event refused; reading the store", "room", r.id, "err", err)
			}
		}
	}
	clear(r.spareIn) // the events now live in r.log (or are dropped)
	if upTo > r.state.Seq() && !r.reload() {
		r.replRetryAt = r.opts.Clock.Now().Add(r.opts.RetryDelay)
	}
}

// SetPassive switches the room between active (it runs the clock flag, abandonment
// timers and AI searches: the node holding the room's lease) and passive (it applies
// its clients' commands and the events of the active copy). Options.Passive sets the
// initial mode. A room turning active takes over from another node: this copy has
// been running all along (applying moves and showing the clocks), so the side to move
// is charged the real time of its turn, hand-over included; only a room restored when
// no node ran it leaves the downtime uncharged (Restore).
func (r *Room) SetPassive(ctx context.Context, passive bool) error {
	return r.control(ctx, func() {
		if r.passive == passive {
			return
		}
		r.passive = passive
		r.passiveFlag.Store(passive)
		r.afterChange() // start or cancel the AI search; timers follow in the loop
	})
}

// RelayAIProgress shows another node's AI progress to this node's subscribers. It is
// ignored unless the room is passive here (the active copy runs the search itself)
// and the progress is for the current ply.
func (r *Room) RelayAIProgress(ctx context.Context, p AIProgress) error {
	p.PV = append([]string(nil), p.PV...)
	return r.control(ctx, func() {
		if !r.passive || p.Ply != r.state.Ply() || r.state.Phase() != PhasePlaying {
			return
		}
		r.lastAI = &p
		cp := p
		r.broadcast(Update{AI: &cp})
	})
}
