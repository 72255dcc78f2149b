package redistest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a small local Redis Cluster: masters, each a Server with cluster mode
// on, and optionally replicas of them. The 16384 slots are split evenly over the masters.
type Cluster struct {
	t        testing.TB
	nodes    []*Server
	masters  int
	replicas int
}

// Topology is one way to run Redis under a test: a single server or a Cluster.
type Topology struct {
	Name   string
	Client func(t testing.TB) redis.UniversalClient
}

// Topologies lists a single server and a 3-master Cluster, both without AOF, for the
// tests whose guarantee (a Lua script's atomicity, a hash-tagged key layout) must hold
// on either. Gating is as for Start.
func Topologies() []Topology {
	return []Topology{
		{"single", func(t testing.TB) redis.UniversalClient { return Start(t, WithoutAOF()).Client() }},
		{"cluster", func(t testing.TB) redis.UniversalClient { return StartCluster(t, 3, WithoutAOF()).Client() }},
	}
}

// StartCluster starts n (>= 1) redis-server processes in cluster mode, assigns
// the slots, joins them and waits until every node reports cluster_state:ok.
// Gating is as for Start. Options apply to every node.
func StartCluster(t testing.TB, n int, opts ...Option) *Cluster {
	t.Helper()
	return StartClusterReplicas(t, n, 0, opts...)
}

// StartClusterReplicas is StartCluster with replicas replicas per master (a master's
// replica takes over its slots about two seconds after the master dies). Nodes()
// lists the masters first, then the replicas of master 0, 1, ... in turn.
func StartClusterReplicas(t testing.TB, masters, replicas int, opts ...Option) *Cluster {
	t.Helper()
	if masters < 1 || replicas < 0 {
		t.Fatalf("redistest: StartCluster needs at least one master")
	}
	cl := &Cluster{t: t, masters: masters, replicas: replicas}
	for i := 0; i < masters*(1+replicas); i++ {
		o := append([]Option{WithArgs("--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")}, opts...)
		cl.nodes = append(cl.nodes, Start(t, o...))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	per := 16384 / masters
	for i, s := range cl.nodes[:masters] {
		lo, hi := i*per, (i+1)*per-1
		if i == masters-1 {
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
	for r, s := range cl.nodes[masters:] {
		m := cl.nodes[r%masters]
		id, err := m.Client().Do(ctx, "CLUSTER", "MYID").Text()
		if err != nil {
			t.Fatalf("redistest: cluster myid on %s: %v", m.Addr(), err)
		}
		for { // the replica must have heard of the master first
			err = s.Client().Do(ctx, "CLUSTER", "REPLICATE", id).Err()
			if err == nil || ctx.Err() != nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("redistest: cluster replicate %s -> %s: %v", s.Addr(), m.Addr(), err)
		}
	}
	if err := cl.waitOK(ctx); err != nil {
		t.Fatalf("redistest: cluster not ready: %v", err)
	}
	return cl
}

// Masters returns the servers that were started as masters (after a failover a
// replica may serve their slots instead).
func (cl *Cluster) Masters() []*Server { return cl.nodes[:cl.masters] }

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
			if cl.replicas > 0 && !replicasInSync(ctx, s, nodes, cl.masters*cl.replicas) {
				ok = false
				last = fmt.Sprintf("%s: replicas not in sync", s.Addr())
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

// replicasInSync reports whether s, if a replica, has its link to the master up, and
// whether the cluster (as s sees it in CLUSTER NODES) has want replicas.
func replicasInSync(ctx context.Context, s *Server, nodes string, want int) bool {
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	defer c.Close()
	info, err := c.Info(ctx, "replication").Result()
	if err != nil {
		return false
	}
	if strings.Contains(info, "role:slave") && !strings.Contains(info, "master_link_status:up") {
		return false
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(nodes), "\n") {
		if f := strings.Fields(line); len(f) > 2 && strings.Contains(f[2], "slave") {
			n++
		}
	}
	return n == want
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

// URL returns "redis+cluster://addr1,addr2,..." (the form eventlog.Open parses).
func (cl *Cluster) URL() string { return "redis+cluster://" + strings.Join(cl.Addrs(), ",") }

// Client returns a new cluster client, closed when the test ends. It reloads the
// slot map every second: go-redis (v9.23) otherwise keeps sending a dead master's slots
// to its address for up to 60 s after a replica took over (a refused connection is no
// MOVED reply, so nothing else triggers a reload).
func (cl *Cluster) Client() *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.Addrs(), ClusterStateReloadInterval: time.Second})
	cl.t.Cleanup(func() { _ = c.Close() })
	return c
}
