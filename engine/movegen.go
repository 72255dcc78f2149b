package engine

// Candidate moves and their ordering.
//
// Candidates are the empty points within two of a stone (the 5x5 square, from the
// per-point neighbour counts), scanned over the stones' bounding box grown by two.
// Every point where either colour would make a four or an open three lies within two
// of a stone of that colour, so no threat point is lost to the distance cut.
//
// Threat-aware pruning (unless disabled): when the opponent can make a straight four
// or a double four next move (it has an open three or better), only the points that
// stop it — every point where the opponent would make a four — and our own fours
// are generated.

// scoredMove is a candidate and its ordering score.
type scoredMove struct {
	move  int16
	score int32
}

// Ordering bonuses for the mover's own threats and for blocking the opponent's (the
// search reads them from its searchParams, where the three and four entries are tunable).
var (
	ownLevelScore = [numLevels]int32{
		lvThree: 40_000, lvFour: 30_000, lvThreeThree: 400_000, lvFourThree: 600_000, lvFlex: 2_000_000, lvFive: 4_000_000,
	}
	oppLevelScore = [numLevels]int32{
		lvThree: 30_000, lvFour: 20_000, lvThreeThree: 300_000, lvFourThree: 500_000, lvFlex: 1_000_000, lvFive: 3_000_000,
	}
)

// region returns the scan rectangle: the stones' bounding box grown by g, clipped.
func (p *position) region(g int) (x0, y0, x1, y1 int) {
	if p.maxX < 0 {
		c := p.size / 2
		return c, c, c, c
	}
	return max(int(p.minX)-g, 0), max(int(p.minY)-g, 0),
		min(int(p.maxX)+g, p.size-1), min(int(p.maxY)+g, p.size-1)
}

// opponentFourPoint reports whether colour index op would make a four or better at m.
func (p *position) fourPoint(m, ci int) bool {
	for _, q := range p.pat[m][ci] {
		if q >= patC4 && q <= pat5 {
			return true
		}
	}
	return false
}

// genMoves writes the candidates of the side to move to buf and returns how many.
// With prune set, the threat-aware restriction applies.
func (s *searcher) genMoves(buf []scoredMove, prune bool, ply int, ttMove int) int {
	p := &s.pos
	me := int(p.side - 1)
	op := 1 - me
	// (A renju black flex point may be forbidden: then it is no threat.)
	restrict := prune && (p.cnt[op][lvFive] > 0 || (p.cnt[op][lvFlex] > 0 &&
		(op != 0 || p.rule != Renju || p.findLevel(op, lvFlex, true) >= 0)))
	x0, y0, x1, y1 := p.region(2)
	n := 0
	empty := p.maxX < 0
	hist := &s.history[me]
	k0, k1 := int(s.killers[ply][0]), int(s.killers[ply][1])
	for y := y0; y <= y1; y++ {
		m := cellIndex(x0, y)
		for x := x0; x <= x1; x, m = x+1, m+1 {
			if p.cell[m] != 0 || (p.nb[m] == 0 && !empty) {
				continue
			}
			lm, lo := p.lvl[m][me], p.lvl[m][op]
			if restrict && lm < lvFour && !p.fourPoint(m, op) {
				continue
			}
			if lm == lvForbidden || (lm >= lvThreeThree && p.side == Black && p.rule == Renju) {
				if !p.legal(m) {
					continue
				}
			}
			sc := s.par.ownLevel[lm] + s.par.oppLevel[lo] + p.val[m][me][roleOwn] + p.val[m][op][roleWait] + hist[m]
			switch m {
			case ttMove:
				sc += 1 << 28
			case k0:
				sc += 20_000
			case k1:
				sc += 15_000
			}
			buf[n] = scoredMove{int16(m), sc}
			n++
		}
	}
	return n
}

// pickMove moves the best-scored of buf[i:n] to position i and returns it.
func pickMove(buf []scoredMove, i, n int) int {
	best := i
	for j := i + 1; j < n; j++ {
		if buf[j].score > buf[best].score {
			best = j
		}
	}
	buf[i], buf[best] = buf[best], buf[i]
	return int(buf[i].move)
}

// findLevel returns the first empty point in the region where colour index ci has
// at least level l (and, with mustBeLegal, that colour may play it), or -1.
func (p *position) findLevel(ci int, l level, mustBeLegal bool) int {
	x0, y0, x1, y1 := p.region(2)
	for y := y0; y <= y1; y++ {
		m := cellIndex(x0, y)
		for x := x0; x <= x1; x, m = x+1, m+1 {
			if p.cell[m] == 0 && p.lvl[m][ci] >= l && (!mustBeLegal || p.legalFor(m, ci)) {
				return m
			}
		}
	}
	return -1
}
