package eventlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

func TestLease(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		const ttl = 300 * time.Millisecond
		ok, err := s.AcquireLease(ctx, "r", "A", ttl)
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = s.AcquireLease(ctx, "r", "A", ttl) // re-acquire = extend
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = s.AcquireLease(ctx, "r", "B", ttl)
		require.NoError(t, err)
		assert.False(t, ok, "B must not take A's lease")
		ok, err = s.RenewLease(ctx, "r", "B", ttl)
		require.NoError(t, err)
		assert.False(t, ok)
		ok, err = s.ReleaseLease(ctx, "r", "B")
		require.NoError(t, err)
		assert.False(t, ok, "B must not release A's lease")
		holder, left, err := s.LeaseHolder(ctx, "r")
		require.NoError(t, err)
		assert.Equal(t, "A", holder)
		assert.Greater(t, left, time.Duration(0))

		ok, err = s.RenewLease(ctx, "r", "A", ttl)
		require.NoError(t, err)
		assert.True(t, ok)

		// A dies (stops renewing): the lease expires and B takes over.
		b.advance(ttl + 200*time.Millisecond)
		holder, _, err = s.LeaseHolder(ctx, "r")
		require.NoError(t, err)
		assert.Empty(t, holder)
		ok, err = s.AcquireLease(ctx, "r", "B", ttl)
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = s.RenewLease(ctx, "r", "A", ttl)
		require.NoError(t, err)
		assert.False(t, ok, "A must learn it lost the lease")

		// Graceful hand-over.
		ok, err = s.ReleaseLease(ctx, "r", "B")
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = s.AcquireLease(ctx, "r", "A", ttl)
		require.NoError(t, err)
		assert.True(t, ok)

		_, err = s.AcquireLease(ctx, "r", "", ttl)
		assert.ErrorIs(t, err, ErrBadRequest)
		_, err = s.AcquireLease(ctx, "r", "A", 0)
		assert.ErrorIs(t, err, ErrBadRequest)
	})
}

// TestUnavailableAndRecovery kills Redis mid-game: calls fail with
// ErrUnavailable, and after the restart every acknowledged append is there
// (real redis-server: AOF with appendfsync always, killed with SIGKILL).
func TestUnavailableAndRecovery(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		require.NoError(t, s.Create(ctx, "g", map[string]string{"phase": "playing"}, ev(1), Touch(time.Now(), IndexLive)))
		seq := uint64(1)
		for i := 2; i <= 50; i++ {
			var err error
			seq, err = s.Append(ctx, "g", seq, [][]byte{ev(i)}, map[string]string{"ply": fmt.Sprint(i)}, Touch(time.Now(), IndexLive))
			require.NoError(t, err)
		}
		b.kill()

		short, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := s.Append(short, "g", seq, [][]byte{ev(51)}, nil, IndexUpdate{})
		require.ErrorIs(t, err, ErrUnavailable)
		assert.True(t, IsUnavailable(err))
		assert.Less(t, time.Since(start), 4*time.Second, "fails fast")
		assert.ErrorIs(t, s.Ping(short), ErrUnavailable)
		_, _, err = s.Load(short, "g")
		assert.ErrorIs(t, err, ErrUnavailable)
		_, err = s.Events(short, "g", 0)
		assert.ErrorIs(t, err, ErrUnavailable)
		_, err = s.AcquireLease(short, "g", "n", time.Second)
		assert.ErrorIs(t, err, ErrUnavailable)
		_, _, err = s.List(short, IndexLive, "", 10)
		assert.ErrorIs(t, err, ErrUnavailable)
		_, _, err = s.Subscribe(short, "g")
		assert.ErrorIs(t, err, ErrUnavailable)

		b.restart()
		require.Eventually(t, func() bool { return s.Ping(ctx) == nil }, 10*time.Second, 50*time.Millisecond)
		f, got, err := s.Load(ctx, "g")
		require.NoError(t, err)
		assert.Equal(t, seq, got, "every acknowledged append survived")
		assert.Equal(t, "50", f["ply"])
		evs, err := s.Events(ctx, "g", 0)
		require.NoError(t, err)
		require.Len(t, evs, 50)
		for i, e := range evs {
			assert.Equal(t, ev(i+1), e)
		}
		live, err := s.LiveRooms(ctx)
		require.NoError(t, err)
		assert.Equal(t, []string{"g"}, live)
		_, err = s.Append(ctx, "g", seq, [][]byte{ev(51)}, nil, IndexUpdate{})
		require.NoError(t, err)
	})
}

// TestSubscribeReconnect: a subscription survives a Redis restart and says so.
func TestSubscribeReconnect(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		require.NoError(t, s.Create(ctx, "g", nil, ev(1), IndexUpdate{}))
		msgs, closeSub, err := s.Subscribe(ctx, "g")
		require.NoError(t, err)
		defer closeSub()
		b.kill()
		time.Sleep(200 * time.Millisecond)
		b.restart()
		select {
		case m := <-msgs:
			require.True(t, m.Reconnected)
		case <-time.After(15 * time.Second):
			t.Fatal("no Reconnected message")
		}
		_, err = s.Append(ctx, "g", 1, [][]byte{ev(2)}, nil, IndexUpdate{})
		require.NoError(t, err)
		select {
		case m := <-msgs:
			assert.Equal(t, uint64(2), m.Seq)
			assert.Equal(t, ev(2), m.Data)
		case <-time.After(10 * time.Second):
			t.Fatal("no event after reconnect")
		}
	})
}

func TestSubscribeEndsWithContext(t *testing.T) {
	b := miniBackend(t)
	s := New(b.client)
	ctx, cancel := context.WithCancel(context.Background())
	msgs, closeSub, err := s.Subscribe(ctx, "g")
	require.NoError(t, err)
	cancel()
	for range msgs {
	}
	closeSub() // idempotent after the end
}

func TestShardedPubSubRealRedis(t *testing.T) {
	srv := redistest.Start(t)
	s := New(srv.Client(), WithShardedPubSub(true))
	ctx := ctxT(t)
	require.NoError(t, s.Create(ctx, "sh", nil, ev(1), IndexUpdate{}))
	msgs, closeSub, err := s.Subscribe(ctx, "sh")
	require.NoError(t, err)
	defer closeSub()
	_, err = s.Append(ctx, "sh", 1, [][]byte{ev(2), ev(3)}, nil, IndexUpdate{})
	require.NoError(t, err)
	require.NoError(t, s.Publish(ctx, "sh", []byte("p")))
	for _, want := range []Message{{Seq: 2, Data: ev(2)}, {Seq: 3, Data: ev(3)}, {Seq: 0, Data: []byte("p")}} {
		select {
		case m := <-msgs:
			assert.Equal(t, want, m)
		case <-time.After(5 * time.Second):
			t.Fatal("timeout")
		}
	}
}

// TestCluster runs the store on a 3-node Redis Cluster: rooms spread over
// the slots, the script's keys share a slot, lobby updates go through the
// pipelined path, pub/sub is sharded.
func TestCluster(t *testing.T) {
	cl := redistest.StartCluster(t, 3)
	c, closeFn, embedded, err := Open(context.Background(), cl.URL(), slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	require.NoError(t, err)
	defer closeFn()
	require.False(t, embedded)
	require.IsType(t, &redis.ClusterClient{}, c)
	s := New(c)
	ctx := ctxT(t)
	const rooms = 30
	for i := 0; i < rooms; i++ {
		id := fmt.Sprintf("c%d", i)
		require.NoError(t, s.Create(ctx, id, map[string]string{"i": fmt.Sprint(i)}, ev(1), Touch(time.Now(), IndexLive, IndexOpen)))
	}
	msgs, closeSub, err := s.Subscribe(ctx, "c7")
	require.NoError(t, err)
	defer closeSub()
	for i := 0; i < rooms; i++ {
		id := fmt.Sprintf("c%d", i)
		seq, err := s.Append(ctx, id, 1, [][]byte{ev(2), ev(3)}, map[string]string{"ply": "2"}, Touch(time.Now(), IndexLive))
		require.NoError(t, err)
		require.Equal(t, uint64(3), seq)
		_, err = s.Append(ctx, id, 1, [][]byte{ev(9)}, nil, IndexUpdate{})
		require.ErrorIs(t, err, ErrSeqConflict)
		ok, err := s.AcquireLease(ctx, id, "node1", time.Second)
		require.NoError(t, err)
		require.True(t, ok)
	}
	for want := uint64(2); want <= 3; want++ {
		select {
		case m := <-msgs:
			assert.Equal(t, want, m.Seq)
		case <-time.After(5 * time.Second):
			t.Fatal("timeout")
		}
	}
	live, err := s.LiveRooms(ctx)
	require.NoError(t, err)
	assert.Len(t, live, rooms)
	n, err := s.Count(ctx, IndexOpen)
	require.NoError(t, err)
	assert.Zero(t, n)
	require.NoError(t, s.Finish(ctx, "c3", time.Now()))
	rec, err := s.Export(ctx, "c3")
	require.NoError(t, err)
	assert.Len(t, rec.Events, 3)
	assert.Greater(t, rec.ExpiresIn, 29*24*time.Hour)
	fs, seqs, err := s.LoadMany(ctx, []string{"c1", "c2", "c29"})
	require.NoError(t, err)
	assert.Equal(t, "29", fs[2]["i"])
	assert.Equal(t, []uint64{3, 3, 3}, seqs)
	evs, err := s.Events(ctx, "c5", 1)
	require.NoError(t, err)
	assert.Equal(t, [][]byte{ev(2), ev(3)}, evs)
}

func TestOpenEmbedded(t *testing.T) {
	var buf bytes.Buffer
	c, closeFn, embedded, err := Open(context.Background(), "", slog.New(slog.NewTextHandler(&buf, nil)))
	require.NoError(t, err)
	defer closeFn()
	assert.True(t, embedded)
	assert.Contains(t, buf.String(), "level=WARN")
	assert.Contains(t, buf.String(), "WILL NOT survive a restart")
	s := New(c)
	ctx := ctxT(t)
	require.NoError(t, s.Ping(ctx))
	require.NoError(t, s.Create(ctx, "e", nil, ev(1), IndexUpdate{}))
	// TTLs follow the wall clock in the embedded Redis.
	ok, err := s.AcquireLease(ctx, "e", "A", 100*time.Millisecond)
	require.NoError(t, err)
	require.True(t, ok)
	require.Eventually(t, func() bool {
		ok, err := s.AcquireLease(ctx, "e", "B", time.Second)
		return err == nil && ok
	}, 3*time.Second, 20*time.Millisecond)
}

func TestOpenURLs(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want any
		err  bool
	}{
		{"redis://localhost:6379/0", &redis.Client{}, false},
		{"rediss://user:pw@localhost:6380", &redis.Client{}, false},
		{"unix:///tmp/redis.sock", &redis.Client{}, false},
		{"redis+cluster://h1:7000,h2:7001,h3:7002", &redis.ClusterClient{}, false},
		{"redis+cluster://h1:7000", &redis.ClusterClient{}, false},
		{"rediss+cluster://u:p@h1:7000,h2:7001?dial_timeout=3s", &redis.ClusterClient{}, false},
		{"redis://h1:7000,h2:7001", &redis.ClusterClient{}, false},
		{"redis+sentinel://s1:26379,s2:26379?master_name=mymaster", &redis.Client{}, false},
		{"redis+sentinel://s1:26379", nil, true},
		{"http://x", nil, true},
		{"localhost:6379", nil, true},
		{"redis+weird://x:1", nil, true},
		{"redis://h:1?bogus_option=1", nil, true},
	} {
		t.Run(tc.url, func(t *testing.T) {
			c, closeFn, embedded, err := Open(context.Background(), tc.url, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
			if tc.err {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			defer closeFn()
			assert.False(t, embedded)
			assert.IsType(t, tc.want, c)
		})
	}
	assert.Equal(t, "redis://u:xxx@h:1", redact("redis://u:secret@h:1"))
	assert.NotContains(t, fmt.Sprint(errors.New(redact("rediss://:pw@h"))), "pw")
}

func FuzzParsePayload(f *testing.F) {
	for _, s := range []string{"1:x", "0:", "18446744073709551615:{}", ":x", "x:1", "", "12", "99999999999999999999:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		seq, data, ok := parsePayload(p)
		if !ok {
			return
		}
		// Round trip: re-encoding gives a payload that decodes the same.
		seq2, data2, ok2 := parsePayload(fmt.Sprintf("%d:%s", seq, data))
		if !ok2 || seq2 != seq || !bytes.Equal(data, data2) {
			t.Fatalf("round trip of %q: %d %q", p, seq2, data2)
		}
	})
}

// FuzzOpenURL: any REDIS_URL either parses into a client or is refused; it
// never panics, and a refused URL's error never shows its password.
func FuzzOpenURL(f *testing.F) {
	for _, s := range []string{"redis://h:1", "redis+cluster://a:1,b:2", "rediss://u:pw@h:1/2?dial_timeout=1s",
		"redis+sentinel://s:1?master_name=m", "unix:///x", "redis://", "redis://:@", "redis://a,,b", "://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		c, err := newClient(u)
		if err != nil {
			err = scrub(u, err)
			if _, pw, ok := strings.Cut(u, ":pw@"); ok && pw != "" {
				assert.NotContains(t, err.Error(), ":pw@")
			}
			return
		}
		_ = c.Close()
	})
}

// TestOpenedClientFailsFast: on the client Open makes (gomokud's), every store call on
// a killed redis-server fails with ErrUnavailable within a second, also after the
// pooled connections are gone (docs/persistence.md).
func TestOpenedClientFailsFast(t *testing.T) {
	redistest.Require(t)
	rs := redistest.Start(t)
	c, closeRedis, _, err := Open(context.Background(), rs.URL(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = closeRedis() })
	ctx := ctxT(t)
	s := New(c)
	require.NoError(t, s.Create(ctx, "g", map[string]string{"phase": "playing"}, ev(1), IndexUpdate{}))
	rs.Kill()
	calls := []struct {
		name string
		call func() error
	}{
		{"Append (breaks the pooled connection)", func() error {
			_, err := s.Append(ctx, "g", 1, [][]byte{ev(2)}, nil, IndexUpdate{})
			return err
		}},
		{"Append (dials)", func() error {
			_, err := s.Append(ctx, "g", 1, [][]byte{ev(2)}, nil, IndexUpdate{})
			return err
		}},
		{"Ping", func() error { return s.Ping(ctx) }},
		{"Load", func() error { _, _, err := s.Load(ctx, "g"); return err }},
		{"Events", func() error { _, err := s.Events(ctx, "g", 0); return err }},
	}
	for _, tc := range calls {
		start := time.Now()
		err := tc.call()
		took := time.Since(start)
		require.ErrorIs(t, err, ErrUnavailable, tc.name)
		require.Less(t, took, time.Second, tc.name)
		t.Logf("%s failed after %v", tc.name, took.Round(time.Millisecond))
	}
}
