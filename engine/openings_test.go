package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBalancedOpenings: the shipped set is legal under every rule and board size, centred,
// free of duplicates.
func TestBalancedOpenings(t *testing.T) {
	for _, rule := range []Rule{Freestyle, Standard, Renju} {
		for size := MinSize; size <= MaxSize; size++ {
			ops := BalancedOpenings(size, rule)
			require.GreaterOrEqual(t, len(ops), 40, "%s %d", rule, size)
			seen := map[string]bool{}
			for _, o := range ops {
				require.Len(t, o, 5)
				assert.Equal(t, Point{X: size / 2, Y: size / 2}, o[0], "black starts in the centre")
				k := FormatMoves(o)
				assert.False(t, seen[k], "duplicate %s", k)
				seen[k] = true
			}
		}
	}
}

// TestLimitsSeed: a seeded search's level noise depends on the seed and the position
// alone, not on the searches before it.
func TestLimitsSeed(t *testing.T) {
	noisy := Level{Name: "noisy", Depth: 2, Noise: 300, Blunder: 300, NoVCT: true, NoVCF: true, HandEval: true}
	b, err := BoardFromMoves(15, Freestyle, []Point{{X: 7, Y: 7}, {X: 8, Y: 8}})
	require.NoError(t, err)
	play := func(p Player, seed uint64) Point {
		res, err := p.Play(t.Context(), b, Limits{Seed: seed}, nil)
		require.NoError(t, err)
		return res.Move
	}
	p1, p2 := NewPlayer(noisy, Options{HashMiB: 1}), NewPlayer(noisy, Options{HashMiB: 1, Rand: 99})
	play(p2, 0) // p2 has searched before, with another engine seed
	moves := map[Point]bool{}
	for seed := uint64(1); seed <= 8; seed++ {
		m := play(p1, seed)
		assert.Equal(t, m, play(p2, seed), "seed %d: the same choice", seed)
		moves[m] = true
	}
	assert.Greater(t, len(moves), 1, "other seeds, other choices")
}
