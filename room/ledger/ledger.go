// Package ledger keeps Gomoku Arena's ratings and finished-game index in Redis: every
// player's Glicko-2 rating per pool with its history, the pools' leaderboards, and for
// every finished game (casual, AI and rated alike) an entry in each human player's
// game index.
//
// # Exactly once
//
// A game is recorded by one Lua script (Record) keyed by its room id and game number:
// it writes the game's record, both players' new ratings, their history points, their
// game-index entries and the leaderboard together, or finds the record already there
// and changes nothing. The new ratings are computed in Go (package rating) from the
// ratings read just before; the script checks they are still the stored ones (compare
// and set) and otherwise the computation is retried on fresh values, so two games of
// one player ending at once both count. Hence a retry, a crash between two tries, or
// two nodes recording the same game apply its rating change exactly once.
//
// The room's game_over event is the source of truth. Before a node appends it, it adds
// the game to the ledger's outbox (MarkPending, the same slot as the ledger); once the
// event is stored the node records the game at once, and every node's Sweeper records
// whatever is left in the outbox (a node killed in between, a Redis failure), reading
// the game from the room's event log. Record removes the game from the outbox in the
// same script; a rated game stays in the outbox until its room has also stored the
// rating change as an event (what players see), which is idempotent too. A game
// marked whose game_over was never stored (the append failed) is dropped when its
// room shows it did not end.
package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/rating"
)

// Errors.
var (
	ErrBadGame     = errors.New("ledger: bad game")
	ErrUnavailable = errors.New("ledger: unavailable")
	ErrContention  = errors.New("ledger: ratings kept changing")
)

// Results of a game from one side, in game entries.
const (
	Win  = "win"
	Loss = "loss"
	Draw = "draw"
)

// Side is one seat of a finished game: a person (PlayerID; Account false for a guest)
// or a machine (Machine: "ai:<level>" or "engine:<name>", no PlayerID).
type Side struct {
	PlayerID string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	Account  bool   `json:"account,omitempty"`
	Machine  string `json:"machine,omitempty"`
	// Before and After are the side's ratings in the game's pool (rated games).
	Before *rating.Rating `json:"before,omitempty"`
	After  *rating.Rating `json:"after,omitempty"`
}

// Game is a finished game to record. Result is "black", "white", "draw" or
// "aborted" (recorded, but indexed for nobody and never rated).
type Game struct {
	Room   string    `json:"room"`
	Game   int       `json:"game"`
	Rule   string    `json:"rule"`
	Pool   string    `json:"pool,omitempty"` // "" for untimed games
	Rated  bool      `json:"rated,omitempty"`
	Black  Side      `json:"black"`
	White  Side      `json:"white"`
	Result string    `json:"result"`
	Reason string    `json:"reason,omitempty"`
	Plies  int       `json:"plies"`
	End    time.Time `json:"-"`
	EndMS  int64     `json:"end"`
}

// Record is a recorded game (Game with the rating changes of a rated game).
type Record = Game

// PoolRating is a player's rating in one pool with the counts of rated games.
type PoolRating struct {
	rating.Rating
	Games  int   `json:"n"`
	Wins   int   `json:"w"`
	Draws  int   `json:"d"`
	Losses int   `json:"l"`
	LastMS int64 `json:"at"` // end of the last rated game (Unix ms)
}

// Point is one point of a rating history.
type Point struct {
	AtMS int64   `json:"at"`
	R    float64 `json:"r"`
	RD   float64 `json:"rd"`
	Room string  `json:"room"`
	Game int     `json:"game"`
}

// GameEntry is one game in a player's index, from that player's side.
type GameEntry struct {
	Room     string `json:"room"`
	Game     int    `json:"game"`
	EndMS    int64  `json:"end"`
	Rule     string `json:"rule"`
	Pool     string `json:"pool,omitempty"`
	Rated    bool   `json:"rated,omitempty"`
	Color    string `json:"color"`
	Opponent Side   `json:"opponent"`
	Result   string `json:"result"` // win, loss, draw
	Reason   string `json:"reason,omitempty"`
	Plies    int    `json:"plies"`
	// Before and After are the player's ratings around a rated game.
	Before *rating.Rating `json:"before,omitempty"`
	After  *rating.Rating `json:"after,omitempty"`
}

// Ledger is the ratings ledger on one Redis (or Redis Cluster).
type Ledger struct {
	c         redis.UniversalClient
	retention time.Duration
	now       func() time.Time
}

// Option configures a Ledger.
type Option func(*Ledger)

// WithRetention sets how long guests' game indexes and the records of unrated games
// are kept (the room retention; default 30 days). Accounts' indexes and rated games'
// records are kept.
func WithRetention(d time.Duration) Option { return func(l *Ledger) { l.retention = d } }

// WithClock sets the clock of reads (the display ageing of ratings).
func WithClock(now func() time.Time) Option { return func(l *Ledger) { l.now = now } }

// New returns the ledger on c.
func New(c redis.UniversalClient, opts ...Option) *Ledger {
	l := &Ledger{c: c, retention: 30 * 24 * time.Hour, now: time.Now}
	for _, o := range opts {
		o(l)
	}
	return l
}

func wrap(op string, err error) error {
	if err == nil || errors.Is(err, redis.Nil) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %s: %v", ErrUnavailable, op, err)
	}
	return fmt.Errorf("%w: %s: %v", ErrUnavailable, op, err)
}

// MarkPending adds a game to the outbox before its game_over event is stored.
func (l *Ledger) MarkPending(ctx context.Context, room string, game int, end time.Time) error {
	if !validID(room) || game < 1 {
		return ErrBadGame
	}
	err := l.c.ZAddNX(ctx, KeyPending, redis.Z{Score: float64(end.UnixMilli()), Member: pendingMember(room, game)}).Err()
	return wrap("mark pending", err)
}

// Unmark removes a game from the outbox: a rated game once its room has stored the
// rating change, or a game whose room shows it did not end (the append of its
// game_over failed) or is gone.
func (l *Ledger) Unmark(ctx context.Context, room string, game int) error {
	return wrap("unmark", l.c.ZRem(ctx, KeyPending, pendingMember(room, game)).Err())
}

// PendingGame is an outbox entry.
type PendingGame struct {
	Room string
	Game int
	At   time.Time
}

// Pending returns up to n outbox entries marked before cut, oldest first.
func (l *Ledger) Pending(ctx context.Context, cut time.Time, n int64) ([]PendingGame, error) {
	zs, err := l.c.ZRangeByScoreWithScores(ctx, KeyPending, &redis.ZRangeBy{
		Min: "-inf", Max: fmt.Sprint(cut.UnixMilli()), Count: n}).Result()
	if err != nil {
		return nil, wrap("pending", err)
	}
	out := make([]PendingGame, 0, len(zs))
	for _, z := range zs {
		m, _ := z.Member.(string)
		room, game, ok := parsePending(m)
		if !ok {
			_ = l.c.ZRem(ctx, KeyPending, m).Err() // not ours to keep
			continue
		}
		out = append(out, PendingGame{Room: room, Game: game, At: time.UnixMilli(int64(z.Score)).UTC()})
	}
	return out, nil
}

// Result returns the record of a game, or nil when it is not recorded.
func (l *Ledger) Result(ctx context.Context, room string, game int) (*Record, error) {
	b, err := l.c.Get(ctx, ResultKey(room, game)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("result", err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("ledger: record of %s/%d: %w", room, game, err)
	}
	r.End = time.UnixMilli(r.EndMS).UTC()
	return &r, nil
}
