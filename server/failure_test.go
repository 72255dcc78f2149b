package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestRedisDown: while Redis is unreachable, /readyz fails and moves are refused with
// unavailable, changing nothing; when it is back, play continues.
func TestRedisDown(t *testing.T) {
	mr := miniredis.RunT(t)
	rc := redis.NewClient(&redis.Options{Addr: mr.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond,
		ReadTimeout: 200 * time.Millisecond, WriteTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = rc.Close() })
	e := newEnv(t, rc, func(_ *Config, o *room.Options) { o.StoreTimeout = 500 * time.Millisecond })
	_, a, b, _, _ := twoPlayers(t, e)
	requireAck(t, a.move(0, "h8"))

	addr := mr.Addr()
	mr.Close()
	requireErr(t, b.move(1, "a1"), protocol.CodeUnavailable)
	res, err := http.Get(e.ts.URL + "/readyz")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)

	require.NoError(t, mr.StartAddr(addr))
	// The room reloads from the store after a write of unknown outcome; the refused move
	// was not applied, so it can be played now.
	require.Eventually(t, func() bool {
		return b.move(1, "a1").typ() == protocol.TypeAck
	}, 5*time.Second, 100*time.Millisecond)
	res, err = http.Get(e.ts.URL + "/readyz")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
}
