package ledger

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// Against real Redis (single and Cluster): many writers record the same games and
// games of the same players at once; every game counts exactly once and the ratings
// end as a sequential replay of the recorded games says.
func TestRecordConcurrentRealRedis(t *testing.T) {
	for _, tt := range redistest.Topologies() {
		t.Run(tt.Name, func(t *testing.T) {
			c := tt.Client(t)
			const games, writers = 40, 4 // each game recorded by 4 "nodes" at once
			ctx := context.Background()
			recs := make([][]*Record, writers)
			var wg sync.WaitGroup
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					l := New(c) // one ledger per node
					for i := 0; i < games; i++ {
						res := []string{"black", "white", "draw"}[i%3]
						rec, err := l.Record(ctx, rated(fmt.Sprintf("room%d", i), 1, res, t0.Add(time.Duration(i)*time.Second)))
						if !assert.NoError(t, err) {
							return
						}
						recs[w] = append(recs[w], rec)
					}
				}(w)
			}
			wg.Wait()
			l := New(c, WithClock(func() time.Time { return t0.Add(games * time.Second) }))
			for w := 1; w < writers; w++ {
				require.Equal(t, recs[0], recs[w], "every writer sees the same record of each game")
			}
			hist, err := l.History(ctx, "alice", "freestyle-blitz", 0)
			require.NoError(t, err)
			assert.Len(t, hist, games, "one history point per game")
			gs, err := l.Games(ctx, "bob", 0, 1000)
			require.NoError(t, err)
			assert.Len(t, gs, games, "one index entry per game")
			// The final ratings chain through the records: each game starts from the
			// previous game's After (aged to its end).
			var last *Record
			for _, r := range recs[0] {
				if last != nil {
					idle := time.Duration(r.EndMS-last.EndMS) * time.Millisecond
					assert.Equal(t, rating.Age(*last.Black.After, idle), *r.Black.Before)
				}
				last = r
			}
			raw, err := c.HGet(ctx, PlayerKey("alice"), "freestyle-blitz").Result()
			require.NoError(t, err)
			p := decodePoolRating(raw)
			assert.Equal(t, games, p.Games)
			assert.Equal(t, *last.Black.After, p.Rating)
		})
	}
}
