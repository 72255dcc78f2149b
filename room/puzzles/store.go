package puzzles

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// Stats is a puzzle's rating and counts (first attempts only: practice does not count).
type Stats struct {
	rating.Rating
	Plays  int `json:"n"`
	Solved int `json:"s"`
}

// PlayerRating is a player's puzzle rating with the count of rated attempts.
type PlayerRating struct {
	rating.Rating
	N      int   `json:"n"`
	LastMS int64 `json:"at"` // end of the last rated attempt (Unix ms)
}

// record is a mined puzzle as stored.
type record struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	Rule     string `json:"rule"`
	Size     int    `json:"size"`
	Moves    string `json:"moves"`
	Answers  string `json:"answers,omitempty"`
	Note     string `json:"note,omitempty"`
	Room     string `json:"room,omitempty"`
	Game     int    `json:"game,omitempty"`
	MinedMS  int64  `json:"at"`
}

// Store keeps puzzles, ratings and attempts on one Redis (or Redis Cluster).
type Store struct {
	c          redis.UniversalClient
	shipped    map[string]puzzle.Puzzle
	order      []string // shipped ids in suite order
	retention  time.Duration
	attemptTTL time.Duration
	recent     time.Duration
	now        func() time.Time
}

// Option configures a Store.
type Option func(*Store)

// WithRetention sets how long a guest's puzzle rating and history are kept after
// its last attempt (default 30 days; accounts' are kept).
func WithRetention(d time.Duration) Option { return func(s *Store) { s.retention = d } }

// WithAttemptTTL sets how long an attempt lives after it starts (default 6 hours).
func WithAttemptTTL(d time.Duration) Option { return func(s *Store) { s.attemptTTL = d } }

// WithRecent sets how long a played puzzle is not offered again (default 30 days).
func WithRecent(d time.Duration) Option { return func(s *Store) { s.recent = d } }

// WithClock sets the clock.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// NewStore returns the store on c with the shipped puzzles (kept in memory; their
// ratings in Redis): the server's are engine/puzzle's suite (puzzle.Shipped).
func NewStore(c redis.UniversalClient, shipped []puzzle.Puzzle, opts ...Option) *Store {
	s := &Store{c: c, shipped: map[string]puzzle.Puzzle{}, retention: 30 * 24 * time.Hour,
		attemptTTL: 6 * time.Hour, recent: 30 * 24 * time.Hour, now: time.Now}
	for _, p := range shipped {
		s.shipped[p.ID] = p
		s.order = append(s.order, p.ID)
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %s: %v", ErrUnavailable, op, err)
}

// Seed puts the shipped puzzles into their rules' indexes at their category's prior
// (a puzzle already rated keeps its rating). It is idempotent; call it at start-up.
func (s *Store) Seed(ctx context.Context) error {
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range s.order {
			pz := s.shipped[id]
			p.ZAddNX(ctx, IndexKey(pz.Rule.String()), redis.Z{Score: Prior(pz.Category).R, Member: id})
		}
		return nil
	})
	return wrap("seed", err)
}

// Source tells where the puzzle of id comes from: SourceShipped for the store's
// shipped suite, else SourceMined (the only other way a puzzle gets stored).
func (s *Store) Source(id string) string {
	if _, ok := s.shipped[id]; ok {
		return SourceShipped
	}
	return SourceMined
}

// Puzzle returns a puzzle (shipped or mined) and its stats.
func (s *Store) Puzzle(ctx context.Context, id string) (puzzle.Puzzle, Stats, error) {
	if !validID(id) {
		return puzzle.Puzzle{}, Stats{}, ErrNoSuchPuzzle
	}
	var def, st *redis.StringCmd
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		if _, ok := s.shipped[id]; !ok {
			def = p.Get(ctx, PuzzleKey(id))
		}
		st = p.HGet(ctx, KeyStats, id)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return puzzle.Puzzle{}, Stats{}, wrap("puzzle", err)
	}
	pz, ok := s.shipped[id]
	if !ok {
		raw, err := def.Result()
		if errors.Is(err, redis.Nil) {
			return puzzle.Puzzle{}, Stats{}, ErrNoSuchPuzzle
		}
		if pz, err = decodeRecord(raw); err != nil {
			return puzzle.Puzzle{}, Stats{}, err
		}
	}
	raw, _ := st.Result()
	return pz, decodeStats(raw, pz.Category), nil
}

func decodeRecord(raw string) (puzzle.Puzzle, error) {
	var r record
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return puzzle.Puzzle{}, fmt.Errorf("puzzles: stored puzzle: %w", err)
	}
	rule, err := engine.ParseRule(r.Rule)
	if err != nil {
		return puzzle.Puzzle{}, fmt.Errorf("puzzles: stored puzzle %s: %w", r.ID, err)
	}
	moves, err := engine.ParseMoves(r.Moves, r.Size)
	if err != nil {
		return puzzle.Puzzle{}, fmt.Errorf("puzzles: stored puzzle %s: %w", r.ID, err)
	}
	answers, err := engine.ParseMoves(r.Answers, r.Size)
	if err != nil {
		return puzzle.Puzzle{}, fmt.Errorf("puzzles: stored puzzle %s: %w", r.ID, err)
	}
	to := engine.Black
	if len(moves)%2 == 1 {
		to = engine.White
	}
	return puzzle.Puzzle{ID: r.ID, Category: r.Category, Rule: rule, Size: r.Size, ToMove: to, Moves: moves,
		Answers: answers, Note: r.Note}, nil
}

// decodeStats parses a stored stats field; absent or damaged: the category's prior.
func decodeStats(raw, category string) Stats {
	var st Stats
	if raw == "" || json.Unmarshal([]byte(raw), &st) != nil || !st.Valid() {
		return Stats{Rating: Prior(category)}
	}
	return st
}

// decodePlayer parses a stored player rating; absent or damaged: a new player.
func decodePlayer(raw string) PlayerRating {
	var p PlayerRating
	if raw == "" || json.Unmarshal([]byte(raw), &p) != nil || !p.Valid() {
		return PlayerRating{Rating: rating.Initial()}
	}
	return p
}

// PlayerRating returns a player's puzzle rating as it stands now (its RD grown by
// the idle time since the last rated attempt); a player who never played has the
// initial rating.
func (s *Store) PlayerRating(ctx context.Context, player string) (PlayerRating, error) {
	raw, err := s.c.Get(ctx, PlayerKey(player)).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return PlayerRating{}, wrap("player rating", err)
	}
	p := decodePlayer(raw)
	p.Rating = rating.Age(p.Rating, s.idle(p))
	return p, nil
}

func (s *Store) idle(p PlayerRating) time.Duration {
	if p.LastMS == 0 {
		return 0
	}
	return s.now().Sub(time.UnixMilli(p.LastMS))
}

// addMinedScript stores a mined puzzle once: KEYS 1 its key, 2 its rule's index,
// 3 the mined set; ARGV 1 the record, 2 the prior rating, 3 the id, 4 now (ms).
// Reply 1 added, 0 already there.
var addMinedScript = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then return 0 end
redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
return 1`)

// AddMined stores a puzzle mined from game of room under its id, which the Miner
// derives from the position up to symmetry: the same position is stored once, whoever
// mines it and however often. It reports whether the puzzle is new.
func (s *Store) AddMined(ctx context.Context, p puzzle.Puzzle, room string, game int) (bool, error) {
	if !validID(p.ID) || len(p.Moves) == 0 {
		return false, fmt.Errorf("puzzles: a mined puzzle needs an id and a position")
	}
	id := p.ID
	now := s.now().UnixMilli()
	body, err := json.Marshal(record{ID: id, Category: p.Category, Rule: p.Rule.String(), Size: p.Size,
		Moves: engine.FormatMoves(p.Moves), Answers: engine.FormatMoves(p.Answers), Note: p.Note, Room: room, Game: game, MinedMS: now})
	if err != nil {
		return false, err
	}
	n, err := addMinedScript.Run(ctx, s.c, []string{PuzzleKey(id), IndexKey(p.Rule.String()), KeyMined},
		body, strconv.FormatFloat(Prior(p.Category).R, 'f', 2, 64), id, now).Int()
	if err != nil {
		return false, wrap("add mined", err)
	}
	return n == 1, nil
}

// MinedCount returns how many puzzles were mined.
func (s *Store) MinedCount(ctx context.Context) (int64, error) {
	n, err := s.c.ZCard(ctx, KeyMined).Result()
	return n, wrap("mined count", err)
}
