package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The engine allocates per search, never per node. These checks need a build without
// the race detector (it allocates itself); CI runs them in such a build as well.

// TestSearchAllocations checks, with one thread and with two, that a search allocates
// per search, not per node: ten times the nodes, about the same allocations.
func TestSearchAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, benchPositions[0].moves))
	require.NoError(t, err)
	for _, threads := range []int{1, 2} {
		e := New(Options{HashMiB: 4, Threads: threads})
		ctx := context.Background()
		allocs := func(nodes uint64) float64 {
			return testing.AllocsPerRun(3, func() {
				e.Clear()
				e.Search(ctx, b, Limits{Nodes: nodes}, nil)
			})
		}
		small, large := allocs(20_000), allocs(200_000)
		assert.Less(t, large, small+40, "%d thread(s): allocations grow with the nodes (%v at 20k, %v at 200k)", threads, small, large)
	}
}

// TestMakeUnmakeAllocations checks that a move made and taken back allocates nothing.
func TestMakeUnmakeAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, benchPositions[0].moves))
	require.NoError(t, err)
	var p position
	p.setup(b)
	m := cellIndex(6, 6)
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		p.make(m)
		p.unmake()
	}))
}
