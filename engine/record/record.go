// Package record reads game records into move lists: Piskvork's PSQ files, SGF
// (FF[4] GM[4], as Renlib, Yixin and the server's own records write it) and the packed
// move strings of renju notation ("h8i9j7", engine.ParseMoves). Like the engine it
// is pure: no I/O, no package-level mutable state.
//
// The readers check the form of a record and that its points lie on the board; whether
// the moves make a legal game is for engine.BoardFromMoves to say.
package record

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/gomoku-arena/gomoku/engine"
)

// Format names a record format.
type Format string

// The formats Parse tells apart.
const (
	Moves Format = "moves"
	PSQ   Format = "psq"
	SGF   Format = "sgf"
)

// MaxBytes bounds the records the readers accept: a full 20x20 SGF with comments fits.
const MaxBytes = 64 << 10

// Errors of the readers. A *SyntaxError wraps one of them.
var (
	ErrEmpty    = errors.New("record: empty record")
	ErrTooLarge = errors.New("record: record too large")
	ErrSyntax   = errors.New("record: malformed record")
	ErrSize     = errors.New("record: board size must be 15 to 20")
	ErrOffBoard = errors.New("record: move off the board")
	ErrSetup    = errors.New("record: setup stones must alternate (as many white as black, or one black more)")
)

// SyntaxError locates a reader's refusal: the 1-based line of the input and what was
// wrong there.
type SyntaxError struct {
	Line int
	Err  error // one of the errors above
	Text string
}

func (e *SyntaxError) Error() string {
	s := e.Err.Error() + " (line " + strconv.Itoa(e.Line)
	if e.Text != "" {
		s += ": " + strconv.Quote(e.Text)
	}
	return s + ")"
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// Game is a record's content: the board size, the rule when the record names one, and
// the moves from the first, black's.
type Game struct {
	Size    int
	Rule    engine.Rule
	HasRule bool
	Moves   []engine.Point
}

// Parse reads a record in any of the formats: SGF when it starts with "(", PSQ when
// its first line is a "WxH" header, else a move string for a board of size (0: 15).
func Parse(data []byte, size int) (Game, Format, error) {
	if len(data) > MaxBytes {
		return Game{}, "", ErrTooLarge
	}
	text := bytes.TrimSpace(data)
	if len(text) == 0 {
		return Game{}, "", ErrEmpty
	}
	if text[0] == '(' {
		g, err := ParseSGF(text)
		return g, SGF, err
	}
	if _, ok := psqHeader(firstLine(text)); ok {
		g, err := ParsePSQ(text)
		return g, PSQ, err
	}
	if size == 0 {
		size = engine.DefaultSize
	}
	if size < engine.MinSize || size > engine.MaxSize {
		return Game{}, Moves, ErrSize
	}
	moves, err := engine.ParseMoves(string(text), size)
	if err != nil {
		return Game{}, Moves, &SyntaxError{Line: 1, Err: ErrSyntax, Text: clip(string(text))}
	}
	return Game{Size: size, Moves: moves}, Moves, nil
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		return b[:i]
	}
	return b
}

// clip shortens text quoted in an error.
func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

// ParsePSQ reads a Piskvork PSQ record: a header whose first "WxH" gives the (square)
// board ("Piskvorky 15x15, 11:11, 0"), then one "x,y,ms" line per move with x and y
// counted from 1 at the top left. The moves end at the first line of another form
// (the players' names, "-1").
func ParsePSQ(data []byte) (Game, error) {
	if len(data) > MaxBytes {
		return Game{}, ErrTooLarge
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	if len(lines[0]) == 0 {
		return Game{}, ErrEmpty
	}
	size, ok := psqHeader(lines[0])
	if !ok {
		return Game{}, &SyntaxError{Line: 1, Err: ErrSyntax, Text: clip(string(bytes.TrimSpace(lines[0])))}
	}
	if size < engine.MinSize || size > engine.MaxSize {
		return Game{}, &SyntaxError{Line: 1, Err: ErrSize}
	}
	g := Game{Size: size}
	for i, raw := range lines[1:] {
		line := bytes.TrimSpace(raw)
		f := bytes.Split(line, []byte(","))
		if len(f) != 3 {
			break
		}
		x, e1 := strconv.Atoi(string(bytes.TrimSpace(f[0])))
		y, e2 := strconv.Atoi(string(bytes.TrimSpace(f[1])))
		if e1 != nil || e2 != nil {
			break
		}
		p := engine.Point{X: x - 1, Y: size - y}
		if !p.Valid(size) {
			return Game{}, &SyntaxError{Line: i + 2, Err: ErrOffBoard, Text: clip(string(line))}
		}
		if len(g.Moves) >= size*size {
			return Game{}, &SyntaxError{Line: i + 2, Err: ErrSyntax, Text: "more moves than points"}
		}
		g.Moves = append(g.Moves, p)
	}
	return g, nil
}

// psqHeader finds the board size in a PSQ header: the first "WxH" with W == H.
func psqHeader(line []byte) (int, bool) {
	for i := 0; i < len(line); i++ {
		if !isDigit(line[i]) || (i > 0 && isDigit(line[i-1])) {
			continue
		}
		j := i
		for j < len(line) && isDigit(line[j]) {
			j++
		}
		if j >= len(line) || line[j] != 'x' || j-i > 3 {
			continue
		}
		k := j + 1
		for k < len(line) && isDigit(line[k]) {
			k++
		}
		if k == j+1 || k-j-1 > 3 {
			continue
		}
		w, _ := strconv.Atoi(string(line[i:j]))
		h, _ := strconv.Atoi(string(line[j+1 : k]))
		if w != h {
			return 0, false
		}
		return w, true
	}
	return 0, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
