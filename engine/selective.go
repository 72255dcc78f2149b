package engine

// Selectivity: the pruning and reductions that let the search reach depth in the
// quiet middle game, where most candidates are points no strong player would look at.
//
// At non-PV nodes, before any move is searched (prune):
//   - reverse futility: when the static evaluation beats beta by a margin that grows
//     with the remaining depth, and the opponent has no point that makes a four-three,
//     double three or straight four (a threat the static evaluation cannot judge), the
//     node fails high at once;
//   - razoring: at depth 1-2, when the evaluation is far below alpha and the side to
//     move has no four or better to attack with, the node fails low at once;
//   - null move: when the evaluation is at least beta and the opponent has no such
//     threat, the side to move passes and a search reduced by 3 plies (4 from depth 12)
//     must still reach beta; two null moves never follow each other.
//
// Late move reductions grow with the logarithms of the depth and the move number
// (reduction), one ply less at PV nodes and for killers. Quiet moves (neither colour
// makes a three there) get the full reduction, moves that make or block a three one
// ply less; fours and blocks of a four-three or better are never reduced. A node
// without a TT move at depth 4 or more is searched one ply shallower (internal
// iterative reduction, search.go).
//
// The horizon nodes get the static evaluation alone: no leaf VCF. Most of them have
// a four for the side to move, and with a VCF budget of 40 nodes, and still with 12,
// about half the nodes of a search went to those VCFs; 3 nodes (enough for a
// four-three played at once) and then none were each stronger in self-play
// (docs/strength/).

// nullKey is xored into the hash while a null move is made: the side to move no
// longer follows from the stone count.
const nullKey uint64 = 0x6A09E667F3BCC909

// reduction returns the plies by which the quiet i-th move m at depth is reduced.
func (s *searcher) reduction(depth, i int, pvNode bool, m, ply int) int {
	if s.cfg.stepLMR {
		r := 1
		if i >= 8 {
			r = 2
		}
		if !s.cfg.plainLMR && i >= 16 {
			r = 3
		}
		return min(r, depth-2)
	}
	r := int(s.par.lmr[min(depth, 63)][min(i, 63)])
	if pvNode {
		r--
	}
	if m == int(s.killers[ply][0]) || m == int(s.killers[ply][1]) {
		r--
	}
	return max(0, min(r, depth-2))
}

// threat reports whether colour index ci has a point that makes a four-three, a
// double three or a straight four: a threat the static evaluation cannot judge.
func (p *position) threat(ci int) bool {
	return p.cnt[ci][lvFlex]+p.cnt[ci][lvFourThree]+p.cnt[ci][lvThreeThree] > 0
}

// prune applies reverse futility, razoring and the null move at a non-PV node; it
// returns the node's score and true when the node is decided without a move search.
func (s *searcher) prune(alpha, beta Score, depth, ply, base int) (Score, bool) {
	if s.cfg.noRFP && s.cfg.noNMP {
		return 0, false
	}
	p := &s.pos
	me := int(p.side - 1)
	op := 1 - me
	if beta > MateThreshold || alpha < -MateThreshold || p.threat(op) {
		return 0, false
	}
	ev := p.evaluate()
	if !s.cfg.noRFP {
		if depth <= s.par.RFPDepth && ev-Score(s.par.RFPMargin*depth) >= beta {
			return ev, true
		}
		if depth <= s.par.RazorDepth && ev+Score(s.par.RazorMargin*depth) <= alpha &&
			p.cnt[me][lvFour] == 0 && !p.threat(me) {
			return ev, true
		}
	}
	if !s.cfg.noNMP && depth >= s.par.NullMoveDepth && ev >= beta && !s.nullAt[ply] {
		r := s.par.NullMoveReduction
		if depth >= s.par.NullMoveDeepDepth {
			r++
		}
		p.side = 3 - p.side
		p.hash ^= nullKey
		s.nullAt[ply+1] = true
		s.nodes++
		v := -s.search(-beta, -beta+1, depth-1-r, ply+1, base, false)
		s.nullAt[ply+1] = false
		p.hash ^= nullKey
		p.side = 3 - p.side
		if s.stopped {
			return 0, false
		}
		if v >= beta {
			if v > MateThreshold {
				v = beta
			}
			return v, true
		}
	}
	return 0, false
}
