package server

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
)

// TestIdleConnMemory measures what an idle spectator connection costs the server (live
// heap and goroutine stacks after a full GC, goroutines) and checks its shape: two
// goroutines per connection (reader and writer) and a bounded heap. The clients are bare
// TCP connections in the same process (a few hundred bytes each, included in the
// figure). GOMOKU_CONNMEM_N sets the number of connections (default 300). The budget
// (RSS per idle connection at 10,000 connections) is measured with the load tool
// (docs/performance.md).
func TestIdleConnMemory(t *testing.T) {
	n := 300
	if v, err := strconv.Atoi(os.Getenv("GOMOKU_CONNMEM_N")); err == nil && v > 0 {
		n = v
	}
	e := newEnv(t, nil, func(c *Config, o *room.Options) { c.MaxConnsPerIP, o.SubQueue = 0, 64 }) // as open.go
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	// One connection first, so that the room is running before the baseline.
	e.rawDial(id)
	require.Eventually(t, func() bool { return e.subscribers(id) == 1 }, 5*time.Second, 10*time.Millisecond)
	heap0, stack0, g0 := memStats()
	for i := 0; i < n; i++ {
		e.rawDial(id)
	}
	require.Eventually(t, func() bool { return e.subscribers(id) == n+1 }, 20*time.Second, 20*time.Millisecond,
		"every connection is joined")
	heap1, stack1, g1 := memStats()
	perHeap := float64(int64(heap1)-int64(heap0)) / float64(n) / 1024
	perStack := float64(int64(stack1)-int64(stack0)) / float64(n) / 1024
	perG := float64(g1-g0) / float64(n)
	t.Logf("%d idle connections: per connection heap %.1f KiB + stacks %.1f KiB = %.1f KiB, %.2f goroutines",
		n, perHeap, perStack, perHeap+perStack, perG)
	require.InDelta(t, 2, perG, 0.05, "two goroutines (reader and writer) per idle connection")
	if !raceEnabled {
		// 4 KiB each: the reader waits in gorilla's read below conn.serve's small frame
		// only, so the collection in memStats halves the 8 KiB the hello grew it to
		// (conn.serve explains); the writer only writes frames the room encoded
		// (room.Update.Frames) and never grows past 4 KiB. A reader that waits deeper
		// keeps 8 KiB (12 KiB per connection).
		require.LessOrEqual(t, perStack, 9.0, "stack KiB per idle connection")
		// The heap is mostly gorilla's conn with its 256-byte read buffer (~0.9 KiB),
		// the TCP connection, the writer's ticker, the reply queue (cfg.SendQueue
		// slots) and the room's 64-slot update queue (0.5 KiB: it holds pointers).
		require.LessOrEqual(t, perHeap, 8.0, "heap KiB per idle connection")
	}
}
