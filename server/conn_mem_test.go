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
// heap and goroutine stacks after a full GC, goroutines) and checks the budget: one
// goroutine per connection and a bounded heap (at most 20 KiB in all). The clients are bare TCP
// connections in the same process (a few hundred bytes each, included in the figure).
// GOMOKU_CONNMEM_N sets the number of connections (default 300).
func TestIdleConnMemory(t *testing.T) {
	n := 300
	if v, err := strconv.Atoi(os.Getenv("GOMOKU_CONNMEM_N")); err == nil && v > 0 {
		n = v
	}
	shortLinger(t, 100*time.Millisecond)
	e := newEnv(t, nil, func(c *Config, o *room.Options) { c.MaxConnsPerIP, o.SubQueue = 0, 64 }) // as open.go
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	// One connection first, so that the room and the clock are running before the baseline.
	e.rawDial(id)
	require.Eventually(t, func() bool { return e.parkedConns() == 1 }, 5*time.Second, 10*time.Millisecond)
	heap0, stack0, g0 := memStats()
	for i := 0; i < n; i++ {
		e.rawDial(id)
	}
	require.Eventually(t, func() bool { return e.parkedConns() == n+1 }, 20*time.Second, 20*time.Millisecond,
		"every idle connection parks its writer")
	// Let the room's batched presence settle and the writers it woke park again.
	time.Sleep(500 * time.Millisecond)
	require.Eventually(t, func() bool { return e.parkedConns() == n+1 }, 5*time.Second, 20*time.Millisecond)
	heap1, stack1, g1 := memStats()
	perHeap := float64(int64(heap1)-int64(heap0)) / float64(n) / 1024
	perStack := float64(int64(stack1)-int64(stack0)) / float64(n) / 1024
	perG := float64(g1-g0) / float64(n)
	t.Logf("%d idle connections: per connection heap %.1f KiB + stacks %.1f KiB = %.1f KiB, %.2f goroutines",
		n, perHeap, perStack, perHeap+perStack, perG)
	require.Zero(t, writerGoroutines(), "no writer runs for idle connections")
	require.LessOrEqual(t, perG, 1.05, "one goroutine (the reader) per idle connection")
	if !raceEnabled {
		// The stacks are one reader each, parked inside gorilla's read: 8 KiB once the
		// collector has halved the stack the hello grew, plus stack-span slack.
		require.LessOrEqual(t, perStack, 16.0, "stack KiB per idle connection")
		// The heap is mostly gorilla's conn with its 256-byte read
		// buffer (~0.9 KiB), the TCP connection, and the room's 64-slot update queue
		// (0.5 KiB: it holds pointers; 2.9 KiB when it held Update values).
		require.LessOrEqual(t, perHeap, 6.5, "heap KiB per idle connection")
	}
}
