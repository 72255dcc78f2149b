package engine

// In-tree defence against the opponent's VCF.
//
// Without a leaf VCF the static evaluation does not see an opponent's win by
// continuous fours, and reverse futility or the null move may cut a node whose side
// to move is already lost to one. So at an interior node with DefenceDepth plies or more to
// go (nearer the horizon the check cost more depth than it gained) where the opponent
// has a four to play (and no open three, which the threat-aware generation already
// answers), a small VCF search is run for the opponent as if it were to move. When
// it finds a win, the node is not pruned before its move search, and only the moves
// that may stop the VCF are searched: the points of the found line (the attacker's
// fours and the defender's blocks), the side to move's own fours (a counter-attack
// that gains a tempo), and the points where the opponent would make a three or better
// (blocking the three that a four-three or a later four grows from). That set is not
// complete, so a node whose kept moves all lose searches the others too unless each
// is refuted by the VCF found again (refutedByVCF): the node may then claim the loss.

// defenceDepth is how many plies of the VCF are looked for (up to five fours); the
// node budget of the check is SearchParams.DefenceNodes.
const defenceDepth = 9

// defenceLine is a found opponent VCF: its points, -1 padded.
type defenceLine [defenceDepth + 2]int16

// opponentVCF reports whether the opponent of the side to move has a short VCF, and
// its points.
func (s *searcher) opponentVCF(ply int) (line defenceLine, ok bool) {
	p := &s.pos
	op := 2 - int(p.side)
	if p.cnt[op][lvFour]+p.cnt[op][lvFourThree] == 0 || p.cnt[op][lvFlex] > 0 || p.cnt[op][lvFive] > 0 ||
		ply+defenceDepth+3 >= len(s.vcfLine) {
		return line, false
	}
	p.side = 3 - p.side
	s.vcfStop = s.nodes + uint64(s.par.DefenceNodes)
	d := s.vcf(ply, defenceDepth)
	p.side = 3 - p.side
	if d <= 0 || s.stopped {
		return line, false
	}
	for i := range line {
		line[i] = -1
	}
	copy(line[:], s.vcfLine[ply:ply+min(d, len(line))])
	return line, true
}

// defends reports whether m may stop the opponent VCF line: a point of the line, a
// four of the side to move, or a point where the opponent would make a three or
// better.
func (p *position) defends(m int, line *defenceLine) bool {
	me := int(p.side - 1)
	if p.lvl[m][me] >= lvFour || p.lvl[m][1-me] >= lvThree {
		return true
	}
	for _, q := range line {
		if int(q) == m {
			return true
		}
	}
	return false
}

// keepDefences moves the moves of buf[:n] that may stop line to the front and
// returns how many there are; the others follow them in buf[k:n] (the search falls
// back on them when every kept move loses).
func (p *position) keepDefences(buf []scoredMove, n int, line *defenceLine) int {
	k := 0
	for i := range buf[:n] {
		if p.defends(int(buf[i].move), line) {
			buf[k], buf[i] = buf[i], buf[k]
			k++
		}
	}
	return k
}

// refutedByVCF plays the side to move's move m, which keepDefences left out, and
// reports the plies to the opponent's five when the opponent still wins by a short
// VCF (0: none found, so m may defend after all). The kept set is not complete (a
// quiet move may, for one, turn a later forced block into a four of the defender's),
// so a node may claim a loss only when every move left out is refuted too.
func (s *searcher) refutedByVCF(m, ply int) int {
	p := &s.pos
	s.nodes++
	p.make(m)
	s.vcfStop = s.nodes + uint64(s.par.DefenceNodes)
	d := s.vcf(ply+1, defenceDepth)
	p.unmake()
	return d
}
