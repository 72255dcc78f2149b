package room

import (
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

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
		if r.paced != nil {
			earliest(r.pacedAt)
		}
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
	if d := r.replRetryAt; !d.IsZero() && (t.IsZero() || d.Before(t)) {
		t = d // a replication catch-up whose store read failed
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
	if !r.replRetryAt.IsZero() && !now.Before(r.replRetryAt) {
		r.onReplicate()
	}
	if r.passive {
		r.idleCheck(now)
		return
	}
	if !r.retryAt.IsZero() && !now.Before(r.retryAt) {
		r.retryAt = time.Time{}
		r.retryAI()
	}
	r.releaseAI(now)
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
		if _, err := r.commit(cmd, now); err != nil && protocol.Code(err) == protocol.CodeUnavailable {
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
