package server

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// Quick pairing on one node: the seeks of this node's lobby connections live in the
// shared pool (room/pairing, Redis). The node whose seek or sweep made a match seats
// both players in the match's room (pairing_seat.go) and settles the outcome, seated
// or failed, in the pool; the outcome reaches every node through the pool's channel,
// or through a seek's heartbeat if the message was missed, and each node tells its
// own pages: paired, or seek_ended match_failed. A match its node did not settle (it
// died) is settled by any node from its room's state (pairing_recover.go).

// DefaultRating is every player's rating until a RatingSource says otherwise.
const DefaultRating = 1500

// RatingSource gives a player's rating in a pool (the ratings of rated play).
type RatingSource interface {
	Rating(ctx context.Context, playerID string, pool pairing.Pool) (float64, error)
}

// PairedRooms is the part of Rooms quick pairing needs.
type PairedRooms interface {
	// SeatPair creates room id with settings and seats black and white in it. It is
	// idempotent: a retry reuses the room an earlier attempt created and the seats it
	// filled.
	SeatPair(ctx context.Context, id string, settings room.Settings, black, white Player) error
	// ClosePair ends the game of room id without a result when its seating failed, so
	// that nobody stays seated there and the room does not stay among the unfinished
	// ones; a room that does not exist, or whose game is over, is no error.
	ClosePair(ctx context.Context, id string) error
	// PairRoom reads room id as its store holds it (the node that seated it may be
	// gone): who sits where, and whether its game is over; a zero RoomSeats when the
	// room does not exist.
	PairRoom(ctx context.Context, id string) (pairing.RoomSeats, error)
}

// Pairing timing.
const (
	sweepEvery     = time.Second     // how often a node pairs seekers whose ranges widened
	sweepMatches   = 64              // at most this many matches per sweep
	heartbeatEvery = 5 * time.Second // a seek lives pairing.Store.TTL (15 s) without one
)

// ErrRatedNeedsAccount refuses a rated seek from a guest.
var ErrRatedNeedsAccount = protocol.NewError("server", protocol.CodeAccountRequired, "rated games are for accounts: create one, or seek a casual game")

// pairingService is a node's quick pairing.
type pairingService struct {
	s       *Server
	store   *pairing.Store
	ratings RatingSource
	rooms   PairedRooms
	log     *slog.Logger
	now     func() time.Time

	// seating holds a slot per match being seated (seatSlots): a burst of matches
	// queues here instead of in the Redis pool, where every attempt would run out of
	// time together.
	seating chan struct{}
	// recovering is set while this node settles the matches no node settled.
	recovering atomic.Bool

	mu      sync.Mutex
	seekers map[string]map[*lobbySession]struct{} // player id → its seeking sessions here
}

func newPairingService(s *Server, store *pairing.Store, rooms PairedRooms) *pairingService {
	return &pairingService{s: s, store: store, ratings: s.deps.Ratings, rooms: rooms,
		log: s.log.With("component", "pairing"), now: time.Now, seating: make(chan struct{}, seatSlots),
		seekers: map[string]map[*lobbySession]struct{}{}}
}

// run subscribes to the outcomes of matches, then sweeps and renews this node's seeks
// until ctx ends.
func (p *pairingService) run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := p.store.Subscribe(ctx, func(st pairing.Status, m pairing.Match) { go p.deliver(m, st) }); err == nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	sweep := time.NewTicker(sweepEvery)
	defer sweep.Stop()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sweep.C:
			if p.count() == 0 {
				continue // nodes with seekers sweep; a node without any has nothing to gain
			}
			ms, err := p.store.Sweep(ctx, p.now(), sweepMatches)
			if err != nil {
				p.log.Warn("sweep failed", "err", err)
			}
			for _, m := range ms {
				go p.seatMatch(ctx, m)
			}
		case <-beat.C:
			p.heartbeats(ctx)
			p.recoverMatches(ctx)
		}
	}
}

func (p *pairingService) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.seekers)
}

// seek stores a session's seek and answers seeking (or paired, when a match is there).
func (p *pairingService) seek(ctx context.Context, l *lobbySession, msg protocol.LobbyMsg) error {
	pool, err := pairing.NewPool(msg.Rule, msg.Clock, msg.Rated)
	if err != nil {
		return err
	}
	me := l.player
	if pool.Rated && !me.IsAccount() {
		return ErrRatedNeedsAccount
	}
	rating := float64(DefaultRating)
	if p.ratings != nil {
		if rating, err = p.ratings.Rating(ctx, me.ID, pool); err != nil {
			return err
		}
	}
	now := p.now()
	l.mu.Lock()
	l.seek = &activeSeek{pool: pool.String(), since: now}
	l.mu.Unlock()
	p.mu.Lock()
	if p.seekers[me.ID] == nil {
		p.seekers[me.ID] = map[*lobbySession]struct{}{}
	}
	p.seekers[me.ID][l] = struct{}{}
	p.mu.Unlock()
	l.order.Lock()
	defer l.order.Unlock()
	m, err := p.store.Seek(ctx, pool, pairing.Seeker{ID: me.ID, Name: me.Name, Rating: rating}, l.nonce, now)
	if errors.Is(err, pairing.ErrPending) {
		// The player's previous seek is being seated: this session waits for its
		// outcome too (paired or match_failed), after the refusal.
		l.mu.Lock()
		l.seek = &activeSeek{pool: m.Pool, since: now}
		l.mu.Unlock()
		return err
	}
	if err != nil {
		p.forget(l)
		l.takeSeek("")
		return err
	}
	rules := p.store.Rules()
	l.push(protocol.Encode(protocol.Seeking{Type: protocol.TypeSeeking, ID: msg.ID, Pool: pool.String(),
		Rating: rating, SinceMS: now.UnixMilli(), Range: rules.Range(0), PerSecond: rules.PerSecond,
		MaxRange: rules.Max, AILevel: AILevelFor(rating)}))
	if m != nil {
		go p.seatMatch(context.WithoutCancel(ctx), *m)
	}
	return nil
}

// cancel ends a session's seek (answer: seek_ended, or the match's outcome when it is
// too late: paired, or seek_ended match_failed).
func (p *pairingService) cancel(ctx context.Context, l *lobbySession, id string) error {
	st, m, err := p.store.Cancel(ctx, l.player.ID, l.nonce)
	if err != nil {
		return err
	}
	switch st {
	case pairing.StatusMatched:
		return nil // being seated: the outcome comes when it is settled
	case pairing.StatusSeated, pairing.StatusFailed:
		go p.deliver(*m, st)
		return nil
	}
	l.takeSeek("")
	p.forget(l)
	reason := protocol.SeekCancelled
	if st == pairing.StatusReplaced {
		reason = protocol.SeekReplaced
	}
	l.push(protocol.Encode(protocol.SeekEnded{Type: protocol.TypeSeekEnded, ID: id, Reason: reason}))
	return nil
}

// leave cancels the seek of a session that closed.
func (p *pairingService) leave(l *lobbySession) {
	if l.player == nil || !l.takeSeek("") {
		return
	}
	p.forget(l)
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	if _, _, err := p.store.Cancel(ctx, l.player.ID, l.nonce); err != nil {
		p.log.Warn("cancel of a closed connection's seek failed (it expires)", "err", err)
	}
}

func (p *pairingService) forget(l *lobbySession) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := p.seekers[l.player.ID]; m != nil {
		delete(m, l)
		if len(m) == 0 {
			delete(p.seekers, l.player.ID)
		}
	}
}

// sessionsOf returns this node's seeking sessions of player id.
func (p *pairingService) sessionsOf(id string) []*lobbySession {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*lobbySession, 0, len(p.seekers[id]))
	for l := range p.seekers[id] {
		out = append(out, l)
	}
	return out
}

// heartbeats renews this node's seeks and learns what became of them.
func (p *pairingService) heartbeats(ctx context.Context) {
	p.mu.Lock()
	var all []*lobbySession
	for _, m := range p.seekers {
		for l := range m {
			all = append(all, l)
		}
	}
	p.mu.Unlock()
	// A seek younger than a heartbeat period was stored with a whole TTL and needs no
	// renewal yet; its script may even not have run, so "gone" would be wrong for it.
	young := p.now().Add(-heartbeatEvery)
	all = slices.DeleteFunc(all, func(l *lobbySession) bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.seek == nil || l.seek.since.After(young)
	})
	if len(all) == 0 {
		return
	}
	seeks := make([]pairing.Owned, len(all))
	for i, l := range all {
		seeks[i] = pairing.Owned{Player: l.player.ID, Nonce: l.nonce}
	}
	// One round trip for all of them: a seek lives only three heartbeats, so renewing
	// hundreds one after another could outlast it under load.
	beats, err := p.store.Heartbeats(ctx, seeks)
	if err != nil {
		p.log.Warn("seek heartbeat failed", "err", err)
	}
	for i, b := range beats {
		l := all[i]
		switch b.Status {
		case pairing.StatusSeated, pairing.StatusFailed:
			go p.deliver(*b.Match, b.Status)
		case pairing.StatusGone, pairing.StatusReplaced:
			if l.takeSeek("") {
				p.forget(l)
				reason := protocol.SeekExpired
				if b.Status == pairing.StatusReplaced {
					reason = protocol.SeekReplaced
				}
				l.push(protocol.Encode(protocol.SeekEnded{Type: protocol.TypeSeekEnded, Reason: reason}))
			}
		}
	}
}

// ledgerRatings reads pairing ratings from the ratings ledger: a pool's rating is the
// player's in its rating pool (rule × speed), rated or casual alike.
type ledgerRatings struct{ l *ledger.Ledger }

func (r ledgerRatings) Rating(ctx context.Context, playerID string, pool pairing.Pool) (float64, error) {
	rp, ok := ratingPoolOf(pool)
	if !ok {
		return DefaultRating, nil
	}
	rt, err := r.l.Rating(ctx, playerID, rp.ID())
	return rt.R, err
}

// AILevelFor is the AI level offered to a player of rating r (in the seek's pool) who
// waited long enough: the level whose published rating is nearest.
func AILevelFor(r float64) string { return rating.NearestLevel(r) }
