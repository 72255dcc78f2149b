// Package tune generates self-play games for evaluation tuning and fits the engine's
// evaluation tables to them by logistic regression (Texel tuning) of the game results,
// the positions' recorded search scores, or a blend of both.
//
// Dataset format (text, one game per line, '#' starts a comment line):
//
//	<rule> <size> <result> <opening plies> <moves> [<scores>]
//
// rule is freestyle, standard or renju; size 15..20; result black, white or draw;
// opening plies is how many of the first moves were drawn at random (the tuner skips
// those positions); moves is the whole game in packed renju notation ("h8i9j7...").
// scores, when present, are the search scores of the positions after the opening,
// comma-separated, one per move played from them, each from the view of the side
// that played it (centi-stones; a win or loss in n plies is ±(1000000 − n)).
// Every position after the opening is a sample labelled with the game's result and,
// when the game has scores, its own score (tables.go).
package tune

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
)

// ErrBadGame is returned for a dataset line that is not a valid game.
var ErrBadGame = errors.New("tune: bad game line")

// Game is one dataset line: a finished game and how much of it was a random opening.
type Game struct {
	Rule    engine.Rule
	Size    int
	Winner  engine.Color // Empty for a draw
	Opening int          // plies drawn at random at the start
	Moves   []engine.Point
	// Scores are the search scores of the positions Moves[Opening:] were played
	// from, from the mover's view (nil: none recorded).
	Scores []int32
}

// resultName is the dataset word for a winner.
func resultName(c engine.Color) string {
	switch c {
	case engine.Black:
		return "black"
	case engine.White:
		return "white"
	}
	return "draw"
}

// String formats g as a dataset line (without the newline).
func (g Game) String() string {
	line := fmt.Sprintf("%s %d %s %d %s", g.Rule, g.Size, resultName(g.Winner), g.Opening, engine.FormatMoves(g.Moves))
	if len(g.Scores) == 0 {
		return line
	}
	scores := make([]string, len(g.Scores))
	for i, v := range g.Scores {
		scores[i] = strconv.Itoa(int(v))
	}
	return line + " " + strings.Join(scores, ",")
}

// ParseGame parses one dataset line and replays it: the moves must be legal and the
// result must be the board's outcome (a draw: the game is not won).
func ParseGame(line string) (Game, error) {
	var g Game
	f := strings.Fields(line)
	if len(f) != 5 && len(f) != 6 {
		return g, fmt.Errorf("%w: want 5 or 6 fields, got %d", ErrBadGame, len(f))
	}
	var err error
	if g.Rule, err = engine.ParseRule(f[0]); err != nil {
		return g, fmt.Errorf("%w: %v", ErrBadGame, err)
	}
	if g.Size, err = strconv.Atoi(f[1]); err != nil || g.Size < engine.MinSize || g.Size > engine.MaxSize {
		return g, fmt.Errorf("%w: bad size %q", ErrBadGame, f[1])
	}
	switch f[2] {
	case "black":
		g.Winner = engine.Black
	case "white":
		g.Winner = engine.White
	case "draw":
		g.Winner = engine.Empty
	default:
		return g, fmt.Errorf("%w: bad result %q", ErrBadGame, f[2])
	}
	if g.Moves, err = engine.ParseMoves(f[4], g.Size); err != nil {
		return g, fmt.Errorf("%w: %v", ErrBadGame, err)
	}
	if len(g.Moves) == 0 {
		return g, fmt.Errorf("%w: no moves", ErrBadGame)
	}
	if g.Opening, err = strconv.Atoi(f[3]); err != nil || g.Opening < 0 || g.Opening > len(g.Moves) {
		return g, fmt.Errorf("%w: bad opening length %q", ErrBadGame, f[3])
	}
	if len(f) == 6 {
		if g.Scores, err = parseScores(f[5], len(g.Moves)-g.Opening); err != nil {
			return g, err
		}
	}
	b, err := engine.BoardFromMoves(g.Size, g.Rule, g.Moves)
	if err != nil {
		return g, fmt.Errorf("%w: %v", ErrBadGame, err)
	}
	if o := b.Outcome(); o.Winner != g.Winner {
		return g, fmt.Errorf("%w: result %s, but the moves give %s", ErrBadGame, f[2], resultName(o.Winner))
	}
	return g, nil
}

// parseScores parses the comma-separated scores field, which must hold want scores.
func parseScores(field string, want int) ([]int32, error) {
	parts := strings.Split(field, ",")
	if len(parts) != want {
		return nil, fmt.Errorf("%w: %d scores for %d moves after the opening", ErrBadGame, len(parts), want)
	}
	out := make([]int32, want)
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 32)
		if err != nil || v < -int64(engine.MateScore) || v > int64(engine.MateScore) {
			return nil, fmt.Errorf("%w: bad score %q", ErrBadGame, p)
		}
		out[i] = int32(v)
	}
	return out, nil
}

// ReadGames parses a dataset; errors name the line.
func ReadGames(r io.Reader) ([]Game, error) {
	var games []Game
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g, err := ParseGame(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		games = append(games, g)
	}
	return games, sc.Err()
}
