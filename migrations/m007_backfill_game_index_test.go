package migrations

import (
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// TestBackfillGameIndex: the games that ended before v5 (with a result) go to the
// ratings ledger's outbox, at their end time; aborted games, games after v5, games in
// play and other keys do not; a second run changes nothing.
func TestBackfillGameIndex(t *testing.T) {
	eachBackend(t, func(t *testing.T, _ backend, newClient func() *redis.Client) {
		c := newClient()
		ctx := ctxT(t)
		require.NoError(t, c.HSet(ctx, KeySchema, "version", 6, "applied:5", 5000).Err())
		logs := map[string][]string{
			"old": {
				`{"seq":1,"kind":"created","at":100,"game":1,"room":"old"}`,
				`{"seq":2,"kind":"move","at":200,"game":1,"point":"h8","ply":0}`,
				`{"seq":3,"kind":"game_over","at":1000,"game":1,"ply":0,"result":"black","reason":"resign"}`,
				`{"seq":4,"kind":"game_over","at":1500,"game":2,"ply":0,"result":"aborted","reason":"aborted"}`,
				`{"seq":5,"kind":"chat","at":1600,"game":3,"ply":0,"text":"\"game_over\""}`,
				`{"seq":6,"kind":"game_over","at":3000,"game":3,"ply":0,"result":"draw","reason":"draw_agreed"}`,
			},
			"new":    {`{"seq":1,"kind":"game_over","at":6000,"game":1,"ply":0,"result":"white","reason":"five"}`},
			"inplay": {`{"seq":1,"kind":"created","at":100,"game":1,"room":"inplay"}`},
		}
		for id, evs := range logs {
			for _, e := range evs {
				require.NoError(t, c.RPush(ctx, "gomoku:{room:"+id+"}:events", e).Err())
			}
		}
		require.NoError(t, c.HSet(ctx, "gomoku:{room:old}:state", "seq", 6).Err())
		want := []redis.Z{{Score: 1000, Member: "old:1"}, {Score: 3000, Member: "old:3"}}
		for run := 1; run <= 2; run++ {
			require.NoError(t, up7(ctx, c), "run %d", run)
			got, err := c.ZRangeWithScores(ctx, "gomoku:{ratings}:pending", 0, -1).Result()
			require.NoError(t, err)
			require.Equal(t, want, got, "run %d", run)
		}
	})
}
