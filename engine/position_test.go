package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomGame plays up to n random legal moves (near the centre, so lines form)
// on a board of the given size and rule and returns it.
func randomGame(t testing.TB, rng *rand.Rand, size int, rule Rule, n int) *Board {
	t.Helper()
	b, err := NewBoard(size, rule)
	require.NoError(t, err)
	span := min(size, 9)
	lo := (size - span) / 2
	for i := 0; i < n && !b.Outcome().Over; i++ {
		for try := 0; try < 50; try++ {
			p := Point{lo + rng.IntN(span), lo + rng.IntN(span)}
			if rng.IntN(8) == 0 {
				p = Point{rng.IntN(size), rng.IntN(size)}
			}
			if b.Play(p) == nil {
				break
			}
		}
	}
	return b
}

// requireSamePosition checks that the incremental fields of p equal a from-scratch
// recomputation.
func requireSamePosition(t *testing.T, p *position) {
	t.Helper()
	var q position
	q = *p
	q.recompute()
	require.Equal(t, q.hash, p.hash, "hash")
	require.Equal(t, q.sum, p.sum, "sums")
	require.Equal(t, q.cnt, p.cnt, "level counts")
	require.Equal(t, q.nb, p.nb, "neighbour counts")
	require.Equal(t, [4]int8{q.minX, q.minY, q.maxX, q.maxY}, [4]int8{p.minX, p.minY, p.maxX, p.maxY}, "bbox")
	for i := range p.cell {
		if p.cell[i] == wallCell {
			continue
		}
		require.Equal(t, q.key[i], p.key[i], "key %v", cellPoint(i))
		if p.cell[i] == 0 {
			require.Equal(t, q.pat[i], p.pat[i], "patterns %v", cellPoint(i))
			require.Equal(t, q.lvl[i], p.lvl[i], "levels %v", cellPoint(i))
			require.Equal(t, q.val[i], p.val[i], "values %v", cellPoint(i))
		}
	}
}

func TestIncrementalEqualsScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		size int
		rule Rule
	}{{15, Freestyle}, {15, Standard}, {15, Renju}, {20, Freestyle}, {17, Renju}} {
		for g := 0; g < 6; g++ {
			b, _ := NewBoard(tc.size, tc.rule)
			var p position
			p.setup(b)
			for i := 0; i < 120; i++ {
				m := -1
				for try := 0; try < 100; try++ {
					c := cellIndex(rng.IntN(tc.size), rng.IntN(tc.size))
					if p.cell[c] == 0 {
						m = c
						break
					}
				}
				if m < 0 {
					break
				}
				p.make(m)
				if i%7 == 0 {
					requireSamePosition(t, &p)
				}
			}
			requireSamePosition(t, &p)
		}
	}
}

// TestMakeUnmakeRestores: random makes and unmakes, with the renju checks' own puts
// and takes between them, leave the position exactly as it was (the undo stack of
// take restores what put changed) and the undo stack empty.
func TestMakeUnmakeRestores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, rule := range []Rule{Freestyle, Standard, Renju} {
		b := randomGame(t, rng, 15, rule, 30)
		var p position
		p.setup(b)
		before := p
		var moves []int
		for i := 0; i < 150; i++ {
			m := cellIndex(rng.IntN(15), rng.IntN(15))
			if p.cell[m] != 0 {
				continue
			}
			p.make(m)
			moves = append(moves, m)
			// The renju checks place and take stones of their own between moves.
			for range 5 {
				if q := cellIndex(rng.IntN(15), rng.IntN(15)); p.cell[q] == 0 {
					p.forbidden(q)
				}
			}
			if rng.IntN(3) == 0 && len(moves) > 0 {
				p.unmake()
				moves = moves[:len(moves)-1]
			}
		}
		for range moves {
			p.unmake()
		}
		require.Equal(t, before.cell, p.cell)
		require.Equal(t, before.hash, p.hash)
		require.Equal(t, before.sum, p.sum)
		require.Equal(t, before.evaluate(), p.evaluate())
		requireSamePosition(t, &p)
		require.Equal(t, b.Hash(), p.hash)
		require.Zero(t, p.undone, "undo stack emptied")
		require.Zero(t, p.marks, "undo marks emptied")
	}
}

// TestPositionAgreesWithBoard plays random games and checks, before every move, that
// the internal position and Board agree on forbidden points and on which moves win.
func TestPositionAgreesWithBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	games := 40
	if testing.Short() || raceEnabled {
		games = 6
	}
	for _, rule := range []Rule{Freestyle, Standard, Renju} {
		for g := 0; g < games; g++ {
			checkGameAgainstBoard(t, rng, 15, rule, 200)
		}
	}
}

func checkGameAgainstBoard(t *testing.T, rng *rand.Rand, size int, rule Rule, plies int) {
	b, _ := NewBoard(size, rule)
	var p position
	p.setup(b)
	span := min(size, 9)
	lo := (size - span) / 2
	for i := 0; i < plies && !b.Outcome().Over; i++ {
		// Compare every empty point on the board.
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				m := cellIndex(x, y)
				if p.cell[m] != 0 {
					continue
				}
				pt := Point{x, y}
				if rule == Renju {
					require.Equal(t, b.ForbiddenAt(pt), p.forbidden(m), "forbidden %v in %s", pt, FormatMoves(b.Moves()))
				}
				require.Equal(t, b.Check(pt) == nil, p.legal(m), "legal %v in %s", pt, FormatMoves(b.Moves()))
			}
		}
		var pt Point
		for {
			pt = Point{lo + rng.IntN(span), lo + rng.IntN(span)}
			if rng.IntN(6) == 0 {
				pt = Point{rng.IntN(size), rng.IntN(size)}
			}
			if b.Check(pt) == nil {
				break
			}
		}
		m := cellIndex(pt.X, pt.Y)
		wins := p.lvl[m][p.side-1] == lvFive
		require.NoError(t, b.Play(pt))
		require.Equal(t, b.Outcome().Over && b.Outcome().Winner != Empty, wins, "win by %v in %s", pt, FormatMoves(b.Moves()))
		p.make(m)
		require.Equal(t, b.Hash(), p.hash)
	}
}
