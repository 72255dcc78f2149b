package room

import (
	"context"
	"maps"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// Presence: who is connected to a room, seat by seat, and how many spectators watch;
// the abandonment grace of a seat whose player is gone; and what each node sees of the
// room when several nodes run copies of it.

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

// Presence and AI progress across nodes. With several nodes, a room's clients are
// spread over the nodes that have it loaded, and its AI seat searches on one of them
// (the lease holder). Each node tells the others what it sees of the room — its
// NodePresence, and the AI progress of the searches it runs — through its Replicator
// (LocalPresence, AIProgress; room/replica publishes them on the room's Redis channel),
// and feeds what the other nodes said back in with SetRemotePresence and
// RelayAIProgress. Every copy of the room then reports the same
// presence, so a player connected to another node is not "gone" here (no claim, no
// abandonment), and a client on any node watches the machine think.

// NodePresence is what one node sees of a room: its open subscriptions per player id
// and in all (spectators included).
type NodePresence struct {
	Players map[string]int `json:"players,omitempty"`
	Subs    int            `json:"subs"`
}

// Empty reports whether the node has no subscription to the room.
func (p NodePresence) Empty() bool { return p.Subs == 0 }

// LocalPresence returns this node's presence in the room (a copy; safe from any
// goroutine), for periodic republishing.
func (r *Room) LocalPresence() NodePresence {
	if p := r.localPres.Load(); p != nil {
		return *p
	}
	return NodePresence{}
}

// SetRemotePresence records what node sees of the room (an empty presence forgets the
// node: it left or died). The room's presence, abandonment grace and idle stop then
// count that node's connections with its own.
func (r *Room) SetRemotePresence(ctx context.Context, node string, p NodePresence) error {
	p.Players = maps.Clone(p.Players)
	return r.control(ctx, func() { r.setRemote(node, p) })
}

// count returns the open subscriptions of player id on every node.
func (r *Room) count(id string) int {
	n := r.conns[id]
	for _, p := range r.remote {
		n += p.Players[id]
	}
	return n
}

// anySubs reports whether any node has a subscription to the room.
func (r *Room) anySubs() bool { return len(r.subs) > 0 || r.remoteSubs > 0 }

// setRemote replaces node's presence, noting when players connect or leave overall.
func (r *Room) setRemote(node string, p NodePresence) {
	old := r.remote[node]
	had := r.anySubs()
	ids := map[string]int{}
	for id := range old.Players {
		ids[id] = r.count(id)
	}
	for id := range p.Players {
		if _, ok := ids[id]; !ok {
			ids[id] = r.count(id)
		}
	}
	r.remoteSubs -= old.Subs
	if p.Empty() {
		delete(r.remote, node)
	} else {
		if r.remote == nil {
			r.remote = map[string]NodePresence{}
		}
		r.remote[node] = p
		r.remoteSubs += p.Subs
	}
	now := r.opts.Clock.Now()
	for id, before := range ids {
		if (before > 0) != (r.count(id) > 0) {
			r.since[id] = now
		}
	}
	if had && !r.anySubs() {
		r.noSubsAt = now
	}
	if !had && r.anySubs() {
		r.noSubsAt = time.Time{}
	}
	r.publishPresence(true)
}

// localChanged publishes this node's presence after one of its subscriptions came or
// went.
func (r *Room) localChanged() {
	p := NodePresence{Players: maps.Clone(r.conns), Subs: len(r.subs)}
	r.localPres.Store(&p)
	if r.opts.Replicator != nil {
		r.opts.Replicator.LocalPresence(r.id, p)
	}
}
