package engine

import (
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewBoardSizes(t *testing.T) {
	for size := 0; size <= 25; size++ {
		b, err := NewBoard(size, Freestyle)
		if size >= MinSize && size <= MaxSize {
			require.NoError(t, err, size)
			assert.Equal(t, size, b.Size())
		} else {
			assert.ErrorIs(t, err, ErrBadSize, size)
		}
	}
	_, err := NewBoard(15, Rule(9))
	assert.ErrorIs(t, err, ErrBadRule)
}

// TestWinnerByRule plays black's stones (white answering far away) and checks the
// outcome after the last black move.
func TestWinnerByRule(t *testing.T) {
	tests := []struct {
		name   string
		rule   Rule
		black  string // the last move completes the shape
		winner Color
		line   string
	}{
		{"freestyle five", Freestyle, "d8 e8 f8 g8 h8", Black, "d8 e8 f8 g8 h8"},
		{"freestyle overline wins", Freestyle, "d8 e8 f8 h8 i8 g8", Black, "d8 e8 f8 g8 h8 i8"},
		{"standard five", Standard, "d8 e8 f8 g8 h8", Black, "d8 e8 f8 g8 h8"},
		{"standard overline wins for nobody", Standard, "d8 e8 f8 h8 i8 g8", Empty, ""},
		{"renju black exact five", Renju, "h4 h5 h6 h7 h8", Black, "h4 h5 h6 h7 h8"},
		{"vertical five", Freestyle, "h4 h5 h6 h7 h8", Black, "h4 h5 h6 h7 h8"},
		{"diagonal five", Freestyle, "d4 e5 f6 g7 h8", Black, "d4 e5 f6 g7 h8"},
		{"anti-diagonal five", Freestyle, "d12 e11 f10 g9 h8", Black, "d12 e11 f10 g9 h8"},
		{"five at the edge", Freestyle, "b15 c15 d15 e15 f15", Black, "b15 c15 d15 e15 f15"},
		{"four is not a win", Freestyle, "d8 e8 f8 g8", Empty, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := NewBoard(15, tt.rule)
			require.NoError(t, err)
			for i, p := range mustPoints(t, tt.black) {
				require.NoError(t, b.Play(p))
				if i < len(mustPoints(t, tt.black))-1 {
					require.NoError(t, b.Play(fillers[i]))
				}
			}
			o := b.Outcome()
			assert.Equal(t, tt.winner, o.Winner)
			assert.Equal(t, tt.winner != Empty, o.Over)
			if tt.line != "" {
				assert.Equal(t, mustPoints(t, tt.line), o.Line)
			} else {
				assert.Nil(t, o.Line)
			}
		})
	}
}

func TestWhiteOverline(t *testing.T) {
	for _, tt := range []struct {
		rule Rule
		wins bool
	}{{Freestyle, true}, {Standard, false}, {Renju, true}} {
		b, err := NewBoard(15, tt.rule)
		require.NoError(t, err)
		// Black plays scattered stones; white builds d8 e8 f8 h8 i8 then g8.
		blacks := []Point{{0, 0}, {0, 2}, {0, 4}, {0, 6}, {0, 8}, {0, 10}}
		for i, w := range mustPoints(t, "d8 e8 f8 h8 i8 g8") {
			require.NoError(t, b.Play(blacks[i]))
			require.NoError(t, b.Play(w))
		}
		o := b.Outcome()
		assert.Equal(t, tt.wins, o.Over, tt.rule.String())
		if tt.wins {
			assert.Equal(t, White, o.Winner)
			assert.Len(t, o.Line, 6)
		}
	}
}

func TestCheckErrors(t *testing.T) {
	b := playBlack(t, Renju, "f8 g8 h6 h7")
	h8 := Point{7, 7}
	err := b.Check(h8)
	var fe *ForbiddenError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, DoubleThree, fe.Kind)
	assert.True(t, errors.Is(err, ErrForbidden))
	assert.Contains(t, err.Error(), "double_three")
	assert.ErrorIs(t, b.Play(h8), ErrForbidden)
	assert.ErrorIs(t, b.Check(Point{15, 3}), ErrOffBoard)
	assert.ErrorIs(t, b.Check(Point{-1, 3}), ErrOffBoard)
	assert.ErrorIs(t, b.Check(Point{5, 7}), ErrOccupied)

	// White may play black's forbidden point.
	require.NoError(t, b.Play(Point{10, 10}))
	assert.Equal(t, White, b.ToMove())
	assert.NoError(t, b.Check(h8))

	// Nothing is legal once the game is over.
	w := playBlack(t, Freestyle, "d8 e8 f8 g8")
	require.NoError(t, w.Play(Point{7, 7}))
	assert.ErrorIs(t, w.Check(Point{9, 9}), ErrGameOver)
}

func TestBoardFullIsDraw(t *testing.T) {
	// Fill a 15x15 board in a pattern with no five: rows of "xxoo" shifted by row.
	b, err := NewBoard(15, Freestyle)
	require.NoError(t, err)
	var blacks, whites []Point
	for y := 0; y < 15; y++ {
		for x := 0; x < 15; x++ {
			if ((x+2*(y%2)+y/2)/2)%2 == 0 {
				blacks = append(blacks, Point{x, y})
			} else {
				whites = append(whites, Point{x, y})
			}
		}
	}
	// Colour counts differ by at most one for a legal fill; balance by swapping roles.
	if len(whites) > len(blacks) {
		blacks, whites = whites, blacks
	}
	require.LessOrEqual(t, len(blacks)-len(whites), 1)
	for i := range blacks {
		require.NoError(t, b.Play(blacks[i]))
		if i < len(whites) {
			require.NoError(t, b.Play(whites[i]))
		}
	}
	o := b.Outcome()
	assert.True(t, o.Over)
	assert.Equal(t, Empty, o.Winner)
	assert.False(t, b.HasLegalMove(), "a finished game has no move")
	_, err = b.Undo()
	require.NoError(t, err)
	assert.True(t, b.HasLegalMove(), "one point left")
}

// TestNoLegalMoveInRenju: after the moves in testdata/renju-no-legal-move.txt black
// is to move, the game is not over, and its last empty point is forbidden.
func TestNoLegalMoveInRenju(t *testing.T) {
	data, err := os.ReadFile("testdata/renju-no-legal-move.txt")
	require.NoError(t, err)
	moves, err := ParseMoves(string(data), 15)
	require.NoError(t, err)
	b, err := BoardFromMoves(15, Renju, moves)
	require.NoError(t, err)
	require.Equal(t, 224, b.Ply())
	assert.Equal(t, Black, b.ToMove())
	assert.False(t, b.Outcome().Over)
	assert.False(t, b.HasLegalMove())
	_, err = b.Undo()
	require.NoError(t, err)
	assert.True(t, b.HasLegalMove(), "white had a point to play")
}

func TestPlayUndoRestores(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, rule := range []Rule{Freestyle, Standard, Renju} {
		for game := 0; game < 20; game++ {
			b, err := NewBoard(15+game%6, rule)
			require.NoError(t, err)
			type snap struct {
				hash  uint64
				cells [MaxSize * MaxSize]Color
			}
			var history []snap
			for !b.Outcome().Over {
				p := Point{r.IntN(b.Size()), r.IntN(b.Size())}
				if b.Check(p) != nil {
					continue
				}
				history = append(history, snap{b.Hash(), b.cells})
				require.NoError(t, b.Play(p))
			}
			for i := len(history) - 1; i >= 0; i-- {
				_, err := b.Undo()
				require.NoError(t, err)
				require.Equal(t, history[i].hash, b.Hash())
				require.Equal(t, history[i].cells, b.cells)
				require.False(t, b.Outcome().Over)
			}
			assert.Zero(t, b.Hash())
			_, err = b.Undo()
			assert.ErrorIs(t, err, ErrNoMove)
		}
	}
}

func TestHashIsOrderIndependent(t *testing.T) {
	a, err := BoardFromMoves(15, Freestyle, mustPoints(t, "h8 i9 j10 g7"))
	require.NoError(t, err)
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, "j10 g7 h8 i9"))
	require.NoError(t, err)
	assert.Equal(t, a.Hash(), b.Hash())
	c, err := BoardFromMoves(15, Freestyle, mustPoints(t, "i9 h8 j10 g7"))
	require.NoError(t, err)
	assert.NotEqual(t, a.Hash(), c.Hash(), "colours swapped")
}

func TestAccessorsReturnCopies(t *testing.T) {
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, "d8 a1 e8 a3 f8 a5 g8 a7 h8"))
	require.NoError(t, err)
	m := b.Moves()
	m[0] = Point{9, 9}
	assert.Equal(t, Point{3, 7}, b.Moves()[0])
	o := b.Outcome()
	o.Line[0] = Point{9, 9}
	assert.Equal(t, Point{3, 7}, b.Outcome().Line[0])
	c := b.Clone()
	_, err = c.Undo()
	require.NoError(t, err)
	assert.True(t, b.Outcome().Over)
	assert.Equal(t, 9, b.Ply())
	assert.Equal(t, Point{7, 7}, b.LastMove())
	_, err = BoardFromMoves(15, Freestyle, mustPoints(t, "h8 h8"))
	assert.ErrorIs(t, err, ErrOccupied)
}

// FuzzPlaySequence plays random bytes as moves and checks the board's invariants.
func FuzzPlaySequence(f *testing.F) {
	f.Add([]byte{0, 7, 7, 8, 8, 9, 9})
	f.Add([]byte{2, 5, 7, 6, 7, 7, 5, 7, 6})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		rule := Rule(data[0] % 3)
		b, err := NewBoard(15, rule)
		require.NoError(t, err)
		for i := 1; i+1 < len(data); i += 2 {
			p := Point{int(data[i]) % 17, int(data[i+1]) % 17}
			before := b.Hash()
			ply := b.Ply()
			err := b.Play(p)
			if err != nil {
				require.Equal(t, before, b.Hash())
				require.Equal(t, ply, b.Ply())
				continue
			}
			require.Equal(t, ply+1, b.Ply())
			o := b.Outcome()
			if o.Winner != Empty {
				require.GreaterOrEqual(t, len(o.Line), 5)
				for _, q := range o.Line {
					require.Equal(t, o.Winner, b.At(q))
				}
			}
		}
	})
}
