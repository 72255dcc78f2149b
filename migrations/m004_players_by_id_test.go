package migrations

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

func tokenHashV3(i int) string {
	sum := sha256.Sum256([]byte(fmt.Sprint("token-", i)))
	return hex.EncodeToString(sum[:])
}

// writePlayersV3 stores n players the way layout v3 did.
func writePlayersV3(t *testing.T, c redis.UniversalClient, n int) {
	ctx := ctxT(t)
	for i := 0; i < n; i++ {
		key := keyPlayerV3 + tokenHashV3(i)
		require.NoError(t, c.HSet(ctx, key, "id", fmt.Sprint("p_", i), "name", fmt.Sprint("Name ", i), "created", 1_700_000_000_000+i).Err())
		require.NoError(t, c.Expire(ctx, key, time.Duration(i+1)*time.Hour).Err())
	}
}

func checkPlayersV4(t *testing.T, c redis.UniversalClient, n int) {
	ctx := ctxT(t)
	for i := 0; i < n; i++ {
		id, hash := fmt.Sprint("p_", i), tokenHashV3(i)
		p, err := c.HGetAll(ctx, "gomoku:{player:"+id+"}").Result()
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"id": id, "name": fmt.Sprint("Name ", i), "created": fmt.Sprint(1_700_000_000_000 + i)}, p)
		ttl, err := c.TTL(ctx, "gomoku:{player:"+id+"}").Result()
		require.NoError(t, err)
		assert.InDelta(t, float64(time.Duration(i+1)*time.Hour), float64(ttl), float64(5*time.Minute), "the v3 TTL is kept")
		s, err := c.HGetAll(ctx, "gomoku:session:"+hash).Result()
		require.NoError(t, err)
		assert.Equal(t, id, s["player"])
		ok, err := c.SIsMember(ctx, "gomoku:{player:"+id+"}:sessions", hash).Result()
		require.NoError(t, err)
		assert.True(t, ok)
		n, err := c.Exists(ctx, keyPlayerV3+hash).Result()
		require.NoError(t, err)
		assert.Zero(t, n, "the v3 key is gone")
	}
}

func TestUpgradePlayersV3(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend, _ func() *redis.Client) {
		// Pages of a hundred players are pipelined: give a slow (race-instrumented,
		// loaded) miniredis time to answer them.
		c := redis.NewClient(&redis.Options{Addr: b.addr, ReadTimeout: time.Minute, WriteTimeout: time.Minute})
		t.Cleanup(func() { _ = c.Close() })
		ctx := ctxT(t)
		require.NoError(t, apply(ctx, c, quiet(), All()[:3], defaults))
		const n = 300 // several SCAN pages
		writePlayersV3(t, c, n)
		// A v4 node already renamed player 0 after converting it lazily: kept.
		require.NoError(t, c.HSet(ctx, "gomoku:{player:p_0}", "id", "p_0", "name", "Renamed").Err())
		require.NoError(t, Apply(ctx, c, quiet()))
		cur, _, pending, err := Status(ctx, c)
		require.NoError(t, err)
		assert.Equal(t, Latest(), cur)
		assert.Empty(t, pending)
		name, err := c.HGet(ctx, "gomoku:{player:p_0}", "name").Result()
		require.NoError(t, err)
		assert.Equal(t, "Renamed", name)
		require.NoError(t, c.HSet(ctx, "gomoku:{player:p_0}", "name", "Name 0").Err())
		checkPlayersV4(t, c, n)

		// Re-running (a node died before recording v4) changes nothing.
		require.NoError(t, up4(ctx, c))
		checkPlayersV4(t, c, n)
	})
}

func TestUpgradePlayersV3OnCluster(t *testing.T) {
	cl := redistest.StartCluster(t, 3)
	c := cl.Client()
	ctx := ctxT(t)
	require.NoError(t, apply(ctx, c, quiet(), All()[:3], defaults))
	writePlayersV3(t, c, 100)
	require.NoError(t, Apply(ctx, c, quiet()))
	checkPlayersV4(t, c, 100)
}
