package engine

import (
	"context"
)

// Options configures an Engine; zero values mean the documented defaults.
type Options struct {
	// HashMiB is the transposition table size in MiB (default 16).
	HashMiB int
	// Rand seeds the level noise (the random choices weaker levels make). The same
	// seed and the same sequence of searches give the same choices.
	Rand uint64
	// Eval is the evaluation (nil: the tables shipped in the engine, ShippedEvalTables).
	Eval *EvalTables
	// Threads is the number of search threads (default 1, at most 64). More than one
	// runs a Lazy SMP search (smp.go) at full strength; the levels with noise search
	// on one thread whatever the setting. Each extra thread adds its own stacks and
	// history (about 0.3 MiB) but shares the transposition table.
	Threads int
	// LongVCT makes Solve look further for a VCT: when the depth-first VCT (15 plies)
	// has searched every threat without a win before the budget is spent, a
	// proof-number VCT (27 plies) goes on with what is left. It finds many of the 20- to
	// 35-ply wins that decide games against strong engines, at about twice the nodes
	// where there is no win (docs/engine.md, "Proof-number VCT"). Default false: the
	// puzzle trainer's short wins do not need it; post-game analysis sets it.
	LongVCT bool
	// Search sets the selective search's pruning and reductions (nil:
	// DefaultSearchParams); each field is clamped into its range. For tuning; the
	// levels with the plain search keep their own.
	Search *SearchParams
}

// DefaultHashMiB is the transposition table size used when Options.HashMiB is 0.
const DefaultHashMiB = 16

// Engine is a Gomoku searcher at full strength. Each Engine owns its tables
// (transposition table, history, per-ply stacks, about HashMiB+1 MiB in all); many
// engines may run at once, but one Engine runs one search at a time.
type Engine struct {
	s *searcher
}

// New returns an engine with its own tables.
func New(opts Options) *Engine {
	if opts.HashMiB <= 0 {
		opts.HashMiB = DefaultHashMiB
	}
	s := &searcher{tt: newTransTable(opts.HashMiB), rng: opts.Rand, par: defaultParams}
	if opts.Search != nil {
		s.par = newSearchParams(*opts.Search)
	}
	s.pos.evals = opts.Eval
	if opts.LongVCT {
		s.cfg.vctSolver = vctBoth
	}
	if t := min(opts.Threads, maxThreads); t > 1 {
		s.helpers = newHelpers(t-1, s.tt, opts.Eval, s.par)
	}
	return &Engine{s: s}
}

// Clear forgets everything learnt from earlier searches (transposition table,
// history, killers); call it before a new game.
func (e *Engine) Clear() {
	e.s.tt.clear()
	e.s.history = [2][numCells]int32{}
	for _, h := range e.s.helpers {
		h.s.history = [2][numCells]int32{}
	}
}

// Search looks for the best move for the side to move on b within limits, calling
// progress (if not nil) with reports while it runs: after completed iterations (at
// most about ten a second) and once at the end. It never modifies b. The returned move
// is legal on b unless the game is over or the board full, in which case it is
// NoPoint. Cancelling ctx stops the search within a few milliseconds; the result is
// then the best move of the last completed iteration.
func (e *Engine) Search(ctx context.Context, b *Board, limits Limits, progress func(Info)) Result {
	return e.s.run(ctx, b, limits, progress)
}

// setLevel configures the deliberate weaknesses of a level.
func (e *Engine) setLevel(l Level) {
	e.s.noise = l.Noise
	e.s.blunder = l.Blunder
	e.s.cfg.noVCF = l.NoVCF
	e.s.cfg.noVCT = l.NoVCT
	if l.PlainSearch {
		c := &e.s.cfg
		c.noRFP, c.noNMP, c.stepLMR, c.noThreeLMR, c.noIIR, c.noDefence = true, true, true, true, true, true
		c.leafVCF = 40
		// The plain search reads only late move pruning and the first reduced move
		// from the settings; the levels keep the values they were calibrated with.
		e.s.par = plainParams
	}
}
