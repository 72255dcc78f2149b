// Package baseline is a faithful version of the classic course-project Gomoku AI, kept
// as a yardstick for the real engine: depth-4 minimax with alpha-beta pruning, candidate
// moves within two points of a stone sorted by a pattern heuristic, the pattern score
// table (five 100000, open four 10000, four 5000, open three 2000, closed three 500,
// open two 200, closed two 50), the opponent's patterns weighted 1.2, and a full-board
// evaluation at every leaf.
//
// For the classroom node-count table the search can also run as plain minimax, as
// alpha-beta without move ordering, and as alpha-beta with ordering plus a
// transposition table. The package is pure: no I/O, no package-level mutable state.
package baseline

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// Mode selects the search algorithm.
type Mode uint8

// Search modes, from the textbook's first version to its last. The zero Mode is
// ModeOrdered, the classic baseline.
const (
	ModeOrdered   Mode = iota // alpha-beta with candidates sorted by the heuristic
	ModeMinimax               // plain minimax, no pruning
	ModeAlphaBeta             // alpha-beta, candidates in board order
	ModeOrderedTT             // alpha-beta, ordering and a transposition table
)

// String returns the mode's name as used by the bench table.
func (m Mode) String() string {
	switch m {
	case ModeMinimax:
		return "minimax"
	case ModeAlphaBeta:
		return "alpha-beta"
	case ModeOrdered:
		return "alpha-beta+ordering"
	case ModeOrderedTT:
		return "alpha-beta+ordering+TT"
	}
	return "unknown"
}

// DefaultDepth is the classic search depth in plies.
const DefaultDepth = 4

// winValue is the value of a won position (minus the plies to reach it).
const winValue int64 = 1 << 40

// WinValue is the value of a won position: a win in n plies is WinValue-n, a loss
// -WinValue+n (clients show these as wins, not as numbers).
const WinValue = winValue

// ErrGameOver is returned by Search for a finished game.
var ErrGameOver = errors.New("baseline: game is over")

// ErrNodeLimit is returned by Search when it stopped at Options.MaxNodes.
var ErrNodeLimit = errors.New("baseline: node limit reached")

// Options configure the baseline.
type Options struct {
	Mode          Mode
	Depth         int    // plies; 0 means DefaultDepth
	MaxCandidates int    // keep only the best N candidates in ordered modes; 0 keeps all
	MaxNodes      uint64 // stop Search with ErrNodeLimit after this many nodes; 0 is no cap
}

// SearchResult is the outcome of a fixed-depth search.
type SearchResult struct {
	Move    engine.Point
	Value   int64 // from the side to move's point of view, patterns x10 (wins ±2^40)
	Depth   int
	Nodes   uint64
	Elapsed time.Duration
}

// Player is the baseline as an engine.Player.
type Player struct {
	opts Options
}

var _ engine.Player = (*Player)(nil)

// New returns a baseline player.
func New(opts Options) *Player {
	if opts.Depth <= 0 {
		opts.Depth = DefaultDepth
	}
	return &Player{opts: opts}
}

// Name implements engine.Player.
func (p *Player) Name() string { return "baseline" }

// Play implements engine.Player: it deepens from 1 to the configured depth (or
// limits.Depth when smaller) and plays the best move of the deepest finished iteration;
// limits.Time, limits.Nodes and ctx stop it early.
func (p *Player) Play(ctx context.Context, b *engine.Board, limits engine.Limits, progress func(engine.Info)) (engine.Result, error) {
	start := time.Now()
	if b.Outcome().Over {
		return engine.Result{Move: engine.NoPoint}, ErrGameOver
	}
	depth := p.opts.Depth
	if limits.Depth > 0 && limits.Depth < depth {
		depth = limits.Depth
	}
	s := newSearcher(ctx, b, p.opts)
	budget := limits.Time
	if limits.Clock != nil {
		c := limits.Clock.Left/20 + limits.Clock.Increment/2
		if budget == 0 || c < budget {
			budget = c
		}
	}
	if budget > 0 {
		s.deadline = start.Add(budget)
	}
	s.maxNodes = limits.Nodes
	var res engine.Result
	res.Move = engine.NoPoint
	for d := 1; d <= depth; d++ {
		mv, v, ok := s.root(d)
		if !ok && res.Move != engine.NoPoint {
			break
		}
		if mv == engine.NoPoint {
			break
		}
		res.Move, res.Best, res.Depth = mv, mv, d
		res.Score = toScore(v)
		res.PV = []engine.Point{mv}
		res.Nodes = s.nodes
		res.Elapsed = time.Since(start)
		if el := res.Elapsed.Seconds(); el > 0 {
			res.NPS = uint64(float64(s.nodes) / el)
		}
		res.Budget = budget
		if progress != nil {
			progress(res.Info)
		}
		if !ok || v >= winValue-int64(depth) || v <= -winValue+int64(depth) {
			break
		}
	}
	if res.Move == engine.NoPoint {
		// No iteration finished (the time or node limit ran out inside depth 1): a player
		// must still move, so play the candidate the static ordering puts first.
		res.Move = s.fallback()
		res.Best = res.Move
		res.PV = []engine.Point{res.Move}
	}
	res.Nodes = s.nodes
	res.Elapsed = time.Since(start)
	return res, nil
}

// fallback is the first candidate of the root in the heuristic order (any legal point
// near a stone; the centre on an empty board), for when no iteration finished.
func (s *searcher) fallback() engine.Point {
	if s.b.Ply() == 0 {
		c := s.b.Size() / 2
		return engine.Point{X: c, Y: c}
	}
	mode := s.opts.Mode
	s.opts.Mode = ModeOrdered
	cands := s.candidates(0, 0)
	s.opts.Mode = mode
	if len(cands) == 0 {
		return engine.NoPoint
	}
	return s.g.Point(cands[0].i)
}

// Search runs one fixed-depth search with the given options (the bench's entry point).
func Search(ctx context.Context, b *engine.Board, opts Options) (SearchResult, error) {
	if b.Outcome().Over {
		return SearchResult{Move: engine.NoPoint}, ErrGameOver
	}
	if opts.Depth <= 0 {
		opts.Depth = DefaultDepth
	}
	start := time.Now()
	s := newSearcher(ctx, b, opts)
	s.maxNodes = opts.MaxNodes
	mv, v, ok := s.root(opts.Depth)
	res := SearchResult{Move: mv, Value: v, Depth: opts.Depth, Nodes: s.nodes, Elapsed: time.Since(start)}
	if !ok {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if s.maxNodes > 0 && s.nodes >= s.maxNodes {
			return res, ErrNodeLimit
		}
		return res, context.DeadlineExceeded
	}
	return res, nil
}

func toScore(v int64) engine.Score {
	switch {
	case v >= winValue-1000:
		return engine.MateScore - engine.Score(winValue-v)
	case v <= -winValue+1000:
		return -engine.MateScore + engine.Score(v+winValue)
	}
	v /= 10
	if v > int64(engine.MateThreshold-1) {
		v = int64(engine.MateThreshold - 1)
	}
	if v < -int64(engine.MateThreshold-1) {
		v = -int64(engine.MateThreshold - 1)
	}
	return engine.Score(v)
}

type ttEntry struct {
	depth int8
	bound int8 // 0 exact, 1 lower, 2 upper
	move  int16
	value int64
}

type searcher struct {
	ctx      context.Context
	b        *engine.Board
	g        *grid
	opts     Options
	me       engine.Color
	nodes    uint64
	maxNodes uint64
	deadline time.Time
	stopped  bool
	tt       map[uint64]ttEntry
	buf      [][]cand
}

type cand struct {
	i     int
	score int64
}

func newSearcher(ctx context.Context, b *engine.Board, opts Options) *searcher {
	bc := b.Clone()
	g := newGrid(b.Size())
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			p := engine.Point{X: x, Y: y}
			switch b.At(p) {
			case engine.Black:
				g.Put(g.Index(p), black)
			case engine.White:
				g.Put(g.Index(p), white)
			}
		}
	}
	s := &searcher{ctx: ctx, b: bc, g: g, opts: opts, me: b.ToMove()}
	if opts.Mode == ModeOrderedTT {
		s.tt = make(map[uint64]ttEntry, 1<<16)
	}
	return s
}

func colorCell(c engine.Color) int8 {
	if c == engine.Black {
		return black
	}
	return white
}

// stop reports whether the search must stop (the clock is polled every 64 nodes).
func (s *searcher) stop() bool {
	if s.stopped {
		return true
	}
	if s.nodes&63 == 0 {
		if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) {
			s.stopped = true
		}
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.stopped = true
	}
	return s.stopped
}

// eval is the full-board evaluation from the root player's point of view.
func (s *searcher) eval() int64 {
	sb, sw := s.g.patterns()
	if s.me == engine.Black {
		return 10*sb - 12*sw
	}
	return 10*sw - 12*sb
}

// candidates returns the legal empty points within two points of a stone, sorted by
// the heuristic in ordered modes, with the TT move (if any) first.
func (s *searcher) candidates(ply int, ttMove int) []cand {
	for len(s.buf) <= ply {
		s.buf = append(s.buf, make([]cand, 0, s.g.Size*s.g.Size))
	}
	out := s.buf[ply][:0]
	g := s.g
	toMove := s.b.ToMove()
	renjuBlack := s.b.Rule() == engine.Renju && toMove == engine.Black
	ordered := s.opts.Mode == ModeOrdered || s.opts.Mode == ModeOrderedTT
	mine, theirs := colorCell(toMove), colorCell(toMove.Opponent())
	for i, c := range g.Cells {
		if c != empty || g.Near[i] == 0 {
			continue
		}
		if renjuBlack && s.b.Check(g.Point(i)) != nil {
			continue
		}
		var sc int64
		if ordered {
			sc = g.pointScore(i, mine) + g.pointScore(i, theirs)
		}
		out = append(out, cand{i: i, score: sc})
	}
	if ordered {
		sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
		if s.opts.MaxCandidates > 0 && len(out) > s.opts.MaxCandidates {
			out = out[:s.opts.MaxCandidates]
		}
	}
	if ttMove > 0 {
		for k := range out {
			if out[k].i == ttMove {
				copy(out[1:k+1], out[:k])
				out[0] = cand{i: ttMove}
				break
			}
		}
	}
	s.buf[ply] = out
	return out
}

// root searches the current position to depth and returns the best move, its value
// from the side to move's point of view and whether the search finished.
func (s *searcher) root(depth int) (engine.Point, int64, bool) {
	if s.b.Ply() == 0 {
		c := s.b.Size() / 2
		s.nodes++
		return engine.Point{X: c, Y: c}, 0, true
	}
	v, best := s.search(depth, -winValue-1, winValue+1, 0)
	if s.stopped {
		return engine.NoPoint, 0, false
	}
	if best < 0 {
		return engine.NoPoint, v, true
	}
	return s.g.Point(best), v, true
}

// play makes the move at index i on both boards.
func (s *searcher) play(i int) {
	c := colorCell(s.b.ToMove())
	_ = s.b.Play(s.g.Point(i)) // candidates are legal
	s.g.Put(i, c)
}

func (s *searcher) undo(i int) {
	_, _ = s.b.Undo()
	s.g.Remove(i)
}

// outcomeValue is the value of a finished game reached at ply, from the root player's
// point of view: quicker wins and slower losses are better.
func (s *searcher) outcomeValue(o engine.Outcome, ply int) int64 {
	switch o.Winner {
	case s.me:
		return winValue - int64(ply)
	case engine.Empty:
		return 0
	}
	return -winValue + int64(ply)
}

// search is minimax (with alpha-beta unless in ModeMinimax) from the root player's
// point of view; it returns the value and the best move's index (-1 at leaves).
func (s *searcher) search(depth int, alpha, beta int64, ply int) (int64, int) {
	s.nodes++
	if s.stop() {
		return 0, -1
	}
	if depth == 0 {
		return s.eval(), -1
	}
	var key uint64
	ttMove := 0
	if s.tt != nil {
		key = s.b.Hash()
		if e, ok := s.tt[key]; ok {
			ttMove = int(e.move)
			if int(e.depth) == depth {
				switch {
				case e.bound == 0:
					return e.value, int(e.move)
				case e.bound == 1 && e.value >= beta:
					return e.value, int(e.move)
				case e.bound == 2 && e.value <= alpha:
					return e.value, int(e.move)
				}
			}
		}
	}
	cands := s.candidates(ply, ttMove)
	if len(cands) == 0 {
		return s.eval(), -1
	}
	maximizing := s.b.ToMove() == s.me
	alpha0, beta0 := alpha, beta
	best := -winValue - 2
	if !maximizing {
		best = winValue + 2
	}
	bestIdx := -1
	prune := s.opts.Mode != ModeMinimax
	for _, c := range cands {
		s.play(c.i)
		var v int64
		if o := s.b.Outcome(); o.Over {
			v = s.outcomeValue(o, ply+1)
			s.nodes++
		} else {
			v, _ = s.search(depth-1, alpha, beta, ply+1)
		}
		s.undo(c.i)
		if s.stopped {
			return 0, -1
		}
		if maximizing {
			if v > best {
				best, bestIdx = v, c.i
			}
			if prune && v > alpha {
				alpha = v
			}
		} else {
			if v < best {
				best, bestIdx = v, c.i
			}
			if prune && v < beta {
				beta = v
			}
		}
		if prune && alpha >= beta {
			break
		}
	}
	if s.tt != nil {
		var bound int8
		switch {
		case best <= alpha0:
			bound = 2
		case best >= beta0:
			bound = 1
		}
		s.tt[key] = ttEntry{depth: int8(depth), bound: bound, move: int16(bestIdx), value: best}
	}
	return best, bestIdx
}
