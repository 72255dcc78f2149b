package redistest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestStartKillRestartKeepsFsyncedWrites(t *testing.T) {
	s := Start(t)
	ctx := context.Background()
	c := s.Client()
	require.NoError(t, c.Set(ctx, "k", "v", 0).Err())
	s.Kill()
	require.False(t, s.Running())
	cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	require.Error(t, c.Ping(cctx).Err())
	s.Restart()
	require.True(t, s.Running())
	v, err := c.Get(ctx, "k").Result()
	require.NoError(t, err)
	require.Equal(t, "v", v)
}

func TestStopGraceful(t *testing.T) {
	s := Start(t, WithFsync("everysec"))
	c := s.Client()
	require.NoError(t, c.Set(context.Background(), "k", "v", 0).Err())
	s.Stop()
	s.Restart()
	v, err := c.Get(context.Background(), "k").Result()
	require.NoError(t, err)
	require.Equal(t, "v", v)
}

func TestCluster(t *testing.T) {
	cl := StartCluster(t, 3)
	c := cl.Client()
	ctx := context.Background()
	for i := 0; i < 50; i++ {
		require.NoError(t, c.Set(ctx, fmt.Sprintf("key%d", i), i, 0).Err())
	}
	// Keys sharing a hash tag can be used together.
	require.NoError(t, c.MSet(ctx, "{a}x", 1, "{a}y", 2).Err())
	require.Contains(t, cl.URL(), "redis+cluster://127.0.0.1:")
}
