package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
)

func TestPasswordHash(t *testing.T) {
	h := hashPassword("tulip-sky-42", testArgon2)
	require.True(t, strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$"), h)
	require.NotContains(t, h, "tulip")
	require.NotEqual(t, h, hashPassword("tulip-sky-42", testArgon2), "salted")
	ok, err := checkPassword("tulip-sky-42", h)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = checkPassword("tulip-sky-43", h)
	require.NoError(t, err)
	require.False(t, ok)
	// A hash keeps its own parameters: it still verifies after the defaults change.
	ok, err = checkPassword("x", hashPassword("x", Argon2Params{MemoryKiB: 128, Time: 2, Threads: 2}))
	require.NoError(t, err)
	require.True(t, ok)
	parts := strings.Split(h, "$")
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=18$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=0,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=99999999,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$!!$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$" + parts[4] + "$abc",
	} {
		_, err := checkPassword("x", bad)
		require.ErrorIs(t, err, errBadPasswordHash, bad)
	}
}

func TestHasherUnknownAccount(t *testing.T) {
	h := newHasher(testArgon2, 1)
	ok, err := h.check(context.Background(), "anything", "")
	require.NoError(t, err)
	require.False(t, ok)
	require.Equal(t, int64(1), h.done.Load(), "the dummy hash is computed")
	// A full hasher waits for the request's context.
	h.slots <- struct{}{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = h.hash(ctx, "x")
	require.ErrorIs(t, err, context.Canceled)
}

// cpuTime is the process's user+system CPU time: on a busy machine a hash's CPU time
// is a steadier measure of its cost than its wall time.
func cpuTime() time.Duration {
	var r syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// BenchmarkPasswordHash measures one argon2id hash with the production parameters
// (docs/performance.md): ns/op is wall time, cpu-ms/op the CPU time it used.
func BenchmarkPasswordHash(b *testing.B) {
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		hashPassword("tulip-sky-42", DefaultArgon2)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkLogin measures POST /api/sessions end to end (HTTP handler, limiter and
// store on miniredis, argon2id check with the production parameters), from as many
// clients as cores: logins/s is the throughput of one node.
func BenchmarkLogin(b *testing.B) {
	b.ReportAllocs()
	mr := miniredis.RunT(b)
	rc := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	b.Cleanup(func() { _ = rc.Close() })
	cfg := DefaultConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ps := NewRedisPlayers(rc)
	srv, err := NewWith(cfg, Deps{Rooms: &ManagerRooms{M: room.NewManager(room.NewMemStore(), room.Options{})},
		Players: ps, Logins: NewLoginLimiter(rc, time.Now)})
	require.NoError(b, err)
	srv.limiter.account.Free, srv.limiter.addr.Free = 1<<30, 1<<30 // measure the work, not the limiter
	const users = 64
	for i := 0; i < users; i++ {
		_, hash, id := newToken()
		require.NoError(b, ps.CreateAccount(context.Background(), Player{ID: id, Name: "u", Username: fmt.Sprint("user", i)},
			PlayerSession{Hash: hash}, hashPassword("pass word", DefaultArgon2)))
	}
	h := srv.Handler()
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			body := fmt.Sprintf(`{"username":"user%d","password":"pass word"}`, i%users)
			req := httptest.NewRequest("POST", "/api/sessions", strings.NewReader(body))
			req.RemoteAddr = fmt.Sprintf("10.0.%d.%d:1234", i/250%250, i%250)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusCreated {
				b.Errorf("login: %d %s", w.Code, w.Body)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "logins/s")
}
