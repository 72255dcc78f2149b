package server

import (
	"context"

	"github.com/gomoku-arena/gomoku/room/pairing"
)

// Recovery of quick pairing: a match whose node died (or lost Redis) after making it
// and before settling it is settled by any node once it is older than the pool's
// RecoverAfter, from its room as the room store holds it: both players seated →
// "seated" and both told paired; otherwise "failed", the room closed, both told
// match_failed. Every node looks at each heartbeat; the pool's script records the
// first outcome, and every node acts on the recorded one (conclude).

// recoverBatch bounds the matches one node recovers per heartbeat.
const recoverBatch = 32

// recoverMatches settles the matches no node settled in time, in the background (one
// run at a time per node: the heartbeats must not wait for it).
func (p *pairingService) recoverMatches(ctx context.Context) {
	if !p.recovering.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer p.recovering.Store(false)
		ms, err := p.store.Unsettled(ctx, p.now(), recoverBatch)
		if err != nil {
			p.log.Warn("reading the unsettled matches failed", "err", err)
			return
		}
		for _, m := range ms {
			if ctx.Err() != nil {
				return
			}
			p.recoverMatch(ctx, m)
		}
	}()
}

// recoverMatch settles m from its room's state and tells this node's pages (the
// others learn it from the pool's channel).
func (p *pairingService) recoverMatch(ctx context.Context, m pairing.Match) {
	rctx, cancel := context.WithTimeout(ctx, commandTimeout)
	seats, err := p.rooms.PairRoom(rctx, m.Room)
	cancel()
	if err != nil {
		p.log.Warn("reading an unsettled match's room failed; retried at the next heartbeat", "room", m.Room, "err", err)
		return
	}
	outcome := pairing.Recovered(m, seats)
	st, ok := p.conclude(context.WithoutCancel(ctx), m, outcome)
	if !ok {
		return
	}
	p.log.Warn("settled a match its node did not settle", "room", m.Room, "outcome", st)
	p.s.metrics.pairingRecovered(st)
	p.deliver(m, st)
}
