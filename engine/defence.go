package engine

// In-tree defence against the opponent's VCF.
//
// Without a leaf VCF the static evaluation does not see an opponent's win by
// continuous fours, and reverse futility or the null move may cut a node whose side
// to move is already lost to one. So at an interior node with three plies or more to
// go (nearer the horizon the check cost more depth than it gained) where the opponent
// has a four to play (and no open three, which the threat-aware generation already
// answers), a small VCF search is run for the opponent as if it were to move. When
// it finds a win, the node is not pruned before its move search, and only the moves
// that may stop the VCF are searched: the points of the found line (the attacker's
// fours and the defender's blocks), the side to move's own fours (a counter-attack
// that gains a tempo), and the points where the opponent would make a three or better
// (blocking the three that a four-three or a later four grows from).

const (
	defenceNodes    = 20 // VCF node budget of the check
	defenceDepth    = 9  // plies of the VCF looked for (up to five fours)
	defenceMinDepth = 3  // remaining depth from which the check is made
)

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
	s.vcfStop = s.nodes + defenceNodes
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

// keepDefences keeps the moves of buf[:n] that may stop line and returns how many.
func (p *position) keepDefences(buf []scoredMove, n int, line *defenceLine) int {
	k := 0
	for _, sm := range buf[:n] {
		if p.defends(int(sm.move), line) {
			buf[k] = sm
			k++
		}
	}
	return k
}
