package replica

import (
	"context"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// A watcher whose subscription failed subscribes again after resubscribeDelay, doubled
// after each further failure up to maxResubscribeDelay (a Redis outage is not flooded).
const (
	resubscribeDelay    = 250 * time.Millisecond
	maxResubscribeDelay = 4 * time.Second
)

// watch follows room r's channel until the room stops or the node does: events other
// nodes stored go to r.Replicate, their presence and AI progress to the room's copy.
// A failed subscription is retried.
func (n *Node) watch(r *room.Room) {
	ctx, cancel := context.WithCancel(n.ctx)
	defer cancel()
	go func() {
		select {
		case <-r.Done():
		case <-ctx.Done():
		}
		cancel()
	}()
	delay := resubscribeDelay
	for ctx.Err() == nil {
		ch, unsubscribe, err := n.hub.Subscribe(ctx, r.ID())
		if err != nil {
			if ctx.Err() == nil {
				n.log.Warn("replica: subscribe failed; retrying", "room", r.ID(), "in", delay, "err", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(delay):
			}
			delay = min(2*delay, maxResubscribeDelay)
			continue
		}
		delay = resubscribeDelay
		n.follow(ctx, r, ch)
		unsubscribe()
	}
	select {
	case <-r.Done(): // stopped here: whoever was connected through us is gone
		if !r.LocalPresence().Empty() {
			n.out.presence(r.ID(), room.NodePresence{})
		}
	default:
	}
}

// follow handles the messages of r's subscription until ctx ends or the channel closes.
func (n *Node) follow(ctx context.Context, r *room.Room, ch <-chan eventlog.Message) {
	// Events appended between the room's load and the subscription.
	n.sync(ctx, r)
	// Ask the other nodes for their presence, and tell them ours.
	n.out.probe(r.ID())
	if p := r.LocalPresence(); !p.Empty() {
		n.out.presence(r.ID(), p)
	}
	seen := remoteNodes{}
	// The expiry check runs only while another node is known here (a single node
	// never needs it).
	var expiry *time.Ticker
	var expiryC <-chan time.Time
	defer func() {
		if expiry != nil {
			expiry.Stop()
		}
	}()
	for {
		switch {
		case len(seen) > 0 && expiry == nil:
			expiry = time.NewTicker(n.cfg.PresenceTTL / 3)
			expiryC = expiry.C
		case len(seen) == 0 && expiry != nil:
			expiry.Stop()
			expiry, expiryC = nil, nil
		}
		select {
		case m, ok := <-ch:
			if !ok {
				return
			}
			switch {
			case m.Reconnected: // messages may have been lost: read the store
				n.sync(ctx, r)
			case m.Seq == 0: // another node's presence or AI progress
				if !n.receive(ctx, r, seen, m.Data, time.Now()) {
					n.log.Debug("replica: unknown message", "room", r.ID(), "data", string(m.Data))
				}
			default:
				n.replicate(r, m)
			}
		case now := <-expiryC:
			n.expire(ctx, r, seen, now)
		case <-ctx.Done():
			return
		}
	}
}

// replicate hands the event carried by m to r. This node's own events (the room has
// them) are not even decoded.
func (n *Node) replicate(r *room.Room, m eventlog.Message) {
	if m.Seq <= r.Seq() {
		return
	}
	e, err := room.DecodeEvent(m.Data)
	if err != nil || e.Seq != m.Seq {
		// The room reads the store when the next event shows the gap; a Sync now
		// does not wait for it.
		n.log.Warn("replica: undecodable event; reading the store", "room", r.ID(), "seq", m.Seq, "err", err)
		n.sync(n.ctx, r)
		return
	}
	r.Replicate(e)
}

// sync catches r up with the store, logging a failure (the next event that shows a
// gap retries).
func (n *Node) sync(ctx context.Context, r *room.Room) {
	cctx, cancel := context.WithTimeout(ctx, n.cfg.CallTimeout)
	defer cancel()
	_, err := r.Sync(cctx)
	n.logFailure(ctx, r, "catching up with the store", err)
}
