package server

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestStalledBurstArrivesInOrder: updates queued while the network to a client is
// stalled arrive complete and in order once it moves again.
func TestStalledBurstArrivesInOrder(t *testing.T) {
	e := newEnv(t, nil)
	id, a, b, _, _ := twoPlayers(t, e)
	pc := e.player("Carol")
	carol := e.dial(id)
	carol.hello(pc.Token, 0)
	carol.waitType(protocol.TypeSnapshot)
	resume := e.stallClient(carol)
	var last uint64
	for i := 0; i < 20; i++ {
		requireAck(t, a.cmd(map[string]any{"type": "chat", "text": fmt.Sprintf("a%d", i)}))
		last = requireAck(t, b.cmd(map[string]any{"type": "chat", "text": fmt.Sprintf("b%d", i)})).seq()
	}
	resume()
	carol.waitSeq(last) // the harness checks that events are contiguous
	for i, m := range carol.events[len(carol.events)-40:] {
		who := "a"
		if i%2 == 1 {
			who = "b"
		}
		require.Equal(t, fmt.Sprintf("%s%d", who, i/2), m.event().str("text"))
	}
}

// TestReplyQueueFullDropsSlowConsumer: a client that does not read while it keeps
// sending fills its reply queue and is dropped (1013 slow_consumer), not waited for.
func TestReplyQueueFullDropsSlowConsumer(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) { c.SendQueue = 8 })
	_, a, b, _, _ := twoPlayers(t, e)
	resume := e.stallClient(a)
	for i := 0; i < 20; i++ {
		a.send(map[string]any{"type": "ping", "id": fmt.Sprintf("p%d", i)})
	}
	require.Eventually(t, func() bool { return testutilCounter(e.srv.metrics.SlowConsumers) == 1 },
		5*time.Second, 10*time.Millisecond)
	// Bob is not held up by Alice.
	requireAck(t, b.cmd(map[string]any{"type": "chat", "text": "still here"}))
	resume()
	code, reason := a.closeCode()
	require.Equal(t, websocket.CloseTryAgainLater, code)
	require.Equal(t, closeReasonSlow, reason)
}

// TestWriteFailsWhileClosing: a client that drops its TCP connection with replies still
// queued, whose writes then fail, ends its connection once (the writer may find the
// close and the queued replies ready at once).
func TestWriteFailsWhileClosing(t *testing.T) {
	e := newEnv(t, nil)
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	var clients []*wsClient
	var resumes []func()
	for i := 0; i < 8; i++ {
		c := e.dial(id)
		c.hello("", 0)
		c.waitType(protocol.TypeSnapshot)
		resumes = append(resumes, e.stallClient(c))
		for k := 0; k < 5; k++ {
			c.send(map[string]any{"type": "ping", "id": fmt.Sprintf("p%d", k)})
		}
		clients = append(clients, c)
	}
	// The pings are queued (the writer is stuck in its first write); the clients go.
	require.Eventually(t, func() bool {
		e.srv.mu.Lock()
		defer e.srv.mu.Unlock()
		for c := range e.srv.conns {
			if len(c.send) < 3 {
				return false
			}
		}
		return true
	}, 5*time.Second, 5*time.Millisecond)
	for _, c := range clients {
		require.NoError(t, c.ws.NetConn().(interface{ CloseWrite() error }).CloseWrite())
	}
	require.Eventually(t, func() bool {
		e.srv.mu.Lock()
		defer e.srv.mu.Unlock()
		for c := range e.srv.conns {
			if !c.closed.Load() {
				return false
			}
		}
		return true
	}, 5*time.Second, 5*time.Millisecond, "every reader saw its client go")
	for i, c := range clients {
		e.failWrites(c)
		resumes[i]()
	}
	require.Eventually(t, func() bool { return e.connCount() == 0 }, 5*time.Second, 5*time.Millisecond)
}

// TestPingsKeepJoinedConnectionsOpen: the writer pings every PingPeriod; a client that
// answers (gorilla's client does while it reads) stays connected through many
// PongWaits, one that never answers is dropped once PongWait has passed.
func TestPingsKeepJoinedConnectionsOpen(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) {
		c.PongWait, c.PingPeriod = 300*time.Millisecond, 100*time.Millisecond
	})
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	alive := e.dial(id)
	alive.hello(pa.Token, 0)
	pings0 := alive.cl.Pings() // the test client answers pings while it reads, as gorilla's does
	start := time.Now()
	e.rawDial(id) // sends hello, then never reads nor answers a ping
	require.Eventually(t, func() bool { return e.subscribers(id) == 2 }, 5*time.Second, 5*time.Millisecond)
	require.Eventually(t, func() bool { return e.connCount() == 1 }, 5*time.Second, 5*time.Millisecond,
		"the silent client is dropped")
	require.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond, "not before PongWait")
	// The answering client gets 10 pings (a second: over 3 PongWaits) and stays.
	require.Eventually(t, func() bool { return alive.cl.Pings()-pings0 >= 10 || !alive.cl.View().Alive },
		5*time.Second, 5*time.Millisecond)
	require.True(t, alive.cl.View().Alive, "the answering client was dropped")
	require.GreaterOrEqual(t, alive.cl.Pings()-pings0, int64(10))
	require.Equal(t, 1, e.connCount())
}

// TestBinaryFrameRefused: a binary frame gets a bad_request error (the protocol is JSON
// text frames) and changes nothing; the connection stays usable.
func TestBinaryFrameRefused(t *testing.T) {
	e := newEnv(t, nil)
	id, a, _, _, _ := twoPlayers(t, e)
	require.NoError(t, a.ws.WriteMessage(websocket.BinaryMessage, []byte(`{"type":"move","id":"m1","ply":0,"point":"h8"}`)))
	m := a.until("the error", func(m msg) bool { return m.typ() == protocol.TypeError })
	require.Equal(t, protocol.CodeBadRequest, m.str("code"))
	require.Contains(t, m.str("message"), "text frame")
	stored, err := e.store.Events(context.Background(), id, 1)
	require.NoError(t, err)
	seq := requireAck(t, a.move(0, "h8")).seq()
	require.Equal(t, stored[len(stored)-1].Seq+1, seq, "the binary move was not applied")
}

// TestConnGoroutinesEnd: after connections end (cleanly, by a network drop, or by the
// server's shutdown) no reader or writer goroutine is left.
func TestConnGoroutinesEnd(t *testing.T) {
	e := newEnv(t, nil)
	id, a, _, _, _ := twoPlayers(t, e)
	var clients []*wsClient
	for i := 0; i < 10; i++ {
		c := e.dial(id)
		c.hello("", 0)
		clients = append(clients, c)
	}
	require.NoError(t, clients[0].ws.Close()) // network drop
	require.NoError(t, clients[1].ws.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second)))
	code, _ := clients[1].closeCode()
	require.Equal(t, websocket.CloseNormalClosure, code, "the server answers the client's close")
	requireAck(t, a.move(0, "h8"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, e.srv.Shutdown(ctx))
	code, reason := clients[2].closeCode()
	require.Equal(t, websocket.CloseGoingAway, code)
	require.Equal(t, closeReasonGone, reason)
	require.Eventually(t, func() bool {
		return goroutinesIn("gomoku/server.(*conn).serve") == 0 && writerGoroutines() == 0
	}, 5*time.Second, 10*time.Millisecond, "connection goroutines left: %d readers, %d writers",
		goroutinesIn("gomoku/server.(*conn).serve"), writerGoroutines())
}

// goroutinesIn counts goroutines with fn on their stack.
func goroutinesIn(fn string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtimeStack(buf)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	k := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte(fn)) {
			k++
		}
	}
	return k
}
