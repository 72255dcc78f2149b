package server

import (
	"context"
	"errors"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Seating a match: the node whose seek or sweep made it creates the room and seats
// both players (one node, one room actor, no race between nodes over the room), retries
// a failed attempt, then settles the outcome in the pool. Only a settled "seated" tells
// anyone "paired"; a "failed" match has its room closed and both players are told
// seek_ended match_failed, so nobody is seated opposite a player told it failed.

// Seating limits.
const (
	// seatAttempts is how often a match's seating is tried, each attempt bounded by
	// commandTimeout: a burst of matches (hundreds of rooms created at once) may make
	// one attempt run out, and an attempt is idempotent.
	seatAttempts = 3
	// seatBackoff is the pause before the second attempt (doubled before the third).
	seatBackoff = 250 * time.Millisecond
	// settleAttempts is how often the outcome is written before giving up.
	settleAttempts = 3
	// seatSlots is how many matches a node seats at once; the others wait for a slot
	// (at most seatQueue) before their attempts' time starts. With every match of a
	// burst seated at once, each attempt's store calls queue behind all the others'
	// and run out of time together.
	seatSlots = 16
	seatQueue = 30 * time.Second
)

// seatMatch seats both players of m, a match this node made, settles the outcome and
// tells this node's pages (the other nodes learn it from the pool). The seating,
// settling and closing must outlive ctx (a server shutting down still settles). The
// whole of it (queue, attempts, settling) stays well inside the pool's MatchTTL, so
// both seeks still hold the match when it is settled.
func (p *pairingService) seatMatch(ctx context.Context, m pairing.Match) {
	ctx = context.WithoutCancel(ctx)
	start := time.Now()
	black, white := Player{ID: m.Black.ID, Name: m.Black.Name}, Player{ID: m.White.ID, Name: m.White.Name}
	outcome := pairing.StatusSeated
	select {
	case p.seating <- struct{}{}:
		defer func() { <-p.seating }()
		if err := p.seatPair(ctx, m, black, white); err != nil {
			p.log.Error("seating a match failed", "room", m.Room, "attempts", seatAttempts, "err", err)
			outcome = pairing.StatusFailed
		}
	case <-time.After(seatQueue):
		p.log.Error("seating a match failed: no seating slot", "room", m.Room, "waited", seatQueue)
		outcome = pairing.StatusFailed
	}
	if outcome == pairing.StatusFailed {
		p.closePair(ctx, m, black, white) // before anyone is told
	}
	st, err := p.settle(ctx, m, outcome)
	if err != nil {
		// Nothing recorded: the seeks run out (MatchTTL) and their pages are told
		// expired; here the pages learn the failure at once.
		p.log.Error("settling a match failed", "room", m.Room, "err", err)
		st = pairing.StatusFailed
	}
	if st == pairing.StatusFailed && outcome == pairing.StatusSeated {
		p.closePair(ctx, m, black, white) // a seek ran out meanwhile, or the outcome was not recorded
	}
	if st == pairing.StatusSeated {
		p.s.metrics.observePairing(time.Since(start))
	}
	p.deliver(m, st)
}

// closePair closes the room of a match that failed.
func (p *pairingService) closePair(ctx context.Context, m pairing.Match, black, white Player) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	if err := p.rooms.ClosePair(ctx, m.Room, black, white); err != nil {
		p.log.Error("closing a failed match's room failed (its seats stay reserved for players who were told it failed)", "room", m.Room, "err", err)
	}
}

// seatPair seats m's players, retrying a failed attempt.
func (p *pairingService) seatPair(ctx context.Context, m pairing.Match, black, white Player) error {
	pool, err := pairing.ParsePool(m.Pool)
	if err != nil {
		return err
	}
	settings := pool.Settings(m)
	backoff := seatBackoff
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, commandTimeout)
		err = p.rooms.SeatPair(actx, m.Room, settings, black, white)
		cancel()
		if err == nil || attempt == seatAttempts || errors.Is(err, room.ErrShuttingDown) {
			return err
		}
		p.log.Warn("seating a match failed, retrying", "room", m.Room, "attempt", attempt, "err", err)
		time.Sleep(backoff)
		backoff *= 2
	}
}

// settle records m's outcome in the pool, retrying a failed write, and returns the
// outcome recorded.
func (p *pairingService) settle(ctx context.Context, m pairing.Match, outcome pairing.Status) (pairing.Status, error) {
	var err error
	for attempt := 1; attempt <= settleAttempts; attempt++ {
		actx, cancel := context.WithTimeout(ctx, commandTimeout)
		var st pairing.Status
		st, err = p.store.Settle(actx, m, outcome)
		cancel()
		if err == nil {
			return st, nil
		}
		time.Sleep(seatBackoff)
	}
	return "", err
}

// deliver tells this node's pages of m's players waiting for it the outcome: paired
// (seated), or seek_ended match_failed. The channel, a heartbeat, a cancel and the
// seating node itself may all report it: each page is told once.
func (p *pairingService) deliver(m pairing.Match, outcome pairing.Status) {
	for _, side := range []pairing.Seeker{m.Black, m.White} {
		for _, l := range p.sessionsOf(side.ID) {
			if !l.takeSeek(m.Pool) {
				continue // told already
			}
			p.forget(l)
			if outcome != pairing.StatusSeated {
				l.push(protocol.Encode(protocol.SeekEnded{Type: protocol.TypeSeekEnded, Reason: protocol.SeekMatchFailed}))
				continue
			}
			color, opp := m.Side(side.ID)
			l.order.Lock()
			l.push(protocol.Encode(protocol.Paired{Type: protocol.TypePaired, RoomID: m.Room, Pool: m.Pool, Color: color,
				Opponent: protocol.Opponent{ID: opp.ID, Name: opp.Name, Rating: opp.Rating}}))
			l.order.Unlock()
		}
	}
}

// SeatPair implements PairedRooms: the room is created on this node and both sit in
// it; a room an earlier attempt created is reused and a seat it filled stays (sitting
// again is a no-op). Quick pairing admits only accounts to rated pools, so a rated
// match's players are accounts.
func (a *ManagerRooms) SeatPair(ctx context.Context, id string, settings room.Settings, black, white Player) error {
	r, err := a.M.Create(ctx, room.CreateRequest{ID: id, Settings: settings})
	if errors.Is(err, room.ErrConflict) {
		r, err = a.M.Get(ctx, id)
	}
	if err != nil {
		return err
	}
	for _, s := range []struct {
		who   Player
		color string
	}{{black, "black"}, {white, "white"}} {
		by := roomPlayer(ctx, a.Ledger, s.who, settings)
		by.Account = settings.Rated
		if _, err := r.Do(ctx, room.Command{Kind: room.CmdSit, By: by, Color: s.color}); err != nil {
			return err
		}
	}
	return nil
}

// ClosePair implements PairedRooms: a player seated there aborts the game (before its
// first move nothing is rated or lost); a room nobody sits in keeps its two reserved
// seats, listed nowhere.
func (a *ManagerRooms) ClosePair(ctx context.Context, id string, black, white Player) error {
	r, err := a.M.Get(ctx, id)
	if errors.Is(err, room.ErrNoSuchRoom) {
		return nil
	}
	if err != nil {
		return err
	}
	st := r.State()
	if st.Phase() == room.PhaseOver {
		return nil
	}
	for _, who := range []Player{black, white} {
		if st.ColorOf(who.ID) != 0 {
			_, err := r.Do(ctx, room.Command{Kind: room.CmdAbort, By: room.Player{ID: who.ID, Name: who.Name}})
			return err
		}
	}
	return nil
}
