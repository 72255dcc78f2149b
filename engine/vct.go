package engine

// VCT: victory by continuous threats (fours and open threes), used at the root. The
// attacker plays fours and moves that make an open three (or better); after a three
// the defender may play any point where the attacker would make a four (this blocks
// every open three, and every four-in-waiting) or a four of its own; all of them must
// lose. The attacker's double threats and fours come before its threes in its move
// order, so the lines of fours are followed early; a separate VCF search at every
// attacker node (up to 300 nodes each) cost more than it found (docs/engine.md,
// "VCF / VCT").

// The rules that decide a VCT node before any of its moves is tried, shared by the
// depth-first VCT (here) and the proof-number VCT (dfpn.go), so that both search the
// same tree.

// vctAttackEnd decides an attacker node (the side to move attacks) from the fives,
// the straight-four points and the depth left: it returns the plies to the five of a
// win (win > 0), or end set when the attacker has none within depth, or else the
// opponent's five point the attacker must block (forced; -1 when there is none).
func (p *position) vctAttackEnd(ply, depth int) (win int, end bool, forced int) {
	me := int(p.side - 1)
	op := 1 - me
	if p.cnt[me][lvFive] > 0 {
		return 1, false, -1
	}
	forced = -1
	if n := p.cnt[op][lvFive]; n > 0 {
		if n >= 2 {
			return 0, true, -1
		}
		forced = p.findLevel(op, lvFive, false)
		if !p.legal(forced) {
			return 0, true, -1
		}
	} else if p.cnt[me][lvFlex] > 0 && p.findLevel(me, lvFlex, true) >= 0 {
		return 3, false, -1
	}
	if depth < 3 || ply+depth+2 >= maxPly {
		return 0, true, -1
	}
	return 0, false, forced
}

// vctDefendEnd decides a defender node (the side to move defends) like vctAttackEnd an
// attacker node: it returns the plies to the attacker's five when the defender cannot
// stop it (win > 0), or end set when there is no threat to answer within depth (or
// the defender has a five), or else the attacker's five point the defender must
// block (forced; -1 when the threat is an open three, answered by every defence).
func (p *position) vctDefendEnd(depth int) (win int, end bool, forced int) {
	me := int(p.side - 1)
	at := 1 - me
	if p.cnt[me][lvFive] > 0 {
		return 0, true, -1
	}
	if n := p.cnt[at][lvFive]; n > 0 {
		if n >= 2 {
			return 2, false, -1
		}
		f := p.findLevel(at, lvFive, false)
		if !p.legal(f) {
			return 2, false, -1
		}
		return 0, false, f
	}
	if p.cnt[at][lvFlex] == 0 || depth < 4 || p.findLevel(at, lvFlex, true) < 0 {
		return 0, true, -1
	}
	return 0, false, -1
}

// vctAttack returns the plies to the five if the side to move (the attacker) wins by
// continuous threats within depth plies, or 0. base indexes the free move stack.
func (s *searcher) vctAttack(ply, depth, base int) int {
	p := &s.pos
	win, end, forced := p.vctAttackEnd(ply, depth)
	if win > 0 {
		return win
	}
	if end || s.nodes >= s.vctStop || s.stopped {
		return 0
	}
	if s.nodes >= s.nextPoll {
		s.poll()
		if s.stopped {
			return 0
		}
	}
	key := p.vctKey(vctAttackKey)
	if win, move, ok := s.probeVCT(key, depth); ok {
		if win > 0 {
			s.vctMove[ply] = move
		}
		return win
	}
	d := s.vctAttackMoves(ply, depth, base, forced)
	s.storeVCT(key, depth, d, s.vctMove[ply])
	return d
}

// probeVCT looks a node up in the solver's table (unless it is switched off).
func (s *searcher) probeVCT(key uint64, depth int) (int, int16, bool) {
	if s.cfg.noVCTTable {
		return 0, -1, false
	}
	return s.vtt.probe(key, depth)
}

// storeVCT stores a node's result: a win (with the attacker's move, -1 at a defender
// node) always, none only when its search was not cut by the node budget or the clock.
func (s *searcher) storeVCT(key uint64, depth, d int, move int16) {
	switch {
	case s.cfg.noVCTTable:
	case d > 0:
		s.vtt.store(key, depth, d, move)
	case s.nodes < s.vctStop && !s.stopped:
		s.vtt.store(key, depth, 0, -1)
	}
}

// Move order of the VCT. The attacker tries its double threats first, then its fours
// before its threes (vctThreatScore): a four has one answer, so a line that does not
// work is refuted at once. The defender tries its own fours before its blocks
// (counterFourScore): a counter-four forces the attacker's answer and often breaks the
// attack. The main search's order (threes before fours, blocks before counter-fours
// unless they also block) needed twice the nodes: docs/engine.md, "VCF / VCT".
var vctThreatScore = [numLevels]int32{
	lvThree: 40_000, lvFour: 50_000, lvThreeThree: 400_000, lvFourThree: 600_000, lvFlex: 2_000_000, lvFive: 4_000_000,
}

// counterFourScore is the defender's bonus for a point where it makes a four.
const counterFourScore = 1_000_000

// vctAttackMoves tries the attacker's moves at a node that the quick checks and the
// table did not decide: the forced block when there is one, else every threat.
func (s *searcher) vctAttackMoves(ply, depth, base, forced int) int {
	if forced >= 0 {
		return s.vctPlay(forced, ply, depth, base)
	}
	buf := s.moves[base:]
	n := s.vctThreats(buf)
	for i := 0; i < n; i++ {
		m := pickMove(buf, i, n)
		if d := s.vctPlay(m, ply, depth, base+n); d > 0 {
			return d
		}
		if s.nodes >= s.vctStop || s.stopped {
			return 0
		}
	}
	return 0
}

// vctThreats writes the attacker's threats (the side to move's fours and open-three
// moves, scored in the solver's order) to buf and returns how many. Threes are no
// threat while the defender can make a straight four itself.
func (s *searcher) vctThreats(buf []scoredMove) int {
	p := &s.pos
	me := int(p.side - 1)
	op := 1 - me
	minLevel := lvThree
	if p.cnt[op][lvFlex] > 0 && p.findLevel(op, lvFlex, true) >= 0 {
		minLevel = lvFour
	}
	threat := &vctThreatScore
	if s.cfg.searchOrderVCT {
		threat = &ownLevelScore
	}
	n := 0
	x0, y0, x1, y1 := p.region(2)
	for y := y0; y <= y1; y++ {
		m := cellIndex(x0, y)
		for x := x0; x <= x1; x, m = x+1, m+1 {
			if p.cell[m] != 0 || p.lvl[m][me] < minLevel || !p.legal(m) {
				continue
			}
			if n == len(buf) {
				return n
			}
			buf[n] = scoredMove{int16(m), threat[p.lvl[m][me]] + oppLevelScore[p.lvl[m][op]] + p.val[m][me][roleOwn]>>valueShift}
			n++
		}
	}
	return n
}

// vctPlay plays the attacker's move m and answers every defence.
func (s *searcher) vctPlay(m, ply, depth, base int) int {
	p := &s.pos
	s.nodes++
	p.make(m)
	d := s.vctDefend(ply+1, depth-1, base)
	p.unmake()
	if d > 0 {
		s.vctMove[ply] = int16(m)
		return d + 1
	}
	return 0
}

// vctDefend returns the plies to the attacker's five if every defence of the side to
// move (the defender) loses, or 0.
func (s *searcher) vctDefend(ply, depth, base int) int {
	p := &s.pos
	win, end, forced := p.vctDefendEnd(depth)
	if win > 0 {
		return win
	}
	if end {
		return 0
	}
	if forced >= 0 {
		s.nodes++
		p.make(forced)
		d := s.vctAttack(ply+1, depth-1, base)
		p.unmake()
		if d > 0 {
			return d + 1
		}
		return 0
	}
	key := p.vctKey(vctDefendKey)
	if win, _, ok := s.probeVCT(key, depth); ok {
		return win
	}
	d := s.vctDefences(ply, depth, base)
	s.storeVCT(key, depth, d, -1)
	return d
}

// vctDefences answers the attacker's threat with every defence; it returns the plies
// to the attacker's five if all of them lose, or 0.
func (s *searcher) vctDefences(ply, depth, base int) int {
	p := &s.pos
	buf := s.moves[base:]
	n := s.vctDefenceMoves(buf)
	worst := 3 // no legal defence: the attacker makes its straight four and fives
	for i := 0; i < n; i++ {
		m := pickMove(buf, i, n)
		s.nodes++
		p.make(m)
		d := s.vctAttack(ply+1, depth-1, base+n)
		p.unmake()
		if d == 0 {
			return 0
		}
		worst = max(worst, d)
	}
	return worst + 1
}

// vctDefenceMoves writes the defender's answers to an open-three threat (the points
// where the attacker would make a four, and the defender's own fours, scored in the
// solver's order) to buf and returns how many.
func (s *searcher) vctDefenceMoves(buf []scoredMove) int {
	p := &s.pos
	me := int(p.side - 1)
	at := 1 - me
	counterFour := int32(counterFourScore)
	if s.cfg.searchOrderVCT {
		counterFour = 0
	}
	n := 0
	x0, y0, x1, y1 := p.region(2)
	for y := y0; y <= y1; y++ {
		m := cellIndex(x0, y)
		for x := x0; x <= x1; x, m = x+1, m+1 {
			if p.cell[m] != 0 || (p.lvl[m][me] < lvFour && !p.fourPoint(m, at)) || !p.legal(m) {
				continue
			}
			if n == len(buf) {
				return n
			}
			sc := ownLevelScore[p.lvl[m][me]] + oppLevelScore[p.lvl[m][at]] + p.val[m][at][roleOwn]>>valueShift
			if p.lvl[m][me] >= lvFour {
				sc += counterFour
			}
			buf[n] = scoredMove{int16(m), sc}
			n++
		}
	}
	return n
}

// vctDeepening runs the depth-first VCT to depthFirstVCTDepth and, while it finds no
// win and has budget left, two and four plies deeper (the table keeps the wins and
// the positions proved empty at the shallower depth); it returns the plies to the
// five (0: none) with the first move in s.vctMove[0]. base indexes the free move stack.
func (s *searcher) vctDeepening(base int) int {
	for depth := depthFirstVCTDepth; depth <= depthFirstVCTDepth+4; depth += 2 {
		if d := s.vctAttack(0, depth, base); d > 0 || s.stopped || s.nodes >= s.vctStop {
			return d
		}
	}
	return 0
}
