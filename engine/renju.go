package engine

// Renju forbidden points (black only):
//   - overline: the move makes six or more in a row (and no exact five anywhere);
//   - double-four: the move makes two or more fours (a four is a line where one more
//     black stone makes exactly five);
//   - double-three: the move makes two or more open threes, where a three is open only
//     if some point turns it into a straight four and that point is not itself
//     forbidden for black (checked recursively, with the move on the board).
// A move that makes an exact five is never forbidden, whatever else it makes.
//
// The checks place stones temporarily on b.cells (never touching the hash or move
// list) and always restore them before returning.

// forbiddenKind classifies the empty point p for black.
func (b *Board) forbiddenKind(p Point) Forbidden {
	i := p.Y*b.size + p.X
	b.cells[i] = Black
	defer func() { b.cells[i] = Empty }()

	over := false
	for _, d := range directions {
		n, _, _ := b.runLength(p, d, Black)
		if n == 5 {
			return NotForbidden
		}
		if n > 5 {
			over = true
		}
	}
	if over {
		return Overline
	}
	var fours [4]int
	total := 0
	for j, d := range directions {
		fours[j] = b.fourCount(p, d)
		total += fours[j]
	}
	if total >= 2 {
		return DoubleFour
	}
	threes := 0
	for j, d := range directions {
		if fours[j] == 0 && b.openThree(p, d) {
			threes++
		}
	}
	if threes >= 2 {
		return DoubleThree
	}
	return NotForbidden
}

// at returns the colour k steps from p along d (wall off the board).
func (b *Board) at(p, d Point, k int) Color {
	return b.get(p.X+k*d.X, p.Y+k*d.Y)
}

// blackRun returns the extent [lo, hi] (in steps along d from p) of the black run
// through offset k, which must hold black.
func (b *Board) blackRun(p, d Point, k int) (lo, hi int) {
	lo, hi = k, k
	for b.at(p, d, lo-1) == Black {
		lo--
	}
	for b.at(p, d, hi+1) == Black {
		hi++
	}
	return lo, hi
}

// fourCount returns how many fours black (already on p) has through p along d: the
// number of points that complete an exact five containing p, where the two ends of a
// straight four (_XXXX_) count as one four.
func (b *Board) fourCount(p, d Point) int {
	var fivePoints [2]int
	n := 0
	for k := -4; k <= 4; k++ {
		if k == 0 || b.at(p, d, k) != Empty {
			continue
		}
		q := Point{p.X + k*d.X, p.Y + k*d.Y}
		i := q.Y*b.size + q.X
		b.cells[i] = Black
		lo, hi := b.blackRun(p, d, k)
		b.cells[i] = Empty
		if hi-lo+1 == 5 && lo <= 0 && hi >= 0 {
			if n < len(fivePoints) {
				fivePoints[n] = k
			}
			n++
		}
	}
	if n == 2 && fivePoints[1]-fivePoints[0] == 5 {
		return 1 // straight four: both ends of one four
	}
	return n
}

// openThree reports whether black (already on p) has an open three through p along d:
// a point q exists that makes a straight four through p with exact fives at both ends,
// and q is not forbidden.
func (b *Board) openThree(p, d Point) bool {
	for k := -3; k <= 3; k++ {
		if k == 0 || b.at(p, d, k) != Empty {
			continue
		}
		q := Point{p.X + k*d.X, p.Y + k*d.Y}
		i := q.Y*b.size + q.X
		b.cells[i] = Black
		lo, hi := b.blackRun(p, d, 0)
		straight := hi-lo+1 == 4 &&
			b.at(p, d, lo-1) == Empty && b.at(p, d, hi+1) == Empty &&
			b.at(p, d, lo-2) != Black && b.at(p, d, hi+2) != Black
		b.cells[i] = Empty
		if straight && b.forbiddenKind(q) == NotForbidden {
			return true
		}
	}
	return false
}

// ForbiddenPoint is an empty point black may not play under renju, and why.
type ForbiddenPoint struct {
	Point Point
	Kind  Forbidden
}

// ForbiddenPoints returns black's forbidden points on b, row by row from a1, whatever the
// side to move; nil under other rules. Only points whose lines hold enough black stones
// within four points to form two threes, two fours or six in a row get the full check:
// two threes need two lines with two stones each, two fours two lines with three or one
// line with four, an overline one line with five (four of them within reach).
func (b *Board) ForbiddenPoints() []ForbiddenPoint {
	if b.rule != Renju {
		return nil
	}
	n := b.size * b.size
	// near[d][i] counts the black stones within four points of cell i along direction d.
	var near [len(directions)][MaxSize * MaxSize]uint8
	for i, c := range b.cells[:n] {
		if c != Black {
			continue
		}
		p := Point{i % b.size, i / b.size}
		for j, d := range directions {
			for k := -4; k <= 4; k++ {
				if q := (Point{p.X + k*d.X, p.Y + k*d.Y}); k != 0 && q.Valid(b.size) {
					near[j][q.Y*b.size+q.X]++
				}
			}
		}
	}
	var out []ForbiddenPoint
	for i, c := range b.cells[:n] {
		if c != Empty {
			continue
		}
		lines, four := 0, false
		for j := range directions {
			k := near[j][i]
			four = four || k >= 4
			if k >= 2 {
				lines++
			}
		}
		if !four && lines < 2 {
			continue
		}
		p := Point{i % b.size, i / b.size}
		if k := b.forbiddenKind(p); k != NotForbidden {
			out = append(out, ForbiddenPoint{Point: p, Kind: k})
		}
	}
	return out
}
