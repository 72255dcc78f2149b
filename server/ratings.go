package server

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/rating"
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

// ratingPoolOf is the rating pool (rule × speed class) a quick-pairing pool plays in.
func ratingPoolOf(p pairing.Pool) (rating.Pool, bool) {
	t := p.Time()
	return rating.PoolOf(p.Rule, t.Base(), t.Increment(), t.PerMove())
}

// SeekPool is one entry of GET /api/pairing/pools: a rule and clock one may seek and
// the rating pool its games count in (the player's rating there is the one pairing uses).
type SeekPool struct {
	Rule       string `json:"rule"`
	Clock      string `json:"clock"`
	RatingPool string `json:"rating_pool"`
}

// pairingPools is GET /api/pairing/pools: every rule × clock of quick pairing with its
// rating pool, so that pages show the rating pairing will use without computing the
// speed classes themselves.
func pairingPools(c echo.Context) error {
	out := []SeekPool{}
	for _, r := range rating.Rules {
		for _, clock := range pairing.Clocks {
			p, err := pairing.NewPool(r, clock, false)
			if err != nil {
				return err
			}
			rp, ok := ratingPoolOf(p)
			if !ok {
				continue
			}
			out = append(out, SeekPool{Rule: r, Clock: clock, RatingPool: rp.ID()})
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"pools": out})
}
