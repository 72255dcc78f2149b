package match

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/record"
)

// ErrNoOpenings is returned for an openings file with no opening in it.
var ErrNoOpenings = errors.New("match: no openings in file")

// Opening is a start position given as its move list.
type Opening struct {
	Moves []engine.Point
	Line  int    // line number in its file
	Note  string // the comment after '#', if any
}

// String returns the opening in packed notation.
func (o Opening) String() string { return engine.FormatMoves(o.Moves) }

// ParseOpenings reads an openings file: one opening per line as a move list in renju
// notation ("h8 i9 j7" or "h8i9j7"), an optional "# comment" after it; blank lines and
// lines starting with '#' are skipped. Every opening must be legal under rule on a
// board of the given size and must not end the game.
func ParseOpenings(r io.Reader, size int, rule engine.Rule) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64*1024)
	n := 0
	for sc.Scan() {
		n++
		text, note, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		moves, err := engine.ParseMoves(text, size)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q: %w", n, text, err)
		}
		b, err := engine.BoardFromMoves(size, rule, moves)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if b.Outcome().Over {
			return nil, fmt.Errorf("line %d: %w", n, engine.ErrGameOver)
		}
		out = append(out, Opening{Moves: moves, Line: n, Note: strings.TrimSpace(note)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, ErrNoOpenings
	}
	return out, nil
}

// WritePSQ writes a game in Piskvork's PSQ format: a header line with the board size,
// one "x,y,milliseconds" line per move (1-based, from the top left), the two players'
// names (black first) and a closing "-1".
func WritePSQ(w io.Writer, size int, moves []engine.Point, times []int64, black, white string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Piskvorky %dx%d, 11:11, 0\n", size, size)
	for i, m := range moves {
		var ms int64
		if i < len(times) {
			ms = times[i]
		}
		bw.WriteString(strconv.Itoa(m.X+1) + "," + strconv.Itoa(size-m.Y) + "," + strconv.FormatInt(ms, 10) + "\n")
	}
	fmt.Fprintf(bw, "%s\n%s\n-1\n", black, white)
	return bw.Flush()
}

// ReadPSQ reads the moves of a PSQ file written by WritePSQ (or Piskvork).
func ReadPSQ(r io.Reader) (size int, moves []engine.Point, err error) {
	data, err := io.ReadAll(io.LimitReader(r, record.MaxBytes+1))
	if err != nil {
		return 0, nil, err
	}
	g, err := record.ParsePSQ(data)
	if err != nil {
		return 0, nil, fmt.Errorf("match: %w", err)
	}
	return g.Size, g.Moves, nil
}
