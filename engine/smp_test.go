package engine

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTransTableConcurrent has threads store and probe keys that share a few buckets;
// every hit must carry the data written for its own key (a torn entry reads as a
// miss). Under -race it also checks that the table's words are accessed atomically.
func TestTransTableConcurrent(t *testing.T) {
	tt := newTransTable(1)
	const threads, keys = 4, 64
	rounds := 20_000
	if raceEnabled {
		rounds = 2_000
	}
	// Keys k<<20 | 5 all fall into bucket 5; each key's data is a function of the key.
	key := func(k int) uint64 { return uint64(k)<<20 | 5 }
	want := func(k int) (Score, int, int) { return Score(k * 7), k + 100, k % 20 }
	var wg sync.WaitGroup
	bad := make([]int, threads)
	for th := 0; th < threads; th++ {
		wg.Add(1)
		go func(th int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				k := (r*threads + th) % keys
				sc, mv, d := want(k)
				tt.store(key(k), 0, sc, mv, d, boundExact)
				k2 := (r*5 + th*11) % keys
				if h, ok := tt.probe(key(k2), 0); ok {
					sc2, mv2, d2 := want(k2)
					if h.score != sc2 || h.move != mv2 || h.depth != d2 {
						bad[th]++
					}
				}
			}
		}(th)
	}
	wg.Wait()
	for th, n := range bad {
		assert.Zero(t, n, "thread %d read another key's data", th)
	}
}

func TestThreadsSearch(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		moves   string
		limits  Limits
		mate    bool
		threads int
	}{
		{"middle game, 2 threads, depth 7", "h8j10k9i6i5j7j6k7i7k5f10g9k8j8i9h9g10j11j9i10k12k10l9m9l10g8f7l11e10d10", Limits{Depth: 7}, false, 2},
		{"middle game, 4 threads, node cap", "h8g6e5i9h5i6i7h6j6k5e6e7g9f10k7f5e4g11j7l7j5j4j8j9", Limits{Nodes: 60_000}, false, 4},
		{"renju, 3 threads, depth 6", "h8j10k9i6i5j7j6k7i7k5f10g9k8j8i9h9g10j11j9i10", Limits{Depth: 6}, false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rule := Freestyle
			if tc.threads == 3 {
				rule = Renju
			}
			b, err := BoardFromMoves(15, rule, mustPoints(t, tc.moves))
			require.NoError(t, err)
			e := New(Options{HashMiB: 4, Threads: tc.threads})
			require.Len(t, e.s.helpers, tc.threads-1)
			res := e.Search(ctx, b, tc.limits, nil)
			require.NoError(t, b.Check(res.Move), "the move is legal")
			assert.Positive(t, e.s.helperNodes(), "the helpers searched")
			assert.Equal(t, e.s.nodes+e.s.helperNodes(), res.Nodes, "Info.Nodes counts every thread")
			if tc.limits.Depth > 0 {
				assert.GreaterOrEqual(t, res.Depth, tc.limits.Depth)
			}
			for _, h := range e.s.helpers {
				assert.LessOrEqual(t, h.s.info.Depth, maxPly, "helper depth bounded")
				if tc.limits.Depth > 0 {
					assert.LessOrEqual(t, h.s.info.Depth, tc.limits.Depth, "a helper keeps the depth cap")
				}
			}
			e.Clear()
			for _, h := range e.s.helpers {
				assert.Equal(t, [2][numCells]int32{}, h.s.history, "Clear empties the helpers' history")
			}
		})
	}
}

func TestThreadsFindWins(t *testing.T) {
	// Black has a VCF (the position of BenchmarkVCF); with helpers the root tactics
	// still find it before any helper starts.
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, "h8i8k10k9g6h9f11e11i10j10l9k6j7k5k8i6l7m6l8l6j6m7j9h11"))
	require.NoError(t, err)
	e := New(Options{HashMiB: 1, Threads: 2})
	res := e.Search(context.Background(), b, Limits{Depth: 4}, nil)
	assert.Positive(t, res.Score.MatePlies(), "the VCF is found")
	require.NoError(t, b.Check(res.Move))
}

func TestThreadsOnlyAtFullStrength(t *testing.T) {
	b, err := BoardFromMoves(15, Freestyle, mustPoints(t, benchPositions[1].moves))
	require.NoError(t, err)
	for _, name := range []string{"novice", "advanced"} {
		l, err := LevelByName(name)
		require.NoError(t, err)
		p := NewPlayer(l, Options{HashMiB: 1, Threads: 2}).(*levelPlayer)
		_, err = p.Play(context.Background(), b, Limits{Depth: 3}, nil)
		require.NoError(t, err)
		assert.Zero(t, p.eng.s.helperNodes(), "%s plays on one thread (its noise is the main thread's)", name)
	}
	e := New(Options{Threads: 1000})
	assert.Len(t, e.s.helpers, maxThreads-1, "threads are capped")
}
