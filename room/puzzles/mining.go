package puzzles

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

// Lane runs background engine work at a lower priority than live AI seats
// (room.Scheduler's background lane: a live search preempts the work, which then runs
// again).
type Lane interface {
	Background(ctx context.Context, fn func(ctx context.Context) error) error
}

// Game is a finished game to mine.
type Game struct {
	Rule  engine.Rule
	Size  int
	Moves []engine.Point
}

// GameSource reads a finished game of a room.
type GameSource func(ctx context.Context, room string, game int) (Game, error)

// Mining bounds.
const (
	// MinMinedPlies: shorter games are not mined (nothing to find in an opening).
	MinMinedPlies = 9
	// MaxMinedPerGame caps the puzzles stored from one game.
	MaxMinedPerGame = 3
	// DefaultMineTimeout bounds the solver time spent on one game.
	DefaultMineTimeout = 10 * time.Second
)

// Mining mines finished games for puzzles on a node: Ended queues a game without
// blocking (a full queue drops it), Run mines the queue on the background lane. A game
// is mined once across nodes (a claim key), each game's work is bounded (the Miner's
// own limits, DefaultMineTimeout, MaxMinedPerGame), and a position already stored, in
// any of its 8 symmetric forms, is not stored again.
type Mining struct {
	store   *Store
	miner   Miner
	lane    Lane
	games   GameSource
	log     *slog.Logger
	q       chan gameRef
	timeout time.Duration
	// Observe, when set (before Run), is told of each game Run mined: the new puzzles
	// it stored and the error that stopped it (metrics).
	Observe func(added int, err error)
}

type gameRef struct {
	room string
	game int
}

// NewMining returns the mining of games read from games, on lane, into store.
func NewMining(store *Store, miner Miner, lane Lane, games GameSource, log *slog.Logger) *Mining {
	if log == nil {
		log = slog.Default()
	}
	return &Mining{store: store, miner: miner, lane: lane, games: games, log: log,
		q: make(chan gameRef, 256), timeout: DefaultMineTimeout}
}

// Ended queues a finished game for mining without blocking.
func (m *Mining) Ended(room string, game int) {
	select {
	case m.q <- gameRef{room, game}:
	default:
		m.log.Debug("puzzles: mining queue full, game not mined", "room", room, "game", game)
	}
}

// Run mines queued games until ctx ends.
func (m *Mining) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case g := <-m.q:
			added, err := m.MineGame(ctx, g.room, g.game)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				m.log.Warn("puzzles: mining a game failed", "room", g.room, "game", g.game, "err", err)
			}
			if m.Observe != nil {
				m.Observe(added, err)
			}
		}
	}
}

// claimMined marks a game as mined; false when some node already did.
func (m *Mining) claimMined(ctx context.Context, room string, game int) (bool, error) {
	ok, err := m.store.c.SetNX(ctx, GameMinedKey(room, strconv.Itoa(game)), m.store.now().UnixMilli(), m.store.retention).Result()
	return ok, wrap("claim game", err)
}

// MineGame mines one finished game (once: a game some node has mined is skipped) and
// returns how many new puzzles it stored.
func (m *Mining) MineGame(ctx context.Context, room string, game int) (int, error) {
	if !validID(room) || game < 1 {
		return 0, errors.New("puzzles: bad game to mine")
	}
	g, err := m.games(ctx, room, game)
	if err != nil {
		return 0, err
	}
	if len(g.Moves) < MinMinedPlies {
		return 0, nil
	}
	ok, err := m.claimMined(ctx, room, game)
	if err != nil || !ok {
		return 0, err
	}
	var found []puzzle.Puzzle
	err = m.lane.Background(ctx, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, m.timeout)
		defer cancel()
		var err error
		found, err = m.miner.Mine(ctx, g.Rule, g.Size, g.Moves)
		if errors.Is(err, context.DeadlineExceeded) {
			err = nil // what was found in time counts
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	added := 0
	for _, p := range found {
		if added >= MaxMinedPerGame {
			break
		}
		isNew, err := m.store.AddMined(ctx, p, room, game)
		if err != nil {
			return added, err
		}
		if isNew {
			added++
		}
	}
	return added, nil
}
