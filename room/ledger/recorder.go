package ledger

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
)

// Rooms is what a Recorder needs of the rooms: their event logs (room.Store) and a way
// to tell a room the rating change of one of its games (room.Room.ReportRating on
// the room, loaded if needed).
type Rooms interface {
	Events(ctx context.Context, id string, fromSeq uint64) ([]room.Event, error)
	ReportRating(ctx context.Context, id string, game int, change room.RatingChange) error
}

// Recorder is the outbox worker: it marks games before their game_over event is
// stored (Ending), records them once it is (Ended, at once, on its own goroutine) and
// sweeps the outbox for games left there by a node that died or a write that failed
// (Run). It implements roomstore.GameEnds.
type Recorder struct {
	l     *Ledger
	rooms Rooms
	log   *slog.Logger
	q     chan PendingGame
	// SweepEvery is how often Run looks at the outbox; SweepAfter how old an entry
	// must be before a sweep takes it (the node that ended the game records it at
	// once; the sweep is for the games it could not).
	SweepEvery, SweepAfter time.Duration
	// Timeout bounds one game's recording.
	Timeout time.Duration
}

// NewRecorder returns a recorder; call Run to start its work.
func NewRecorder(l *Ledger, rooms Rooms, log *slog.Logger) *Recorder {
	if log == nil {
		log = slog.Default()
	}
	return &Recorder{l: l, rooms: rooms, log: log, q: make(chan PendingGame, 1024),
		SweepEvery: 10 * time.Second, SweepAfter: 10 * time.Second, Timeout: 10 * time.Second}
}

// Ending marks the game in the outbox (before its game_over event is appended).
func (r *Recorder) Ending(ctx context.Context, id string, game int, at time.Time) error {
	return r.l.MarkPending(ctx, id, game, at)
}

// Ended queues the game for recording without blocking (a full queue leaves it to the
// sweep).
func (r *Recorder) Ended(id string, game int) {
	select {
	case r.q <- PendingGame{Room: id, Game: game}:
	default:
	}
}

// Run records queued games and sweeps the outbox until ctx ends.
func (r *Recorder) Run(ctx context.Context) {
	t := time.NewTicker(r.SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-r.q:
			r.process(ctx, p)
		case <-t.C:
			r.Sweep(ctx)
		}
	}
}

// Sweep records the outbox entries older than SweepAfter; it returns how many it took.
func (r *Recorder) Sweep(ctx context.Context) int {
	ps, err := r.l.Pending(ctx, time.Now().Add(-r.SweepAfter), 100)
	if err != nil {
		r.log.Warn("ledger: outbox sweep failed", "err", err)
		return 0
	}
	for _, p := range ps {
		r.process(ctx, p)
	}
	return len(ps)
}

func (r *Recorder) process(ctx context.Context, p PendingGame) {
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	if err := r.Process(ctx, p.Room, p.Game); err != nil {
		r.log.Warn("ledger: recording a game failed, the sweep retries", "room", p.Room, "game", p.Game, "err", err)
	}
}

// Process records game number game of room id from its event log (idempotent), tells
// a rated game's room its rating change, and clears the outbox entry. A game that did
// not end in the log (its game_over append failed) stays in the outbox while the game
// is in play and is dropped when its room is gone or the game ended without a result.
func (r *Recorder) Process(ctx context.Context, id string, game int) error {
	evs, err := r.rooms.Events(ctx, id, 1)
	if errors.Is(err, room.ErrNotFound) || errors.Is(err, room.ErrNoSuchRoom) {
		return r.l.Unmark(ctx, id, game)
	}
	if err != nil {
		return err
	}
	g, found, err := GameFromLog(evs, game)
	if err != nil {
		return err
	}
	if !found {
		if inPlay(evs, game) {
			return nil // the game goes on; its game_over will be marked again
		}
		return r.l.Unmark(ctx, id, game)
	}
	rec, err := r.l.Record(ctx, g)
	if err != nil {
		return err
	}
	if !rec.Rated || rec.Black.After == nil || rec.White.After == nil {
		return nil
	}
	change := room.RatingOf(rec.Pool, *rec.Black.Before, *rec.Black.After, *rec.White.Before, *rec.White.After)
	if err := r.rooms.ReportRating(ctx, id, game, change); err != nil &&
		!errors.Is(err, room.ErrNotFound) && !errors.Is(err, room.ErrNoSuchRoom) {
		return fmt.Errorf("report: %w", err)
	}
	return r.l.Unmark(ctx, id, game)
}

// GameFromLog builds game number game from a room's event log (from seq 1): the
// seats, settings and result as of its game_over event; found is false when the log
// has no game_over with a result for it.
func GameFromLog(evs []room.Event, game int) (g Game, found bool, err error) {
	end := -1
	for i, e := range evs {
		if e.Kind == room.EvGameOver && e.Game == game {
			end = i
			break
		}
	}
	if end < 0 || evs[end].Result == room.ResultAborted {
		return Game{}, false, nil
	}
	st, err := room.Replay(evs[:end+1])
	if err != nil {
		return Game{}, false, fmt.Errorf("ledger: replay of %d events: %w", end+1, err)
	}
	set := st.Settings()
	g = Game{Room: st.ID(), Game: game, Rule: set.Rule, Rated: set.Rated, Result: evs[end].Result,
		Reason: evs[end].Reason, Plies: st.Ply(), End: evs[end].Time(),
		Black: sideOf(st.Seat(engine.Black)), White: sideOf(st.Seat(engine.White))}
	if p, ok := set.Pool(); ok && set.Size == engine.DefaultSize {
		g.Pool = p.ID()
	}
	if g.Rated && (g.Black.PlayerID == "" || g.White.PlayerID == "" || g.Pool == "") {
		g.Rated = false // a log that cannot be rated (settings are checked at creation)
	}
	return g, true, nil
}

func sideOf(s room.SeatInfo) Side {
	switch {
	case s.Spec.Kind == room.AI:
		return Side{Machine: "ai:" + s.Spec.Level}
	case s.Spec.Kind == room.Engine:
		return Side{Machine: "engine:" + s.Spec.Engine}
	case s.Player != nil:
		return Side{PlayerID: s.Player.ID, Name: s.Player.Name, Account: s.Player.Account}
	}
	return Side{}
}

// inPlay reports whether the log's last game is game and still without an end.
func inPlay(evs []room.Event, game int) bool {
	if len(evs) == 0 {
		return false
	}
	last := evs[len(evs)-1].Game
	if last != game {
		return false
	}
	for _, e := range evs {
		if e.Kind == room.EvGameOver && e.Game == game {
			return false
		}
	}
	return true
}

// ManagerRooms is the Rooms of a room.Manager (set M before the recorder runs: the
// manager's store is built with the recorder).
type ManagerRooms struct{ M *room.Manager }

// Events reads a room's log from the manager's store.
func (a *ManagerRooms) Events(ctx context.Context, id string, fromSeq uint64) ([]room.Event, error) {
	return a.M.Store().Events(ctx, id, fromSeq)
}

// ReportRating tells the room (loading it on this node if it is not live here).
func (a *ManagerRooms) ReportRating(ctx context.Context, id string, game int, change room.RatingChange) error {
	r, err := a.M.Get(ctx, id)
	if err != nil {
		return err
	}
	return r.ReportRating(ctx, game, change)
}
