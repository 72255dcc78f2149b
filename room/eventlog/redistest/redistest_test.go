package redistest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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

func TestClusterReplicaFailover(t *testing.T) {
	cl := StartClusterReplicas(t, 3, 1)
	require.Len(t, cl.Nodes(), 6)
	c := cl.Client()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	require.NoError(t, c.Set(ctx, "{x}k", "v", 0).Err())
	m, err := c.MasterForKey(ctx, "{x}k")
	require.NoError(t, err)
	// Replication is asynchronous: without WAIT the master may die before its replica has
	// the key, and the promoted replica then rightly answers that it has none.
	acked, err := m.Wait(ctx, 1, 10*time.Second).Result()
	require.NoError(t, err)
	require.Equal(t, int64(1), acked, "the replica has the key before its master dies")
	for _, s := range cl.Masters() {
		if s.Addr() == m.Options().Addr {
			s.Kill()
		}
	}
	// The replica takes over the slot: reads and writes work again. The client is told to
	// reload the slot map after a failure: this tests the cluster, not how soon go-redis
	// happens to ask a live node for it (under load it kept asking the dead one).
	ok := assert.Eventually(t, func() bool {
		v, err := c.Get(ctx, "{x}k").Result()
		if err == nil && v == "v" && c.Set(ctx, "{x}k2", "w", 0).Err() == nil {
			return true
		}
		c.ReloadState(ctx)
		return false
	}, 45*time.Second, 100*time.Millisecond) // failure detection and the replica's election take longer on a loaded machine
	if !ok {
		t.Logf("%s", clusterNodes(ctx, cl))
	}
}

func clusterNodes(ctx context.Context, cl *Cluster) string {
	var b strings.Builder
	for _, s := range cl.Nodes() {
		if s.Running() {
			out, err := s.Client().ClusterNodes(ctx).Result()
			fmt.Fprintf(&b, "%s: %v\n%s\n", s.Addr(), err, out)
			info, _ := s.Client().ClusterInfo(ctx).Result()
			fmt.Fprintf(&b, "%s\n", firstLine(info))
			break
		}
	}
	return b.String()
}
