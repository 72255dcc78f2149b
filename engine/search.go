package engine

import "time"

// Search: negamax alpha-beta with principal variation search inside iterative
// deepening, a transposition table, killer and history move ordering, late move
// reductions, late move pruning, reverse futility pruning, razoring and null-move
// pruning (see selective.go), threat-aware pruning (see movegen.go), the in-tree
// defence against an opponent VCF (see defence.go), forced-move
// extensions, mate shortcuts (a five now, an unstoppable four next move) and
// mate-distance scores.

const (
	maxPly = 100
	// maxDepthCap is the deepest iteration a search starts (room is left for extensions).
	maxDepthCap = maxPly - 20
	stackSize   = maxPly * 64 * 4
	pollEvery   = 256 // nodes between looks at the clock and the context
)

// searchConfig holds switches for tests and levels.
type searchConfig struct {
	noPrune bool // plain alpha-beta: no threat pruning, shortcuts, reductions or TT cutoffs
	noVCF   bool // no VCF at the root and leaves
	noVCT   bool // no VCT at the root
	// vctSolver is Solve's VCT: depth-first, or with the proof-number VCT after it
	// (Options.LongVCT; dfpn.go).
	vctSolver vctSolver

	// experiments (zero values are the defaults)
	noLeafVCF      bool   // no VCF at the leaves
	plainLMR       bool   // reduce at most 2 plies
	noLMP          bool   // no late move pruning
	lmp2           bool   // wider late move pruning (depth <= 5, fewer moves)
	leafVCF        uint64 // leaf VCF node budget (0: no leaf VCF, the selective search)
	aspiration     bool   // aspiration windows at the root
	noRFP          bool   // no reverse futility pruning or razoring
	noNMP          bool   // no null-move pruning
	stepLMR        bool   // the stepped reductions (1/2/3 plies from the 4th/9th/17th move)
	noThreeLMR     bool   // no reductions of moves that make or block a three
	noIIR          bool   // no internal iterative reduction
	noDefence      bool   // no in-tree check of the opponent's VCF (defence.go)
	noVCTTable     bool   // the VCT solver without its transposition table (vcttable.go)
	searchOrderVCT bool   // the VCT solver with the main search's move order (vct.go)
	keptOnly       bool   // the moves left out of the defences against an opponent VCF dropped, never refuted (defence.go)
}

// searcher is an engine's search state; it is allocated once per Engine.
type searcher struct {
	pos     position
	tt      *transTable
	cfg     searchConfig
	par     *searchParams // pruning and reduction settings (params.go)
	history [2][numCells]int32
	killers [maxPly + 1][2]int16
	moves   [stackSize]scoredMove
	pv      [maxPly + 1][maxPly + 1]int16
	// partial is the root move that beat the previous best in the current, perhaps
	// unfinished, iteration (-1: none), with its score and PV.
	partial      int16
	partialScore Score
	partialPV    [maxPly + 1]int16
	partialLen   int
	pvLen        [maxPly + 1]int
	// nullAt[ply] is set while the node at ply is the answer to a null move (no
	// second null move in a row).
	nullAt [maxPly + 1]bool

	nodes    uint64
	selDepth int
	stopped  bool

	// control
	done       <-chan struct{}
	start      time.Time
	hard       time.Time // absolute stop (zero: none)
	nodeLimit  uint64
	nextPoll   uint64
	report     func()
	nextReport time.Time

	// root noise (levels)
	noise    Score
	noiseKey uint64

	// VCF/VCT state
	vcfStop uint64 // VCF gives up at this node count
	vcfCut  bool   // a VCF line was cut by the depth or node limit
	vcfLine [maxPly + 64]int16
	vctStop uint64 // VCT gives up at this node count
	vctMove [maxPly]int16
	vtt     vctTable   // the solver's transposition table (vcttable.go)
	dtt     *dfpnTable // the proof-number VCT's table (dfpn.go; allocated by the first Solve)

	root         [maxMoves]scoredMove
	rootN        int
	exclude      []int16 // root moves left out of the search (SearchLines)
	tacticsNodes uint64
	tacticsStop  time.Time // the root VCF/VCT stop at this time (zero: no limit)
	info         Info      // the last completed iteration
	tm           timeManager
	rng          uint64
	blunder      int // per mille (levels)

	smpState // Lazy SMP (smp.go)
}

// poll checks the clock, the node limit and the context; it sets s.stopped.
func (s *searcher) poll() {
	s.nextPoll = s.nodes + pollEvery
	if s.stopFlag != nil {
		s.published.Store(s.nodes)
		if s.stopFlag.Load() {
			s.stopped = true
			return
		}
	}
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stopped = true
		return
	}
	select {
	case <-s.done:
		s.stopped = true
		return
	default:
	}
	if s.hard.IsZero() && s.report == nil && s.tacticsStop.IsZero() {
		return
	}
	now := time.Now()
	if (!s.hard.IsZero() && !now.Before(s.hard)) || (!s.tacticsStop.IsZero() && !now.Before(s.tacticsStop)) {
		s.stopped = true
		return
	}
	if s.report != nil && !now.Before(s.nextReport) {
		s.report()
	}
}

// mateIn returns the score of a win ply plies from the root.
func mateIn(ply int) Score { return MateScore - Score(ply) }

// matedIn returns the score of a loss ply plies from the root.
func matedIn(ply int) Score { return -MateScore + Score(ply) }

// tactical resolves the positions whose value follows from the threats alone. It
// returns (score, true) when the node is decided, or the single forced move (or -1).
func (s *searcher) tactical(ply int) (Score, bool, int) {
	p := &s.pos
	me := int(p.side - 1)
	op := 1 - me
	if p.cnt[me][lvFive] > 0 {
		return mateIn(ply + 1), true, -1
	}
	if n := p.cnt[op][lvFive]; n > 0 {
		if n >= 2 {
			return matedIn(ply + 2), true, -1
		}
		f := p.findLevel(op, lvFive, false)
		if !p.legal(f) {
			return matedIn(ply + 2), true, -1
		}
		return 0, false, f
	}
	if !s.cfg.noPrune && p.cnt[me][lvFlex] > 0 && p.findLevel(me, lvFlex, true) >= 0 {
		return mateIn(ply + 3), true, -1
	}
	return 0, false, -1
}

// search is the recursive negamax. base indexes the free part of the move stack.
func (s *searcher) search(alpha, beta Score, depth, ply, base int, pvNode bool) Score {
	p := &s.pos
	s.pvLen[ply] = ply
	if ply > s.selDepth {
		s.selDepth = ply
	}
	if s.nodes >= s.nextPoll {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	if p.stones >= p.size*p.size {
		return 0
	}
	var forced int
	if !s.cfg.noPrune {
		sc, done, f := s.tactical(ply)
		if done {
			return sc
		}
		forced = f
	} else {
		forced = -1
		if p.cnt[p.side-1][lvFive] > 0 {
			return mateIn(ply + 1)
		}
	}
	if ply >= maxPly-4 || base+maxMoves > stackSize {
		return p.evaluate()
	}
	// Mate distance pruning.
	if !s.cfg.noPrune {
		alpha = max(alpha, matedIn(ply+2))
		beta = min(beta, mateIn(ply+1))
		if alpha >= beta {
			return alpha
		}
	}
	if forced >= 0 {
		// A single forced block: extend (do not spend depth on it).
		s.nodes++
		p.make(forced)
		v := -s.search(-beta, -alpha, depth, ply+1, base, pvNode)
		p.unmake()
		s.pv[ply][ply] = int16(forced)
		copy(s.pv[ply][ply+1:s.pvLen[ply+1]], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
		s.pvLen[ply] = s.pvLen[ply+1]
		return v
	}
	if depth <= 0 {
		return s.leaf(alpha, beta, ply)
	}

	key := p.hash
	ttMove := -1
	if h, ok := s.tt.probe(key, ply); ok {
		ttMove = h.move
		if !pvNode && !s.cfg.noPrune && h.depth >= depth {
			switch {
			case h.bound == boundExact,
				h.bound == boundLower && h.score >= beta,
				h.bound == boundUpper && h.score <= alpha:
				return h.score
			}
		}
	}

	me := int(p.side - 1)
	var defence defenceLine
	threatened := false
	if !s.cfg.noDefence && !s.cfg.noPrune && !s.cfg.noVCF && depth >= s.par.DefenceDepth {
		defence, threatened = s.opponentVCF(ply)
		if s.stopped {
			return 0
		}
	}
	if !pvNode && !s.cfg.noPrune && !threatened {
		if v, ok := s.prune(alpha, beta, depth, ply, base); ok {
			return v
		}
	}

	// Internal iterative reduction: a node without a TT move is searched one ply
	// shallower (its ordering is a guess; a later iteration finds the move in the TT).
	if !s.cfg.noIIR && ttMove < 0 && depth >= s.par.IIRDepth && !s.cfg.noPrune {
		depth--
	}

	buf := s.moves[base:]
	n := s.genMoves(buf, !s.cfg.noPrune, ply, ttMove)
	kept := n // the moves searched first: all, or the defences against an opponent VCF
	if threatened {
		kept = p.keepDefences(buf, n, &defence)
		if s.cfg.keptOnly {
			n = kept
		}
	}
	if n == 0 {
		if s.cfg.noPrune || p.stones >= p.size*p.size {
			return 0
		}
		// Every candidate was pruned or forbidden: the threat cannot be met.
		return matedIn(ply + 4)
	}
	best, bestMove := -MateScore-1, -1
	origAlpha := alpha
	for i := 0; i < n; i++ {
		if i == kept && best > -MateThreshold {
			break // a kept defence holds: the moves left out are not searched
		}
		var m int
		if i < kept {
			m = pickMove(buf, i, kept)
		} else {
			// Every kept defence loses: a move left out must be refuted as well
			// before the node may claim a loss.
			m = pickMove(buf, i, n)
			if d := s.refutedByVCF(m, ply); d > 0 {
				if v := matedIn(ply + 1 + d); v > best {
					best, bestMove = v, m
				}
				continue
			}
			if s.stopped {
				return 0
			}
		}
		quiet := p.lvl[m][me] < lvThree && p.lvl[m][1-me] < lvThree
		// Late move pruning: at shallow non-PV nodes, quiet moves far down the ordered
		// list are skipped (once some move has been searched and does not lose).
		if !s.cfg.noPrune && !s.cfg.noLMP && !pvNode && quiet && best > -MateThreshold {
			if (!s.cfg.lmp2 && depth <= s.par.LMPDepth && i >= s.par.LMPMoves+s.par.LMPScale*depth*depth) ||
				(s.cfg.lmp2 && depth <= 5 && i >= 3+2*depth*depth) {
				continue
			}
		}
		s.nodes++
		p.make(m)
		var v Score
		if i == 0 {
			v = -s.search(-beta, -alpha, depth-1, ply+1, base+n, pvNode)
		} else {
			r := 0
			if !s.cfg.noPrune && depth >= s.par.LMRDepth && i >= s.par.LMRStart && quiet {
				r = s.reduction(depth, i, pvNode, m, ply)
			} else if !s.cfg.noThreeLMR && !s.cfg.noPrune && depth >= s.par.LMRDepth && i >= s.par.LMRStart && p.lvl[m][me] < lvFour && p.lvl[m][1-me] < lvFourThree {
				r = max(s.reduction(depth, i, pvNode, m, ply)-s.par.ThreeLMROffset, 0)
			}

			v = -s.search(-alpha-1, -alpha, depth-1-r, ply+1, base+n, false)
			if v > alpha && r > 0 {
				v = -s.search(-alpha-1, -alpha, depth-1, ply+1, base+n, false)
			}
			if v > alpha && v < beta && pvNode {
				v = -s.search(-beta, -alpha, depth-1, ply+1, base+n, true)
			}
		}
		p.unmake()
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				s.pv[ply][ply] = int16(m)
				copy(s.pv[ply][ply+1:s.pvLen[ply+1]], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if v >= beta {
					if quiet {
						if int(s.killers[ply][0]) != m {
							s.killers[ply][1] = s.killers[ply][0]
							s.killers[ply][0] = int16(m)
						}
						s.history[me][m] += int32(depth * depth)
					}
					break
				}
			}
		}
	}
	b := boundUpper
	switch {
	case best >= beta:
		b = boundLower
	case best > origAlpha:
		b = boundExact
	}
	s.tt.store(key, ply, best, bestMove, depth, b)
	return best
}

// leaf evaluates a horizon node: the static evaluation, unless the side to move has
// a short VCF. Only the plain search looks for one (cfg.leafVCF nodes): in the
// selective search the nodes were better spent deeper in the tree.
func (s *searcher) leaf(alpha, beta Score, ply int) Score {
	p := &s.pos
	if s.cfg.leafVCF > 0 && !s.cfg.noPrune && !s.cfg.noVCF && !s.cfg.noLeafVCF && p.cnt[p.side-1][lvFour]+p.cnt[p.side-1][lvFourThree] > 0 {
		s.vcfStop = s.nodes + s.cfg.leafVCF
		if d := s.vcf(ply, 9); d > 0 {
			return mateIn(ply + d)
		}
	}
	return p.evaluate()
}
