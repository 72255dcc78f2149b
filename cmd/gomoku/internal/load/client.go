package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gorilla/websocket"
)

// inMsg is every server → client message (room/protocol), decoded loosely: only the
// fields the load generator uses (unknown fields ignored).
type inMsg struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Seq       uint64 `json:"seq"`
	Code      string `json:"code"`
	Duplicate bool   `json:"duplicate"`
	You       *struct {
		Role     string `json:"role"`
		PlayerID string `json:"player_id"`
	} `json:"you"`
	Event *inEvent `json:"event"`
	Room  *inSnap  `json:"room"`
}

type inEvent struct {
	Seq    uint64 `json:"seq"`
	Kind   string `json:"kind"`
	Game   int    `json:"game"`
	Ply    int    `json:"ply"`
	Color  string `json:"color"`
	Point  string `json:"point"`
	Plies  int    `json:"plies"`
	Result string `json:"result"`
	Player *struct {
		ID string `json:"id"`
	} `json:"player"`
}

type inSnap struct {
	Seq      uint64   `json:"seq"`
	Game     int      `json:"game"`
	Phase    string   `json:"phase"`
	Moves    []string `json:"moves"`
	Settings struct {
		Size int `json:"size"`
	} `json:"settings"`
	Black, White struct {
		Player *struct {
			ID string `json:"id"`
		} `json:"player"`
	}
}

// eventKey identifies an event's content for the cross-client record check (a value:
// comparing and storing it allocates nothing).
type eventKey struct {
	kind, color, point, result string
	game, ply                  int
}

func (e *inEvent) key() eventKey {
	return eventKey{kind: e.Kind, color: e.Color, point: e.Point, result: e.Result, game: e.Game, ply: e.Ply}
}

func (k eventKey) String() string {
	return fmt.Sprintf("%s/%d/%d/%s/%s/%s", k.kind, k.game, k.ply, k.color, k.point, k.result)
}

// client is one WebSocket connection (a player or a spectator) that survives churn by
// rejoining with its last seq.
type client struct {
	r         *runner
	g         *game  // nil for idle spectators
	base      string // the node it connects to (runner.base or runner.base2)
	slot      int
	token     string
	playerID  string
	spectator bool
	sitAs     string // colour to take with "sit" after the first welcome
	room      string // room id of an idle spectator (g == nil)
	rng       *rand.Rand

	wmu  sync.Mutex
	conn *websocket.Conn

	mu        sync.Mutex
	lastSeq   uint64
	replaying bool // since welcome after a rejoin: the next event must be lastSeq+1
	color     string
	phase     string
	gameNo    int
	board     *Board
	sentPly   int // ply of the move in flight (-1 none)
	sentPoint string
	timer     *time.Timer
	churned   bool
	ready     chan struct{} // closed at the first welcome
	readyOnce sync.Once
}

func newClient(r *runner, g *game, slot int, seed uint64) *client {
	return &client{r: r, g: g, base: r.base, slot: slot, sentPly: -1, ready: make(chan struct{}),
		rng: rand.New(rand.NewPCG(seed, uint64(slot)))}
}

// errStopped ends a session when the run is over.
var errStopped = errors.New("load: stopped")

// run connects, reads until the connection ends, and rejoins (with backoff) until ctx ends.
func (c *client) run(ctx context.Context) {
	first := true
	for ctx.Err() == nil {
		if !first {
			c.r.stats.Reconnects.Add(1)
		}
		welcomed, err := c.session(ctx, first)
		if ctx.Err() != nil {
			return
		}
		c.mu.Lock()
		c.churned = false
		c.mu.Unlock()
		if err != nil && !welcomed {
			if first {
				c.r.stats.Error("dial")
			} else {
				c.r.stats.ReconnectFailed.Add(1)
			}
		}
		first = false
		select {
		case <-ctx.Done():
			return
		case <-time.After(c.reconnectPause()):
		}
	}
}

// session is one connection's life; welcomed reports whether the server accepted the hello.
func (c *client) session(ctx context.Context, first bool) (welcomed bool, err error) {
	start := time.Now()
	d := websocket.Dialer{NetDialContext: c.r.ips.dialer(c.slot), HandshakeTimeout: 15 * time.Second,
		ReadBufferSize: 1024, WriteBufferSize: 512}
	conn, resp, err := d.DialContext(ctx, wsURL(c.base, c.roomID()), nil)
	if conn == nil && err == nil {
		err = errors.New("load: dial: no connection")
	}
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if resp != nil {
			c.r.stats.Error(fmt.Sprintf("http_%d", resp.StatusCode))
		}
		return false, err
	}
	c.mu.Lock()
	last := c.lastSeq
	c.replaying = last > 0
	c.mu.Unlock()
	hello := protocol.ClientMsg{Type: protocol.TypeHello, Token: c.token, LastSeq: last}
	c.wmu.Lock()
	c.conn = conn
	err = conn.WriteJSON(hello)
	c.wmu.Unlock()
	if err != nil {
		conn.Close()
		return false, err
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	defer func() {
		c.wmu.Lock()
		c.conn = nil
		c.wmu.Unlock()
		conn.Close()
		if welcomed {
			c.r.stats.Connected.Add(-1)
		}
	}()
	var m inMsg
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			if ctx.Err() != nil {
				return welcomed, errStopped
			}
			c.mu.Lock()
			churned := c.churned
			c.mu.Unlock()
			if !churned {
				reason := "network"
				var ce *websocket.CloseError
				if errors.As(err, &ce) {
					reason = fmt.Sprintf("%d %s", ce.Code, ce.Text)
				}
				c.r.stats.Closed(reason)
			}
			return welcomed, err
		}
		if err := decodeMsg(data, &m); err != nil {
			c.r.stats.Error("bad_server_json")
			continue
		}
		if m.Type == protocol.TypeWelcome && !welcomed {
			welcomed = true
			c.r.stats.Connected.Add(1)
			if first {
				c.r.stats.Connect.Record(time.Since(start))
			}
		}
		c.handle(&m)
	}
}

func (c *client) roomID() string {
	if c.g != nil {
		return c.g.roomID
	}
	return c.room
}

// drop closes the connection abruptly (no close frame), as a network failure would.
func (c *client) drop() bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.conn == nil {
		return false
	}
	c.mu.Lock()
	c.churned = true
	c.mu.Unlock()
	_ = c.conn.UnderlyingConn().Close()
	return true
}

// send writes one JSON message if connected.
func (c *client) send(v any) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.conn == nil {
		return false
	}
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.conn.WriteJSON(v) == nil
}

// sendFrame writes one prepared text frame if connected.
func (c *client) sendFrame(b []byte) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.conn == nil {
		return false
	}
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.conn.WriteMessage(websocket.TextMessage, b) == nil
}

// handle processes one server message.
func (c *client) handle(m *inMsg) {
	st := c.r.stats
	switch m.Type {
	case protocol.TypeWelcome:
		c.readyOnce.Do(func() { close(c.ready) })
		if c.sitAs != "" {
			c.send(protocol.ClientMsg{Type: protocol.TypeSit, ID: "sit", Color: c.sitAs})
			c.sitAs = ""
		}
		if m.You != nil && (m.You.Role == "black" || m.You.Role == "white") {
			c.mu.Lock()
			c.color = m.You.Role
			c.mu.Unlock()
		}
	case protocol.TypeResync:
		st.Resyncs.Add(1)
	case protocol.TypeSnapshot:
		c.snapshot(m)
	case protocol.TypeEvent:
		st.Events.Add(1)
		if m.Event != nil {
			c.event(m.Event)
		}
	case protocol.TypeAck:
		c.ack(m)
	case protocol.TypeError:
		st.Error(m.Code)
		c.mu.Lock()
		if len(m.ID) > 0 && m.ID[0] == 'm' {
			c.sentPly = -1 // the move was refused: choose again
			c.armLocked()
		}
		c.mu.Unlock()
	}
}

func (c *client) snapshot(m *inMsg) {
	if m.Room == nil || c.g == nil {
		c.mu.Lock()
		c.lastSeq = m.Seq
		c.mu.Unlock()
		return
	}
	s := m.Room
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastSeq, c.replaying = m.Seq, false
	c.phase, c.gameNo = s.Phase, s.Game
	size := s.Settings.Size
	if size == 0 {
		size = 15
	}
	c.board = NewBoard(size)
	for _, p := range s.Moves {
		if err := c.board.Play(p); err != nil {
			c.r.stats.Violation("%s: snapshot: %v", c.g.roomID, err)
		}
	}
	if !c.spectator && c.playerID != "" {
		switch {
		case s.Black.Player != nil && s.Black.Player.ID == c.playerID:
			c.color = "black"
		case s.White.Player != nil && s.White.Player.ID == c.playerID:
			c.color = "white"
		}
	}
	c.armLocked()
}

// reconnectPause is a random 100-500 ms pause before a rejoin. c.rng is shared with the
// move timer's goroutine, so it is used under c.mu.
func (c *client) reconnectPause() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Duration(100+c.rng.IntN(400)) * time.Millisecond
}
