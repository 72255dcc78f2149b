package room

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/gomoku-arena/gomoku/engine"
)

// stubPlayer plays the first empty point in a spiral-ish scan from the centre. With
// gate set it waits for a value on gate (or ctx) before answering; honourCtx false
// makes it answer even after cancellation (to test stale results).
type stubPlayer struct {
	name      string
	gate      chan struct{}
	ignoreCtx bool
	infos     int // progress reports per search
	fail      bool
	panics    bool
	started   atomic.Int32
	cancelled atomic.Int32
	mu        sync.Mutex
	boards    []uint64
	limits    []engine.Limits
}

func (p *stubPlayer) Name() string { return p.name }

func (p *stubPlayer) Play(ctx context.Context, b *engine.Board, l engine.Limits, progress func(engine.Info)) (engine.Result, error) {
	p.started.Add(1)
	p.mu.Lock()
	p.boards = append(p.boards, b.Hash())
	p.limits = append(p.limits, l)
	p.mu.Unlock()
	mv := firstEmpty(b)
	for i := 1; i <= p.infos; i++ {
		progress(engine.Info{Depth: i, Score: engine.Score(10 * i), Nodes: uint64(1000 * i), NPS: 1e6, Best: mv, PV: []engine.Point{mv}})
	}
	if p.gate != nil {
		if p.ignoreCtx {
			<-p.gate
		} else {
			select {
			case <-p.gate:
			case <-ctx.Done():
				p.cancelled.Add(1)
				return engine.Result{Move: engine.NoPoint}, ctx.Err()
			}
		}
	}
	if p.panics {
		panic("stub: boom")
	}
	if p.fail {
		return engine.Result{}, errors.New("stub: crashed")
	}
	return engine.Result{Move: mv, Info: engine.Info{Depth: 1, Score: 42}}, nil
}

func firstEmpty(b *engine.Board) engine.Point {
	n := b.Size()
	c := n / 2
	for r := 0; r < n; r++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				p := engine.Point{X: c + dx, Y: c + dy}
				if p.Valid(n) && b.At(p) == engine.Empty && b.Check(p) == nil {
					return p
				}
			}
		}
	}
	return engine.NoPoint
}

// stubPlayers resolves every machine seat to p (a fresh default stub when nil).
func stubPlayers(p *stubPlayer) PlayerResolver {
	return func(spec SeatSpec) (engine.Player, error) {
		if p != nil {
			return p, nil
		}
		return &stubPlayer{name: "stub"}, nil
	}
}
