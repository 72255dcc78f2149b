package server

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/analysis"
	"github.com/gomoku-arena/gomoku/room/puzzles"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// analysisGameEnds is the roomstore.GameEnds of a node: the ratings ledger's recorder
// (embedded) marks and records every finished game, and the post-game analysis
// service (once bound) is told of it too, to queue the games of rooms analysed
// automatically (its Loader, autoAnalysisLoader, reads the room's setting), and the
// puzzle mining (once bound), to mine the game for puzzles. Ended runs on the room's
// actor: all only queue, never block.
type analysisGameEnds struct {
	roomstore.GameEnds
	svc    atomic.Pointer[analysis.Service]
	mining atomic.Pointer[puzzles.Mining]
}

// Ended implements roomstore.GameEnds.
func (e *analysisGameEnds) Ended(id string, game int) {
	e.GameEnds.Ended(id, game)
	if s := e.svc.Load(); s != nil {
		s.Enqueue(id, game)
	}
	if m := e.mining.Load(); m != nil {
		m.Ended(id, game)
	}
}

// bindMining sets the puzzle mining told of finished games.
func (e *analysisGameEnds) bindMining(m *puzzles.Mining) { e.mining.Store(m) }

// bind sets the analysis service told of finished games.
func (e *analysisGameEnds) bind(s *analysis.Service) { e.svc.Store(s) }

// autoAnalysisLoader rebuilds a finished game of src for its automatic analysis: only
// the games autoAnalysed says; a room or game that is gone is skipped.
func autoAnalysisLoader(src gameSource) analysis.Loader {
	return func(ctx context.Context, id string, n int) (analysis.Game, bool, error) {
		snap, err := src.GameSnapshot(ctx, id, n)
		if errors.Is(err, room.ErrNoSuchRoom) || errors.Is(err, room.ErrNoSuchGame) {
			return analysis.Game{}, false, nil
		}
		if err != nil || !autoAnalysed(snap) {
			return analysis.Game{}, false, err
		}
		g, err := analysisGame(snap)
		return g, err == nil, err
	}
}

// newAnalysisService returns the node's post-game analysis service on client, running
// on the rooms' AI scheduler, with automatic analyses of the rooms' games (rooms) and
// told of finished games by ends.
func newAnalysisService(client redis.UniversalClient, retention time.Duration, node string, mgr *room.Manager,
	rooms gameSource, ends *analysisGameEnds, log *slog.Logger, opts ...analysis.Option) *analysis.Service {
	opts = append([]analysis.Option{analysis.WithLogger(log), analysis.WithAuto(autoAnalysisLoader(rooms))}, opts...)
	svc := analysis.NewService(analysis.NewRedisStore(client, retention), mgr.Scheduler(), node, opts...)
	ends.bind(svc)
	return svc
}
