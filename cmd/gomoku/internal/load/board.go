package load

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Board is a client's view of a game's stones, enough to choose random legal moves in
// freestyle rooms (every empty point is legal there).
type Board struct {
	size   int
	cells  []bool
	stones []int // occupied cell indices, for choosing near a stone
	ply    int
}

// Board errors.
var (
	errBadPoint = errors.New("load: bad point")
	errOccupied = errors.New("load: point occupied")
	errFull     = errors.New("load: board full")
)

// NewBoard returns an empty size x size board (15..20).
func NewBoard(size int) *Board { return &Board{size: size, cells: make([]bool, size*size)} }

// Ply returns the number of stones on the board.
func (b *Board) Ply() int { return b.ply }

// Size returns the board's side.
func (b *Board) Size() int { return b.size }

// MaxBoardSize is the largest board side the server allows.
const MaxBoardSize = 20

// pointNames holds every point's name, so that choosing a move allocates nothing.
var pointNames = func() (t [MaxBoardSize][MaxBoardSize]string) {
	for x := range MaxBoardSize {
		for y := range MaxBoardSize {
			t[x][y] = fmt.Sprintf("%c%d", 'a'+x, y+1)
		}
	}
	return t
}()

// PointName returns the renju notation of (x, y), 0-based from the bottom left: "h8".
func PointName(x, y int) string {
	if x >= 0 && x < MaxBoardSize && y >= 0 && y < MaxBoardSize {
		return pointNames[x][y]
	}
	return fmt.Sprintf("%c%d", 'a'+x, y+1)
}

// ParsePoint reads a point in renju notation on a board of the given size.
func ParsePoint(s string, size int) (x, y int, err error) {
	if len(s) < 2 || len(s) > 3 {
		return 0, 0, fmt.Errorf("%w: %q", errBadPoint, s)
	}
	c := s[0] | 0x20 // lower case
	x = int(c) - 'a'
	y = 0
	for _, d := range s[1:] {
		if d < '0' || d > '9' {
			return 0, 0, fmt.Errorf("%w: %q", errBadPoint, s)
		}
		y = y*10 + int(d-'0')
	}
	y--
	if x < 0 || x >= size || y < 0 || y >= size {
		return 0, 0, fmt.Errorf("%w: %q", errBadPoint, s)
	}
	return x, y, nil
}

// Play puts a stone on point p.
func (b *Board) Play(p string) error {
	x, y, err := ParsePoint(p, b.size)
	if err != nil {
		return err
	}
	i := y*b.size + x
	if b.cells[i] {
		return fmt.Errorf("%w: %s", errOccupied, p)
	}
	b.cells[i] = true
	b.stones = append(b.stones, i)
	b.ply++
	return nil
}

// Remove takes the stone on p off the board (takebacks).
func (b *Board) Remove(p string) error {
	x, y, err := ParsePoint(p, b.size)
	if err != nil {
		return err
	}
	i := y*b.size + x
	if !b.cells[i] {
		return fmt.Errorf("%w: %s is empty", errBadPoint, p)
	}
	b.cells[i] = false
	for k, v := range b.stones {
		if v == i {
			b.stones = append(b.stones[:k], b.stones[k+1:]...)
			break
		}
	}
	b.ply--
	return nil
}

// Choose returns a uniformly random empty point, preferring (with probability near) a
// point within two lines of an existing stone so that games look like games and end by
// a five now and then; errFull when no point is empty.
func (b *Board) Choose(r *rand.Rand, near float64) (string, error) {
	n := b.size * b.size
	if b.ply >= n {
		return "", errFull
	}
	if b.ply == 0 {
		c := b.size / 2
		return PointName(c, c), nil
	}
	if r.Float64() < near {
		// A few tries at a point next to a stone.
		for range 16 {
			i := b.stones[r.IntN(len(b.stones))]
			x := i%b.size + r.IntN(5) - 2
			y := i/b.size + r.IntN(5) - 2
			if x >= 0 && x < b.size && y >= 0 && y < b.size && !b.cells[y*b.size+x] {
				return PointName(x, y), nil
			}
		}
	}
	k := r.IntN(n - b.ply)
	for i, full := range b.cells {
		if full {
			continue
		}
		if k == 0 {
			return PointName(i%b.size, i/b.size), nil
		}
		k--
	}
	return "", errFull // unreachable: ply counts the stones
}
