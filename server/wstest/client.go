// Package wstest is the one WebSocket test client of Gomoku Arena: it speaks
// docs/protocol.md (room/protocol), keeps a log of every message on every connection,
// folds snapshots and events into a view of the room, and records the protocol
// violations it sees (seq gaps, repeated events, moves at an unexpected ply). The
// server's tests read it message by message (Dial, Send, Next); the crash and
// multi-node tests (server/crashtest) wait on its view across reconnections (Connect,
// Reconnect, Wait, Do); the memory probe holds many idle ones.
package wstest

import (
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gorilla/websocket"
)

// ErrDisconnected is returned while waiting on a connection that dropped.
var ErrDisconnected = errors.New("wstest: disconnected")

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
