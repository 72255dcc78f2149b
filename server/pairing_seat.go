package server

import (
	"context"
	"errors"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Seating a match: the node whose seek or sweep made it creates the room and seats
// both players (one node, one room actor, no race between nodes over the room), retries
// a failed attempt, then settles the outcome in the pool. Only a settled "seated" tells
// anyone "paired"; a failed match has its room closed before "failed" is published and
// both players are told seek_ended match_failed, so nobody is seated opposite a player
// told it failed.

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
	// seatLate: a match that waited longer than this for its slot tells the pool its
	// seating starts only now, so that recovery gives the attempts their whole time.
	seatLate = time.Second
)

// seatMatch seats both players of m, a match this node made, settles the outcome and
// tells this node's pages (the other nodes learn it from the pool). The seating,
// settling and closing must outlive ctx (a server shutting down still settles). The
// attempts stay inside the pool's RecoverAfter, counted from the match or, after a
// wait for a seating slot, from the start of the seating (Store.Seating), after which
// any node would settle the match from its room's state.
func (p *pairingService) seatMatch(ctx context.Context, m pairing.Match) {
	ctx = context.WithoutCancel(ctx)
	start := time.Now()
	outcome := pairing.StatusSeated
	select {
	case p.seating <- struct{}{}:
		defer func() { <-p.seating }()
		if time.Since(start) > seatLate && !p.startSeating(ctx, m) {
			return // another node's recovery settled it meanwhile, and told the pages
		}
		black, white := Player{ID: m.Black.ID, Name: m.Black.Name}, Player{ID: m.White.ID, Name: m.White.Name}
		if err := p.seatPair(ctx, m, black, white); err != nil {
			p.log.Error("seating a match failed", "room", m.Room, "attempts", seatAttempts, "err", err)
			outcome = pairing.StatusFailed
		}
	case <-time.After(seatQueue):
		p.log.Error("seating a match failed: no seating slot", "room", m.Room, "waited", seatQueue)
		outcome = pairing.StatusFailed
	}
	st, ok := p.conclude(ctx, m, outcome)
	if !ok {
		return // unsettled: any node's recovery settles it and tells the pages
	}
	if st == pairing.StatusSeated {
		p.s.metrics.observePairing(time.Since(start))
	}
	p.deliver(m, st)
}

// conclude records outcome for m (seated: both players sit in its room; failed: they
// do not) and makes the room agree with the outcome recorded, which may be an earlier
// one of another node: a failure is claimed, the room closed, then the failure
// published, so nobody is told before the room is closed. ok is false when Redis did
// not take the outcome: the match stays unsettled, and the recovery of any node
// (pairing_recover.go) concludes it from the room's state later.
func (p *pairingService) conclude(ctx context.Context, m pairing.Match, outcome pairing.Status) (pairing.Status, bool) {
	if outcome == pairing.StatusSeated {
		st, err := p.settle(ctx, m, pairing.StatusSeated)
		if err != nil {
			p.log.Error("settling a match failed; it is recovered later", "room", m.Room, "err", err)
			return "", false
		}
		if st == pairing.StatusSeated {
			return st, true
		}
		// A failure was claimed (by another node, or a seek ran out): close the room.
	}
	// Without a claim recorded the room stays as it is: another node may have settled
	// the match seated meanwhile.
	st, err := p.settle(ctx, m, pairing.StatusFailing)
	if err == nil && st != pairing.StatusSeated {
		p.closePair(ctx, m)
		if st == pairing.StatusFailing {
			st, err = p.settle(ctx, m, pairing.StatusFailed)
		}
	}
	if err != nil {
		p.log.Error("settling a failed match failed; it is recovered later", "room", m.Room, "err", err)
		return "", false
	}
	return st, true
}

// startSeating tells the pool that m's seating starts now; false when m is settled
// already. An error counts as not settled: the seating and settling that follow
// meet the same Redis.
func (p *pairingService) startSeating(ctx context.Context, m pairing.Match) bool {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	open, err := p.store.Seating(ctx, m, p.now())
	return open || err != nil
}

// closePair closes the room of a match that failed.
func (p *pairingService) closePair(ctx context.Context, m pairing.Match) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	if err := p.rooms.ClosePair(ctx, m.Room); err != nil {
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

// ClosePair implements PairedRooms: the game ends aborted (Room.Abandon) whoever sits
// there, nobody included, so the room leaves the unfinished rooms.
func (a *ManagerRooms) ClosePair(ctx context.Context, id string) error {
	r, err := a.M.Get(ctx, id)
	if errors.Is(err, room.ErrNoSuchRoom) {
		return nil
	}
	if err != nil {
		return err
	}
	if r.State().Phase() == room.PhaseOver {
		return nil
	}
	if err := r.Abandon(ctx); err != nil && !errors.Is(err, room.ErrGameOver) {
		return err
	}
	return nil
}

// PairRoom implements PairedRooms: the room's event log, read from the store without
// taking the room on (its node may be gone or still at work).
func (a *ManagerRooms) PairRoom(ctx context.Context, id string) (pairing.RoomSeats, error) {
	events, err := a.M.Store().Events(ctx, id, 1)
	if errors.Is(err, room.ErrNotFound) {
		return pairing.RoomSeats{}, nil
	}
	if err != nil {
		return pairing.RoomSeats{}, err
	}
	st, err := room.Replay(events)
	if err != nil {
		return pairing.RoomSeats{}, err
	}
	seated := func(c engine.Color) string {
		if p := st.Seat(c).Player; p != nil {
			return p.ID
		}
		return ""
	}
	return pairing.RoomSeats{Exists: true, Black: seated(engine.Black), White: seated(engine.White),
		Over: st.Phase() == room.PhaseOver}, nil
}
