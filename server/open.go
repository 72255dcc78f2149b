package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/puzzles"
	"github.com/gomoku-arena/gomoku/room/replica"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// New builds the production server from cfg: it opens Redis (an embedded in-memory one
// when cfg.RedisURL is empty, with a loud warning), applies migrations, and starts the
// room manager. Call ListenAndServe or Start, then Shutdown.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		return nil, fmt.Errorf("server: Config.Logger is required by New")
	}
	client, closeRedis, embedded, err := eventlog.Open(ctx, cfg.RedisURL, log)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Server, error) {
		_ = closeRedis()
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err = client.Ping(pctx).Err()
	cancel()
	if err != nil {
		// Not fatal: /readyz reports it and the store reconnects by itself.
		log.Error("redis not reachable at start-up; serving anyway, /readyz is failing", "err", err)
	} else if err := migrate(ctx, client, log); err != nil {
		return fail(err)
	}
	// The ratings ledger records every finished game (package ledger): its recorder
	// marks a game before the game_over append and records it once stored.
	// The post-game analysis service is told of them too, to analyse the games of
	// rooms with auto_analysis.
	led, recorder, bindLedger := newLedger(client, cfg)
	ends := &analysisGameEnds{GameEnds: recorder}
	store := roomStore(client, cfg, roomstore.WithGameEnds(ends))
	var srv *Server
	observe := func(d time.Duration, nodes uint64) {
		if srv != nil {
			srv.metrics.ObserveAISearch(d, nodes)
		}
	}
	opts := room.Options{
		Players:      playerResolver(cfg.Engines, cfg.MasterThreads, observe),
		ValidateSeat: engineConfigured(cfg.Engines),
		Scheduler:    room.NewScheduler(cfg.AIWorkers, -1),
		Grace:        cfg.AbandonGrace,
		StartGrace:   cfg.StartGrace,
		Logger:       log.With("component", "room"),
		// Room updates a connection may lag behind before it is dropped (and resyncs).
		SubQueue: 64,
	}
	node := newReplica(store, cfg)
	opts.Replicator = node
	mgr := room.NewManager(store, opts)
	bindLedger(mgr)
	recCtx, stopRecorder := context.WithCancel(context.Background())
	trainer, err := newPuzzleStore(ctx, client, cfg)
	if err != nil {
		stopRecorder()
		return fail(err)
	}
	ping := func(ctx context.Context) error { return client.Ping(ctx).Err() }
	rooms := &ManagerRooms{M: mgr, Ping: ping, Ledger: led}
	solver := puzzles.NewEngineSolver()
	srv, err = NewWith(cfg, Deps{
		Rooms:        rooms,
		Ledger:       led,
		Players:      NewRedisPlayers(client),
		Logins:       NewLoginLimiter(client, time.Now),
		Ping:         ping,
		Nodes:        node,
		Scheduler:    mgr.Scheduler(),
		Analysis:     newAnalysisService(client, cfg.Retention, cfg.NodeID, mgr, rooms, ends, log.With("component", "analysis")),
		Pairing:      pairing.NewStore(client, pairing.DefaultRules, newPairedRoom),
		Ratings:      ledgerRatings{led},
		Puzzles:      trainer,
		PuzzleSolver: solver,
		Close: func() error {
			stopRecorder() // games it had not recorded stay in the outbox for the next sweep
			node.Stop()    // after the rooms stopped: releases this node's leases
			return closeRedis()
		},
	})
	if err != nil {
		stopRecorder()
		return fail(err)
	}
	go recorder.Run(recCtx)
	startMining(recCtx, trainer, solver, mgr.Scheduler(), rooms, ends, srv.metrics, log.With("component", "puzzles"))
	node.Start(mgr.Get)
	client.AddHook(latencyHook{h: srv.metrics.RedisLatency})
	// Recovery is eager: the lease keeper's first round (at once) restores every game in
	// play that no live node holds, so clocks and AI seats resume without waiting for a
	// player; other rooms are restored lazily when someone opens them.
	log.Info("node started", "node", node.ID())
	if embedded {
		log.Warn("EMBEDDED REDIS: games and players live in this process only and are LOST on restart")
	}
	return srv, nil
}

// newPairedRoom gives a quick-pairing match its room id and a fair colour coin.
func newPairedRoom() (string, bool) {
	var b [1]byte
	_, _ = rand.Read(b[:])
	return room.NewID(), b[0]&1 == 1
}

// newReplica returns this node's side of replication (room/replica) on store.
func newReplica(store *roomstore.Store, cfg Config) *replica.Node {
	return replica.New(store, replica.Config{
		Node: cfg.NodeID, LeaseTTL: cfg.LeaseTTL, PresenceTTL: cfg.PresenceTTL, Logger: cfg.Logger,
	})
}

// playerResolver makes engine players for machine seats: built-in levels, and external
// engines from the configured command lines (split on spaces; no shell).
// Every search is measured for the AI metrics.
func playerResolver(engines map[string]string, masterThreads int, observe func(time.Duration, uint64)) room.PlayerResolver {
	levels := room.LevelPlayers(masterThreads)
	return func(spec room.SeatSpec) (engine.Player, error) {
		var p engine.Player
		if spec.Kind == room.Engine {
			cmd, ok := engines[spec.Engine]
			if !ok {
				return nil, room.ErrUnknownPlayer
			}
			var err error
			if p, err = externalPlayer(spec.Engine, strings.Fields(cmd)); err != nil {
				return nil, err
			}
		} else {
			var err error
			if p, err = levels(spec); err != nil {
				return nil, err
			}
		}
		return &measuredPlayer{Player: p, observe: observe}, nil
	}
}

// measuredPlayer reports each search's time and nodes; it keeps the inner player's
// Close (room closes players that implement io.Closer).
type measuredPlayer struct {
	engine.Player
	observe func(time.Duration, uint64)
}

func (m *measuredPlayer) Play(ctx context.Context, b *engine.Board, l engine.Limits, progress func(engine.Info)) (engine.Result, error) {
	start := time.Now()
	res, err := m.Player.Play(ctx, b, l, progress)
	if err == nil && ctx.Err() == nil {
		m.observe(time.Since(start), res.Nodes)
	}
	return res, err
}

// Close closes the inner player when it has a Close method.
func (m *measuredPlayer) Close() error {
	if c, ok := m.Player.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Migrate applies pending migrations (gomokud migrate).
func Migrate(ctx context.Context, cfg Config, out io.Writer) error {
	client, closeRedis, _, err := eventlog.Open(ctx, cfg.RedisURL, cfg.Logger)
	if err != nil {
		return err
	}
	defer closeRedis()
	return migrateVerbose(ctx, client, cfg, out)
}

// MigrateStatus prints the schema version and pending migrations (gomokud migrate status).
func MigrateStatus(ctx context.Context, cfg Config, out io.Writer) error {
	client, closeRedis, _, err := eventlog.Open(ctx, cfg.RedisURL, cfg.Logger)
	if err != nil {
		return err
	}
	defer closeRedis()
	return migrateStatus(ctx, client, out)
}
