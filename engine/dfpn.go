package engine

// Proof-number VCT. The depth-first VCT (vct.go) searches the attacker's threats in a
// fixed order and proves or refutes each one to the full depth before it looks at the
// next, so a win that starts with the fifth threat waits for four refutations. The
// depth-first proof-number search (df-pn) looks at the same tree (the same attacker and
// defender moves, the same depth rule) but always expands the most promising node: at
// an attacker node the threat with the fewest defender nodes left to refute (the proof
// number), at a defender node the defence with the fewest attacker nodes left to
// refute (the disproof number). Threats answered by a single reply (fours) cost one
// proof node each, so long sequences of fours and threes are followed as cheaply as a
// VCF, and a defence that holds is found without proving every other one first.
//
// The numbers of every node searched are kept in its own table (dfpnTable); gomoku
// positions never repeat along a line (stones are only added), so the search needs no
// cycle handling. A node disproved for lack of depth is stored with that depth, and a
// probe with more depth left treats it as unknown: a proof is exact whatever the depth
// it was found at, a disproof only within it.

// dfpnInf is the proof or disproof number of a decided node (and the cap of sums).
const dfpnInf uint32 = 1 << 28

// dfpnTableBits sets the size of the proof-number table: 2^dfpnTableBits entries.
const dfpnTableBits = 17

// dfpnEntry is one slot of the proof-number table (24 bytes): key (8: the position's
// hash mixed with the side to move and the node's role, as in vcttable.go), pn and dn
// (4 each: proof and disproof numbers; pn 0 is a proof, dn 0 a disproof), move (2:
// the attacker's proving move at a proved attacker node), win (1: plies to the five of
// a proved node), depth (1: the depth left when the node was disproved).
type dfpnEntry struct {
	key    uint64
	pn, dn uint32
	move   int16
	win    uint8
	depth  int8
}

// dfpnTable is a direct-mapped table of proof and disproof numbers.
type dfpnTable [1 << dfpnTableBits]dfpnEntry

// clear empties the table.
func (t *dfpnTable) clear() { *t = dfpnTable{} }

// probe returns the numbers stored for key at a node with depth left: a node not in
// the table, or disproved with less depth than this, counts as unknown (1, 1).
func (t *dfpnTable) probe(key uint64, depth int) (pn, dn uint32, win int) {
	e := &t[key&(1<<dfpnTableBits-1)]
	if e.key != key || (e.dn == 0 && int(e.depth) < depth) {
		return 1, 1, 0
	}
	return e.pn, e.dn, int(e.win)
}

// store records the numbers of a node.
func (t *dfpnTable) store(key uint64, pn, dn uint32, win, depth int, move int16) {
	t[key&(1<<dfpnTableBits-1)] = dfpnEntry{key: key, pn: pn, dn: dn, move: move,
		win: uint8(min(win, 255)), depth: int8(min(depth, 127))}
}

// childKey returns the table key of the position after the side to move plays m, for
// a node of the given role.
func (p *position) childKey(m int, role uint64) uint64 {
	k := p.hash ^ p.zob[p.side-1][m] ^ role
	if p.side == Black { // White moves next
		k ^= vctWhiteKey
	}
	return k
}

// satAdd adds proof numbers, capped at dfpnInf.
func satAdd(a, b uint32) uint32 { return min(a+b, dfpnInf) }

// vctSolver selects the VCT solvers of Solve (Options.LongVCT). The search's root
// tactics and safety check run the depth-first VCT alone: there the proof-number VCT
// did not pay for the time it takes (docs/strength/, "Search changes").
type vctSolver uint8

const (
	// vctDepthFirst runs only the depth-first VCT, on the whole budget (the default).
	vctDepthFirst vctSolver = iota
	// vctBoth runs the depth-first VCT (vctDeepening), then, when it has
	// searched every threat to its last depth without a win before the budget is spent,
	// the proof-number VCT to proofVCTDepth on what is left (Options.LongVCT).
	vctBoth
	// vctProofNumber runs only the proof-number VCT, on the whole budget.
	vctProofNumber
)

const (
	// depthFirstVCTDepth is the depth of the depth-first VCT's first pass (vct.go's
	// vctDeepening goes on two and four plies deeper): it proves the short sequences
	// cheapest (the attacker's fours first at every node), and its cost grows fast
	// with depth.
	depthFirstVCTDepth = 15
	// proofVCTDepth is the depth of the proof-number VCT: it follows long sequences of
	// single-reply threats at little cost, so it looks much further.
	proofVCTDepth = 27
)

// vctSolve looks for a VCT of the side to move with the configured solvers, giving up
// at s.vctStop nodes, and returns the plies to the five (0: none), leaving the first
// move in s.vctMove[0]. base indexes the free move stack.
func (s *searcher) vctSolve(base int) int {
	switch s.cfg.vctSolver {
	case vctDepthFirst:
		return s.vctDeepening(base)
	case vctProofNumber:
		return s.vctProve(proofVCTDepth, base)
	}
	if d := s.vctDeepening(base); d > 0 || s.stopped {
		return d
	}
	return s.vctProve(proofVCTDepth, base)
}

// vctProve looks for a VCT of the side to move within depth plies by proof-number
// search, giving up at s.vctStop nodes. It returns the plies to the five of the win it
// proves (0: none) and leaves the first move in s.vctMove[0]. base indexes the free
// move stack.
func (s *searcher) vctProve(depth, base int) int {
	pn, _, win := s.dfpnAttack(0, depth, base, dfpnInf-1, dfpnInf-1)
	if pn != 0 || s.stopped {
		return 0
	}
	return win
}

// dfpnAttack searches an attacker node until its proof number reaches thpn or its
// disproof number thdn (or it is decided, or the budget ends) and returns both, with
// the plies to the five when it is proved.
func (s *searcher) dfpnAttack(ply, depth, base int, thpn, thdn uint32) (uint32, uint32, int) {
	p := &s.pos
	key := p.vctKey(vctAttackKey)
	win, end, forced := p.vctAttackEnd(ply, depth)
	if win > 0 {
		return s.dfpnProved(key, ply, win, -1)
	}
	if end {
		return s.dfpnDisproved(key, depth)
	}
	buf := s.moves[base:]
	n := 1
	if forced >= 0 {
		buf[0] = scoredMove{int16(forced), 0}
	} else if n = s.vctThreats(buf); n == 0 {
		return s.dfpnDisproved(key, depth)
	}
	sortMoves(buf[:n])
	return s.dfpnExpand(true, key, ply, depth, base, n, thpn, thdn)
}

// dfpnDefend searches a defender node like dfpnAttack an attacker node.
func (s *searcher) dfpnDefend(ply, depth, base int, thpn, thdn uint32) (uint32, uint32, int) {
	p := &s.pos
	key := p.vctKey(vctDefendKey)
	win, end, forced := p.vctDefendEnd(depth)
	if win > 0 {
		return s.dfpnProved(key, ply, win, -1)
	}
	if end {
		return s.dfpnDisproved(key, depth)
	}
	buf := s.moves[base:]
	n := 1
	if forced >= 0 {
		buf[0] = scoredMove{int16(forced), 0}
	} else if n = s.vctDefenceMoves(buf); n == 0 {
		// No legal defence: the attacker makes its straight four and fives.
		return s.dfpnProved(key, ply, 4, -1)
	}
	sortMoves(buf[:n])
	return s.dfpnExpand(false, key, ply, depth, base, n, thpn, thdn)
}

// dfpnExpand searches the children s.moves[base:base+n] of an attacker or defender
// node until the node's proof number reaches thpn or its disproof number thdn (or it is
// decided, or the budget ends). The two roles mirror each other: an attacker node
// needs one threat that wins, so its proof number is the least of its children's and
// its disproof number their sum; a defender node needs one defence that holds, so its
// disproof number is the least and its proof number the sum. Below, "least" and "sum"
// name those two numbers whatever the role.
func (s *searcher) dfpnExpand(attacker bool, key uint64, ply, depth, base, n int, thpn, thdn uint32) (uint32, uint32, int) {
	p := &s.pos
	buf := s.moves[base : base+n]
	childRole, thLeast, thSum := vctDefendKey, thpn, thdn
	if !attacker {
		childRole, thLeast, thSum = vctAttackKey, thdn, thpn
	}
	for {
		least, sum, second := dfpnInf, uint32(0), dfpnInf
		best, bestSum, shortest, longest, proving := -1, uint32(0), 0, 0, int16(-1)
		for i := range buf {
			cpn, cdn, cwin := s.dtt.probe(p.childKey(int(buf[i].move), childRole), depth-1)
			cLeast, cSum := cpn, cdn
			if !attacker {
				cLeast, cSum = cdn, cpn
			}
			if attacker && cpn == 0 && (shortest == 0 || cwin+1 < shortest) {
				shortest, proving = cwin+1, buf[i].move
			}
			longest = max(longest, cwin+1)
			if cLeast < least {
				second, least, best, bestSum = least, cLeast, i, cSum
			} else if cLeast < second {
				second = cLeast
			}
			sum = satAdd(sum, cSum)
		}
		pn, dn := least, sum
		if !attacker {
			pn, dn = sum, least
		}
		switch {
		case pn == 0 && attacker:
			return s.dfpnProved(key, ply, shortest, proving)
		case pn == 0:
			return s.dfpnProved(key, ply, longest, -1)
		case dn == 0:
			return s.dfpnDisproved(key, depth)
		case least >= thLeast || sum >= thSum || s.dfpnOut():
			s.dtt.store(key, pn, dn, 0, depth, -1)
			return pn, dn, 0
		}
		// The best child is searched until its number passes the second best's, and
		// until the node's sum would reach its threshold.
		cLeast, cSum := min(thLeast, dfpnNext(second)), thSum
		if thSum < dfpnInf {
			cSum = thSum - sum + bestSum
		}
		s.nodes++
		p.make(int(buf[best].move))
		if attacker {
			s.dfpnDefend(ply+1, depth-1, base+n, cLeast, cSum)
		} else {
			s.dfpnAttack(ply+1, depth-1, base+n, cSum, cLeast)
		}
		p.unmake()
	}
}

// dfpnProved stores and returns a proved node.
func (s *searcher) dfpnProved(key uint64, ply, win int, move int16) (uint32, uint32, int) {
	s.dtt.store(key, 0, dfpnInf, win, 0, move)
	if move >= 0 {
		s.vctMove[ply] = move
	}
	return 0, dfpnInf, win
}

// dfpnDisproved stores and returns a node disproved within depth.
func (s *searcher) dfpnDisproved(key uint64, depth int) (uint32, uint32, int) {
	s.dtt.store(key, dfpnInf, 0, 0, depth, -1)
	return dfpnInf, 0, 0
}

// dfpnOut reports whether the search must stop: the node budget is spent, or the
// clock or the context ended it.
func (s *searcher) dfpnOut() bool {
	if s.nodes >= s.nextPoll {
		s.poll()
	}
	return s.stopped || s.nodes >= s.vctStop
}

// dfpnNext is the threshold of the best child: a quarter more than the second best
// child's number (the 1+ε trick), so that the search stays in the best child until it
// has become clearly worse than its sibling instead of switching back and forth
// between two near-equal children (a third fewer nodes on BenchmarkSolveLostVCT).
func dfpnNext(second uint32) uint32 {
	if second >= dfpnInf {
		return dfpnInf
	}
	return min(second+second/4+1, dfpnInf)
}
