// Package crashtest holds crash, Redis-restart and multi-node chaos tests that run the
// real gomokud binary as child processes against real redis-server processes
// (GOMOKU_INTEGRATION=1), plus Client, a small WebSocket test client that follows
// docs/protocol.md and keeps an event log per connection for assertions.
//
// Also here: games across a local Redis Cluster (TestClusterGames; a master failover in
// TestClusterMasterFailover) and the compose load balancer's own Caddyfile (inline in docker-compose.yml) run
// with caddy in front of two nodes (TestLoadBalancerCaddyfile, skipped without caddy).
// CRASHTEST_SEED repeats a run; CRASHTEST_GOMOKUD tests a prebuilt binary.
package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// ErrDisconnected is returned while waiting on a connection that dropped.
var ErrDisconnected = errors.New("crashtest: disconnected")

// Event is a persisted room event as sent on the wire (only the fields the tests use).
type Event struct {
	Seq    uint64   `json:"seq"`
	Kind   string   `json:"kind"`
	Game   int      `json:"game"`
	Color  string   `json:"color,omitempty"`
	Point  string   `json:"point,omitempty"`
	Ply    int      `json:"ply"`
	Plies  int      `json:"plies,omitempty"`
	Result string   `json:"result,omitempty"`
	Reason string   `json:"reason,omitempty"`
	Line   []string `json:"line,omitempty"`
}

// Snapshot is a room snapshot (HTTP GET /api/rooms/{id} or the WebSocket snapshot).
type Snapshot struct {
	ID     string   `json:"id"`
	Seq    uint64   `json:"seq"`
	Game   int      `json:"game"`
	Phase  string   `json:"phase"`
	Status string   `json:"status"`
	Moves  []string `json:"moves"`
	Ply    int      `json:"ply"`
	ToMove string   `json:"to_move"`
	Result string   `json:"result"`
	Reason string   `json:"reason"`
	Clock  *Clock   `json:"clock,omitempty"`
}

// Clock is a snapshot's clock (timed rooms).
type Clock struct {
	BlackMS    int64  `json:"black_ms"`
	WhiteMS    int64  `json:"white_ms"`
	Running    bool   `json:"running"`
	ToMove     string `json:"to_move"`
	At         int64  `json:"at"`
	DeadlineMS int64  `json:"deadline_ms"`
}

// Left returns colour's remaining time at now (the side to move loses now - at while
// the clock runs).
func (c Clock) Left(color string, now time.Time) time.Duration {
	ms := c.BlackMS
	if color == "white" {
		ms = c.WhiteMS
	}
	if c.Running && c.ToMove == color {
		ms -= now.UnixMilli() - c.At
	}
	return time.Duration(ms) * time.Millisecond
}

// Msg is one server → client message.
type Msg struct {
	Type      string                 `json:"type"`
	ID        string                 `json:"id,omitempty"`
	Seq       uint64                 `json:"seq,omitempty"`
	Duplicate bool                   `json:"duplicate,omitempty"`
	Code      string                 `json:"code,omitempty"`
	Message   string                 `json:"message,omitempty"`
	Event     *Event                 `json:"event,omitempty"`
	Room      *Snapshot              `json:"room,omitempty"`
	You       *struct{ Role string } `json:"you,omitempty"`
	Status    string                 `json:"status,omitempty"` // ai: queued / thinking
	Color     string                 `json:"color,omitempty"`
	Ply       int                    `json:"ply,omitempty"`
	Gen       int                    `json:"-"` // connection number (1 = first) it arrived on
	At        time.Time              `json:"-"`
	Raw       json.RawMessage        `json:"-"`
}

// Client is one logical participant of one room across reconnections: it keeps the
// view (moves, phase, last seq) built from snapshots and events, the log of every
// message on every connection, and the protocol violations it saw (seq gaps, repeated
// events, moves at an unexpected ply).
type Client struct {
	Base  string // http://host:port
	Room  string
	Token string // empty: anonymous spectator
	// Alt lists other nodes' base URLs: Reconnect moves on to the next one when a dial
	// fails (a load balancer's failover, for multi-node tests).
	Alt []string

	mu       sync.Mutex
	conn     *websocket.Conn
	gen      int
	alive    bool
	role     string
	lastSeq  uint64
	moves    []string
	phase    string
	result   string
	reason   string
	log      []Msg
	byID     map[string]Msg // latest ack / error per client message id (current gen only)
	problems []string
	changed  chan struct{}
}

// NewClient returns a client for a room; Connect dials it.
func NewClient(base, roomID, token string) *Client {
	return &Client{Base: base, Room: roomID, Token: token, changed: make(chan struct{})}
}

// FromSeq makes the next Connect ask for the events after seq (hello last_seq), as if
// the client had seen them (a fresh reader uses 1 to get the whole log as events).
func (c *Client) FromSeq(seq uint64) {
	c.mu.Lock()
	c.lastSeq = seq
	c.mu.Unlock()
}

// SetBase points the client at another node (multi-node tests).
func (c *Client) SetBase(base string) {
	c.mu.Lock()
	c.Base = base
	c.mu.Unlock()
}

func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Connect dials the room, sends hello with the token and the last seq seen, and waits
// for welcome. An error reply or a refused dial is returned as an error.
func (c *Client) Connect(ctx context.Context) error {
	c.mu.Lock()
	base, last := c.Base, c.lastSeq
	c.mu.Unlock()
	c.Close()
	url := "ws" + strings.TrimPrefix(base, "http") + "/ws/rooms/" + c.Room
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second}
	ws, res, err := d.DialContext(ctx, url, nil)
	if err != nil {
		if res != nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			return fmt.Errorf("dial %s: %w (%d %s)", url, err, res.StatusCode, bytes.TrimSpace(b))
		}
		return fmt.Errorf("dial %s: %w", url, err)
	}
	hello := map[string]any{"type": "hello"}
	if c.Token != "" {
		hello["token"] = c.Token
	}
	if last > 0 {
		hello["last_seq"] = last
	}
	_ = ws.SetWriteDeadline(time.Now().Add(3 * time.Second))
	if err := ws.WriteJSON(hello); err != nil {
		ws.Close()
		return fmt.Errorf("hello: %w", err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	var first Msg
	_, data, err := ws.ReadMessage()
	if err == nil {
		err = json.Unmarshal(data, &first)
	}
	if err != nil {
		ws.Close()
		return fmt.Errorf("welcome: %w", err)
	}
	if first.Type != "welcome" {
		ws.Close()
		return fmt.Errorf("welcome: got %s", data)
	}
	_ = ws.SetReadDeadline(time.Time{})
	c.mu.Lock()
	c.conn, c.alive = ws, true
	c.gen++
	gen := c.gen
	c.byID = map[string]Msg{}
	if first.You != nil {
		c.role = first.You.Role
	}
	first.Gen, first.At, first.Raw = gen, time.Now(), data
	c.log = append(c.log, first)
	c.notifyLocked()
	c.mu.Unlock()
	go c.read(ws, gen)
	return nil
}

// Reconnect retries Connect with a short backoff until it succeeds or ctx ends.
func (c *Client) Reconnect(ctx context.Context) error {
	backoff := 50 * time.Millisecond
	for {
		err := c.Connect(ctx)
		if err == nil {
			return nil
		}
		c.failover()
		select {
		case <-ctx.Done():
			return fmt.Errorf("reconnect: %w (last: %v)", ctx.Err(), err)
		case <-time.After(backoff):
		}
		if backoff < 500*time.Millisecond {
			backoff *= 2
		}
	}
}

// failover points the client at the next base in Alt (the current one goes last).
func (c *Client) failover() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.Alt) == 0 {
		return
	}
	next := c.Alt[0]
	c.Alt = append(c.Alt[1:], c.Base)
	c.Base = next
}

// BaseURL returns the node the client connects to.
func (c *Client) BaseURL() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Base
}

func (c *Client) read(ws *websocket.Conn, gen int) {
	defer func() {
		c.mu.Lock()
		if c.gen == gen {
			c.alive = false
			c.notifyLocked()
		}
		c.mu.Unlock()
		ws.Close()
	}()
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var m Msg
		if err := json.Unmarshal(data, &m); err != nil {
			c.problem("gen %d: undecodable frame %q: %v", gen, data, err)
			continue
		}
		m.Gen, m.At, m.Raw = gen, time.Now(), data
		c.mu.Lock()
		if c.gen != gen {
			c.mu.Unlock()
			return
		}
		c.apply(m)
		c.log = append(c.log, m)
		c.notifyLocked()
		c.mu.Unlock()
	}
}

func (c *Client) problem(format string, args ...any) {
	c.mu.Lock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

// apply folds one message into the view (c.mu held).
func (c *Client) apply(m Msg) {
	switch m.Type {
	case "ack", "error":
		if m.ID != "" {
			c.byID[m.ID] = m
		}
	case "snapshot":
		if m.Room == nil {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: snapshot without room", m.Gen))
			return
		}
		if m.Seq < c.lastSeq {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: snapshot seq %d < last seq %d", m.Gen, m.Seq, c.lastSeq))
		}
		r := m.Room
		c.lastSeq, c.moves, c.phase = m.Seq, append([]string(nil), r.Moves...), r.Phase
		c.result, c.reason = r.Result, r.Reason
	case "event":
		e := m.Event
		if e == nil || e.Seq != m.Seq {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: bad event frame %s", m.Gen, m.Raw))
			return
		}
		if m.Seq <= c.lastSeq {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: event seq %d repeated (last seq %d)", m.Gen, m.Seq, c.lastSeq))
			return
		}
		if m.Seq != c.lastSeq+1 && c.lastSeq != 0 {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: seq gap: event %d after %d", m.Gen, m.Seq, c.lastSeq))
		}
		c.lastSeq = m.Seq
		switch e.Kind {
		case "started":
			c.phase = "playing"
		case "move":
			if e.Ply != len(c.moves) {
				c.problems = append(c.problems, fmt.Sprintf("gen %d: move event seq %d at ply %d but view has %d moves", m.Gen, e.Seq, e.Ply, len(c.moves)))
			}
			c.moves = append(c.moves, e.Point)
		case "takeback":
			if n := len(c.moves) - e.Plies; n >= 0 {
				c.moves = c.moves[:n]
			}
		case "game_over":
			c.phase, c.result, c.reason = "over", e.Result, e.Reason
		case "rematch":
			c.phase, c.moves, c.result, c.reason = "playing", nil, "", ""
		}
	}
}

// View is a copy of the client's current view of the room.
type View struct {
	Alive   bool
	Gen     int
	Role    string
	LastSeq uint64
	Moves   []string
	Phase   string
	Result  string
	Reason  string
}

// Over reports whether the game has ended.
func (v View) Over() bool { return v.Phase == "over" }

// ToMove is the colour to move ("black" on even plies).
func (v View) ToMove() string {
	if len(v.Moves)%2 == 0 {
		return "black"
	}
	return "white"
}

// View returns the current view.
func (c *Client) View() View {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.viewLocked()
}

func (c *Client) viewLocked() View {
	return View{Alive: c.alive, Gen: c.gen, Role: c.role, LastSeq: c.lastSeq,
		Moves: append([]string(nil), c.moves...), Phase: c.phase, Result: c.result, Reason: c.reason}
}

// Wait blocks until cond(view) holds, the connection drops (ErrDisconnected), or ctx ends.
func (c *Client) Wait(ctx context.Context, cond func(View) bool) (View, error) {
	for {
		c.mu.Lock()
		v, ch := c.viewLocked(), c.changed
		c.mu.Unlock()
		if cond(v) {
			return v, nil
		}
		if !v.Alive {
			return v, ErrDisconnected
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-ch:
		}
	}
}

// Send writes one message on the current connection.
func (c *Client) Send(m map[string]any) error {
	c.mu.Lock()
	ws, alive := c.conn, c.alive
	c.mu.Unlock()
	if ws == nil || !alive {
		return ErrDisconnected
	}
	_ = ws.SetWriteDeadline(time.Now().Add(3 * time.Second))
	if err := ws.WriteJSON(m); err != nil {
		ws.Close()
		return ErrDisconnected
	}
	return nil
}

// Do sends a command with the given id and waits for its ack or error on the same
// connection. ErrDisconnected means the outcome is unknown (resend after reconnecting).
func (c *Client) Do(ctx context.Context, m map[string]any) (Msg, error) {
	id, _ := m["id"].(string)
	c.mu.Lock()
	gen := c.gen
	delete(c.byID, id)
	c.mu.Unlock()
	if err := c.Send(m); err != nil {
		return Msg{}, err
	}
	for {
		c.mu.Lock()
		r, ok := c.byID[id]
		alive, ch, g := c.alive, c.changed, c.gen
		c.mu.Unlock()
		if ok && g == gen {
			return r, nil
		}
		if !alive || g != gen {
			return Msg{}, ErrDisconnected
		}
		select {
		case <-ctx.Done():
			return Msg{}, ctx.Err()
		case <-ch:
		}
	}
}

// Move sends a move for ply at point with the client id and waits for its answer.
func (c *Client) Move(ctx context.Context, id string, ply int, point string) (Msg, error) {
	return c.Do(ctx, map[string]any{"type": "move", "id": id, "ply": ply, "point": point})
}

// Log returns a copy of every message received so far.
func (c *Client) Log() []Msg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Msg(nil), c.log...)
}

// Events returns the persisted events received (in arrival order, all connections).
func (c *Client) Events() []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Event
	for _, m := range c.log {
		if m.Type == "event" && m.Event != nil {
			out = append(out, *m.Event)
		}
	}
	return out
}

// Problems returns the protocol violations seen so far.
func (c *Client) Problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.problems...)
}

// Close closes the current connection (the view and log are kept).
func (c *Client) Close() {
	c.mu.Lock()
	ws := c.conn
	c.conn, c.alive = nil, false
	c.mu.Unlock()
	if ws != nil {
		ws.Close()
	}
}
