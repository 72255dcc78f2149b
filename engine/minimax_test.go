package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// minimax is a plain fixed-depth negamax over the same candidates and evaluation as
// the search, without any pruning: the reference for the alpha-beta search.
func minimax(p *position, depth, ply int) Score {
	if p.stones >= p.size*p.size {
		return 0
	}
	if p.cnt[p.side-1][lvFive] > 0 {
		return mateIn(ply + 1)
	}
	if depth == 0 {
		return p.evaluate()
	}
	x0, y0, x1, y1 := p.region(2)
	best, any := -MateScore-1, false
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			m := cellIndex(x, y)
			if p.cell[m] != 0 || (p.nb[m] == 0 && !p.empty()) || !p.legal(m) {
				continue
			}
			any = true
			p.make(m)
			best = max(best, -minimax(p, depth-1, ply+1))
			p.unmake()
		}
	}
	if !any {
		return 0
	}
	return best
}

func TestAlphaBetaEqualsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	// 200 positions normally; fewer in -short mode and under the race detector (this
	// test is single-threaded, and instrumented make/unmake is ~20 times slower).
	positions := 200
	switch {
	case raceEnabled:
		positions = 40
	case testing.Short():
		positions = 50
	}
	rules := []Rule{Freestyle, Standard, Renju}
	e := New(Options{HashMiB: 1})
	s := e.s
	s.cfg = searchConfig{noPrune: true, noVCF: true, noVCT: true}
	for i := 0; i < positions; i++ {
		rule := rules[i%3]
		stones := 1 + rng.IntN(10)
		if raceEnabled {
			stones = 1 + rng.IntN(5)
		}
		b := compactGame(t, rng, rule, stones)
		if b.Outcome().Over {
			continue
		}
		maxDepth := 3 // depth 3 on the smaller trees, depth 2 on the rest
		if b.Ply() > 3 || ((raceEnabled || testing.Short()) && (i%20 != 0 || b.Ply() > 2)) {
			maxDepth = 2
		}
		e.Clear()
		s.pos.setup(b)
		s.stopped, s.nodes, s.nextPoll, s.nodeLimit, s.report = false, 0, 1<<62, 0, nil
		var ref position
		ref.setup(b)
		for d := 1; d <= maxDepth; d++ {
			want := minimax(&ref, d, 0)
			got := s.search(-MateScore-1, MateScore+1, d, 0, 0, true)
			require.Equal(t, want, got, "depth %d, %s %s", d, rule, FormatMoves(b.Moves()))
		}
	}
}

// compactGame plays n random legal moves inside the central 6x6 square of a 15x15
// board.
func compactGame(t testing.TB, rng *rand.Rand, rule Rule, n int) *Board {
	t.Helper()
	b, err := NewBoard(15, rule)
	require.NoError(t, err)
	for i := 0; i < n && !b.Outcome().Over; i++ {
		for try := 0; try < 50; try++ {
			if b.Play(Point{4 + rng.IntN(6), 4 + rng.IntN(6)}) == nil {
				break
			}
		}
	}
	return b
}
