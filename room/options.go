package room

import (
	"log/slog"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// PlayerResolver returns the engine.Player of a machine seat (built-in AI at a level or
// a configured external engine). A returned player that implements io.Closer is closed
// when its room stops.
type PlayerResolver func(spec SeatSpec) (engine.Player, error)

// Options configure rooms (and the Manager). Zero fields take the defaults below.
type Options struct {
	Clock   Clock          // default RealClock{}
	Players PlayerResolver // needed for AI and engine seats (default: DefaultPlayers)
	// ValidateSeat refuses, at Create, a normalized seat this node cannot play (an
	// engine that is not configured); default: DefaultValidateSeat with DefaultPlayers.
	ValidateSeat func(SeatSpec) error
	Scheduler    *Scheduler // shared AI scheduler (default: NewScheduler(0, -1))

	Grace      time.Duration // abandonment grace once both sides have moved (default 60 s)
	StartGrace time.Duration // grace before that, then the game is aborted (default 20 s)
	// IdleTimeout stops a room nobody is connected to (unless it runs an AI vs AI game
	// or a clock) after this long; a finished room with nobody connected stops at once. Default 5 min.
	IdleTimeout time.Duration
	// Linger keeps a finished room with nobody connected alive this long (default 5 s),
	// so that a client that has just restored it can subscribe.
	Linger time.Duration

	CommandQueue int           // bounded command channel (default 64)
	SubQueue     int           // per-subscriber queue (default 256)
	MaxBacklog   int           // most events replayed on Subscribe before a snapshot (default 512)
	MemoryLog    int           // recent events kept in memory; older ones come from the store (default 128)
	StoreTimeout time.Duration // per store call (default 3 s)
	RetryDelay   time.Duration // retry of a failed timer-driven write (default 1 s)

	AIProgressInterval time.Duration // AI progress throttle (default 100 ms: ≤ 10/s)
	// PresenceInterval batches presence updates that only change the spectator count:
	// at most one per interval (default 300 ms). Seat changes are sent at once.
	PresenceInterval time.Duration
	// AILimits adjusts the limits of every AI search (for example a tiny budget in tests).
	AILimits  func(engine.Limits) engine.Limits
	HintLevel string        // level used for hints (default "advanced"; any level Players accepts)
	HintTime  time.Duration // hint search time (default 1 s)

	// Passive starts rooms passive: no clock flag, abandonment timers or AI searches
	// (another node holds the room's lease); see Room.SetPassive and Room.Replicate.
	// A Manager with a Replicator decides this per room.
	Passive bool
	// Replicator, when set, connects the Manager's rooms to the copies other nodes run
	// (see Replicator; room/replica). Nil: this node is the only one.
	Replicator Replicator

	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	if o.Players == nil {
		o.Players = DefaultPlayers
		if o.ValidateSeat == nil {
			o.ValidateSeat = DefaultValidateSeat
		}
	}
	if o.ValidateSeat == nil {
		o.ValidateSeat = func(SeatSpec) error { return nil }
	}
	if o.Scheduler == nil {
		o.Scheduler = NewScheduler(0, -1)
	}
	if o.Grace <= 0 {
		o.Grace = 60 * time.Second
	}
	if o.StartGrace <= 0 {
		o.StartGrace = 20 * time.Second
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 5 * time.Minute
	}
	if o.Linger <= 0 {
		o.Linger = 5 * time.Second
	}
	if o.CommandQueue <= 0 {
		o.CommandQueue = 64
	}
	if o.SubQueue <= 0 {
		o.SubQueue = 256
	}
	if o.MaxBacklog <= 0 {
		o.MaxBacklog = 512
	}
	if o.MemoryLog <= 0 {
		o.MemoryLog = 128
	}
	if o.StoreTimeout <= 0 {
		o.StoreTimeout = 3 * time.Second
	}
	if o.RetryDelay <= 0 {
		o.RetryDelay = time.Second
	}
	if o.AIProgressInterval <= 0 {
		o.AIProgressInterval = 100 * time.Millisecond
	}
	if o.PresenceInterval <= 0 {
		o.PresenceInterval = 300 * time.Millisecond
	}
	if o.HintLevel == "" {
		o.HintLevel = "advanced"
	}
	if o.HintTime <= 0 {
		o.HintTime = time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// ErrNoEngines is returned by DefaultPlayers for external engine seats.
var ErrNoEngines = protocol.Detail(ErrNoSuchEngine, "no external engines are configured")

// DefaultPlayers resolves built-in AI seats with engine.NewPlayer at the seat's level;
// it refuses external engine seats (configure Options.Players for those).
func DefaultPlayers(spec SeatSpec) (engine.Player, error) { return LevelPlayers(1)(spec) }

// LevelPlayers is DefaultPlayers with masterThreads search threads for the master
// level (a Lazy SMP search; each of its searches keeps that many cores busy). The
// levels below master always search on one thread.
func LevelPlayers(masterThreads int) PlayerResolver {
	return func(spec SeatSpec) (engine.Player, error) {
		switch spec.Kind {
		case AI:
			l, err := engine.LevelByName(spec.Level)
			if err != nil {
				return nil, ErrUnknownPlayer
			}
			opts := engine.Options{HashMiB: hashFor(l)}
			if l.Name == "master" {
				opts.Threads = masterThreads
			}
			return engine.NewPlayer(l, opts), nil
		case Engine:
			return nil, ErrNoEngines
		}
		return nil, ErrBadRequest
	}
}

// hashFor sizes a level's transposition table: short budgets cannot fill a big one,
// and every live AI seat keeps its table.
func hashFor(l engine.Level) int {
	switch {
	case l.Budget <= 200*time.Millisecond:
		return 2
	case l.Budget <= time.Second:
		return 8
	}
	return 16
}

// DefaultValidateSeat refuses engine seats (no external engines are configured); the
// other seats are checked by SeatSpec.Normalize.
func DefaultValidateSeat(spec SeatSpec) error {
	if spec.Kind == Engine {
		return ErrNoEngines
	}
	return nil
}
