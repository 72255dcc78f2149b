// Package wstest is the one WebSocket test client of Gomoku Arena: it speaks
// docs/protocol.md (room/protocol), keeps a log of every message on every connection,
// folds snapshots and events into a view of the room, and records the protocol
// violations it sees (seq gaps, repeated events, moves at an unexpected ply). The
// server's tests read it message by message (Dial, Send, Next); the crash and
// multi-node tests (server/crashtest) wait on its view across reconnections (Connect,
// Reconnect, Wait, Do); the memory probe holds many idle ones.
package wstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gorilla/websocket"
)

// ErrDisconnected is returned while waiting on a connection that dropped.
var ErrDisconnected = errors.New("wstest: disconnected")

// ClockLeft returns colour's remaining time on a snapshot's clock at now (the side to
// move loses now - at while the clock runs).
func ClockLeft(c *room.ClockSnapshot, color string, now time.Time) time.Duration {
	ms := c.BlackMS
	if color == "white" {
		ms = c.WhiteMS
	}
	if c.Running && c.ToMove == color {
		ms -= now.UnixMilli() - c.AtMS
	}
	return time.Duration(ms) * time.Millisecond
}

// Msg is one server → client message.
type Msg struct {
	Type      string         `json:"type"`
	ID        string         `json:"id,omitempty"`
	Seq       uint64         `json:"seq,omitempty"`
	Duplicate bool           `json:"duplicate,omitempty"`
	Code      string         `json:"code,omitempty"`
	Message   string         `json:"message,omitempty"`
	Event     *room.Event    `json:"event,omitempty"`
	Room      *room.Snapshot `json:"room,omitempty"`
	You       *protocol.You  `json:"you,omitempty"`
	Status    string         `json:"status,omitempty"` // ai: queued / thinking
	Color     string         `json:"color,omitempty"`
	Ply       int            `json:"ply,omitempty"`
	// Lobby messages (lobby.go).
	RoomID   string             `json:"room_id,omitempty"`
	Pool     string             `json:"pool,omitempty"`
	Reason   string             `json:"reason,omitempty"`
	AILevel  string             `json:"ai_level,omitempty"`
	Opponent *protocol.Opponent `json:"opponent,omitempty"`
	Open     []room.Summary     `json:"open,omitempty"`
	Live     []room.Summary     `json:"live,omitempty"`
	Gen      int                `json:"-"` // connection number (1 = first) it arrived on
	At       time.Time          `json:"-"`
	Raw      json.RawMessage    `json:"-"`
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

	wmu      sync.Mutex // serialises writes (gorilla allows one writer)
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
	next     int // index in log of the message Next returns next
	pings    atomic.Int64
	err      error // why the current connection's reader stopped
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

// URL returns the room's WebSocket URL on base (http://host:port).
func URL(base, roomID string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "/ws/rooms/" + roomID
}

// Dial opens a connection to the room on base without sending anything (tests that
// send their own first frames); header is sent with the upgrade (Origin, say). A
// refused upgrade is an error with the HTTP status and body.
func Dial(ctx context.Context, base, roomID string, header http.Header) (*Client, error) {
	c := NewClient(base, roomID, "")
	ws, err := dial(ctx, URL(base, roomID), header)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	gen := c.attachLocked(ws)
	c.mu.Unlock()
	go c.read(ws, gen)
	return c, nil
}

func dial(ctx context.Context, url string, header http.Header) (*websocket.Conn, error) {
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second}
	ws, res, err := d.DialContext(ctx, url, header)
	if err != nil {
		if res != nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			return nil, fmt.Errorf("dial %s: %w (%d %s)", url, err, res.StatusCode, bytes.TrimSpace(b))
		}
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	return ws, nil
}

// attachLocked makes ws the current connection (c.mu held) and returns its number.
// Pings are answered as gorilla does by default, and counted (Pings).
func (c *Client) attachLocked(ws *websocket.Conn) int {
	ws.SetPingHandler(func(data string) error {
		c.pings.Add(1)
		err := ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
		if err != nil && !errors.Is(err, websocket.ErrCloseSent) {
			return err
		}
		return nil
	})
	c.conn, c.alive, c.err = ws, true, nil
	c.gen++
	c.byID = map[string]Msg{}
	c.next = len(c.log)
	return c.gen
}

// Connect dials the room, sends hello with the token and the last seq seen, and waits
// for welcome. An error reply or a refused dial is returned as an error.
func (c *Client) Connect(ctx context.Context) error {
	c.mu.Lock()
	base, last := c.Base, c.lastSeq
	c.mu.Unlock()
	c.Close()
	ws, err := dial(ctx, URL(base, c.Room), nil)
	if err != nil {
		return err
	}
	first, data, err := handshake(ws, protocol.ClientMsg{Type: protocol.TypeHello, Token: c.Token, LastSeq: last})
	if err != nil {
		return err
	}
	c.welcomed(ws, first, data)
	return nil
}

// welcomed makes ws, whose hello was answered by first, the current connection and
// starts reading it.
func (c *Client) welcomed(ws *websocket.Conn, first Msg, data []byte) {
	c.mu.Lock()
	gen := c.attachLocked(ws)
	if first.You != nil {
		c.role = first.You.Role
	}
	first.Gen, first.At, first.Raw = gen, time.Now(), data
	c.log = append(c.log, first)
	c.next = len(c.log)
	c.notifyLocked()
	c.mu.Unlock()
	go c.read(ws, gen)
}

// handshake sends hello on ws and reads the welcome (ws is closed on failure).
func handshake(ws *websocket.Conn, hello any) (Msg, []byte, error) {
	_ = ws.SetWriteDeadline(time.Now().Add(3 * time.Second))
	if err := ws.WriteJSON(hello); err != nil {
		ws.Close()
		return Msg{}, nil, fmt.Errorf("hello: %w", err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	var first Msg
	_, data, err := ws.ReadMessage()
	if err == nil {
		err = json.Unmarshal(data, &first)
	}
	if err != nil {
		ws.Close()
		return Msg{}, nil, fmt.Errorf("welcome: %w", err)
	}
	if first.Type != protocol.TypeWelcome {
		ws.Close()
		return Msg{}, nil, fmt.Errorf("welcome: got %s", data)
	}
	_ = ws.SetReadDeadline(time.Time{})
	return first, data, nil
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
			c.mu.Lock()
			if c.gen == gen {
				c.err = err
			}
			c.mu.Unlock()
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
	case "ack", "error", protocol.TypeSeeking, protocol.TypeSeekEnded:
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
		c.lastSeq, c.moves, c.phase = m.Seq, append([]string(nil), r.Moves...), string(r.Phase)
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
			// A game may start from stones already on the board (an AI show's balanced
			// opening): they are the first plies.
			c.phase, c.moves = "playing", append([]string(nil), e.OpeningStones...)
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
			c.phase, c.moves, c.result, c.reason = "playing", append([]string(nil), e.OpeningStones...), "", ""
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

// Send writes one message (a value to encode as JSON, or a string sent as it is) on the
// current connection.
func (c *Client) Send(m any) error {
	c.mu.Lock()
	ws, alive := c.conn, c.alive
	c.mu.Unlock()
	if ws == nil || !alive {
		return ErrDisconnected
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = ws.SetWriteDeadline(time.Now().Add(3 * time.Second))
	var err error
	if raw, ok := m.(string); ok {
		err = ws.WriteMessage(websocket.TextMessage, []byte(raw))
	} else {
		err = ws.WriteJSON(m)
	}
	if err != nil {
		ws.Close()
		return ErrDisconnected
	}
	return nil
}

// Next returns the next message of the current connection that Next has not returned
// yet, waiting for it until ctx ends. When the connection has ended and every message
// was returned, the error is why it ended (a *websocket.CloseError for a close frame).
func (c *Client) Next(ctx context.Context) (Msg, error) {
	for {
		c.mu.Lock()
		if c.next < len(c.log) {
			m := c.log[c.next]
			c.next++
			c.mu.Unlock()
			return m, nil
		}
		alive, err, ch := c.alive, c.err, c.changed
		c.mu.Unlock()
		if !alive {
			if err == nil {
				err = ErrDisconnected
			}
			return Msg{}, err
		}
		select {
		case <-ctx.Done():
			return Msg{}, ctx.Err()
		case <-ch:
		}
	}
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
	return c.Do(ctx, map[string]any{"type": protocol.TypeMove, "id": id, "ply": ply, "point": point})
}

// Log returns a copy of every message received so far.
func (c *Client) Log() []Msg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Msg(nil), c.log...)
}

// Events returns the persisted events received (in arrival order, all connections).
func (c *Client) Events() []room.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []room.Event
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

// Pings returns how many pings the server sent (all connections).
func (c *Client) Pings() int64 { return c.pings.Load() }

// Conn returns the current connection, for tests that break the protocol or the
// network underneath the client (raw frames, a dropped TCP connection).
func (c *Client) Conn() *websocket.Conn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn
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
