package load

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// Frame sizes of the floor's messages: about what a move costs on the wire (a move
// command; the mover's ack and move event in one write; the opponent's move event).
const (
	floorCmd      = 64
	floorMoverOut = 190
	floorPeerOut  = 130
)

// BenchmarkMoveFloor is the least a move can cost on this machine in a server's shape,
// the yardstick for the server's moves per second next to the raw append script
// (docs/performance.md): G games (GOMOKU_FLOOR_GAMES, default 600) of two loopback TCP
// connections each, a client goroutine per connection and a server goroutine per
// connection. A move is what the real path does at the least: the mover's client
// writes the command; the server reads it, (append) runs the store's append script,
// and writes the acknowledgement and the event to the mover and the event to the
// opponent; both clients read. No JSON, no WebSocket framing, no room goroutine, no
// timers: a real server can only be slower. Both ends run in this process, so the CPU
// per move is client + server (+ redis-server for append).
//
//	go test -run '^$' -bench MoveFloor ./cmd/gomoku/internal/load/                 # transport only
//	GOMOKU_FLOOR_REDIS=redis://127.0.0.1:PORT/0 go test -run '^$' -bench MoveFloor …  # and append
//
// With GOMOKU_INTEGRATION=1 and no GOMOKU_FLOOR_REDIS, append starts its own
// redis-server (AOF everysec, as bench.sh).
func BenchmarkMoveFloor(b *testing.B) {
	games := 600
	if v, err := strconv.Atoi(os.Getenv("GOMOKU_FLOOR_GAMES")); err == nil && v > 0 {
		games = v
	}
	b.Run("transport", func(b *testing.B) { runFloor(b, games, nil, nil) })
	b.Run("transport+append", func(b *testing.B) {
		url := os.Getenv("GOMOKU_FLOOR_REDIS")
		if url == "" {
			if !redistest.Enabled() {
				b.Skip("set GOMOKU_FLOOR_REDIS=redis://127.0.0.1:PORT/0 or GOMOKU_INTEGRATION=1 for the append floor")
			}
			url = redistest.Start(b).URL()
		}
		ctx := context.Background()
		c, closeFn, _, err := eventlog.Open(ctx, url, slog.New(slog.NewTextHandler(io.Discard, nil)))
		require.NoError(b, err)
		defer closeFn()
		rs := eventlog.New(c)
		st := roomstore.New(rs)
		prefix := fmt.Sprintf("loadfloor%d-", time.Now().UnixNano())
		rooms := make([]*rawRoom, games)
		for g := range rooms {
			rooms[g], err = newRawRoom(ctx, st, fmt.Sprintf("%s%d", prefix, g), uint64(g))
			require.NoError(b, err)
		}
		defer func() {
			for g := range rooms {
				_ = rs.Delete(ctx, fmt.Sprintf("%s%d", prefix, g))
			}
		}()
		runFloor(b, games, rooms, c)
	})
}

// runFloor plays b.N moves over the games (each plays ceil(b.N/games), so at least b.N
// in all) and reports moves/s and CPU µs per move. It opens 4 descriptors per game (the
// default 600 games need `ulimit -n` above 2,400; bench.sh raises it).
func runFloor(b *testing.B, games int, rooms []*rawRoom, rc redis.UniversalClient) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	defer ln.Close()
	type pair struct{ client, server [2]net.Conn }
	pairs := make([]pair, games)
	for g := range pairs {
		for side := range 2 {
			cc, err := net.Dial("tcp", ln.Addr().String())
			require.NoError(b, err)
			sc, err := ln.Accept()
			require.NoError(b, err)
			pairs[g].client[side], pairs[g].server[side] = cc, sc
		}
	}
	defer func() {
		for _, p := range pairs {
			for side := range 2 {
				_ = p.client[side].Close()
				_ = p.server[side].Close()
			}
		}
	}()
	perGame := (b.N + games - 1) / games
	var wg sync.WaitGroup
	var errMu sync.Mutex
	var firstErr error
	fail := func(err error) {
		errMu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		errMu.Unlock()
	}
	redisCPU0 := redisCPU(rc)
	cpu0, err := procCPU(0)
	require.NoError(b, err)
	b.ResetTimer()
	start := time.Now()
	for g, p := range pairs {
		var mu sync.Mutex // the game's state: one move at a time, as a room
		for side := range 2 {
			wg.Add(2)
			go func() { // server side of connection `side`
				defer wg.Done()
				in := make([]byte, floorCmd)
				own, peer := make([]byte, floorMoverOut), make([]byte, floorPeerOut)
				for {
					if _, err := io.ReadFull(p.server[side], in); err != nil {
						return // the client closed: done
					}
					mu.Lock()
					if rooms != nil {
						if err := rooms[g].appendMove(context.Background()); err != nil {
							fail(err)
						}
					}
					mu.Unlock()
					_, err1 := p.server[side].Write(own)
					_, err2 := p.server[1-side].Write(peer)
					if err1 != nil || err2 != nil {
						fail(fmt.Errorf("floor: server write: %v %v", err1, err2))
						return
					}
				}
			}()
			go func() { // client of connection `side`: black (0) moves first
				defer wg.Done()
				out := make([]byte, floorCmd)
				buf := make([]byte, floorMoverOut)
				for ply := range perGame {
					mine := ply%2 == side
					if mine {
						if _, err := p.client[side].Write(out); err != nil {
							fail(err)
							return
						}
					}
					n := floorPeerOut
					if mine {
						n = floorMoverOut
					}
					if _, err := io.ReadFull(p.client[side], buf[:n]); err != nil {
						fail(err)
						return
					}
				}
				_ = p.client[side].(*net.TCPConn).CloseWrite()
			}()
		}
	}
	wg.Wait()
	el := time.Since(start)
	b.StopTimer()
	require.NoError(b, firstErr)
	cpu1, err := procCPU(0)
	require.NoError(b, err)
	moves := float64(perGame * games)
	b.ReportMetric(moves/el.Seconds(), "moves/s")
	b.ReportMetric(float64(cpu1-cpu0)/1e3/moves, "cpu-µs/move")
	if rc != nil {
		b.ReportMetric((redisCPU(rc)-redisCPU0)*1e6/moves, "redis-cpu-µs/move")
	}
}

// redisCPU is redis-server's CPU seconds so far (INFO cpu), 0 without a client.
func redisCPU(rc redis.UniversalClient) float64 {
	if rc == nil {
		return 0
	}
	info, err := rc.Info(context.Background(), "cpu").Result()
	if err != nil {
		return 0
	}
	total := 0.0
	for _, line := range strings.Split(info, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && (k == "used_cpu_sys" || k == "used_cpu_user") {
			f, _ := strconv.ParseFloat(v, 64)
			total += f
		}
	}
	return total
}
