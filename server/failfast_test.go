package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestRedisDeathNoticedFast: with the client gomokud opens (eventlog.Open) on a real
// redis-server that is then killed, /readyz answers 503 within a second and a move is
// refused with unavailable within about a second (docs/persistence.md).
func TestRedisDeathNoticedFast(t *testing.T) {
	redistest.Require(t)
	rs := redistest.Start(t)
	rc, closeRedis, _, err := eventlog.Open(context.Background(), rs.URL(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = closeRedis() })
	e := newEnv(t, rc)
	_, a, b, _, _ := twoPlayers(t, e)
	requireAck(t, a.move(0, "h8"))
	b.waitSeq(a.lastSeq)

	rs.Kill()
	start := time.Now()
	res, err := http.Get(e.ts.URL + "/readyz")
	require.NoError(t, err)
	res.Body.Close()
	took := time.Since(start)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	require.Less(t, took, time.Second, "/readyz answers within a second")
	t.Logf("/readyz answered 503 after %v", took.Round(time.Millisecond))

	start = time.Now()
	requireErr(t, b.move(1, "a1"), protocol.CodeUnavailable)
	took = time.Since(start)
	require.Less(t, took, 1200*time.Millisecond, "a move fails within about a second")
	t.Logf("the move was refused after %v", took.Round(time.Millisecond))
}
