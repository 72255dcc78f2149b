package engine

import (
	"context"
)

// Options configures an Engine; zero values mean the documented defaults.
type Options struct {
	// HashMiB is the transposition table size in MiB (default 16, at least 1).
	HashMiB int
	// Rand seeds the level noise (the random choices weaker levels make).
	Rand uint64
}

// DefaultHashMiB is the transposition table size used when Options.HashMiB is 0.
const DefaultHashMiB = 16

// Engine is a Gomoku searcher. Each Engine owns its tables (transposition table,
// history, per-ply stacks); many engines may run at once, but one Engine runs one
// search at a time.
type Engine struct {
	opts Options
}

// New returns an engine with its own tables.
func New(opts Options) *Engine {
	if opts.HashMiB <= 0 {
		opts.HashMiB = DefaultHashMiB
	}
	return &Engine{opts: opts}
}

// Clear forgets everything learnt from earlier searches (transposition table,
// history); call it before a new game.
func (e *Engine) Clear() {}

// Search looks for the best move for the side to move on b within limits, calling
// progress (if not nil) with reports while it runs. It never modifies b. The
// returned move is legal on b unless the game is over or the board full, in which
// case it is NoPoint.
func (e *Engine) Search(ctx context.Context, b *Board, limits Limits, progress func(Info)) Result {
	res := Result{Move: NoPoint}
	res.Best = NoPoint
	if b.Outcome().Over {
		return res
	}
	n := b.Size()
	best, bestScore := NoPoint, -1
	me, opp := b.ToMove(), b.ToMove().Opponent()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := Point{x, y}
			if b.Check(p) != nil {
				continue
			}
			s := 1000 - (x-n/2)*(x-n/2) - (y-n/2)*(y-n/2)
			if simpleFive(b, p, me) {
				s += 1_000_000
			}
			if simpleFive(b, p, opp) {
				s += 100_000
			}
			if s > bestScore {
				best, bestScore = p, s
			}
		}
	}
	res.Move, res.Best = best, best
	if best != NoPoint {
		res.PV = []Point{best}
		res.Depth = 1
	}
	if progress != nil {
		progress(res.Info)
	}
	return res
}

// simpleFive reports whether c playing p makes five or more in a row (placeholder).
func simpleFive(b *Board, p Point, c Color) bool {
	for _, d := range directions {
		n := 1
		for k := 1; b.At(Point{p.X + k*d.X, p.Y + k*d.Y}) == c && Point.Valid(Point{p.X + k*d.X, p.Y + k*d.Y}, b.Size()); k++ {
			n++
		}
		for k := 1; b.At(Point{p.X - k*d.X, p.Y - k*d.Y}) == c && Point.Valid(Point{p.X - k*d.X, p.Y - k*d.Y}, b.Size()); k++ {
			n++
		}
		if n >= 5 {
			return true
		}
	}
	return false
}
