package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func TestCanonical(t *testing.T) {
	const size = 15
	a, err := engine.ParseMoves("h8 i9 j7", size)
	require.NoError(t, err)
	for k := 0; k < 8; k++ {
		m := make([]engine.Point, len(a))
		for i, p := range a {
			m[i] = symmetry(p, k, size)
		}
		assert.Equal(t, canonical(a, size), canonical(m, size), "symmetry %d", k)
	}
	b, err := engine.ParseMoves("j7 i9 h8", size) // same stones, other move order
	require.NoError(t, err)
	assert.Equal(t, canonical(a, size), canonical(b, size))
	c, err := engine.ParseMoves("h8 j7 i9", size) // colours swapped
	require.NoError(t, err)
	assert.NotEqual(t, canonical(a, size), canonical(c, size))
}

func TestCandidateOpenings(t *testing.T) {
	all := candidateOpenings(15, 3, 0)
	// Black h8, white within 2 (24 points), black within 3 (47 left): 1128 sequences,
	// about an eighth of them distinct up to symmetry.
	assert.Greater(t, len(all), 100)
	assert.Less(t, len(all), 300)
	seen := map[string]bool{}
	for _, ms := range all {
		k := canonical(ms, 15)
		assert.False(t, seen[k], "duplicate %v", ms)
		seen[k] = true
	}
	s1 := candidateOpenings(15, 5, 50)
	require.Len(t, s1, 50)
	assert.Equal(t, s1, candidateOpenings(15, 5, 50), "sampling is seeded")
	for _, ms := range s1 {
		b, err := engine.BoardFromMoves(15, engine.Renju, ms)
		require.NoError(t, err, "%v", ms)
		assert.False(t, b.Outcome().Over)
		assert.Equal(t, engine.Point{X: 7, Y: 7}, ms[0])
	}
}

func TestParsePasses(t *testing.T) {
	ps, err := parsePasses("25ms,300:300ms,120:1.5s")
	require.NoError(t, err)
	assert.Equal(t, []searchPass{{0, 25 * time.Millisecond}, {300, 300 * time.Millisecond}, {120, 1500 * time.Millisecond}}, ps)
	for _, bad := range []string{"", "x", "25ms,300ms", "25ms,0:1s", "25ms,a:1s", "-1s"} {
		_, err := parsePasses(bad)
		assert.Error(t, err, bad)
	}
}

func TestGenOpenings(t *testing.T) {
	var sb strings.Builder
	spec := openingSpec{N: 3, Stones: 3, Passes: []searchPass{{Time: time.Millisecond}, {Keep: 5, Time: 2 * time.Millisecond}}}
	require.NoError(t, genOpenings(&sb, spec))
	lines := strings.Split(strings.TrimSpace(sb.String()), "\n")
	require.Len(t, lines, 6)
	assert.Contains(t, lines[1], "searched")
	for _, l := range lines[3:] {
		assert.Regexp(t, `^h8 [a-o]\d+ [a-o]\d+ # black's eval -?\d+$`, l)
	}
	assert.Error(t, genOpenings(&sb, openingSpec{N: 1, Stones: 3}))
}
