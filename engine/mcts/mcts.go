// Package mcts is a Monte Carlo tree search player (UCT) with pattern-guided playouts,
// for the classic "minimax versus MCTS" comparison. Tree moves are legal under the
// board's rule (renju forbidden points included); playouts use the rule's five but
// ignore renju forbidden points, for speed. Seeded, bounded by time, iterations and
// context, and pure (no I/O, no package-level mutable state).
package mcts

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// ErrGameOver is returned by Play for a finished game.
var ErrGameOver = errors.New("mcts: game is over")

// Options configure the player.
type Options struct {
	Seed       uint64
	Iterations int     // playouts per move; 0: bounded by time only (10000 without a time limit)
	C          float64 // UCT exploration constant (default 0.9)
	Width      int     // children considered per node, best by pattern heuristic (default 16)
	MaxPlies   int     // playout length before calling a draw (default 80)
}

// Player is the MCTS player.
type Player struct {
	opts Options
	rng  *rand.Rand
}

var _ engine.Player = (*Player)(nil)

// New returns an MCTS player.
func New(opts Options) *Player {
	if opts.C <= 0 {
		opts.C = 0.9
	}
	if opts.Width <= 0 {
		opts.Width = 16
	}
	if opts.MaxPlies <= 0 {
		opts.MaxPlies = 80
	}
	return &Player{opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 0x6d637473))}
}

// Name implements engine.Player.
func (p *Player) Name() string { return "mcts" }

type node struct {
	move     engine.Point
	parent   *node
	children []*node
	untried  []engine.Point // best last
	visits   float64
	wins     float64 // from the point of view of the player who moved into the node
	expanded bool
}

// Play implements engine.Player.
func (p *Player) Play(ctx context.Context, b *engine.Board, limits engine.Limits, progress func(engine.Info)) (engine.Result, error) {
	start := time.Now()
	res := engine.Result{Move: engine.NoPoint}
	if b.Outcome().Over {
		return res, ErrGameOver
	}
	if b.Ply() == 0 {
		c := b.Size() / 2
		res.Move = engine.Point{X: c, Y: c}
		res.Best = res.Move
		return res, nil
	}
	budget := limits.Time
	if c := limits.Clock; c != nil {
		t := c.Left/20 + c.Increment/2
		if budget == 0 || t < budget {
			budget = t
		}
	}
	iters := p.opts.Iterations
	if iters == 0 && budget == 0 {
		iters = 10000
	}
	deadline := time.Time{}
	if budget > 0 {
		deadline = start.Add(budget)
	}
	if limits.Nodes > 0 && (iters == 0 || int(limits.Nodes) < iters) {
		iters = int(limits.Nodes)
	}

	rootGrid := newGrid(b.Size(), b.Rule())
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			pt := engine.Point{X: x, Y: y}
			if c := b.At(pt); c != engine.Empty {
				rootGrid.Put(rootGrid.Index(pt), int8(c))
			}
		}
	}
	// Tactics first: win at once, or stop the opponent's five.
	if mv, ok := p.tactical(b, rootGrid); ok {
		res.Move, res.Best, res.PV = mv, mv, []engine.Point{mv}
		res.Depth, res.Nodes = 1, 1
		res.Elapsed = time.Since(start)
		return res, nil
	}
	root := &node{move: engine.NoPoint}
	p.expand(root, b, rootGrid)
	g := newGrid(b.Size(), b.Rule())
	n := 0
	lastReport := start
	for iters == 0 || n < iters {
		if n > 0 {
			if (n&15 == 0 && ctx.Err() != nil) || (!deadline.IsZero() && time.Now().After(deadline)) {
				break
			}
			if progress != nil && time.Since(lastReport) > 100*time.Millisecond {
				lastReport = time.Now()
				progress(p.info(root, n, start))
			}
		}
		p.iterate(root, b, rootGrid, g)
		n++
	}
	res.Info = p.info(root, n, start)
	res.Move = res.Best
	if res.Move == engine.NoPoint && len(root.untried) > 0 {
		res.Move = root.untried[len(root.untried)-1]
		res.Best = res.Move
	}
	if progress != nil {
		progress(res.Info)
	}
	return res, nil
}

func (p *Player) info(root *node, n int, start time.Time) engine.Info {
	in := engine.Info{Best: engine.NoPoint, Nodes: uint64(n), Elapsed: time.Since(start)}
	var best *node
	for _, c := range root.children {
		if best == nil || c.visits > best.visits {
			best = c
		}
	}
	if best == nil {
		return in
	}
	in.Best = best.move
	q := best.wins / math.Max(best.visits, 1)
	in.Score = engine.Score((q - 0.5) * 2000)
	depth := 0
	for nd := best; nd != nil; {
		in.PV = append(in.PV, nd.move)
		depth++
		var next *node
		for _, c := range nd.children {
			if next == nil || c.visits > next.visits {
				next = c
			}
		}
		nd = next
	}
	in.Depth, in.SelDepth = depth, depth
	if s := in.Elapsed.Seconds(); s > 0 {
		in.NPS = uint64(float64(n) / s)
	}
	return in
}

// tactical returns an immediate win, or the block of the opponent's only five.
func (p *Player) tactical(b *engine.Board, g *grid) (engine.Point, bool) {
	me, opp := int8(b.ToMove()), int8(b.ToMove().Opponent())
	block := engine.NoPoint
	for i, c := range g.Cells {
		if c != empty {
			continue
		}
		pt := g.Point(i)
		if g.makesFive(i, me) && b.Check(pt) == nil {
			return pt, true
		}
		if block == engine.NoPoint && g.makesFive(i, opp) && b.Check(pt) == nil {
			block = pt
		}
	}
	return block, block != engine.NoPoint
}

// expand fills a node's untried moves: legal points near stones, the best by the
// pattern heuristic (own and opponent threats) last, keeping Width of them.
func (p *Player) expand(nd *node, b *engine.Board, g *grid) {
	nd.expanded = true
	me, opp := int8(b.ToMove()), int8(b.ToMove().Opponent())
	type sc struct {
		i, s int
	}
	var cs []sc
	for i, c := range g.Cells {
		if c != empty || g.Near[i] == 0 {
			continue
		}
		cs = append(cs, sc{i, g.threat(i, me) + g.threat(i, opp)*4/5})
	}
	sort.SliceStable(cs, func(a, c int) bool { return cs[a].s > cs[c].s })
	for _, c := range cs {
		if len(nd.untried) >= p.opts.Width {
			break
		}
		pt := g.Point(c.i)
		if b.Check(pt) == nil {
			nd.untried = append(nd.untried, pt)
		}
	}
	for l, r := 0, len(nd.untried)-1; l < r; l, r = l+1, r-1 {
		nd.untried[l], nd.untried[r] = nd.untried[r], nd.untried[l]
	}
}

// iterate runs one selection, expansion, playout and backup.
func (p *Player) iterate(root *node, b0 *engine.Board, g0 *grid, g *grid) {
	b := b0.Clone()
	g.copyFrom(g0)
	nd := root
	var winner engine.Color
	over := false
	for {
		if !nd.expanded {
			p.expand(nd, b, g)
		}
		if len(nd.untried) > 0 {
			mv := nd.untried[len(nd.untried)-1]
			nd.untried = nd.untried[:len(nd.untried)-1]
			c := b.ToMove()
			if err := b.Play(mv); err != nil {
				return
			}
			g.Put(g.Index(mv), int8(c))
			child := &node{move: mv, parent: nd}
			nd.children = append(nd.children, child)
			nd = child
			if o := b.Outcome(); o.Over {
				winner, over = o.Winner, true
			}
			break
		}
		if len(nd.children) == 0 {
			over = true // no moves: a draw
			break
		}
		nd = p.selectChild(nd)
		c := b.ToMove()
		_ = b.Play(nd.move)
		g.Put(g.Index(nd.move), int8(c))
		if o := b.Outcome(); o.Over {
			winner, over = o.Winner, true
			break
		}
	}
	if !over {
		winner = engine.Color(g.playout(p.rng, int8(b.ToMove()), p.opts.MaxPlies))
	}
	// Back up: the node's wins count for the player who moved into it.
	mover := b.ToMove().Opponent()
	for x := nd; x != nil; x = x.parent {
		x.visits++
		switch winner {
		case mover:
			x.wins++
		case engine.Empty:
			x.wins += 0.5
		}
		mover = mover.Opponent()
	}
}

func (p *Player) selectChild(nd *node) *node {
	logN := math.Log(nd.visits + 1)
	var best *node
	bestV := math.Inf(-1)
	for _, c := range nd.children {
		v := c.wins/c.visits + p.opts.C*math.Sqrt(logN/c.visits)
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}
