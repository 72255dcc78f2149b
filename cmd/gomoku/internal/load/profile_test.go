package load

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/server"
)

// TestServeForProfiling serves the real server (server.New, as gomokud builds it) with
// /debug/pprof/ next to it, for profiling under `gomoku load` (gomokud has no pprof
// endpoint). Opt-in:
//
//	go test -c -o /tmp/loadprof ./cmd/gomoku/internal/load
//	GOMOKU_LOAD_SERVE=127.0.0.1:8090 GOMOKU_LOAD_SERVE_FOR=3m REDIS_URL=redis://127.0.0.1:PORT/0 \
//	    /tmp/loadprof -test.run ServeForProfiling -test.timeout 15m
//	gomoku load -url http://127.0.0.1:8090 -idle 10000 -duration 60s &
//	go tool pprof -top -inuse_space http://127.0.0.1:8090/debug/pprof/heap
func TestServeForProfiling(t *testing.T) {
	addr := os.Getenv("GOMOKU_LOAD_SERVE")
	if addr == "" {
		t.Skip("set GOMOKU_LOAD_SERVE=127.0.0.1:PORT (and REDIS_URL) to serve a server with /debug/pprof/ for profiling")
	}
	_, err := CheckLoopback("http://" + addr)
	require.NoError(t, err)
	d := 3 * time.Minute
	if v := os.Getenv("GOMOKU_LOAD_SERVE_FOR"); v != "" {
		d, err = time.ParseDuration(v)
		require.NoError(t, err)
		require.LessOrEqual(t, d, MaxDuration)
	}
	ctx := context.Background()
	cfg := server.DefaultConfig()
	cfg.RedisURL = os.Getenv("REDIS_URL")
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := server.New(ctx, cfg)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.Handle("/", srv.Handler())
	ln, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	hs := &http.Server{Handler: mux}
	go func() { _ = hs.Serve(ln) }()
	t.Logf("serving on http://%s for %v (pprof at /debug/pprof/)", addr, d)
	time.Sleep(d)
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	_ = hs.Close()
}
