package engine

import (
	"errors"
	"strconv"
	"strings"
)

// MinSize and MaxSize bound the board sizes the engine supports.
const (
	MinSize     = 15
	MaxSize     = 20
	DefaultSize = 15
)

// Point is an intersection of the board. X is the column counted from 0 at the left,
// Y is the row counted from 0 at the bottom, so Point{7, 7} is "h8", the centre of a
// 15x15 board.
type Point struct {
	X, Y int
}

// NoPoint is returned where no point applies (for example the best move of a search
// that finished no iteration).
var NoPoint = Point{-1, -1}

// Notation errors.
var (
	ErrBadPoint = errors.New("engine: bad point notation")
	ErrBadSize  = errors.New("engine: board size must be 15 to 20")
)

// Valid reports whether p lies on a board of the given size.
func (p Point) Valid(size int) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size
}

// String formats p in renju notation: a column letter from 'a' and a row number from 1
// at the bottom ("h8"). NoPoint and other negative points format as "-".
func (p Point) String() string {
	if p.X < 0 || p.Y < 0 || p.X >= 26 {
		return "-"
	}
	return string(rune('a'+p.X)) + strconv.Itoa(p.Y+1)
}

// ParsePoint parses renju notation ("h8", case-insensitive) for a board of the given size.
func ParsePoint(s string, size int) (Point, error) {
	p, n, err := parsePointPrefix(s, size)
	if err != nil {
		return NoPoint, err
	}
	if n != len(s) {
		return NoPoint, ErrBadPoint
	}
	return p, nil
}

// parsePointPrefix parses one point at the start of s and returns how many bytes it used.
func parsePointPrefix(s string, size int) (Point, int, error) {
	if size < MinSize || size > MaxSize {
		return NoPoint, 0, ErrBadSize
	}
	if len(s) < 2 {
		return NoPoint, 0, ErrBadPoint
	}
	c := s[0] | 0x20 // lower case
	if c < 'a' || c > 'z' {
		return NoPoint, 0, ErrBadPoint
	}
	x := int(c - 'a')
	n := 1
	y := 0
	for n < len(s) && n < 3 && s[n] >= '0' && s[n] <= '9' {
		y = y*10 + int(s[n]-'0')
		n++
	}
	if n == 1 || s[1] == '0' {
		return NoPoint, 0, ErrBadPoint
	}
	p := Point{x, y - 1}
	if !p.Valid(size) {
		return NoPoint, 0, ErrBadPoint
	}
	return p, n, nil
}

// ParseMoves parses a position written as its move list in renju notation, with or
// without separators ("h8i9j7", "h8 i9 j7", "h8,i9,j7").
func ParseMoves(s string, size int) ([]Point, error) {
	var moves []Point
	for i := 0; i < len(s); {
		switch s[i] {
		case ' ', ',', ';', '\t', '\n', '\r':
			i++
			continue
		}
		p, n, err := parsePointPrefix(s[i:], size)
		if err != nil {
			return nil, err
		}
		moves = append(moves, p)
		i += n
	}
	return moves, nil
}

// FormatMoves writes a move list in packed renju notation ("h8i9j7").
func FormatMoves(moves []Point) string {
	var sb strings.Builder
	for _, m := range moves {
		sb.WriteString(m.String())
	}
	return sb.String()
}

// ParseGomocup parses the Gomocup "x,y" form (x column from 0 at the left, y row from 0
// at the top) for a board of the given size.
func ParseGomocup(s string, size int) (Point, error) {
	if size < MinSize || size > MaxSize {
		return NoPoint, ErrBadSize
	}
	xs, ys, ok := strings.Cut(strings.TrimSpace(s), ",")
	if !ok {
		return NoPoint, ErrBadPoint
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if err1 != nil || err2 != nil {
		return NoPoint, ErrBadPoint
	}
	p := Point{x, size - 1 - y}
	if !p.Valid(size) {
		return NoPoint, ErrBadPoint
	}
	return p, nil
}

// FormatGomocup writes p in the Gomocup "x,y" form for a board of the given size.
func FormatGomocup(p Point, size int) string {
	return strconv.Itoa(p.X) + "," + strconv.Itoa(size-1-p.Y)
}
