package brain

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/gomocup"
)

// Position errors of BOARD and TAKEBACK.
var (
	errContinuous = errors.New("brain: continuous game (field 3) is not supported")
	errCounts     = errors.New("brain: stone counts do not fit a game where it is my turn")
	errDuplicate  = errors.New("brain: two stones on one point")
	errOrder      = errors.New("brain: no legal move order gives this position")
	errNotOnBoard = errors.New("brain: no stone there")
)

// setBoard rebuilds the position from a BOARD block. Our stones (field 1) are the
// colour to move; the stones are replayed alternately in the order given, and if that
// order is illegal (renju forbidden points, a premature five) other orders are tried.
func (b *Brain) setBoard() error {
	var own, opp []engine.Point
	seen := map[engine.Point]bool{}
	for _, s := range b.boardStones {
		if s[2] == gomocup.FieldContinuous {
			return errContinuous
		}
		p, err := gomocup.ToPoint(s[0], s[1], b.size)
		if err != nil {
			return fmt.Errorf("%d,%d: %w", s[0], s[1], err)
		}
		if seen[p] {
			return fmt.Errorf("%s: %w", p, errDuplicate)
		}
		seen[p] = true
		if s[2] == gomocup.FieldOwn {
			own = append(own, p)
		} else {
			opp = append(opp, p)
		}
	}
	var blacks, whites []engine.Point
	switch len(opp) - len(own) {
	case 0:
		blacks, whites = own, opp
	case 1:
		blacks, whites = opp, own
	default:
		return errCounts
	}
	r := rand.New(rand.NewPCG(uint64(len(blacks)), uint64(len(whites))))
	for attempt := 0; attempt < 200; attempt++ {
		if bd, err := fromColours(b.size, b.rule, blacks, whites); err == nil {
			b.board = bd
			return nil
		}
		r.Shuffle(len(blacks), func(i, j int) { blacks[i], blacks[j] = blacks[j], blacks[i] })
		r.Shuffle(len(whites), func(i, j int) { whites[i], whites[j] = whites[j], whites[i] })
	}
	return errOrder
}

// fromColours builds a board by playing black and white stones alternately.
func fromColours(size int, rule engine.Rule, blacks, whites []engine.Point) (*engine.Board, error) {
	moves := make([]engine.Point, 0, len(blacks)+len(whites))
	for i := range blacks {
		moves = append(moves, blacks[i])
		if i < len(whites) {
			moves = append(moves, whites[i])
		}
	}
	return engine.BoardFromMoves(size, rule, moves)
}

// takeback removes the stone at x,y (normally the last move) from the position.
func (b *Brain) takeback(x, y int) error {
	p, err := gomocup.ToPoint(x, y, b.size)
	if err != nil {
		return err
	}
	moves := b.board.Moves()
	for i := len(moves) - 1; i >= 0; i-- {
		if moves[i] != p {
			continue
		}
		if i == len(moves)-1 {
			_, err := b.board.Undo()
			return err
		}
		rest := append(moves[:i:i], moves[i+1:]...)
		bd, err := engine.BoardFromMoves(b.size, b.rule, rest)
		if err != nil {
			return err
		}
		b.board = bd
		return nil
	}
	return errNotOnBoard
}
