package room

import (
	"context"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

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

func (r *Room) shouldStop() bool {
	if len(r.subs) > 0 || len(r.hints) > 0 {
		return false
	}
	return r.state.Phase() == PhaseOver && r.pendingAI == nil && r.retryAt.IsZero() &&
		!r.opts.Clock.Now().Before(r.noSubsAt.Add(r.opts.Linger))
}

// nextWake returns the earliest time the actor must act without input.
func (r *Room) nextWake() time.Time {
	var t time.Time
	now := r.opts.Clock.Now()
	earliest := func(x time.Time) {
		if x.IsZero() {
			return
		}
		if !r.retryAt.IsZero() && x.Before(now) {
			x = r.retryAt // a due action failed: wait for the retry instead of spinning
		}
		if t.IsZero() || x.Before(t) {
			t = x
		}
	}
	if !r.passive {
		earliest(r.state.Deadline())
		earliest(r.retryAt)
		for _, c := range []engine.Color{engine.Black, engine.White} {
			earliest(r.graceEnd(c))
		}
	}
	if !r.anySubs() && !r.keepAlive() {
		earliest(r.noSubsAt.Add(r.opts.IdleTimeout))
	}
	if len(r.subs) == 0 && r.state.Phase() == PhaseOver {
		earliest(r.noSubsAt.Add(r.opts.Linger))
	}
	if d := r.syncAt; !d.IsZero() && (t.IsZero() || d.Before(t)) {
		t = d // a notified catch-up whose store read failed
	}
	if d := r.presDue; !d.IsZero() && len(r.subs) > 0 && (t.IsZero() || d.Before(t)) {
		t = d // batched presence (not subject to retryAt: it never fails)
	}
	return t
}

// keepAlive reports whether the room must keep running with nobody connected: an AI
// vs AI game in play, or a running clock (it must be able to flag).
func (r *Room) keepAlive() bool {
	if r.state.Phase() != PhasePlaying || r.passive { // a passive room runs nothing
		return false
	}
	if !r.state.Deadline().IsZero() {
		return true
	}
	return r.state.Seat(engine.Black).Spec.IsMachine() && r.state.Seat(engine.White).Spec.IsMachine()
}

func (r *Room) onTimer() {
	now := r.opts.Clock.Now()
	r.flushPresence(now)
	if !r.syncAt.IsZero() && !now.Before(r.syncAt) {
		r.onNotify()
	}
	if r.passive {
		r.idleCheck(now)
		return
	}
	if !r.retryAt.IsZero() && !now.Before(r.retryAt) {
		r.retryAt = time.Time{}
		r.retryAI()
	}
	if r.state.Expired(now) {
		if _, err := r.commit(Command{Kind: CmdTimeout}, now); err != nil {
			r.retryAt = now.Add(r.opts.RetryDelay)
		}
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if !r.graceOver(c, now) {
			continue
		}
		var cmd Command
		switch {
		case r.state.Phase() == PhaseWaiting || !r.state.ReallyStarted():
			cmd = Command{Kind: CmdAbandon}
		case r.state.Seat(c.Opponent()).Spec.IsMachine():
			cmd = Command{Kind: CmdAutoClaim, Color: c.String(), GoneSince: r.goneSince(c), Grace: r.graceFor()}
		default:
			continue // the opponent may claim
		}
		if _, err := r.commit(cmd, now); err != nil && Code(err) == ErrUnavailable.Code {
			r.retryAt = now.Add(r.opts.RetryDelay)
		}
	}
	r.publishPresence(true) // a countdown may have ended: the opponent may claim
	r.idleCheck(now)
}

func (r *Room) idleCheck(now time.Time) {
	if !r.anySubs() && !r.keepAlive() && !now.Before(r.noSubsAt.Add(r.opts.IdleTimeout)) {
		r.stop.Do(func() { close(r.stopC) })
	}
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

// Sync catches up with events that another node appended to the store (for example on a
// pub/sub notification) and publishes them to this room's subscribers. It returns the
// room's seq afterwards.
func (r *Room) Sync(ctx context.Context) (uint64, error) {
	var seq uint64
	ok := true
	err := r.control(ctx, func() {
		r.shared = true
		ok = r.reload()
		seq = r.state.Seq()
	})
	if err == nil && !ok {
		err = ErrUnavailable
	}
	return seq, err
}

// Notify tells the room that the store holds its events up to seq (a pub/sub
// notification from another node, or the echo of the room's own write). It never
// blocks: a room that already has seq (always the case for its own writes, unless the
// notification overtook the store's reply) does nothing at all; otherwise its goroutine
// catches up from the store as Sync does, once for any number of notifications that
// arrive meanwhile, and again after RetryDelay if the store did not answer.
func (r *Room) Notify(seq uint64) {
	if r.State().Seq() >= seq {
		return
	}
	for {
		cur := r.notified.Load()
		if seq <= cur || r.notified.CompareAndSwap(cur, seq) {
			break
		}
	}
	select {
	case r.notifyC <- struct{}{}:
	default: // a wake-up is pending: it will see the new seq
	}
}

// onNotify catches up with the store when a notification names a seq the room has
// not reached (checked here, on the actor, after the room's own append completed).
func (r *Room) onNotify() {
	r.syncAt = time.Time{}
	if r.notified.Load() <= r.state.Seq() {
		return
	}
	r.shared = true
	if !r.reload() {
		r.syncAt = r.opts.Clock.Now().Add(r.opts.RetryDelay)
	}
}

// SetPassive switches the room between active (it runs the clock flag, abandonment
// timers and AI searches: the node holding the room's lease) and passive (it only
// applies its clients' commands and catches up with Sync). Options.Passive sets the
// initial mode. A room turning active takes over from another node: its clock resumes
// as on Restore (the downtime since that node's last sign of life is not charged).
func (r *Room) SetPassive(ctx context.Context, passive bool) error {
	return r.control(ctx, func() {
		if r.passive == passive {
			return
		}
		if !passive {
			ctx, cancel := context.WithTimeout(r.ctx, r.opts.StoreTimeout)
			st := r.state.Resume(r.opts.Clock.Now(), LastAlive(ctx, r.store, r.id))
			cancel()
			r.state = st
			r.cur.Store(&st)
		}
		r.passive = passive
		r.passiveFlag.Store(passive)
		r.afterChange() // start or cancel the AI search; timers follow in the loop
	})
}
