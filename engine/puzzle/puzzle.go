package puzzle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
)

// Categories of the suite.
const (
	WinInOne     = "win-in-one"
	MustBlock    = "must-block"
	OpenThree    = "open-three"
	VCF          = "vcf"
	VCT          = "vct"
	RenjuTrap    = "renju-trap"
	OverlineTrap = "overline-trap"
)

// Categories lists the categories in report order.
var Categories = []string{WinInOne, MustBlock, OpenThree, VCF, VCT, RenjuTrap, OverlineTrap}

// Solver depths used by Expected (fours before the five).
const (
	MaxVCF       = 8 // VCF puzzles and the opponent's VCF in open-three puzzles
	VCTFollowVCF = 6 // the VCF that must follow the VCT's first move
)

// Errors of the file format and of verification.
var (
	ErrFormat   = errors.New("puzzle: malformed line")
	ErrCategory = errors.New("puzzle: unknown category")
	ErrToMove   = errors.New("puzzle: side to move does not match the move count")
	ErrAnswers  = errors.New("puzzle: answers differ from the solver's")
	ErrShape    = errors.New("puzzle: position does not fit its category")
)

// Puzzle is one position of the suite.
type Puzzle struct {
	ID       string
	Category string
	Rule     engine.Rule
	Size     int
	ToMove   engine.Color
	Moves    []engine.Point
	Answers  []engine.Point
	Note     string
}

// Board returns the puzzle's position.
func (p Puzzle) Board() (*engine.Board, error) {
	return engine.BoardFromMoves(p.Size, p.Rule, p.Moves)
}

// Format writes the puzzle as one line:
// id | category | rule | size | side to move | moves | answers | note
func (p Puzzle) Format() string {
	ans := make([]string, len(p.Answers))
	for i, a := range p.Answers {
		ans[i] = a.String()
	}
	mv := make([]string, len(p.Moves))
	for i, m := range p.Moves {
		mv[i] = m.String()
	}
	return strings.Join([]string{p.ID, p.Category, p.Rule.String(), strconv.Itoa(p.Size), p.ToMove.String(),
		strings.Join(mv, " "), strings.Join(ans, " "), p.Note}, " | ")
}

// Parse reads a puzzle file: one puzzle per line as written by Format; blank lines and
// lines starting with '#' are skipped. Positions must be legal and running, the side
// to move must match, and the answers must be legal moves.
func Parse(r io.Reader) ([]Puzzle, error) {
	var out []Puzzle
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64*1024)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// ParseLine parses one puzzle line.
func ParseLine(line string) (Puzzle, error) {
	f := strings.Split(line, "|")
	if len(f) != 8 {
		return Puzzle{}, fmt.Errorf("%w: want 8 fields separated by |, got %d", ErrFormat, len(f))
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	p := Puzzle{ID: f[0], Category: f[1], Note: f[7]}
	if p.ID == "" {
		return p, fmt.Errorf("%w: empty id", ErrFormat)
	}
	if !slices.Contains(Categories, p.Category) {
		return p, fmt.Errorf("%w: %q", ErrCategory, p.Category)
	}
	var err error
	if p.Rule, err = engine.ParseRule(f[2]); err != nil {
		return p, err
	}
	if p.Size, err = strconv.Atoi(f[3]); err != nil || p.Size < engine.MinSize || p.Size > engine.MaxSize {
		return p, engine.ErrBadSize
	}
	switch f[4] {
	case "black":
		p.ToMove = engine.Black
	case "white":
		p.ToMove = engine.White
	default:
		return p, fmt.Errorf("%w: side %q", ErrFormat, f[4])
	}
	if p.Moves, err = engine.ParseMoves(f[5], p.Size); err != nil {
		return p, fmt.Errorf("moves: %w", err)
	}
	if p.Answers, err = engine.ParseMoves(f[6], p.Size); err != nil {
		return p, fmt.Errorf("answers: %w", err)
	}
	if len(p.Answers) == 0 {
		return p, fmt.Errorf("%w: no answer", ErrFormat)
	}
	b, err := p.Board()
	if err != nil {
		return p, err
	}
	if b.Outcome().Over {
		return p, engine.ErrGameOver
	}
	if b.ToMove() != p.ToMove {
		return p, ErrToMove
	}
	for _, a := range p.Answers {
		if err := b.Check(a); err != nil {
			return p, fmt.Errorf("answer %s: %w", a, err)
		}
	}
	return p, nil
}

// Expected recomputes a puzzle's accepted answers with the solver and checks that the
// position fits its category:
//   - win-in-one: the winning points of the side to move;
//   - must-block: no win in one; the opponent has a five point; the moves that leave it none;
//   - open-three: no winning point on either side, no four for the side to move, the
//     opponent has a VCF; the moves after which it has none;
//   - vcf: no win in one, no opponent five point; every first move of a VCF;
//   - vct: as vcf but without any VCF; every first move of a one-threat VCT;
//   - renju-trap and overline-trap: the first of the above that applies
//     (win in one, block, VCF) under their rule.
func Expected(p Puzzle, s *Solver) ([]engine.Point, error) {
	b, err := p.Board()
	if err != nil {
		return nil, err
	}
	me, opp := b.ToMove(), b.ToMove().Opponent()
	mine, theirs := WinningPoints(b, me), WinningPoints(b, opp)
	shape := func(ok bool, what string) error {
		if !ok {
			return fmt.Errorf("%w: %s: %s", ErrShape, p.Category, what)
		}
		return nil
	}
	var ans []engine.Point
	switch p.Category {
	case WinInOne:
		ans = mine
	case MustBlock:
		if err := shape(len(mine) == 0 && len(theirs) > 0, "needs an opponent five point and no own"); err != nil {
			return nil, err
		}
		ans = SafeMoves(b)
	case OpenThree:
		if err := shape(len(mine) == 0 && len(theirs) == 0 && len(fourMoves(b)) == 0, "needs no fours"); err != nil {
			return nil, err
		}
		c := b.Clone()
		if err := c.Play(farPoint(c)); err != nil {
			return nil, err
		}
		if err := shape(s.VCF(c, MaxVCF), "the opponent must threaten a VCF"); err != nil {
			return nil, err
		}
		ans = s.Defences(b, MaxVCF)
	case VCF:
		if err := shape(len(mine) == 0 && len(theirs) == 0, "needs no five point"); err != nil {
			return nil, err
		}
		ans = s.VCFFirstMoves(b, MaxVCF)
	case VCT:
		if err := shape(len(mine) == 0 && len(theirs) == 0 && !s.VCF(b, MaxVCF), "needs no VCF"); err != nil {
			return nil, err
		}
		ans = s.VCTFirstMoves(b, VCTFollowVCF)
	case RenjuTrap, OverlineTrap:
		if err := shape((p.Category == RenjuTrap) == (p.Rule == engine.Renju) && (p.Category != OverlineTrap || p.Rule == engine.Standard), "wrong rule"); err != nil {
			return nil, err
		}
		switch {
		case len(mine) > 0:
			ans = mine
		case len(theirs) > 0:
			ans = SafeMoves(b)
		default:
			ans = s.VCFFirstMoves(b, MaxVCF)
		}
	default:
		return nil, ErrCategory
	}
	if len(ans) == 0 {
		return nil, fmt.Errorf("%w: no answer", ErrShape)
	}
	return ans, nil
}

// Verify checks that a puzzle's answers are exactly the solver's.
func Verify(p Puzzle, s *Solver) error {
	want, err := Expected(p, s)
	if err != nil {
		return err
	}
	got := slices.Clone(p.Answers)
	less := func(a, b engine.Point) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	}
	slices.SortFunc(got, less)
	slices.SortFunc(want, less)
	if !slices.Equal(got, want) {
		return fmt.Errorf("%w: file %s, solver %s", ErrAnswers, engine.FormatMoves(got), engine.FormatMoves(want))
	}
	return nil
}

// Accepts reports whether m is one of the puzzle's answers.
func (p Puzzle) Accepts(m engine.Point) bool { return slices.Contains(p.Answers, m) }
