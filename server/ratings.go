package server

import (
	"context"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/ledger"
)

// roomPlayer is the room's view of an authenticated player: whether it has an
// account (rated rooms seat accounts only) and, in a room with a rating pool, its
// rating there as displayed next to its name ("1500?" while provisional). Without a
// ledger, or when it does not answer, the rating is left out: seating never waits on
// it beyond ctx.
func roomPlayer(ctx context.Context, l *ledger.Ledger, p Player, set room.Settings) room.Player {
	rp := room.Player{ID: p.ID, Name: p.Name, Account: p.IsAccount()}
	pool, ok := set.Pool()
	if l == nil || !ok {
		return rp
	}
	if r, err := l.Rating(ctx, p.ID, pool.ID()); err == nil {
		rp.Rating = r.Display()
	}
	return rp
}

// newLedger returns the ratings ledger on c and its recorder, to be passed to the room
// store (roomstore.WithGameEnds) and run (Recorder.Run); bind hands it the rooms'
// manager once built.
func newLedger(c redis.UniversalClient, cfg Config) (l *ledger.Ledger, rec *ledger.Recorder, bind func(*room.Manager)) {
	l = ledger.New(c, ledger.WithRetention(cfg.Retention))
	rooms := &ledger.ManagerRooms{}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	rec = ledger.NewRecorder(l, rooms, log.With("component", "ledger"))
	return l, rec, func(m *room.Manager) { rooms.M = m }
}
