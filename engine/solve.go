package engine

import (
	"context"
	"time"
)

// ForcedWin is a forced win of the side to move found by the threat solvers.
type ForcedWin struct {
	// VCT is false for a VCF (victory by continuous fours) and true for a VCT (fours and
	// open threes).
	VCT bool
	// Plies to the five, the five included.
	Plies int
	// Line is the VCF's line, attacker and forced replies alternating (NoPoint where any
	// defence loses), or the VCT's first move. Line[0] is the winning move.
	Line []Point
	// Nodes the solvers searched, reported whether or not they found a win (a caller
	// sharing a node budget between many calls charges it).
	Nodes uint64
}

// Solve looks for a forced win of the side to move on b with the engine's threat
// solvers: a VCF first, then, when vct is set, a VCT, each within nodes (0: 200,000).
// It reports false when neither finds one within its limits, ctx ends, or the game is
// over. A five on the board for the mover is a one-ply VCF; a five of the opponent
// forces the block first. b is not modified. With Options.LongVCT the VCT goes on by
// proof numbers when the depth-first one finds nothing; its line may then be longer
// than the shortest win.
func (e *Engine) Solve(ctx context.Context, b *Board, nodes uint64, vct bool) (ForcedWin, bool) {
	if b.Outcome().Over || b.Ply() >= b.Size()*b.Size() {
		return ForcedWin{}, false
	}
	if nodes == 0 {
		nodes = 200_000
	}
	s := e.s
	s.pos.setup(b)
	s.vtt.clear()
	if s.cfg.vctSolver != vctDepthFirst {
		if s.dtt == nil {
			s.dtt = new(dfpnTable) // only Solve runs the proof-number VCT
		} else {
			s.dtt.clear()
		}
	}
	s.nodes, s.stopped = 0, false
	s.done = ctx.Done()
	s.hard, s.tacticsStop = time.Time{}, time.Time{}
	s.report, s.nodeLimit = nil, 0
	s.nextPoll = pollEvery
	defer func() { s.done = nil }()

	s.vcfStop = nodes
	for depth := 3; depth <= maxPly-40 && s.nodes < s.vcfStop && !s.stopped; depth += 2 {
		s.vcfCut = false
		if d := s.vcf(0, depth); d > 0 && !s.stopped {
			w := ForcedWin{Plies: d, Nodes: s.nodes}
			for _, q := range s.vcfLine[:d] {
				if q < 0 {
					w.Line = append(w.Line, NoPoint)
				} else {
					w.Line = append(w.Line, cellPoint(int(q)))
				}
			}
			return w, b.Check(w.Line[0]) == nil
		}
		if !s.vcfCut {
			break // no line reached the depth limit: no VCF at any depth
		}
	}
	if !vct || s.stopped {
		return ForcedWin{Nodes: s.nodes}, false
	}
	s.vctStop = s.nodes + nodes
	if d := s.vctSolve(0); d > 0 && !s.stopped {
		m := cellPoint(int(s.vctMove[0]))
		return ForcedWin{VCT: true, Plies: d, Line: []Point{m}, Nodes: s.nodes}, b.Check(m) == nil
	}
	return ForcedWin{Nodes: s.nodes}, false
}
