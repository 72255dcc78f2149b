package tune

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gomoku-arena/gomoku/engine"
)

// GenConfig configures self-play generation; zero values mean the documented defaults.
type GenConfig struct {
	Rules      []engine.Rule // played in turn, game i under Rules[i%len] (default all three)
	Size       int           // board size (default 15)
	Nodes      uint64        // search nodes per move (default 10000)
	Seed       uint64        // game i is fully determined by (Seed, i)
	OpeningMin int           // fewest random opening stones (default 3)
	OpeningMax int           // most random opening stones (default 8)
	Radius     int           // random stones lie within this many points of the centre (default 3)
}

func (c *GenConfig) defaults() {
	if len(c.Rules) == 0 {
		c.Rules = engine.Rules()
	}
	if c.Size == 0 {
		c.Size = 15
	}
	if c.Nodes == 0 {
		c.Nodes = 10000
	}
	if c.OpeningMin == 0 && c.OpeningMax == 0 {
		c.OpeningMin, c.OpeningMax = 3, 8
	}
	if c.Radius == 0 {
		c.Radius = 3
	}
}

// ErrBadConfig is returned for an unusable generation config.
var ErrBadConfig = errors.New("tune: bad generation config")

// Generator plays self-play games: the engine at full strength with a fixed node budget
// per move (so the games do not depend on the machine's speed or load) from random
// openings near the centre.
type Generator struct {
	cfg GenConfig
	eng *engine.Engine
}

// NewGenerator validates cfg and returns a generator.
func NewGenerator(cfg GenConfig) (*Generator, error) {
	cfg.defaults()
	if cfg.Size < engine.MinSize || cfg.Size > engine.MaxSize {
		return nil, fmt.Errorf("%w: size %d", ErrBadConfig, cfg.Size)
	}
	if cfg.OpeningMin < 1 || cfg.OpeningMax < cfg.OpeningMin || (2*cfg.Radius+1)*(2*cfg.Radius+1) < cfg.OpeningMax+2 {
		return nil, fmt.Errorf("%w: opening %d..%d stones within %d of the centre", ErrBadConfig, cfg.OpeningMin, cfg.OpeningMax, cfg.Radius)
	}
	return &Generator{cfg: cfg, eng: engine.New(engine.Options{})}, nil
}

// Play plays game i. It returns ctx's error if cancelled.
func (g *Generator) Play(ctx context.Context, i int) (Game, error) {
	cfg := &g.cfg
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	game := Game{Rule: cfg.Rules[i%len(cfg.Rules)], Size: cfg.Size}
	b, err := engine.NewBoard(cfg.Size, game.Rule)
	if err != nil {
		return game, err
	}
	c := cfg.Size / 2
	game.Opening = cfg.OpeningMin + rng.IntN(cfg.OpeningMax-cfg.OpeningMin+1)
	for b.Ply() < game.Opening {
		p := engine.Point{X: c + rng.IntN(2*cfg.Radius+1) - cfg.Radius, Y: c + rng.IntN(2*cfg.Radius+1) - cfg.Radius}
		if b.Ply() == 0 {
			p = engine.Point{X: c, Y: c}
		}
		if b.Check(p) == nil {
			_ = b.Play(p)
		}
	}
	if b.Outcome().Over {
		return game, fmt.Errorf("tune: game %d: the random opening ended the game", i)
	}
	g.eng.Clear()
	for !b.Outcome().Over && b.Ply() < cfg.Size*cfg.Size {
		if err := ctx.Err(); err != nil {
			return game, err
		}
		if !b.HasLegalMove() {
			break // renju: every empty point left is forbidden for black; a draw
		}
		r := g.eng.Search(ctx, b, engine.Limits{Nodes: cfg.Nodes}, nil)
		if err := ctx.Err(); err != nil {
			return game, err
		}
		game.Scores = append(game.Scores, int32(r.Score))
		if err := b.Play(r.Move); err != nil {
			return game, fmt.Errorf("tune: game %d ply %d: engine move %s: %w", i, b.Ply()+1, r.Move, err)
		}
	}
	game.Moves = b.Moves()
	game.Winner = b.Outcome().Winner
	return game, nil
}
