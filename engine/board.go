package engine

import (
	"errors"
	"fmt"
)

// Move-legality errors. Forbidden points are reported as *ForbiddenError, which
// matches ErrForbidden with errors.Is.
var (
	ErrOffBoard  = errors.New("engine: point is off the board")
	ErrOccupied  = errors.New("engine: point is occupied")
	ErrForbidden = errors.New("engine: forbidden point")
	ErrGameOver  = errors.New("engine: game is over")
	ErrNoMove    = errors.New("engine: no move to undo")
)

// ForbiddenError reports a renju forbidden point and its kind.
type ForbiddenError struct {
	Point Point
	Kind  Forbidden
}

// Error implements error.
func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("engine: forbidden point %s (%s)", e.Point, e.Kind)
}

// Is makes errors.Is(err, ErrForbidden) true.
func (e *ForbiddenError) Is(target error) bool { return target == ErrForbidden }

// Outcome is the state of a game: still running, won (with the winning stones) or drawn.
type Outcome struct {
	Over   bool
	Winner Color   // Empty for a draw or a running game
	Line   []Point // the winning stones, in line order; nil otherwise
}

// Board is a game position under a rule set: the stones, the move list, the side to
// move, the Zobrist hash and the outcome. It checks legality (including renju forbidden
// points) and detects wins. The zero value is not usable; create boards with NewBoard.
type Board struct {
	size  int
	rule  Rule
	cells [MaxSize * MaxSize]Color
	moves []Point
	hash  uint64
	out   Outcome
}

// NewBoard returns an empty board of the given size (15 to 20) under rule.
func NewBoard(size int, rule Rule) (*Board, error) {
	if size < MinSize || size > MaxSize {
		return nil, ErrBadSize
	}
	if rule > Renju {
		return nil, ErrBadRule
	}
	return &Board{size: size, rule: rule, moves: make([]Point, 0, size*size)}, nil
}

// BoardFromMoves returns the board reached by playing moves from the empty board.
// It fails on the first illegal move, saying which one.
func BoardFromMoves(size int, rule Rule, moves []Point) (*Board, error) {
	b, err := NewBoard(size, rule)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		if err := b.Play(m); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	return b, nil
}

// Size returns the board's side length.
func (b *Board) Size() int { return b.size }

// Rule returns the board's rule set.
func (b *Board) Rule() Rule { return b.rule }

// Ply returns the number of stones played.
func (b *Board) Ply() int { return len(b.moves) }

// ToMove returns the colour to play next: Black on even plies, White on odd.
func (b *Board) ToMove() Color {
	if len(b.moves)%2 == 0 {
		return Black
	}
	return White
}

// Moves returns a copy of the move list.
func (b *Board) Moves() []Point { return append([]Point(nil), b.moves...) }

// LastMove returns the last move played, or NoPoint on an empty board.
func (b *Board) LastMove() Point {
	if len(b.moves) == 0 {
		return NoPoint
	}
	return b.moves[len(b.moves)-1]
}

// At returns the content of p (Empty for points off the board).
func (b *Board) At(p Point) Color {
	if !p.Valid(b.size) {
		return Empty
	}
	return b.cells[p.Y*b.size+p.X]
}

// Hash returns the Zobrist hash of the stones on the board. Two boards with the same
// stones have the same hash; the side to move follows from the stone count.
func (b *Board) Hash() uint64 { return b.hash }

// Outcome returns the game's outcome; its Line is a copy.
func (b *Board) Outcome() Outcome {
	o := b.out
	o.Line = append([]Point(nil), b.out.Line...)
	return o
}

// Clone returns an independent copy of the board.
func (b *Board) Clone() *Board {
	c := *b
	// Room for one more move, not the whole board: a room clones the board for every
	// move it applies, and a full-board capacity was most of the bytes it allocated.
	c.moves = append(make([]Point, 0, len(b.moves)+1), b.moves...)
	c.out.Line = append([]Point(nil), b.out.Line...)
	return &c
}

// Check reports whether the side to move may play p: nil, ErrGameOver, ErrOffBoard,
// ErrOccupied, or a *ForbiddenError for a renju forbidden point of black.
func (b *Board) Check(p Point) error {
	if b.out.Over {
		return ErrGameOver
	}
	if !p.Valid(b.size) {
		return ErrOffBoard
	}
	if b.cells[p.Y*b.size+p.X] != Empty {
		return ErrOccupied
	}
	if b.rule == Renju && b.ToMove() == Black {
		if k := b.forbiddenKind(p); k != NotForbidden {
			return &ForbiddenError{Point: p, Kind: k}
		}
	}
	return nil
}

// HasLegalMove reports whether the side to move may play anywhere: false once the game
// is over, and under renju when every empty point is forbidden for black.
func (b *Board) HasLegalMove() bool {
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if b.Check(Point{X: x, Y: y}) == nil {
				return true
			}
		}
	}
	return false
}

// ForbiddenAt returns the kind of renju forbidden point p is for black, whatever the
// side to move; NotForbidden under other rules, for occupied points and off the board.
func (b *Board) ForbiddenAt(p Point) Forbidden {
	if b.rule != Renju || !p.Valid(b.size) || b.cells[p.Y*b.size+p.X] != Empty {
		return NotForbidden
	}
	return b.forbiddenKind(p)
}

// Play plays p for the side to move after checking it, and updates the outcome.
func (b *Board) Play(p Point) error {
	if err := b.Check(p); err != nil {
		return err
	}
	c := b.ToMove()
	b.put(p, c)
	b.moves = append(b.moves, p)
	if line := b.winningLine(p, c); line != nil {
		b.out = Outcome{Over: true, Winner: c, Line: line}
	} else if len(b.moves) == b.size*b.size {
		b.out = Outcome{Over: true}
	}
	return nil
}

// Undo takes back the last move and returns it.
func (b *Board) Undo() (Point, error) {
	if len(b.moves) == 0 {
		return NoPoint, ErrNoMove
	}
	p := b.moves[len(b.moves)-1]
	b.moves = b.moves[:len(b.moves)-1]
	b.remove(p)
	// A position before the last move was never over: play stops at the end.
	b.out = Outcome{}
	return p, nil
}

func (b *Board) put(p Point, c Color) {
	i := p.Y*b.size + p.X
	b.cells[i] = c
	b.hash ^= zobristKey(c, i)
}

func (b *Board) remove(p Point) {
	i := p.Y*b.size + p.X
	b.hash ^= zobristKey(b.cells[i], i)
	b.cells[i] = Empty
}

// directions are the four line directions: horizontal, vertical and the two diagonals.
var directions = [4]Point{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// get returns the colour at (x, y), or wall for points off the board.
func (b *Board) get(x, y int) Color {
	if x < 0 || y < 0 || x >= b.size || y >= b.size {
		return wall
	}
	return b.cells[y*b.size+x]
}

// wall marks points off the board in line scans.
const wall Color = 3

// runLength counts the stones of colour c in the line through p along d (p included,
// assumed to hold c), and returns the run's two ends.
func (b *Board) runLength(p, d Point, c Color) (n int, lo, hi Point) {
	lo, hi = p, p
	for b.get(lo.X-d.X, lo.Y-d.Y) == c {
		lo = Point{lo.X - d.X, lo.Y - d.Y}
	}
	for b.get(hi.X+d.X, hi.Y+d.Y) == c {
		hi = Point{hi.X + d.X, hi.Y + d.Y}
	}
	if d.X != 0 {
		return hi.X - lo.X + 1, lo, hi
	}
	return hi.Y - lo.Y + 1, lo, hi
}

// wins reports whether a run of n stones of colour c wins under the board's rule.
func (b *Board) wins(n int, c Color) bool {
	switch {
	case n == 5:
		return true
	case n < 5:
		return false
	case b.rule == Freestyle:
		return true
	case b.rule == Renju:
		return c == White
	}
	return false // standard: an overline wins for nobody
}

// winningLine returns the stones of the winning run through p, or nil.
func (b *Board) winningLine(p Point, c Color) []Point {
	for _, d := range directions {
		n, lo, _ := b.runLength(p, d, c)
		if b.wins(n, c) {
			line := make([]Point, n)
			for i := range line {
				line[i] = Point{lo.X + i*d.X, lo.Y + i*d.Y}
			}
			return line
		}
	}
	return nil
}
