package analysis

import (
	"context"
	"errors"
	"time"
)

// Automatic analyses: the server analyses the finished games of some rooms (games
// against the AI, a room setting) without anybody asking. Enqueue is told of a game
// that ended (by the node that stored its end; it never blocks); one worker per node
// rebuilds the game (Loader) and starts its analysis like a request would, waiting
// while the node runs its share of automatic analyses. The Store's lease keeps the
// work to one node per game, so a game queued on two nodes is still analysed once.

// autoQueue bounds the games waiting for an automatic analysis on a node; a game that
// finds the queue full is analysed when a page asks for it (Enqueue again).
const autoQueue = 256

// autoLoadTimeout bounds the rebuild of one queued game.
const autoLoadTimeout = 10 * time.Second

// Loader rebuilds a finished game for its automatic analysis; ok is false when the
// game is not to be analysed automatically (its room's setting is off, or it is not
// finished).
type Loader func(ctx context.Context, roomID string, game int) (g Game, ok bool, err error)

// WithAuto turns automatic analyses on: Enqueue queues games and load rebuilds them.
func WithAuto(load Loader) Option { return func(s *Service) { s.load = load } }

type autoKey struct {
	room string
	game int
}

// Enqueue queues a finished game for its automatic analysis without blocking. It
// reports whether the game is queued (now or already); false without WithAuto or when
// the queue is full.
func (s *Service) Enqueue(roomID string, game int) bool {
	if s.load == nil {
		return false
	}
	k := autoKey{roomID, game}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[k] {
		return true
	}
	select {
	case s.queue <- k:
		s.pending[k] = true
		return true
	default:
		return false
	}
}

// Queued reports whether the game waits in this node's queue of automatic analyses.
func (s *Service) Queued(roomID string, game int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending[autoKey{roomID, game}]
}

// autoLoop starts the queued analyses one by one until Close.
func (s *Service) autoLoop() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case k := <-s.queue:
			s.auto(k)
			s.mu.Lock()
			delete(s.pending, k)
			s.mu.Unlock()
		}
	}
}

// auto rebuilds a queued game and starts its analysis, waiting for a slot while the
// node is busy.
func (s *Service) auto(k autoKey) {
	ctx, cancel := context.WithTimeout(s.ctx, autoLoadTimeout)
	g, ok, err := s.load(ctx, k.room, k.game)
	cancel()
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("analysis: rebuilding a finished game failed", "room", k.room, "game", k.game, "err", err)
		}
		return
	}
	if !ok {
		return
	}
	for {
		ctx, cancel := context.WithTimeout(s.ctx, autoLoadTimeout)
		_, _, err := s.start(ctx, k.room, k.game, g, true, nil)
		cancel()
		if !errors.Is(err, ErrBusy) {
			if err != nil && s.ctx.Err() == nil {
				s.log.Warn("analysis: starting an automatic analysis failed", "room", k.room, "game", k.game, "err", err)
			}
			return
		}
		select {
		case <-s.ctx.Done():
			return
		case <-s.freed:
		}
	}
}
