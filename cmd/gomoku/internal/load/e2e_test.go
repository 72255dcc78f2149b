package load

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/server"
)

// startServer runs a full in-process server (embedded miniredis) as server/doc.go shows.
func startServer(t *testing.T) string { return startNode(t, "") }

// startNode runs a full in-process server on redisURL (empty: an embedded miniredis).
func startNode(t *testing.T, redisURL string) string {
	t.Helper()
	ctx := context.Background()
	cfg := server.DefaultConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.RedisURL = redisURL
	srv, err := server.New(ctx, cfg)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Start(ln) }()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	})
	return "http://" + ln.Addr().String()
}

// TestLoadEndToEnd plays a few games for 3 s with spectators and churn against the
// in-process server: every client sees every event once and in order, moves are
// acknowledged and seen by the opponent, and the server's memory is read.
func TestLoadEndToEnd(t *testing.T) {
	base := startServer(t)
	cfg := Config{URL: base, Games: 4, Spectators: 3, Rate: 8, Jitter: 0.5, Churn: 6,
		Duration: 3 * time.Second, Setup: 30 * time.Second, IdlePerRoom: 50, SpreadIPs: true,
		RawWriters: 1, RawDuration: time.Second, Seed: 1}
	require.NoError(t, cfg.Validate())
	rep, err := Run(context.Background(), cfg, io.Discard)
	require.NoError(t, err)
	assert.Zero(t, rep.Violations, "order violations: %v", rep.ViolSamples)
	assert.Greater(t, rep.Acks, uint64(20), "moves must be acknowledged")
	assert.Greater(t, rep.MoveRTT.Count, uint64(10), "opponents must see moves")
	assert.Greater(t, rep.Spectator.Count, uint64(10), "spectators must see moves")
	assert.Greater(t, rep.MovesPerSec, 5.0)
	assert.Positive(t, rep.Reconnects, "churn 6/min over 3 s on 20 clients drops some")
	assert.Zero(t, rep.ReconnFail)
	require.NotNil(t, rep.Server)
	assert.InDelta(t, 20.0, rep.Server.After.Connections, 5, "churn may catch a few clients rejoining")
	assert.Positive(t, rep.Server.RSSPerConn)
	for code := range rep.Errors {
		assert.Contains(t, []string{"stale_ply", "not_your_turn"}, code, "unexpected error code %s: %v", code, rep.Errors)
	}
	var buf bytes.Buffer
	require.NoError(t, rep.WriteTable(&buf))
	assert.Contains(t, buf.String(), "move round trip")
	t.Log("\n" + buf.String())
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	var back Report
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, rep.Acks, back.Acks)
}

// TestLoadAcrossNodes: with URL2 each game's second player and every second spectator
// are on another node of the same Redis; every move crosses nodes and every client still
// sees every event once and in order.
func TestLoadAcrossNodes(t *testing.T) {
	mr := miniredis.RunT(t)
	a, b := startNode(t, "redis://"+mr.Addr()), startNode(t, "redis://"+mr.Addr())
	cfg := Config{URL: a, URL2: b, Games: 3, Spectators: 2, Rate: 4, Jitter: 0.5,
		Duration: 3 * time.Second, Setup: 30 * time.Second, IdlePerRoom: 50, SpreadIPs: true,
		RawWriters: 1, RawDuration: time.Second, Seed: 3}
	require.NoError(t, cfg.Validate())
	rep, err := Run(context.Background(), cfg, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, b, rep.Target2)
	assert.Zero(t, rep.Violations, "order violations: %v", rep.ViolSamples)
	assert.Greater(t, rep.MoveRTT.Count, uint64(5), "opponents on the other node must see moves")
	assert.Greater(t, rep.Spectator.Count, uint64(10), "spectators on both nodes must see moves")
	assert.Equal(t, int64(12), rep.Conns)
	require.NotNil(t, rep.Server)
	assert.Equal(t, 6.0, rep.Server.After.Connections, "the first node has the black players and half the spectators")
}

// TestIdleEndToEnd opens idle spectators and reads the memory per connection.
func TestIdleEndToEnd(t *testing.T) {
	base := startServer(t)
	cfg := Config{URL: base, Idle: 60, IdlePerRoom: 25, Duration: 500 * time.Millisecond, Setup: 30 * time.Second,
		SpreadIPs: true, RawWriters: 1, RawDuration: time.Second}
	require.NoError(t, cfg.Validate())
	rep, err := Run(context.Background(), cfg, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "idle", rep.Mode)
	assert.Equal(t, int64(60), rep.Conns)
	require.NotNil(t, rep.Server)
	assert.Equal(t, 60.0, rep.Server.After.Connections)
	assert.Equal(t, uint64(60), rep.Connect.Count)
}

// TestMainRefusesRemote: the command refuses any target off this machine.
func TestMainRefusesRemote(t *testing.T) {
	var out, errb bytes.Buffer
	err := Main(context.Background(), []string{"-url", "http://198.51.100.7:8080", "-games", "1"}, nil, &out, &errb)
	require.ErrorIs(t, err, ErrNotLoopback)
	err = Main(context.Background(), []string{"-url2", "http://198.51.100.7:8080", "-games", "1"}, nil, &out, &errb)
	require.ErrorIs(t, err, ErrNotLoopback)
}

// TestLoadAIEndToEnd: games against an AI seat report the AI's reply latency.
func TestLoadAIEndToEnd(t *testing.T) {
	base := startServer(t)
	cfg := Config{URL: base, Games: 2, Rate: 5, Jitter: 0.2, AI: "beginner",
		Duration: 3 * time.Second, Setup: 30 * time.Second, IdlePerRoom: 50, SpreadIPs: true,
		RawWriters: 1, RawDuration: time.Second, Seed: 2}
	require.NoError(t, cfg.Validate())
	rep, err := Run(context.Background(), cfg, io.Discard)
	require.NoError(t, err)
	assert.Zero(t, rep.Violations, "order violations: %v", rep.ViolSamples)
	assert.Greater(t, rep.Acks, uint64(3))
	assert.Greater(t, rep.AIReply.Count, uint64(3), "the AI must answer")
	assert.Equal(t, "beginner", rep.AI)
}
