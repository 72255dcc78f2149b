package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/gorilla/websocket"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/analysis"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/replica"
	"github.com/gomoku-arena/gomoku/room/roomstore"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// testEnv is a full server on httptest with its store.
type testEnv struct {
	t     *testing.T
	srv   *Server
	ts    *httptest.Server
	mgr   *room.Manager
	store room.Store
	rc    redis.UniversalClient
	node  *replica.Node // with withCluster
	net   *stallNet     // the server side of every connection (stallClient)
	led   *ledger.Ledger
	// solver is the puzzle trainer's solver (a scripted one, puzzles_test.go).
	solver *scriptSolver
	ends   *analysisGameEnds // what the room store tells of finished games
}

// envOpt adjusts a test server's configuration and room options.
type envOpt func(*Config, *room.Options)

// withCluster makes the env's node one of several on its Redis (it gets a node id):
// leases, cross-node fan-out and presence (room/replica), with a 2 s lease, behind a
// load balancer on loopback.
func withCluster(c *Config, _ *room.Options) {
	c.NodeID = fmt.Sprintf("test-%d", nodeSeq.Add(1))
	c.LeaseTTL = 2 * time.Second
	c.TrustedProxies = clusterProxies
}

// nodeSeq numbers the test nodes.
var nodeSeq atomic.Int64

// clusterProxies is a cluster node's load balancer (on loopback, as in the tests).
var clusterProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// backends lists the Redis backends the integration tests run against: miniredis
// always, a real redis-server with GOMOKU_INTEGRATION=1.
func backends(t *testing.T) map[string]func(t *testing.T) redis.UniversalClient {
	b := map[string]func(t *testing.T) redis.UniversalClient{
		"miniredis": func(t *testing.T) redis.UniversalClient {
			mr := miniredis.RunT(t)
			c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
			t.Cleanup(func() { _ = c.Close() })
			return c
		},
	}
	if os.Getenv("GOMOKU_INTEGRATION") == "1" {
		b["redis"] = realRedis
	}
	return b
}

func newEnv(t *testing.T, rc redis.UniversalClient, opts ...envOpt) *testEnv {
	t.Helper()
	if rc == nil {
		rc = backends(t)["miniredis"](t)
	}
	cfg := DefaultConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() && os.Getenv("GOMOKU_TEST_LOG") == "1" {
		cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	cfg.RateLimit, cfg.RateBurst = 200, 200
	cfg.Argon2 = testArgon2
	ro := room.Options{
		AILimits: func(l engine.Limits) engine.Limits {
			l.Time = 20 * time.Millisecond
			l.Clock = nil
			return l
		},
		HintTime: 20 * time.Millisecond,
		Logger:   cfg.Logger,
	}
	for _, o := range opts {
		o(&cfg, &ro)
	}
	led, rec, bindLedger := newLedger(rc, cfg)
	ends := &analysisGameEnds{GameEnds: rec}
	store := roomStore(rc, cfg, roomstore.WithGameEnds(ends))
	var node *replica.Node
	if cfg.NodeID != "" { // withCluster
		node = newReplica(store, cfg)
		ro.Replicator = node
	}
	mgr := room.NewManager(store, ro)
	bindLedger(mgr)
	recCtx, stopRecorder := context.WithCancel(context.Background())
	go rec.Run(recCtx)
	t.Cleanup(stopRecorder)
	ping := func(ctx context.Context) error { return rc.Ping(ctx).Err() }
	rooms := &ManagerRooms{M: mgr, Ping: ping, Ledger: led}
	deps := Deps{Rooms: rooms, Players: NewRedisPlayers(rc), Ping: ping, Ledger: led,
		// Node-capped searches: analyses take the same work on any machine.
		Analysis: newAnalysisService(rc, cfg.Retention, cfg.NodeID, mgr, rooms, ends, cfg.Logger,
			analysis.WithBudget(analysis.Budget{Nodes: 4000, SolverNodes: 20_000, Workers: 2}))}
	deps.Logins = NewLoginLimiter(rc, time.Now)
	solver := &scriptSolver{}
	deps.Puzzles, deps.PuzzleSolver = testPuzzleStore(t, rc), solver
	deps.Pairing = pairing.NewStore(rc, pairing.DefaultRules, newPairedRoom)
	if node != nil {
		deps.Nodes = node
		deps.Close = func() error { node.Stop(); return nil }
	}
	srv, err := NewWith(cfg, deps)
	require.NoError(t, err)
	if node != nil {
		node.Start(mgr.Get)
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	sn := &stallNet{Listener: ts.Listener, conns: map[string]*stallConn{}}
	ts.Listener = sn
	ts.Start()
	env := &testEnv{t: t, srv: srv, ts: ts, mgr: mgr, store: store, rc: rc, node: node, net: sn, led: led, solver: solver, ends: ends}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		ts.Close()
	})
	return env
}

// do runs an HTTP request and decodes the JSON answer into out (if not nil).
func (e *testEnv) do(method, path, token string, body any, out any) int {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		require.NoError(e.t, err)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	require.NoError(e.t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(e.t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(e.t, err)
	if out != nil {
		require.NoError(e.t, json.Unmarshal(data, out), "%s %s: %s", method, path, data)
	}
	return res.StatusCode
}

type player struct {
	ID, Name, Token string
}

func (e *testEnv) player(name string) player {
	e.t.Helper()
	var out struct{ ID, Name, Token string }
	require.Equal(e.t, http.StatusCreated, e.do("POST", "/api/players", "", map[string]string{"name": name}, &out))
	return player(out)
}

// createRoom creates a room and returns its id.
func (e *testEnv) createRoom(token string, body any) string {
	e.t.Helper()
	var out struct {
		Room      room.Snapshot `json:"room"`
		InviteURL string        `json:"invite_url"`
	}
	require.Equal(e.t, http.StatusCreated, e.do("POST", "/api/rooms", token, body, &out))
	require.Equal(e.t, "/r/"+out.Room.ID, out.InviteURL)
	return out.Room.ID
}

// msg is a decoded server message.
type msg map[string]any

func (m msg) typ() string { s, _ := m["type"].(string); return s }
func (m msg) str(k string) string {
	s, _ := m[k].(string)
	return s
}
func (m msg) seq() uint64 { f, _ := m["seq"].(float64); return uint64(f) }
func (m msg) event() msg {
	ev, _ := m["event"].(map[string]any)
	return msg(ev)
}

// wsClient reads one connection of the shared test client (server/wstest) message by
// message, checking every message against the protocol as it goes.
type wsClient struct {
	t       *testing.T
	cl      *wstest.Client
	ws      *websocket.Conn // the raw connection, for tests that break the protocol or the network
	lastSeq uint64
	events  []msg // every numbered event seen, in arrival order
	log     []msg // every message seen, in arrival order
	n       int
}

func (e *testEnv) dial(roomID string) *wsClient {
	e.t.Helper()
	c, err := e.dialErr(roomID, nil)
	require.NoError(e.t, err)
	return c
}

func (e *testEnv) dialErr(roomID string, h http.Header) (*wsClient, error) {
	cl, err := wstest.Dial(context.Background(), e.ts.URL, roomID, h)
	if err != nil {
		return nil, err
	}
	e.t.Cleanup(cl.Close)
	return &wsClient{t: e.t, cl: cl, ws: cl.Conn()}, nil
}

// send writes v as JSON, or a string as it is.
func (c *wsClient) send(v any) {
	c.t.Helper()
	require.NoError(c.t, c.cl.Send(v))
}

// next returns the next server message (ephemeral ones included).
func (c *wsClient) next() msg {
	c.t.Helper()
	m, err := c.nextErr(5 * time.Second)
	require.NoError(c.t, err)
	return m
}

func (c *wsClient) nextErr(d time.Duration) (msg, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	wm, err := c.cl.Next(ctx)
	if err != nil {
		return nil, err
	}
	var m msg
	if err := json.Unmarshal(wm.Raw, &m); err != nil {
		return nil, fmt.Errorf("bad frame %q: %w", wm.Raw, err)
	}
	c.log = append(c.log, m)
	switch m.typ() {
	case protocol.TypeEvent:
		require.Equal(c.t, c.lastSeq+1, m.seq(), "events must be contiguous: %v", m)
		c.lastSeq = m.seq()
		c.events = append(c.events, m)
		require.Nil(c.t, m["ephemeral"])
	case protocol.TypeSnapshot:
		c.lastSeq = m.seq()
	case protocol.TypeAI, protocol.TypePresence, protocol.TypeHint:
		require.Equal(c.t, true, m["ephemeral"], "%v", m)
		require.Nil(c.t, m["seq"], "ephemeral messages carry no seq")
	}
	return m, nil
}

// until reads messages until one satisfies f, and returns it.
func (c *wsClient) until(what string, f func(msg) bool) msg {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		m, err := c.nextErr(time.Until(deadline))
		require.NoError(c.t, err, "waiting for %s", what)
		if f(m) {
			return m
		}
	}
	c.t.Fatalf("timed out waiting for %s", what)
	return nil
}

// saw returns the first message, already received or to come, that satisfies f.
func (c *wsClient) saw(what string, f func(msg) bool) msg {
	c.t.Helper()
	for _, m := range c.log {
		if f(m) {
			return m
		}
	}
	return c.until(what, f)
}

// sawEvent returns the first event of the given kind, already received or to come.
func (c *wsClient) sawEvent(kind string) msg {
	c.t.Helper()
	return c.saw(kind, func(m msg) bool { return m.typ() == protocol.TypeEvent && m.event().str("kind") == kind })
}

func (c *wsClient) waitType(typ string) msg {
	c.t.Helper()
	return c.until(typ, func(m msg) bool { return m.typ() == typ })
}

// reply waits for the ack or error with the given id.
func (c *wsClient) reply(id string) msg {
	c.t.Helper()
	return c.until("reply "+id, func(m msg) bool {
		return (m.typ() == protocol.TypeAck || m.typ() == protocol.TypeError) && m.str("id") == id
	})
}

// hello sends hello and returns the welcome.
func (c *wsClient) hello(token string, lastSeq uint64) msg {
	c.t.Helper()
	h := map[string]any{"type": "hello"}
	if token != "" {
		h["token"] = token
	}
	if lastSeq > 0 {
		h["last_seq"] = lastSeq
		c.lastSeq = lastSeq
	}
	c.send(h)
	w := c.next()
	require.Equal(c.t, protocol.TypeWelcome, w.typ(), "%v", w)
	return w
}

// cmd sends a command with a fresh id and waits for its ack or error.
func (c *wsClient) cmd(v map[string]any) msg {
	c.t.Helper()
	c.n++
	id := fmt.Sprintf("c%d", c.n)
	v["id"] = id
	c.send(v)
	return c.reply(id)
}

func (c *wsClient) move(ply int, point string) msg {
	return c.cmd(map[string]any{"type": "move", "ply": ply, "point": point})
}

// waitSeq reads until the event with seq has arrived.
func (c *wsClient) waitSeq(seq uint64) {
	c.t.Helper()
	if c.lastSeq >= seq {
		return
	}
	c.until(fmt.Sprintf("seq %d", seq), func(m msg) bool { return c.lastSeq >= seq })
}

// closeCode reads until the connection closes and returns the close code and reason.
func (c *wsClient) closeCode() (int, string) {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		_, err := c.nextErr(time.Until(deadline))
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if asErr(err, &ce) {
			return ce.Code, ce.Text
		}
		return -1, err.Error()
	}
	c.t.Fatal("connection did not close")
	return 0, ""
}

func requireAck(t *testing.T, m msg) msg {
	t.Helper()
	require.Equal(t, protocol.TypeAck, m.typ(), "%v", m)
	return m
}

func requireErr(t *testing.T, m msg, code string) {
	t.Helper()
	require.Equal(t, protocol.TypeError, m.typ(), "%v", m)
	require.Equal(t, code, m.str("code"), "%v", m)
	require.NotEmpty(t, m.str("message"))
}
