package migrations

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Layout v1 scored lobby entries by last activity in Unix seconds, so rooms
// active within the same second had no order and the retention cut-off of
// finished games was second-grained. Layout v2 scores them in Unix
// milliseconds, like every other time in the system (clocks, IndexUpdate.At).
//
// A score below msFloor cannot be a millisecond time of this century (1e11 ms
// is March 1973) but is one in seconds (1e11 s is the year 5138), so the
// migration converts exactly the entries below it and is safe to re-run, and
// safe while v2 nodes already write ms scores. A nonsense entry whose score is
// below msFloor even after multiplying by 1000 is set to msFloor, so every
// batch makes progress.
const msFloor = 1e11

var lobbyKeysV2 = []string{"gomoku:lobby:live", "gomoku:lobby:open", "gomoku:lobby:finished"}

// secondsToMsLua converts up to ARGV[2] entries of KEYS[1] scored below
// ARGV[1] and returns how many it converted. Atomic per batch, so a
// concurrent ZADD with an ms score is never overwritten by a stale one.
var secondsToMsScript = redis.NewScript(`
local floor = tonumber(ARGV[1])
local batch = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
for i = 1, #batch, 2 do
  local ms = tonumber(batch[i + 1]) * 1000
  if ms < floor then ms = floor end
  redis.call('ZADD', KEYS[1], string.format('%.0f', ms), batch[i])
end
return #batch / 2
`)

// msBatch is the number of entries converted per script call.
var msBatch = 500

func up2(ctx context.Context, c redis.UniversalClient) error {
	for _, key := range lobbyKeysV2 {
		for {
			n, err := secondsToMsScript.Run(ctx, c, []string{key}, "100000000000", msBatch).Int()
			if err != nil {
				return wrap("convert "+key, err)
			}
			if n < msBatch {
				break
			}
		}
	}
	return nil
}
