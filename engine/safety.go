package engine

// Root safety check. The main search sees the opponent's threat sequences only
// within its horizon, and a VCT of fifteen plies or more lies far beyond the depth
// reached in a fraction of a second; yet the root VCT finds such a sequence in a few
// hundred nodes once it is the opponent's turn. So before a move is played, the
// opponent's VCF and VCT are searched in the position after it; a refuted move gives
// way to the next root move that is not refuted. Only a few candidates are checked,
// each with a small node budget, and if every one of them is refuted the search's
// own choice stands (the position is lost anyway, or the check could not tell).

const (
	// safetyTries is how many root moves the check may look at.
	safetyTries = 6
	// safetyShare is the share of the time (or of the node cap) kept back from the
	// main search for the check: 1/safetyShare.
	safetyShare = 8
	// safetyMinNodes and safetyMaxNodes bound the node budget of one check.
	safetyMinNodes = 500
	safetyMaxNodes = 50_000
)

// safetyEnabled reports whether this search runs the check: never for plain
// alpha-beta (the classroom configurations) nor for levels without the VCF solver.
func (s *searcher) safetyEnabled() bool {
	return !s.cfg.noPrune && !s.cfg.noVCF
}

// safetyCheck replaces s.info.Best by the first candidate the opponent cannot win
// against by a VCF (or a VCT, when enabled), trying the search's choice first and then
// the root moves in their current order.
func (s *searcher) safetyCheck() {
	if s.rootN < 2 || s.info.Best == NoPoint || s.info.Score > MateThreshold {
		return
	}
	per := min(max(s.tacticsNodes/4, safetyMinNodes), safetyMaxNodes)
	best := cellIndex(s.info.Best.X, s.info.Best.Y)
	cand := best
	next := 0
	for try := 0; try < safetyTries; try++ {
		if !s.refuted(cand, per) {
			if cand != best {
				s.info.Best = cellPoint(cand)
				s.info.PV = append(s.info.PV[:0], s.info.Best)
				s.info.Refuted = try
			}
			return
		}
		if s.stopped {
			return
		}
		for next < s.rootN && int(s.root[next].move) == best {
			next++
		}
		if next == s.rootN {
			return
		}
		cand = int(s.root[next].move)
		next++
	}
}

// refuted reports whether the opponent wins by a VCF or VCT after the side to move
// plays m, as far as nodes more nodes can tell.
func (s *searcher) refuted(m int, nodes uint64) bool {
	p := &s.pos
	s.nodes++
	p.make(m)
	defer p.unmake()
	stop := s.nodes + nodes
	s.vcfStop = stop
	for depth := 3; depth <= maxPly-40 && s.nodes < stop && !s.stopped; depth += 2 {
		s.vcfCut = false
		if s.vcf(0, depth) > 0 && !s.stopped {
			return true
		}
		if !s.vcfCut {
			break
		}
	}
	if s.cfg.noVCT || s.stopped {
		return false
	}
	s.vctStop = stop
	return s.vctDeepening(0) > 0 && !s.stopped
}
