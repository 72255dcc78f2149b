package puzzles

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// Against real Redis (single and Cluster): every attempt of one player is ended by
// several "nodes" at once; each rated attempt counts exactly once, and the ratings
// end as a sequential replay of the recorded outcomes says.
func TestFinishExactlyOnceRealRedis(t *testing.T) {
	for _, tt := range redistest.Topologies() {
		t.Run(tt.Name, func(t *testing.T) {
			c := tt.Client(t)
			ctx := context.Background()
			s := newTestStore(t, c)
			ids := []string{"win-in-one-001", "vct-001", "vcf-001"}
			const writers = 4
			var ends []Attempt
			for i, id := range ids {
				p, _, err := s.Puzzle(ctx, id)
				require.NoError(t, err)
				a, err := s.Start(ctx, "erin", false, id)
				require.NoError(t, err)
				_, raw, err := s.Load(ctx, a.ID)
				require.NoError(t, err)
				got := make([]Attempt, writers)
				var wg sync.WaitGroup
				for w := 0; w < writers; w++ {
					wg.Add(1)
					go func(w int) {
						defer wg.Done()
						node := newTestStore(t, c) // one store per node
						out, err := node.Finish(ctx, a, raw, p, i%2 == 0)
						assert.NoError(t, err, fmt.Sprint("writer ", w))
						got[w] = out
					}(w)
				}
				wg.Wait()
				for w := 1; w < writers; w++ {
					assert.Equal(t, got[0], got[w], "every node answers the same end")
				}
				ends = append(ends, got[0])
			}
			// Replay sequentially.
			pl := rating.Initial()
			for i, id := range ids {
				score := rating.Loss
				if i%2 == 0 {
					score = rating.Win
				}
				p, _, err := s.Puzzle(ctx, id)
				require.NoError(t, err)
				after, puz := rating.Pair(pl, Prior(p.Category), score)
				assert.Equal(t, pl, ends[i].Change.Before)
				assert.Equal(t, after, ends[i].Change.After)
				pl = after
				_, st, err := s.Puzzle(ctx, id)
				require.NoError(t, err)
				assert.Equal(t, puz, st.Rating)
				assert.Equal(t, 1, st.Plays)
			}
			pr, err := s.PlayerRating(ctx, "erin")
			require.NoError(t, err)
			assert.Equal(t, pl, pr.Rating)
			assert.Equal(t, len(ids), pr.N)
		})
	}
}

// Against real Redis: many players end their first attempts of one puzzle at once,
// and one player ends first attempts of several puzzles at once; the compare and set
// retries until every end counts, so the puzzle's plays and the player's count add up.
func TestFinishContentionRealRedis(t *testing.T) {
	c := redistest.Start(t, redistest.WithoutAOF()).Client()
	ctx := context.Background()
	s := newTestStore(t, c)
	type end struct {
		player, puzzle string
	}
	var ends []end
	for i := 0; i < 8; i++ {
		ends = append(ends, end{fmt.Sprint("p", i), "vct-001"})
	}
	for _, id := range []string{"win-in-one-001", "vcf-001"} {
		ends = append(ends, end{"p0", id})
	}
	var wg sync.WaitGroup
	for _, e := range ends {
		p, _, err := s.Puzzle(ctx, e.puzzle)
		require.NoError(t, err)
		a, err := s.Start(ctx, e.player, true, e.puzzle)
		require.NoError(t, err)
		_, raw, err := s.Load(ctx, a.ID)
		require.NoError(t, err)
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := newTestStore(t, c).Finish(ctx, a, raw, p, true)
			assert.NoError(t, err)
			assert.True(t, out.Change.Rated)
		}()
	}
	wg.Wait()
	_, st, err := s.Puzzle(ctx, "vct-001")
	require.NoError(t, err)
	assert.Equal(t, 8, st.Plays)
	assert.Equal(t, 8, st.Solved)
	pr, err := s.PlayerRating(ctx, "p0")
	require.NoError(t, err)
	assert.Equal(t, 3, pr.N)
	ttl, err := c.PTTL(ctx, PlayerKey("p0")).Result()
	require.NoError(t, err)
	assert.Positive(t, ttl, "a guest's puzzle rating expires")
}
