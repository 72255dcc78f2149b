// Package roomstore adapts the Redis event log (room/eventlog) to room.Store and
// room.Lister: events are stored as their JSON encoding, the room's lobby summary as
// snapshot fields of its state hash, and the lobby indexes follow the room's status
// (public rooms only; private ones are in no lobby set, and finished rooms of either
// kind go to the finished index so that their keys get the retention TTL).
package roomstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// Snapshot field names written with every append.
const (
	FieldSummary = "summary" // the room.Summary as JSON
	FieldStatus  = "status"  // open, live, finished
	FieldPublic  = "public"  // "1" or "0"
	FieldGame    = "game"
	FieldPly     = "ply"
)

// FieldTurnCredit is the state-hash field holding the room's turn credit
// (room.TurnCredit as JSON), written by a node that restores the room after a downtime.
const FieldTurnCredit = "turn_credit"

// DefaultSummaryEvery is how long a room's stored summary and lobby score may lag
// its ply (see WithSummaryEvery).
const DefaultSummaryEvery = 5 * time.Second

// maxWritten bounds the memory of summaries written (see Store.written).
const maxWritten = 100_000

// GameEnds is told of every game that ends with a result (an append holding a
// game_over event that is not an abort): Ending before the append, whose failure
// fails the append with nothing stored; Ended once the event is stored. The ratings
// ledger's outbox is one (package ledger: mark the game, then record it).
type GameEnds interface {
	Ending(ctx context.Context, id string, game int, at time.Time) error
	Ended(id string, game int)
}

// Store is a room.Store and room.Lister on a eventlog.Store.
type Store struct {
	rs    *eventlog.Store
	every time.Duration
	ends  GameEnds

	mu      sync.Mutex
	written map[string]writtenSum // by room id
}

// writtenSum is what this Store last wrote as a room's summary.
type writtenSum struct {
	seq uint64       // the room's seq right after that append
	key room.Summary // the summary without its ply, seq and time (lobbyKey)
	at  int64        // UpdatedAt of the last full write
}

// Option configures a Store.
type Option func(*Store)

// WithSummaryEvery sets how often an append that changes nothing but the ply (a move)
// rewrites the room's summary fields and lobby score: at most once per d per room
// (default DefaultSummaryEvery; 0 or less: every append). Any other change of the
// summary (status, seats, game, result, public...) is written with its append at once.
// The events and the seq are always written: this only saves the summary encoding and
// the lobby and TTL commands of most moves (Redis time and AOF bytes).
func WithSummaryEvery(d time.Duration) Option { return func(s *Store) { s.every = d } }

// WithGameEnds sets who is told of finished games (see GameEnds).
func WithGameEnds(h GameEnds) Option { return func(s *Store) { s.ends = h } }

var (
	_ room.Store  = (*Store)(nil)
	_ room.Lister = (*Store)(nil)
)

// New returns the adapter for rs.
func New(rs *eventlog.Store, opts ...Option) *Store {
	s := &Store{rs: rs, every: DefaultSummaryEvery, written: map[string]writtenSum{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// lobbyKey is a summary without what every move changes.
func lobbyKey(sum room.Summary) room.Summary {
	sum.Ply, sum.Seq, sum.UpdatedAt = 0, 0, 0
	return sum
}

// light reports whether an append at expectedSeq with summary sum may leave the stored
// summary alone: this Store wrote the room's summary itself at expectedSeq (no other
// writer since), with the same lobby key, less than every ago.
func (s *Store) light(id string, expectedSeq uint64, sum room.Summary) bool {
	if s.every <= 0 {
		return false
	}
	s.mu.Lock()
	w, ok := s.written[id]
	s.mu.Unlock()
	return ok && w.seq == expectedSeq && sum.UpdatedAt-w.at < s.every.Milliseconds() && w.key == lobbyKey(sum)
}

// remember records the outcome of a write of room id's summary (ok false: unknown or
// failed, so the next append writes the summary in full).
func (s *Store) remember(id string, seq uint64, sum room.Summary, full, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		delete(s.written, id)
		return
	}
	w := writtenSum{seq: seq, key: lobbyKey(sum), at: sum.UpdatedAt}
	if !full {
		w.at = s.written[id].at
	}
	if len(s.written) >= maxWritten {
		clear(s.written) // only costs full writes
	}
	s.written[id] = w
}

// Redis returns the underlying eventlog.Store (leases, pub/sub, export, ping).
func (s *Store) Redis() *eventlog.Store { return s.rs }

// fields returns the snapshot fields of a summary.
func fields(sum room.Summary) (map[string]string, error) {
	b, err := json.Marshal(sum)
	if err != nil {
		return nil, err
	}
	pub := "0"
	if sum.Public {
		pub = "1"
	}
	return map[string]string{
		FieldSummary: string(b), FieldStatus: sum.Status, FieldPublic: pub,
		FieldGame: strconv.Itoa(sum.Game), FieldPly: strconv.Itoa(sum.Ply),
	}, nil
}

// index returns the lobby update for a summary.
func index(sum room.Summary) eventlog.IndexUpdate {
	at := time.UnixMilli(sum.UpdatedAt)
	switch {
	case sum.Status == "finished":
		return eventlog.FinishUpdate(at)
	case !sum.Public, sum.Status == "open" && sum.Black.Reserved && sum.White.Reserved:
		// Private rooms, and rooms whose seats are kept for their players (nobody else
		// may sit), are in no lobby list until their game starts.
		return eventlog.Touch(at)
	case sum.Status == "open":
		return eventlog.Touch(at, eventlog.IndexOpen)
	default:
		return eventlog.Touch(at, eventlog.IndexLive)
	}
}

// mapErr translates eventlog errors to room's store errors.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, eventlog.ErrSeqConflict):
		return fmt.Errorf("%w: %v", room.ErrSeqConflict, err)
	case errors.Is(err, eventlog.ErrNoSuchRoom):
		return fmt.Errorf("%w: %v", room.ErrNotFound, err)
	case errors.Is(err, eventlog.ErrExists):
		return fmt.Errorf("%w: %v", room.ErrExists, err)
	case errors.Is(err, eventlog.ErrBadRequest):
		return err
	}
	// Unavailable, context errors and anything unexpected: the outcome is unknown and
	// the room must not change.
	return fmt.Errorf("%w: %v", room.ErrStoreUnavailable, err)
}

// Create implements room.Store.
func (s *Store) Create(ctx context.Context, id string, first room.Event, sum room.Summary) error {
	f, err := fields(sum)
	if err != nil {
		return err
	}
	b, err := room.EncodeEvent(first)
	if err != nil {
		return err
	}
	err = mapErr(s.rs.Create(ctx, id, f, b, index(sum)))
	s.remember(id, first.Seq, sum, true, err == nil)
	return err
}

// Append implements room.Store.
// Most moves write only their event and the seq: the summary fields and the lobby
// score follow at most every WithSummaryEvery (see there).
func (s *Store) Append(ctx context.Context, id string, expectedSeq uint64, events []room.Event, sum room.Summary) error {
	var f map[string]string
	var idx eventlog.IndexUpdate
	full := !s.light(id, expectedSeq, sum)
	if full {
		var err error
		if f, err = fields(sum); err != nil {
			return err
		}
		idx = index(sum)
	}
	enc := make([][]byte, len(events))
	for i, e := range events {
		var err error
		if enc[i], err = room.EncodeEvent(e); err != nil {
			return err
		}
	}
	ended := s.gameEnds(events)
	for _, e := range ended {
		if err := s.ends.Ending(ctx, id, e.Game, e.Time()); err != nil {
			return fmt.Errorf("%w: %v", room.ErrStoreUnavailable, err)
		}
	}
	seq, err := s.rs.Append(ctx, id, expectedSeq, enc, f, idx)
	s.remember(id, seq, sum, full, err == nil)
	if err == nil {
		for _, e := range ended {
			s.ends.Ended(id, e.Game)
		}
	}
	return mapErr(err)
}

// gameEnds returns the game_over events with a result among events (none without a
// GameEnds).
func (s *Store) gameEnds(events []room.Event) []room.Event {
	if s.ends == nil {
		return nil
	}
	var out []room.Event
	for _, e := range events {
		if e.Kind == room.EvGameOver && e.Result != room.ResultAborted {
			out = append(out, e)
		}
	}
	return out
}

// Events implements room.Store (events with seq >= fromSeq).
func (s *Store) Events(ctx context.Context, id string, fromSeq uint64) ([]room.Event, error) {
	if fromSeq > 0 {
		fromSeq--
	}
	raw, err := s.rs.Events(ctx, id, fromSeq)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]room.Event, len(raw))
	for i, b := range raw {
		e, err := room.DecodeEvent(b)
		if err != nil {
			return nil, fmt.Errorf("roomstore: room %s event %d: %w", id, fromSeq+uint64(i)+1, err)
		}
		if e.Seq != fromSeq+uint64(i)+1 {
			return nil, fmt.Errorf("roomstore: room %s: event %d has seq %d", id, fromSeq+uint64(i)+1, e.Seq)
		}
		out[i] = e
	}
	return out, nil
}

// Summary returns a stored room's lobby summary.
func (s *Store) Summary(ctx context.Context, id string) (room.Summary, error) {
	f, _, err := s.rs.Load(ctx, id)
	if err != nil {
		return room.Summary{}, mapErr(err)
	}
	var sum room.Summary
	if err := json.Unmarshal([]byte(f[FieldSummary]), &sum); err != nil {
		return room.Summary{}, fmt.Errorf("roomstore: room %s summary: %w", id, err)
	}
	return sum, nil
}

// List implements room.Lister: status "open", "live" (default) or "finished".
func (s *Store) List(ctx context.Context, q room.ListQuery) ([]room.Summary, string, error) {
	var idx eventlog.Index
	switch q.Status {
	case "open":
		idx = eventlog.IndexOpen
	case "", "live":
		idx = eventlog.IndexLive
	case "finished":
		idx = eventlog.IndexFinished
	default:
		return nil, "", fmt.Errorf("%w: status %q", room.ErrBadRequest, q.Status)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	ids, next, err := s.rs.List(ctx, idx, q.Cursor, limit)
	if err != nil {
		return nil, "", mapErr(err)
	}
	fs, _, err := s.rs.LoadMany(ctx, ids)
	if err != nil {
		return nil, "", mapErr(err)
	}
	out := make([]room.Summary, 0, len(ids))
	for _, f := range fs {
		if f == nil {
			continue // expired or deleted meanwhile
		}
		var sum room.Summary
		if json.Unmarshal([]byte(f[FieldSummary]), &sum) != nil || (!sum.Public && !q.All) {
			continue
		}
		out = append(out, sum)
	}
	return out, next, nil
}

// LiveRooms returns the ids of every unfinished room (public or private), to restore
// after a restart.
func (s *Store) LiveRooms(ctx context.Context) ([]string, error) {
	ids, err := s.rs.LiveRooms(ctx)
	return ids, mapErr(err)
}

// TurnCredit implements room.CreditStore (zero when none was stored).
func (s *Store) TurnCredit(ctx context.Context, id string) (room.TurnCredit, error) {
	var c room.TurnCredit
	v, err := s.rs.Client().HGet(ctx, eventlog.KeysFor(id).State, FieldTurnCredit).Result()
	if errors.Is(err, redis.Nil) {
		return c, nil
	}
	if err != nil {
		return c, mapErr(err)
	}
	if err := json.Unmarshal([]byte(v), &c); err != nil {
		return room.TurnCredit{}, fmt.Errorf("roomstore: turn credit of %s: %w", id, err)
	}
	return c, nil
}

// SetTurnCredit implements room.CreditStore: one seq-checked write of the field (no
// event), so a credit never lands after the turn it is for has ended.
func (s *Store) SetTurnCredit(ctx context.Context, id string, seq uint64, c room.TurnCredit) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = s.rs.Append(ctx, id, seq, nil, map[string]string{FieldTurnCredit: string(b)}, eventlog.IndexUpdate{})
	return mapErr(err)
}

// AliveAt implements room.AliveStore: when the node holding the room's lease last
// renewed or released it (eventlog.Store.AliveAt).
func (s *Store) AliveAt(ctx context.Context, id string) (time.Time, error) {
	return s.rs.AliveAt(ctx, id)
}
