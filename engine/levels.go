package engine

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrUnknownLevel is returned by LevelByName for a name that is not a level.
var ErrUnknownLevel = errors.New("engine: unknown level (want beginner, novice, intermediate, advanced, expert or master)")

// Level is a named playing strength: a time budget per move, a depth cap and the
// amount of deliberate imprecision.
//
// Every level below master is bounded by depth, not by time alone, so that it plays
// the same on a busy server, a slow laptop or a fast one, and so that the ladder holds
// at any per-move time a room or a match gives (the levels are measured against each
// other at 200 ms per move, where time alone would make the upper ones equal). Master
// alone uses all the time it is given.
type Level struct {
	Name   string
	Budget time.Duration // thinking time per move (also the cap on Limits.Time)
	Depth  int           // nominal depth cap (0: none)
	// Noise is the largest random score (centi-stones) added to each root move,
	// so weaker levels pick among nearly equal moves and sometimes worse ones.
	Noise Score
	// Blunder is the chance, in per mille, that the level overlooks a threat that is
	// not immediately decisive (an open three) and plays its own idea instead.
	Blunder int
	// NoVCT disables the root threat-sequence (VCT) solver; NoVCF also the VCF one
	// and the root safety check.
	NoVCT, NoVCF bool
	// HandEval makes the level play with the hand-set evaluation (HandEvalTables)
	// instead of the fitted one: the fitted tables help a shallow search more than a
	// deep one and squeezed the measured steps between the levels below master.
	HandEval bool
	// PlainSearch makes the level search without the selectivity of selective.go
	// (reverse futility, razoring, null move, logarithmic reductions, a 12-node leaf
	// VCF): with it, expert over advanced fell from 78.8% to 57.5%, since the
	// depth-capped levels' steps are one ply each and the pruning narrows them.
	PlainSearch bool
}

// levels is the level table, weakest first. Budgets are the per-move thinking time.
// Each step up is one ply deeper, except novice over beginner (the same two plies with
// far less noise and fewer overlooked threes). Expert adds the VCF solver and the root
// safety check to its extra ply; master adds the VCT solver and has no depth cap.
var levels = [...]Level{
	{Name: "beginner", Budget: 50 * time.Millisecond, Depth: 2, Noise: 300, Blunder: 300, NoVCT: true, NoVCF: true, HandEval: true, PlainSearch: true},
	{Name: "novice", Budget: 100 * time.Millisecond, Depth: 2, Noise: 100, Blunder: 80, NoVCT: true, NoVCF: true, HandEval: true, PlainSearch: true},
	{Name: "intermediate", Budget: 200 * time.Millisecond, Depth: 3, Noise: 40, Blunder: 20, NoVCT: true, NoVCF: true, HandEval: true, PlainSearch: true},
	{Name: "advanced", Budget: 500 * time.Millisecond, Depth: 4, Noise: 30, NoVCT: true, NoVCF: true, HandEval: true, PlainSearch: true},
	{Name: "expert", Budget: 1 * time.Second, Depth: 5, Noise: 5, NoVCT: true, HandEval: true, PlainSearch: true},
	{Name: "master", Budget: 3 * time.Second, Depth: 0},
}

// Levels returns the levels ordered from weakest to strongest.
func Levels() []Level {
	return append([]Level(nil), levels[:]...)
}

// LevelByName returns the level with the given name.
func LevelByName(name string) (Level, error) {
	for _, l := range levels {
		if l.Name == name {
			return l, nil
		}
	}
	return Level{}, ErrUnknownLevel
}

// NewPlayer returns a Player that plays at level l with its own engine. Its Name is
// "engine-" followed by the level name. The player serialises its searches.
func NewPlayer(l Level, opts Options) Player {
	if l.HandEval && opts.Eval == nil {
		opts.Eval = HandEvalTables()
	}
	e := New(opts)
	e.setLevel(l)
	return &levelPlayer{level: l, eng: e}
}

type levelPlayer struct {
	mu    sync.Mutex
	level Level
	eng   *Engine
}

func (p *levelPlayer) Name() string { return "engine-" + p.level.Name }

// Play searches b at the player's level: Limits.Time is capped by the level budget
// and Limits.Depth by the level's depth cap.
func (p *levelPlayer) Play(ctx context.Context, b *Board, limits Limits, progress func(Info)) (Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.level
	if l.Budget > 0 && (limits.Time == 0 || limits.Time > l.Budget) {
		limits.Time = l.Budget
	}
	if l.Depth > 0 && (limits.Depth == 0 || limits.Depth > l.Depth) {
		limits.Depth = l.Depth
	}
	return p.eng.Search(ctx, b, limits, progress), nil
}
