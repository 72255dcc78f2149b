package migrations

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Layout v2 had no index of unfinished rooms of its own: recovery took the
// union of gomoku:lobby:live and gomoku:lobby:open, so a private room (kept
// out of the public lobby) was invisible to recovery unless it was listed.
// Layout v3 adds the sorted set gomoku:rooms:active (member room id, score
// last activity in ms), maintained by the append script: every unfinished
// room, listed or not.
//
// The migration fills it from live and open as v2 defined "unfinished". It
// reads and writes each set separately (no multi-key command), so it works on
// Redis Cluster, and uses ZADD NX, so entries a v3 node already wrote are kept
// and re-running it changes nothing.
const keyActiveV3 = "gomoku:rooms:active"

func up3(ctx context.Context, c redis.UniversalClient) error {
	const batch = 500
	for _, key := range []string{"gomoku:lobby:live", "gomoku:lobby:open"} {
		for start := int64(0); ; start += batch {
			zs, err := c.ZRangeWithScores(ctx, key, start, start+batch-1).Result()
			if err != nil {
				return wrap("read "+key, err)
			}
			if len(zs) > 0 {
				if err := c.ZAddNX(ctx, keyActiveV3, zs...).Err(); err != nil {
					return wrap("fill "+keyActiveV3, err)
				}
			}
			if len(zs) < batch {
				break
			}
		}
	}
	return nil
}
