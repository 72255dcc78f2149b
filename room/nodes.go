package room

import (
	"context"
	"maps"
	"time"
)

// Presence and AI progress across nodes. With several nodes, a room's clients are
// spread over the nodes that have it loaded, and its AI seat searches on one of them
// (the lease holder). Each node tells the others what it sees of the room — its
// NodePresence, and the AI progress of the searches it runs — over a side channel the
// caller provides (Options.OnLocalPresence, Options.OnAIProgress; the server publishes
// them on the room's Redis channel), and feeds what the other nodes said back in with
// SetRemotePresence and RelayAIProgress. Every copy of the room then reports the same
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
	if r.opts.OnLocalPresence != nil {
		r.opts.OnLocalPresence(r.id, p)
	}
}
