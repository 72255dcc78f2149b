package server

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"

	"github.com/gomoku-arena/gomoku/room"
)

// WebSocket connection timing and limits.
const (
	// writeWait is the deadline of every write (and of the close handshake).
	writeWait = 5 * time.Second
	// pongWait is how long the reader waits for any frame (pongs included).
	pongWait = 45 * time.Second
	// pingPeriod is how often the writer pings; it must be shorter than pongWait.
	pingPeriod = pongWait * 2 / 3
	// hardReadLimit is gorilla's read limit: larger frames close the connection with
	// 1009. Frames between maxMessageSize and hardReadLimit get a too_large error.
	hardReadLimit = 4 * maxMessageSize
	// commandTimeout bounds one command's round trip through the room actor and store.
	commandTimeout = 10 * time.Second
	// closeGrace is how long the writer waits for the client's close frame after sending
	// its own before it drops the TCP connection (a clean close handshake: the client
	// reliably sees the close code and reason).
	closeGrace = time.Second
	// strikeLimit rate-limited messages within strikeWindow close the connection (1008).
	strikeLimit  = 10
	strikeWindow = 10 * time.Second
)

// Close codes used by the server (RFC 6455 and the protocol doc).
const (
	closeGoingAway    = websocket.CloseGoingAway       // 1001: server shutting down; reconnect
	closePolicy       = websocket.ClosePolicyViolation // 1008: flood, bad origin...; do not retry blindly
	closeTooBig       = websocket.CloseMessageTooBig   // 1009: frame over hardReadLimit
	closeTryAgain     = websocket.CloseTryAgainLater   // 1013: slow consumer; reconnect with last_seq
	closeInternal     = websocket.CloseInternalServerErr
	closeNormal       = websocket.CloseNormalClosure
	closeReasonSlow   = "slow_consumer"
	closeReasonFlood  = "rate_limited"
	closeReasonGone   = "shutting_down"
	closeReasonHello  = "hello_required"
	closeReasonNoRoom = "no_such_room"
)

// conn is one WebSocket connection. The handler goroutine is the reader; writeLoop is
// the only writer of data frames.
type conn struct {
	s      *Server
	ws     *websocket.Conn
	roomID string
	ip     string
	log    *slog.Logger

	send    chan []byte   // acks, errors, welcome, pong: bounded, written by the reader only
	attach  chan Session  // hands the joined session to the writer
	closing chan closeReq // asks the writer to send a close frame and stop
	done    chan struct{} // closed when the writer has stopped
	readEnd chan struct{} // closed when the reader has stopped
	closed  atomic.Bool   // a close was requested: the reader discards further frames
	limiter *rate.Limiter

	closeOnce  sync.Once
	hookPlayer atomic.Pointer[Player]

	// reader-owned state
	sess      Session
	player    *Player
	strikes   int
	strikeAt  time.Time
	helloSeen bool
}

type closeReq struct {
	code   int
	reason string
}

// requestClose makes the writer send a close frame and stop (first request wins).
func (c *conn) requestClose(code int, reason string) {
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		c.closing <- closeReq{code, reason} // buffered 1
	})
}

// enqueue queues a frame for the writer without blocking. A full queue means the client
// is not reading: it is dropped as a slow consumer.
func (c *conn) enqueue(frame []byte) bool {
	select {
	case c.send <- frame:
		return true
	default:
		c.s.metrics.SlowConsumers.Inc()
		c.requestClose(closeTryAgain, closeReasonSlow)
		return false
	}
}

func (c *conn) sendError(id string, e *Error) {
	c.s.metrics.countError(e.Code)
	c.enqueue(mustJSON(errorMsg{Type: TypeError, ID: id, Code: e.Code, Message: e.Message}))
}

// serve runs the reader loop until the connection ends.
func (c *conn) serve() {
	defer func() {
		close(c.readEnd)
		if c.sess != nil {
			c.sess.Close()
		}
	}()
	go c.writeLoop()
	c.ws.SetReadLimit(hardReadLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.HelloTimeout))
	c.ws.SetPongHandler(func(string) error {
		if c.helloSeen {
			return c.ws.SetReadDeadline(time.Now().Add(pongWait))
		}
		return nil
	})
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.readFailed(err)
			return
		}
		if c.helloSeen {
			_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
		}
		select {
		case <-c.done:
			return
		default:
		}
		if c.closed.Load() {
			continue // closing: wait for the client's close frame
		}
		msg, derr := DecodeClient(data)
		if !c.limit(msg.ID) {
			continue
		}
		c.handle(msg, derr)
		if c.helloSeen {
			// From the hello on, any frame (pongs included) within pongWait keeps it open.
			_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
		}
	}
}

func (c *conn) readFailed(err error) {
	switch {
	case errors.Is(err, websocket.ErrReadLimit):
		// gorilla already sent 1009.
		c.s.metrics.countError(CodeTooLarge)
		c.requestClose(closeTooBig, CodeTooLarge)
	case !c.helloSeen && isTimeout(err):
		c.s.metrics.countError(CodeHelloFirst)
		c.requestClose(closePolicy, closeReasonHello)
	case isTimeout(err):
		c.requestClose(closeNormal, "timeout")
	default:
		c.requestClose(closeNormal, "")
	}
}

func isTimeout(err error) bool {
	var ne interface{ Timeout() bool }
	return errors.As(err, &ne) && ne.Timeout()
}

// limit applies the per-connection token bucket. Refused messages get rate_limited;
// strikeLimit refusals within strikeWindow close the connection with 1008.
func (c *conn) limit(id string) bool {
	if c.limiter.Allow() {
		return true
	}
	now := time.Now()
	if now.Sub(c.strikeAt) > strikeWindow {
		c.strikes, c.strikeAt = 0, now
	}
	c.strikes++
	if c.strikes > strikeLimit {
		c.s.metrics.countError(CodeRateLimited)
		c.requestClose(closePolicy, closeReasonFlood)
		return false
	}
	c.sendError(id, Errorf(CodeRateLimited, "too many messages: at most %g per second", c.s.cfg.RateLimit))
	return false
}

// handle runs one decoded client frame (or answers its decoding error).
func (c *conn) handle(msg ClientMsg, derr *Error) {
	if derr != nil {
		c.sendError(msg.ID, derr)
		return
	}
	c.s.metrics.Messages.WithLabelValues(msg.Type).Inc()
	switch {
	case msg.Type == TypePing:
		c.enqueue(mustJSON(pongMsg{Type: TypePong, ID: msg.ID}))
		return
	case msg.Type == TypeHello:
		if c.helloSeen {
			c.sendError(msg.ID, Errorf(CodeBadRequest, "hello was already accepted on this connection"))
			return
		}
		c.hello(msg)
		return
	case !c.helloSeen:
		c.sendError(msg.ID, Errorf(CodeHelloFirst, `send {"type":"hello"} first`))
		return
	}
	c.command(msg)
}

func (c *conn) hello(msg ClientMsg) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	p, err := authenticate(ctx, c.s.players, msg.Token)
	if err != nil {
		c.sendError(msg.ID, AsError(err))
		return
	}
	sess, err := c.s.rooms.Join(ctx, c.roomID, p, msg.LastSeq)
	if err != nil {
		e := c.s.edgeError(err)
		c.sendError(msg.ID, e)
		if e.Code == CodeNoSuchRoom {
			c.requestClose(closePolicy, closeReasonNoRoom)
		}
		return
	}
	c.helloSeen, c.sess, c.player = true, sess, p
	c.hookPlayer.Store(p)
	you := You{Role: sess.Role()}
	if p != nil {
		you.PlayerID, you.Name = p.ID, p.Name
	}
	if !c.enqueue(mustJSON(welcomeMsg{Type: TypeWelcome, RoomID: c.roomID, You: you})) {
		return
	}
	select {
	case c.attach <- sess: // buffered 1, sent once
	default:
	}
}

// command runs a room command and answers ack or error.
func (c *conn) command(msg ClientMsg) {
	if msg.Type != TypeChat && msg.Type != TypeSit && c.player == nil {
		c.sendError(msg.ID, Errorf(CodeNotAPlayer, "spectators cannot play: send a token in hello to take a seat"))
		return
	}
	if c.player == nil {
		c.sendError(msg.ID, Errorf(CodeUnauthorized, "this needs a player token in hello (POST /api/players)"))
		return
	}
	cmd := room.Command{Kind: room.CommandKind(msg.Type), ID: msg.ID, Color: msg.Color, Point: msg.Point, Text: msg.Text}
	if msg.Ply != nil {
		cmd.Ply = *msg.Ply
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	rep, err := c.sess.Do(ctx, cmd)
	cancel()
	var dup *room.DuplicateError
	if errors.As(err, &dup) {
		rep, err = room.Reply{Seq: dup.Seq, Duplicate: true}, nil
	}
	if err != nil {
		c.sendError(msg.ID, c.s.edgeError(err))
		return
	}
	if msg.Type == TypeMove && !rep.Duplicate {
		c.s.metrics.Moves.Inc()
		c.s.metrics.MoveLatency.Observe(time.Since(start).Seconds())
	}
	if !c.enqueue(mustJSON(ackMsg{Type: TypeAck, ID: msg.ID, Seq: rep.Seq, Duplicate: rep.Duplicate})) {
		return
	}
	if rep.Hint != nil {
		c.enqueue(mustJSON(hintFrame{Type: "hint", Ephemeral: true, ID: msg.ID, Hint: rep.Hint}))
	}
}

// writeLoop is the connection's only data writer: queued frames, room updates, pings.
func (c *conn) writeLoop() {
	ticker := time.NewTicker(pingPeriod)
	defer func() {
		ticker.Stop()
		_ = c.ws.Close() // unblocks the reader
		close(c.done)
	}()
	var updates <-chan room.Update
	var sess Session
	for {
		select {
		case f := <-c.send:
			if !c.write(f) {
				return
			}
		case s := <-c.attach:
			// Frames queued before the session (the welcome) go first.
			if !c.drain() {
				return
			}
			sess, updates = s, s.Updates()
		case u, ok := <-updates:
			if !ok {
				if errors.Is(sess.Err(), room.ErrSlowSubscriber) {
					c.s.metrics.SlowConsumers.Inc()
					c.closeWith(closeTryAgain, closeReasonSlow)
				} else {
					c.closeWith(closeTryAgain, "room_closed")
				}
				return
			}
			for _, f := range c.s.frames.frames(u) {
				if !c.write(f) {
					return
				}
			}
		case <-ticker.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				return
			}
		case r := <-c.closing:
			// Flush what is already queued (e.g. the error explaining the close).
			c.drain()
			c.closeWith(r.code, r.reason)
			select {
			case <-c.readEnd: // the client answered the close (or the reader failed)
			case <-time.After(closeGrace):
			}
			return
		}
	}
}

func (c *conn) drain() bool {
	for {
		select {
		case f := <-c.send:
			if !c.write(f) {
				return false
			}
		default:
			return true
		}
	}
}

func (c *conn) write(frame []byte) bool {
	if c.s.writeHook != nil {
		c.s.writeHook(c.hookID())
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
	return c.ws.WriteMessage(websocket.TextMessage, frame) == nil
}

// hookID is the player id for the test write hook (the writer may read it: it is set
// before the session is handed over and never changed after).
func (c *conn) hookID() string {
	if p := c.hookPlayer.Load(); p != nil {
		return p.ID
	}
	return ""
}

func (c *conn) closeWith(code int, reason string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(writeWait))
}

// Ephemeral and numbered server → client frames built from room updates.
type eventFrame struct {
	Type  string      `json:"type"`
	Seq   uint64      `json:"seq"`
	Event *room.Event `json:"event"`
}

type snapshotFrame struct {
	Type string         `json:"type"`
	Seq  uint64         `json:"seq"`
	Room *room.Snapshot `json:"room"`
}

type aiFrame struct {
	Type      string `json:"type"`
	Ephemeral bool   `json:"ephemeral"`
	*room.AIProgress
}

type presenceFrame struct {
	Type      string `json:"type"`
	Ephemeral bool   `json:"ephemeral"`
	*room.Presence
}

type hintFrame struct {
	Type      string `json:"type"`
	Ephemeral bool   `json:"ephemeral"`
	ID        string `json:"id,omitempty"`
	*room.Hint
}

var resyncFrame = []byte(`{"type":"resync"}`)

// encodeUpdate returns the frames for one room update.
func encodeUpdate(u room.Update) [][]byte {
	switch {
	case u.Event != nil:
		return [][]byte{mustJSON(eventFrame{Type: TypeEvent, Seq: u.Event.Seq, Event: u.Event})}
	case u.Snapshot != nil:
		f := mustJSON(snapshotFrame{Type: TypeSnapshot, Seq: u.Snapshot.Seq, Room: u.Snapshot})
		if u.Resync {
			return [][]byte{resyncFrame, f}
		}
		return [][]byte{f}
	case u.AI != nil:
		return [][]byte{mustJSON(aiFrame{Type: "ai", Ephemeral: true, AIProgress: u.AI})}
	case u.Presence != nil:
		return [][]byte{mustJSON(presenceFrame{Type: "presence", Ephemeral: true, Presence: u.Presence})}
	}
	return nil
}
