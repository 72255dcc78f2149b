package engine

// VCF: victory by continuous fours. The attacker plays only fours; the defender's
// reply to a four is forced (block the five point, or lose at once if that point is
// forbidden for black). A four that makes a straight four or a double four wins
// outright. When the defender's block makes a four of its own, the attacker must block
// it, and the line continues only if that block is itself a four.

// fivePointNear returns an empty point on a line through m (within four) where
// colour index ci would make five, or -1.
func (p *position) fivePointNear(m, ci int) int {
	for _, off := range dirOffset {
		for k := -4; k <= 4; k++ {
			q := m + k*off
			if k != 0 && p.cell[q] == 0 && p.lvl[q][ci] == lvFive {
				return q
			}
		}
	}
	return -1
}

// vcf looks for a VCF of the side to move within depth plies, giving up at
// s.vcfStop nodes. It returns the number of plies to the five
// (the five included), or 0, and leaves the line in s.vcfLine[ply:].
func (s *searcher) vcf(ply, depth int) int {
	p := &s.pos
	me := int(p.side - 1)
	op := 1 - me
	if p.cnt[me][lvFive] > 0 {
		s.vcfLine[ply] = int16(p.findLevel(me, lvFive, false))
		return 1
	}
	forced := -1
	if n := p.cnt[op][lvFive]; n > 0 {
		if n >= 2 {
			return 0
		}
		forced = p.findLevel(op, lvFive, false)
		if !p.legal(forced) || p.lvl[forced][me] < lvFour {
			return 0
		}
	} else if p.cnt[me][lvFlex] > 0 {
		if m := p.findLevel(me, lvFlex, true); m >= 0 {
			s.vcfLine[ply] = int16(m)
			s.vcfLine[ply+1], s.vcfLine[ply+2] = -1, -1 // any defence, then the five
			return 3
		}
	}
	if depth < 3 {
		s.vcfCut = true
		return 0
	}
	if ply+3 >= len(s.vcfLine) || s.nodes >= s.vcfStop || s.stopped {
		s.vcfCut = true
		return 0
	}
	if s.nodes >= s.nextPoll {
		s.poll()
		if s.stopped {
			return 0
		}
	}
	if forced >= 0 {
		return s.vcfTry(forced, ply, depth)
	}
	// Collect the attacker's fours in one scan, four-threes first.
	var fours [64]int16
	n43, n := 0, 0
	x0, y0, x1, y1 := p.region(1)
	for y := y0; y <= y1; y++ {
		m := cellIndex(x0, y)
		for x := x0; x <= x1; x, m = x+1, m+1 {
			if p.cell[m] != 0 || n == len(fours) {
				continue
			}
			switch p.lvl[m][me] {
			case lvFourThree:
				fours[n] = fours[n43]
				fours[n43] = int16(m)
				n43++
				n++
			case lvFour:
				fours[n] = int16(m)
				n++
			}
		}
	}
	for _, m := range fours[:n] {
		if !p.legal(int(m)) {
			continue
		}
		if d := s.vcfTry(int(m), ply, depth); d > 0 {
			return d
		}
		if s.nodes >= s.vcfStop || s.stopped {
			return 0
		}
	}
	return 0
}

// vcfTry plays the attacker's four m and the forced block, and continues the VCF.
func (s *searcher) vcfTry(m, ply, depth int) int {
	p := &s.pos
	me := int(p.side - 1)
	s.nodes++
	p.make(m)
	f := p.fivePointNear(m, me)
	if f < 0 { // the block of an opponent five that was not a four after all
		p.unmake()
		return 0
	}
	d := 0
	if !p.legal(f) {
		d = 3
		s.vcfLine[ply+1] = -1 // the defender cannot block (forbidden)
		s.vcfLine[ply+2] = int16(f)
	} else {
		s.nodes++
		p.make(f)
		if r := s.vcf(ply+2, depth-2); r > 0 {
			d = r + 2
			s.vcfLine[ply+1] = int16(f)
		}
		p.unmake()
	}
	p.unmake()
	if d > 0 {
		s.vcfLine[ply] = int16(m)
	}
	return d
}
