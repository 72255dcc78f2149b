package engine

// Internal board.
//
// The search works on a padded one-dimensional array: rows of stride = MaxSize+5
// cells, with five wall rows above and below and at least five wall columns between
// rows (the right padding of one row is the left padding of the next), so a line
// window of five cells each side of any point never leaves the array. Indices are
// cellIndex(x, y) = cellBase + (y+5)*stride + x. For each point the position keeps,
// incrementally on make/unmake: the four line keys (see pattern.go), the pattern of a
// black and a white stone along each direction, the combined threat level and the
// evaluation value per colour, the number of stones in the surrounding 5x5 square
// (candidate generation), per-colour sums and level counts, and the Zobrist hash
// (the same keys as Board.Hash).

const (
	pad      = halfLine
	stride   = MaxSize + pad
	cellBase = pad
	numCells = cellBase + (MaxSize+2*pad)*stride + pad + 1
	wallCell = 3
	maxMoves = MaxSize * MaxSize
)

// dirOffset are the index steps of the four directions, in Board's order:
// horizontal, vertical, diagonal (1,1) and anti-diagonal (1,-1).
var dirOffset = [4]int{1, stride, stride + 1, 1 - stride}

// cellIndex returns the internal index of the point (x, y).
func cellIndex(x, y int) int { return cellBase + (y+pad)*stride + x }

// cellPoint returns the point of an internal index.
func cellPoint(i int) Point {
	j := i - cellBase
	return Point{j % stride, j/stride - pad}
}

// undoInfo is what unmake needs beyond the move itself.
type undoInfo struct {
	move                   int16
	minX, minY, maxX, maxY int8
}

// position is the search board. Its zero value is unusable; call setup.
type position struct {
	size   int
	rule   Rule
	tab    *patternTable
	evals  *EvalTables // nil: the shipped tables
	ev     *evalTable  // evals' table of the rule
	side   Color       // colour to move
	ply    int         // moves made since setup
	stones int         // stones on the board
	hash   uint64

	minX, minY, maxX, maxY int8 // bounding box of the stones (empty board: min > max)

	cell [numCells]uint8
	nb   [numCells]uint8
	key  [numCells][4][2]uint16
	pat  [numCells][2][4]pattern
	lvl  [numCells][2]level
	val  [numCells][2][2]int32 // [point][colour][role]
	sum  [2][2]int32           // [colour][role], over the empty points
	cnt  [2][numLevels]int16
	zob  [2][numCells]uint64
	hist [maxMoves]undoInfo

	// The undo stack of put and take: every point whose patterns a put changed (at
	// most one direction per point), and per put the sums and counts before it.
	undo   [maxMoves * 4 * 2 * halfLine]undoPoint
	undone int // entries in undo
	mark   [maxMoves]undoMark
	marks  int // entries in mark
}

// undoPoint is a point's state before a put changed its patterns along direction d.
type undoPoint struct {
	n   int16
	d   uint8
	pat [2]pattern
	lvl [2]level
	val [2][2]int32
}

// undoMark is where a put's undo entries start, and the sums and counts before it.
type undoMark struct {
	start int32
	cnt   [2][numLevels]int16
	sum   [2][2]int32
}

// setup copies b into p, recomputing everything from scratch.
func (p *position) setup(b *Board) {
	p.size, p.rule = b.Size(), b.Rule()
	p.tab = patternsFor(p.rule)
	if p.evals == nil {
		p.evals = ShippedEvalTables()
	}
	p.ev = p.evals.tables[p.rule]
	p.side = b.ToMove()
	p.ply = 0
	p.undone, p.marks = 0, 0
	for i := range p.cell {
		p.cell[i] = wallCell
	}
	for y := 0; y < p.size; y++ {
		for x := 0; x < p.size; x++ {
			i := cellIndex(x, y)
			p.cell[i] = uint8(b.At(Point{x, y}))
			p.zob[0][i] = zobristKey(Black, y*p.size+x)
			p.zob[1][i] = zobristKey(White, y*p.size+x)
		}
	}
	p.recompute()
}

// keyDigit returns the line-key digit of a cell's content for colour index ci.
func keyDigit(c uint8, ci int) uint16 {
	switch {
	case c == 0:
		return digitEmpty
	case int(c) == ci+1:
		return digitOwn
	}
	return digitBlocked
}

// onBoard reports whether index i is a point of the board.
func (p *position) onBoard(i int) bool {
	return i >= 0 && i < numCells && p.cell[i] != wallCell
}

// recompute derives every incremental field from p.cell (used by setup and tests).
func (p *position) recompute() {
	p.hash = 0
	p.stones = 0
	p.sum = [2][2]int32{}
	p.cnt = [2][numLevels]int16{}
	p.minX, p.minY, p.maxX, p.maxY = MaxSize, MaxSize, -1, -1
	p.nb = [numCells]uint8{}
	for i := range p.cell {
		if p.cell[i] == wallCell {
			p.key[i] = [4][2]uint16{}
			continue
		}
		for d, off := range dirOffset {
			for ci := 0; ci < 2; ci++ {
				var k uint16
				for s := 1; s <= halfLine; s++ {
					k += keyDigit(p.cell[i-s*off], ci) * pow3[keySlot(-s)]
					k += keyDigit(p.cell[i+s*off], ci) * pow3[keySlot(s)]
				}
				p.key[i][d][ci] = k
			}
		}
	}
	for i := range p.cell {
		c := p.cell[i]
		if c == wallCell {
			continue
		}
		for d := range dirOffset {
			p.pat[i][0][d] = p.tab.line[0][p.key[i][d][0]]
			p.pat[i][1][d] = p.tab.line[1][p.key[i][d][1]]
		}
		for ci := 0; ci < 2; ci++ {
			p.lvl[i][ci], p.val[i][ci] = p.combine(ci, &p.pat[i][ci])
		}
		if c == uint8(Empty) {
			for ci := 0; ci < 2; ci++ {
				p.cnt[ci][p.lvl[i][ci]]++
				p.sum[ci][roleOwn] += p.val[i][ci][roleOwn]
				p.sum[ci][roleWait] += p.val[i][ci][roleWait]
			}
			continue
		}
		p.hash ^= p.zob[c-1][i]
		p.stones++
		pt := cellPoint(i)
		p.minX, p.minY = min(p.minX, int8(pt.X)), min(p.minY, int8(pt.Y))
		p.maxX, p.maxY = max(p.maxX, int8(pt.X)), max(p.maxY, int8(pt.Y))
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if dx != 0 || dy != 0 {
					p.nb[i+dy*stride+dx]++
				}
			}
		}
	}
}

// put places a stone of colour c on the empty point m, updating keys, patterns,
// levels, values, sums, counts and the hash (not the move history).
func (p *position) put(m int, c Color) {
	mk := &p.mark[p.marks]
	p.marks++
	mk.start, mk.cnt, mk.sum = int32(p.undone), p.cnt, p.sum
	for ci := 0; ci < 2; ci++ {
		p.cnt[ci][p.lvl[m][ci]]--
		p.sum[ci][roleOwn] -= p.val[m][ci][roleOwn]
		p.sum[ci][roleWait] -= p.val[m][ci][roleWait]
	}
	p.cell[m] = uint8(c)
	p.hash ^= p.zob[c-1][m]
	// Own digit 1 for the mover's keys, blocked digit 2 for the other colour's.
	wb, ww := uint16(1), uint16(2)
	if c == White {
		wb, ww = 2, 1
	}
	for d, off := range dirOffset {
		for k := 1; k <= halfLine; k++ {
			n := m + k*off
			w := pow3[keySlot(-k)]
			p.key[n][d][0] += wb * w
			p.key[n][d][1] += ww * w
			if p.cell[n] == 0 {
				p.update(n, d)
			}
			n = m - k*off
			w = pow3[keySlot(k)]
			p.key[n][d][0] += wb * w
			p.key[n][d][1] += ww * w
			if p.cell[n] == 0 {
				p.update(n, d)
			}
		}
	}
}

// take removes the stone on m, the reverse of the put that placed it (puts and takes
// pair up last-in first-out): the keys are stepped back, and the patterns, levels and
// values that put changed, with the sums and counts, are restored from the undo stack
// rather than looked up again in the tables.
func (p *position) take(m int) {
	c := Color(p.cell[m])
	p.cell[m] = 0
	p.hash ^= p.zob[c-1][m]
	wb, ww := uint16(1), uint16(2)
	if c == White {
		wb, ww = 2, 1
	}
	for d, off := range dirOffset {
		for k := 1; k <= halfLine; k++ {
			n := m + k*off
			w := pow3[keySlot(-k)]
			p.key[n][d][0] -= wb * w
			p.key[n][d][1] -= ww * w
			n = m - k*off
			w = pow3[keySlot(k)]
			p.key[n][d][0] -= wb * w
			p.key[n][d][1] -= ww * w
		}
	}
	p.marks--
	mk := &p.mark[p.marks]
	for i := p.undone - 1; i >= int(mk.start); i-- {
		u := &p.undo[i]
		n := int(u.n)
		p.pat[n][0][u.d], p.pat[n][1][u.d] = u.pat[0], u.pat[1]
		p.lvl[n], p.val[n] = u.lvl, u.val
	}
	p.undone = int(mk.start)
	p.cnt, p.sum = mk.cnt, mk.sum
}

// update refreshes the patterns of the empty point n along direction d, saving what
// it changes on the undo stack for take.
func (p *position) update(n, d int) {
	pb, pw := p.tab.line[0][p.key[n][d][0]], p.tab.line[1][p.key[n][d][1]]
	if pb == p.pat[n][0][d] && pw == p.pat[n][1][d] {
		return
	}
	u := &p.undo[p.undone]
	p.undone++
	u.n, u.d = int16(n), uint8(d)
	u.pat = [2]pattern{p.pat[n][0][d], p.pat[n][1][d]}
	u.lvl, u.val = p.lvl[n], p.val[n]
	if pb != p.pat[n][0][d] {
		p.pat[n][0][d] = pb
		p.refresh(n, 0)
	}
	if pw != p.pat[n][1][d] {
		p.pat[n][1][d] = pw
		p.refresh(n, 1)
	}
}

// refresh recomputes the level and value of the empty point n for colour index ci.
func (p *position) refresh(n, ci int) {
	l, v := p.combine(ci, &p.pat[n][ci])
	p.cnt[ci][p.lvl[n][ci]]--
	p.cnt[ci][l]++
	p.sum[ci][roleOwn] += v[roleOwn] - p.val[n][ci][roleOwn]
	p.sum[ci][roleWait] += v[roleWait] - p.val[n][ci][roleWait]
	p.lvl[n][ci], p.val[n][ci] = l, v
}

// make plays m for the side to move.
func (p *position) make(m int) {
	h := &p.hist[p.ply]
	h.move = int16(m)
	h.minX, h.minY, h.maxX, h.maxY = p.minX, p.minY, p.maxX, p.maxY
	p.put(m, p.side)
	for dy := -2 * stride; dy <= 2*stride; dy += stride {
		for dx := -2; dx <= 2; dx++ {
			p.nb[m+dy+dx]++
		}
	}
	p.nb[m]--
	j := m - cellBase
	x, y := int8(j%stride), int8(j/stride-pad)
	p.minX, p.minY = min(p.minX, x), min(p.minY, y)
	p.maxX, p.maxY = max(p.maxX, x), max(p.maxY, y)
	p.side = 3 - p.side
	p.ply++
	p.stones++
}

// unmake takes back the last move made.
func (p *position) unmake() {
	p.ply--
	p.stones--
	p.side = 3 - p.side
	h := &p.hist[p.ply]
	m := int(h.move)
	p.minX, p.minY, p.maxX, p.maxY = h.minX, h.minY, h.maxX, h.maxY
	for dy := -2 * stride; dy <= 2*stride; dy += stride {
		for dx := -2; dx <= 2; dx++ {
			p.nb[m+dy+dx]--
		}
	}
	p.nb[m]++
	p.take(m)
}

// lastMove returns the last move made since setup, or -1.
func (p *position) lastMove() int {
	if p.ply == 0 {
		return -1
	}
	return int(p.hist[p.ply-1].move)
}

// empty reports whether the board has no stones.
func (p *position) empty() bool { return p.maxX < 0 }

// forbidden classifies the empty point m for black under renju, exactly as
// Board.ForbiddenAt does (the same definitions, on the incremental patterns).
func (p *position) forbidden(m int) Forbidden {
	pb := &p.pat[m][0]
	over, fours, threes := false, 0, 0
	for _, q := range pb {
		switch q {
		case pat5:
			return NotForbidden
		case patOver:
			over = true
		case patO3:
			threes++
		}
		fours += q.fourCount()
	}
	switch {
	case over:
		return Overline
	case fours >= 2:
		return DoubleFour
	case threes < 2:
		return NotForbidden
	}
	threes = 0
	for d := range dirOffset {
		if pb[d] == patO3 && p.openThree(m, d) {
			threes++
		}
	}
	if threes >= 2 {
		return DoubleThree
	}
	return NotForbidden
}

// openThree reports whether black on m would make a real open three along d: a point
// q exists that makes a straight four through m, and q is not itself forbidden with
// m on the board.
func (p *position) openThree(m, d int) bool {
	key := p.key[m][d][0]
	for k := -3; k <= 3; k++ {
		q := m + k*dirOffset[d]
		if k == 0 || p.cell[q] != 0 || p.tab.line[0][key+pow3[keySlot(k)]] != patO4 {
			continue
		}
		p.put(m, Black)
		f := p.forbidden(q)
		p.take(m)
		if f == NotForbidden {
			return true
		}
	}
	return false
}

// legal reports whether the side to move may play the empty point m.
func (p *position) legal(m int) bool {
	if p.side != Black || p.rule != Renju {
		return true
	}
	return p.blackLegal(m)
}

// legalFor reports whether colour index ci may play the empty point m.
func (p *position) legalFor(m, ci int) bool {
	return ci != 0 || p.rule != Renju || p.blackLegal(m)
}

// blackLegal reports whether m is not a renju forbidden point for black.
func (p *position) blackLegal(m int) bool {
	switch p.lvl[m][0] {
	case lvForbidden:
		return false
	case lvFive:
		return true
	}
	n := 0
	for _, q := range p.pat[m][0] {
		if q == patO3 {
			n++
		}
	}
	return n < 2 || p.forbidden(m) == NotForbidden
}
