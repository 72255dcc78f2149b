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
	"strings"
	"sync"
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
func writerGoroutines() int { return goroutinesIn("gomoku/server.(*conn).writeLoop") }

// stallNet is the test server's listener: it keeps the server side of every accepted
// connection, so that a test can stall the network towards one client.
type stallNet struct {
	net.Listener
	mu    sync.Mutex
	conns map[string]*stallConn // by the client's address
}

// Accept implements net.Listener.
func (l *stallNet) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc := &stallConn{Conn: nc}
	l.mu.Lock()
	l.conns[nc.RemoteAddr().String()] = sc
	l.mu.Unlock()
	return sc, nil
}

// stallConn is a server-side connection whose writes block while it is stalled, as
// when the client's network stops taking data.
type stallConn struct {
	net.Conn
	mu   sync.Mutex
	gate chan struct{} // not nil while stalled
	fail bool          // writes that start now fail
}

// Write implements net.Conn.
func (c *stallConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	gate, fail := c.gate, c.fail
	c.mu.Unlock()
	if fail {
		return 0, net.ErrClosed
	}
	if gate != nil {
		<-gate
	}
	return c.Conn.Write(p)
}

// stallClient makes the server's writes to c block (the writer stalls in its next
// write) until the returned resume is called (at the latest when the test ends).
func (e *testEnv) stallClient(c *wsClient) (resume func()) {
	e.t.Helper()
	e.net.mu.Lock()
	sc := e.net.conns[c.ws.LocalAddr().String()]
	e.net.mu.Unlock()
	require.NotNil(e.t, sc, "the server side of the client's connection")
	gate := make(chan struct{})
	sc.mu.Lock()
	sc.gate = gate
	sc.mu.Unlock()
	var once sync.Once
	resume = func() {
		once.Do(func() {
			sc.mu.Lock()
			sc.gate = nil
			sc.mu.Unlock()
			close(gate)
		})
	}
	e.t.Cleanup(resume)
	return resume
}

// subscribers is the number of this node's subscriptions to live room id.
func (e *testEnv) subscribers(id string) int {
	r := e.mgr.Live(id)
	if r == nil {
		return 0
	}
	return r.LocalPresence().Subs
}

// failWrites makes the server's writes to c that start from now on fail.
func (e *testEnv) failWrites(c *wsClient) {
	e.t.Helper()
	e.net.mu.Lock()
	sc := e.net.conns[c.ws.LocalAddr().String()]
	e.net.mu.Unlock()
	require.NotNil(e.t, sc, "the server side of the client's connection")
	sc.mu.Lock()
	sc.fail = true
	sc.mu.Unlock()
}

// connCount is the number of the server's open WebSocket connections.
func (e *testEnv) connCount() int {
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	return len(e.srv.conns)
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
