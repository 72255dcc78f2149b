package redistest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a small local Redis Cluster of masters only (no replicas), each a
// Server with cluster mode on. The 16384 slots are split evenly.
type Cluster struct {
	t     testing.TB
	nodes []*Server
}

// StartCluster starts n (>= 1) redis-server processes in cluster mode, assigns
// the slots, joins them and waits until every node reports cluster_state:ok.
// Gating is as for Start. Options apply to every node.
func StartCluster(t testing.TB, n int, opts ...Option) *Cluster {
	t.Helper()
	if n < 1 {
		t.Fatalf("redistest: StartCluster needs at least one node")
	}
	cl := &Cluster{t: t}
	for i := 0; i < n; i++ {
		o := append([]Option{WithArgs("--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")}, opts...)
		cl.nodes = append(cl.nodes, Start(t, o...))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	per := 16384 / n
	for i, s := range cl.nodes {
		lo, hi := i*per, (i+1)*per-1
		if i == n-1 {
			hi = 16383
		}
		c := s.Client()
		if err := c.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", lo, hi).Err(); err != nil {
			t.Fatalf("redistest: cluster addslots on %s: %v", s.Addr(), err)
		}
	}
	first := cl.nodes[0].Client()
	for _, s := range cl.nodes[1:] {
		if err := first.Do(ctx, "CLUSTER", "MEET", "127.0.0.1", s.port).Err(); err != nil {
			t.Fatalf("redistest: cluster meet %s: %v", s.Addr(), err)
		}
	}
	if err := cl.waitOK(ctx); err != nil {
		t.Fatalf("redistest: cluster not ready: %v", err)
	}
	return cl
}

func (cl *Cluster) waitOK(ctx context.Context) error {
	var last string
	for {
		ok := true
		for _, s := range cl.nodes {
			c := redis.NewClient(&redis.Options{Addr: s.Addr()})
			info, err := c.ClusterInfo(ctx).Result()
			nodes, err2 := c.ClusterNodes(ctx).Result()
			_ = c.Close()
			if err != nil || err2 != nil || !strings.Contains(info, "cluster_state:ok") ||
				strings.Count(strings.TrimSpace(nodes), "\n")+1 != len(cl.nodes) {
				ok = false
				last = fmt.Sprintf("%s: %v %v %q", s.Addr(), err, err2, firstLine(info))
				break
			}
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %s)", ctx.Err(), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Nodes returns the cluster's servers (Kill/Restart them to test failures).
func (cl *Cluster) Nodes() []*Server { return cl.nodes }

// Addrs returns every node's address.
func (cl *Cluster) Addrs() []string {
	a := make([]string, len(cl.nodes))
	for i, s := range cl.nodes {
		a[i] = s.Addr()
	}
	return a
}

// URL returns "redis+cluster://addr1,addr2,..." (the form redisstore.Open parses).
func (cl *Cluster) URL() string { return "redis+cluster://" + strings.Join(cl.Addrs(), ",") }

// Client returns a new cluster client, closed when the test ends.
func (cl *Cluster) Client() *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.Addrs()})
	cl.t.Cleanup(func() { _ = c.Close() })
	return c
}
