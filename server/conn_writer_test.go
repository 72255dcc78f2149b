package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// quietRoom is a room with two seated players and a spectator, whose writers park after
// 50 ms without data.
func quietRoom(t *testing.T) (e *testEnv, a, b, spec *wsClient) {
	shortLinger(t, 50*time.Millisecond)
	e = newEnv(t, nil)
	id, a, b, _, _ := twoPlayers(t, e)
	spec = e.dial(id)
	spec.hello("", 0)
	spec.waitType("presence")
	return e, a, b, spec
}

// TestIdleWriterParksWakesAndPings: a connection with nothing to send runs no writer;
// a room update and a due ping each start one, which parks again afterwards.
func TestIdleWriterParksWakesAndPings(t *testing.T) {
	e, a, b, spec := quietRoom(t)
	requireAck(t, a.move(0, "h8"))
	b.waitSeq(a.lastSeq)
	a.waitSeq(a.lastSeq)
	spec.waitSeq(a.lastSeq)
	require.Eventually(t, func() bool { return e.parkedConns() == 3 && writerGoroutines() == 0 },
		5*time.Second, 10*time.Millisecond, "idle connections park their writer")

	// A room update reaches the parked connections (the room wakes their writers).
	start := time.Now()
	requireAck(t, b.move(1, "a1"))
	spec.waitSeq(a.lastSeq + 1)
	require.Less(t, time.Since(start), time.Second)
	require.Eventually(t, func() bool { return e.parkedConns() == 3 }, 5*time.Second, 10*time.Millisecond)

	// A due ping is sent to a parked connection, whose writer parks again at once
	// (it lingers only after data).
	lingerOverride.Store(int64(time.Minute))
	pinged := make(chan struct{}, 1)
	spec.ws.SetPingHandler(func(string) error {
		select {
		case pinged <- struct{}{}:
		default:
		}
		return nil
	})
	e.srv.clock.dueNow()
	deadline := time.Now().Add(2*pingScanInterval + time.Second)
	for { // read (the ping handler runs inside) until the deadline
		if _, err := spec.nextErr(time.Until(deadline)); err != nil {
			break
		}
	}
	select {
	case <-pinged:
	default:
		t.Fatal("no ping reached the idle connection")
	}
	require.Eventually(t, func() bool { return e.parkedConns() == 3 }, time.Second, 10*time.Millisecond)
}

// TestQueuedBurstCoalescedInOrder: updates queued while a client's writer is stalled
// are written in few writes, in order and complete.
func TestQueuedBurstCoalescedInOrder(t *testing.T) {
	var stalled atomic.Value
	stalled.Store("")
	release := make(chan struct{})
	var once sync.Once
	e := newEnv(t, nil)
	e.srv.writeHook = func(id string) {
		if id != "" && id == stalled.Load().(string) {
			<-release
		}
	}
	id, a, b, _, _ := twoPlayers(t, e)
	pc := e.player("Carol")
	carol := e.dial(id)
	carol.hello(pc.Token, 0)
	carol.waitType(protocol.TypeSnapshot)
	stalled.Store(pc.ID)
	var last uint64
	for i := 0; i < 20; i++ {
		requireAck(t, a.cmd(map[string]any{"type": "chat", "text": fmt.Sprintf("a%d", i)}))
		last = requireAck(t, b.cmd(map[string]any{"type": "chat", "text": fmt.Sprintf("b%d", i)})).seq()
	}
	w0, f0 := e.writeStats()
	once.Do(func() { close(release) })
	carol.waitSeq(last) // the harness checks that events are contiguous
	// The writer counts a write after it returns, which may be after carol read it.
	var w, f uint32
	require.Eventually(t, func() bool {
		w1, f1 := e.writeStats()
		w, f = w1-w0, f1-f0
		return f >= 40
	}, 5*time.Second, time.Millisecond, "the burst's frames are counted")
	require.Less(t, w, f/4, "the burst is coalesced: %d frames in %d writes", f, w)
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
	release := make(chan struct{})
	var aliceID atomic.Value
	aliceID.Store("")
	e := newEnv(t, nil, func(c *Config, _ *room.Options) { c.SendQueue = 8 })
	e.srv.writeHook = func(id string) {
		if id != "" && id == aliceID.Load().(string) {
			<-release
		}
	}
	_, a, b, pa, _ := twoPlayers(t, e)
	aliceID.Store(pa.ID)
	for i := 0; i < 20; i++ {
		a.send(map[string]any{"type": "ping", "id": fmt.Sprintf("p%d", i)})
	}
	require.Eventually(t, func() bool { return testutilCounter(e.srv.metrics.SlowConsumers) == 1 },
		5*time.Second, 10*time.Millisecond)
	// Bob is not held up by Alice.
	requireAck(t, b.cmd(map[string]any{"type": "chat", "text": "still here"}))
	close(release)
	code, reason := a.closeCode()
	require.Equal(t, websocket.CloseTryAgainLater, code)
	require.Equal(t, closeReasonSlow, reason)
}

// TestConnGoroutinesEnd: after connections end (cleanly, by a network drop, or by the
// server's shutdown) no reader, writer or clock goroutine is left.
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
		return goroutinesIn("gomoku/server.(*conn).serve") == 0 && writerGoroutines() == 0 && goroutinesIn("gomoku/server.(*clock).run") == 0
	}, 5*time.Second, 10*time.Millisecond, "connection goroutines left: %d readers, %d writers, %d clocks",
		goroutinesIn("gomoku/server.(*conn).serve"), writerGoroutines(), goroutinesIn("gomoku/server.(*clock).run"))
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

// TestAppendTextFrame: the frames the writer builds itself are read back by gorilla,
// for every length encoding, back to back in one write.
func TestAppendTextFrame(t *testing.T) {
	sizes := []int{0, 1, 125, 126, 127, 4096, 65535, 65536, 70000}
	srvConn := make(chan *websocket.Conn, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err == nil {
			srvConn <- ws
		}
	}))
	defer ts.Close()
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(ts.URL, "http"), nil)
	require.NoError(t, err)
	defer client.Close()
	server := <-srvConn
	defer server.Close()
	var buf []byte
	for _, n := range sizes {
		buf = appendTextFrame(buf, bytes.Repeat([]byte{'a' + byte(n%26)}, n))
	}
	go func() { _, _ = server.NetConn().Write(buf) }()
	client.SetReadLimit(1 << 20)
	for _, n := range sizes {
		typ, data, err := client.ReadMessage()
		require.NoError(t, err)
		require.Equal(t, websocket.TextMessage, typ)
		require.Equal(t, bytes.Repeat([]byte{'a' + byte(n%26)}, n), data, "frame of %d bytes", n)
	}
}

// TestCommandWakesParkedPeers: after a command, the parked connections of the room get
// its events (the room notifies them; nothing polls, and the next ping is 30 s away).
func TestCommandWakesParkedPeers(t *testing.T) {
	e, a, b, spec := quietRoom(t)
	require.Eventually(t, func() bool { return e.parkedConns() == 3 }, 5*time.Second, 10*time.Millisecond)
	seq := requireAck(t, a.move(0, "h8")).seq()
	b.waitSeq(seq)
	spec.waitSeq(seq)
	require.Eventually(t, func() bool { return e.parkedConns() == 3 }, 5*time.Second, 10*time.Millisecond)
	seq = requireAck(t, b.move(1, "a1")).seq()
	a.waitSeq(seq)
	spec.waitSeq(seq)
}

// TestSyncedEventsWakeParkedWriters: events stored through another node reach this
// node's parked connections: the room notifies them when it catches up from pub/sub.
func TestSyncedEventsWakeParkedWriters(t *testing.T) {
	shortLinger(t, 50*time.Millisecond)
	rc := backends(t)["miniredis"](t)
	n1, n2 := newEnv(t, rc, withCluster), newEnv(t, rc, withCluster)
	id, a, b := crossNodeGame(t, n1, n2, n2)
	spec := n1.dial(id)
	spec.hello("", 0)
	spec.saw("the game started", func(m msg) bool { // in the snapshot or after it
		if m.typ() == protocol.TypeSnapshot {
			return m["room"].(map[string]any)["phase"] == "playing"
		}
		return m.typ() == protocol.TypeEvent && m.event().str("kind") == "started"
	})
	for ply, c := range []*wsClient{a, b, a} {
		require.Eventually(t, func() bool { return n1.parkedConns() == 1 }, 5*time.Second, 5*time.Millisecond)
		seq := requireAck(t, c.move(ply, []string{"h8", "a1", "h9"}[ply])).seq()
		spec.waitSeq(seq)
	}
}
