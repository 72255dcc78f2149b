package server

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// rawDial opens a WebSocket to roomID with a bare TCP connection and sends hello (as an
// anonymous spectator); it reads nothing after the handshake. Such a client holds
// almost no memory itself, so the server's cost per connection can be measured in the
// same process.
func (e *testEnv) rawDial(roomID string) net.Conn {
	e.t.Helper()
	addr := strings.TrimPrefix(e.ts.URL, "http://")
	nc, err := net.Dial("tcp", addr)
	require.NoError(e.t, err)
	e.t.Cleanup(func() { _ = nc.Close() })
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	req := fmt.Sprintf("GET /ws/rooms/%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", roomID, addr, base64.StdEncoding.EncodeToString(key))
	_, err = nc.Write([]byte(req))
	require.NoError(e.t, err)
	// Read the response head byte by byte: what follows belongs to the WebSocket.
	var head bytes.Buffer
	one := make([]byte, 1)
	_ = nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	for !bytes.HasSuffix(head.Bytes(), []byte("\r\n\r\n")) {
		_, err := nc.Read(one)
		require.NoError(e.t, err)
		head.WriteByte(one[0])
	}
	_ = nc.SetReadDeadline(time.Time{})
	res, err := http.ReadResponse(bufio.NewReader(&head), nil)
	require.NoError(e.t, err)
	require.Equal(e.t, http.StatusSwitchingProtocols, res.StatusCode)
	_, err = nc.Write(maskedText([]byte(`{"type":"hello"}`)))
	require.NoError(e.t, err)
	return nc
}

// maskedText frames payload as a client text frame (masked with a zero key, < 126 bytes).
func maskedText(payload []byte) []byte {
	return append([]byte{0x81, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
}

// writerGoroutines counts running connection writers (goroutines in writeLoop).
func writerGoroutines() int {
	var b bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
	n := 0
	for _, block := range strings.Split(b.String(), "\n\n") {
		if strings.Contains(block, "(*conn).writeLoop") {
			var k int
			if _, err := fmt.Sscanf(block, "%d @", &k); err == nil {
				n += k
			}
		}
	}
	return n
}

// parkedConns counts the server's connections whose writer is parked.
func (e *testEnv) parkedConns() int {
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	n := 0
	for c := range e.srv.conns {
		if c.wstate.Load() == writerParked {
			n++
		}
	}
	return n
}

// shortLinger makes writers park after d for the rest of the test.
func shortLinger(t *testing.T, d time.Duration) {
	lingerOverride.Store(int64(d))
	t.Cleanup(func() { lingerOverride.Store(0) })
}

// memStats returns the live heap, goroutine stacks and goroutines after a full GC.
func memStats() (heap, stacks uint64, goroutines int) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.StackInuse, runtime.NumGoroutine()
}

// raceEnabled is set under the race detector, which multiplies memory use.
var raceEnabled bool

// runtimeStack writes every goroutine's stack into buf.
func runtimeStack(buf []byte) int { return runtime.Stack(buf, true) }

// writeStats sums the coalesced writes and the frames they carried over the server's
// connections.
func (e *testEnv) writeStats() (writes, frames uint32) {
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	for c := range e.srv.conns {
		writes += c.writes.Load()
		frames += c.frames.Load()
	}
	return writes, frames
}
