package server

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
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
	// 1009. Frames between protocol.MaxMessageBytes and hardReadLimit get a too_large error.
	hardReadLimit = 4 * protocol.MaxMessageBytes
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

// conn is one WebSocket connection. The reader goroutine (serve) runs for the
// connection's whole life; the writer goroutine (writeLoop, conn_writer.go) runs only
// while there is something to send and is the only writer of data frames. An idle
// connection therefore costs one goroutine: the server's ping clock (conn_clock.go)
// wakes its writer for pings, and the room for updates (roomUpdate).
type conn struct {
	s      *Server
	ws     *websocket.Conn
	roomID string
	ip     string

	done    chan struct{} // closed when the writer has stopped
	readEnd chan struct{} // closed when the reader has stopped
	closed  atomic.Bool   // a close was requested: the reader discards further frames
	limiter *rate.Limiter

	closeOnce  sync.Once
	hookPlayer atomic.Pointer[Player]

	// Writer state (conn_writer.go).
	wake     chan struct{}            // buffered 1: there is work for the writer
	wstate   atomic.Int32             // writerNew, writerParked or writerRunning
	outMu    sync.Mutex               // guards out
	out      [][]byte                 // replies queued by the reader, at most cfg.SendQueue
	att      atomic.Pointer[attached] // the joined session, set once by hello
	closeReq atomic.Pointer[closeReq] // set once by requestClose
	pingDue  atomic.Bool              // the clock asks for a ping
	noData   atomic.Bool              // gorilla already sent a close frame: write no more data
	clockIdx int                      // index in the ping clock's list (guarded by its mutex)
	writes   atomic.Uint32            // coalesced writes so far (tests)
	frames   atomic.Uint32            // data frames they carried

	// reader-owned state
	sess      Session
	player    *Player
	strikes   int
	strikeAt  time.Time
	helloSeen bool
}

// newConn makes the connection state for an upgraded WebSocket (the writer's state is
// made by serve).
func newConn(s *Server, ws *websocket.Conn, roomID, ip string) *conn {
	return &conn{
		s: s, ws: ws, roomID: roomID, ip: ip,
		done:    make(chan struct{}),
		readEnd: make(chan struct{}),
		limiter: rate.NewLimiter(rate.Limit(s.cfg.RateLimit), s.cfg.RateBurst),
	}
}

// attached is the session a connection joined and its update channel.
type attached struct {
	sess    Session
	updates <-chan *room.Update
}

type closeReq struct {
	code   int
	reason string
}

// requestClose makes the writer send a close frame and stop (first request wins).
func (c *conn) requestClose(code int, reason string) {
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		c.closeReq.Store(&closeReq{code, reason})
		c.wakeWriter()
	})
}

// enqueue queues a frame for the writer without blocking. A full queue means the client
// is not reading: it is dropped as a slow consumer.
func (c *conn) enqueue(frame []byte) bool {
	c.outMu.Lock()
	full := len(c.out) >= c.s.cfg.SendQueue
	if !full {
		c.out = append(c.out, frame)
	}
	c.outMu.Unlock()
	if full {
		c.s.metrics.SlowConsumers.Inc()
		c.requestClose(closeTryAgain, closeReasonSlow)
		return false
	}
	c.wakeWriter()
	return true
}

func (c *conn) sendError(id string, e *Error) {
	c.s.metrics.countError(e.Code)
	c.enqueue(protocol.Encode(protocol.ErrorMsg{Type: protocol.TypeError, ID: id, Code: e.Code, Message: e.Message}))
}

// serve runs the reader loop until the connection ends.
func (c *conn) serve() {
	defer func() {
		close(c.readEnd)
		if c.sess != nil {
			c.sess.Close()
		}
	}()
	c.start()
	for c.readOne() {
	}
}

// start makes the writer's state, registers with the ping clock and sets the
// reader's deadline and handlers.
func (c *conn) start() {
	c.wake = make(chan struct{}, 1)
	c.wstate.Store(writerParked)
	if c.closeReq.Load() != nil {
		c.wakeWriter() // asked to close (shutdown) before serve started
	}
	c.s.clock.add(c)
	c.ws.SetReadLimit(hardReadLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.HelloTimeout))
	c.ws.SetPongHandler(func(string) error {
		if c.helloSeen {
			return c.ws.SetReadDeadline(time.Now().Add(pongWait))
		}
		return nil
	})
	// The client's close is answered by the writer (after what is queued), not by
	// gorilla from this goroutine: data frames must never follow a close frame.
	c.ws.SetCloseHandler(func(code int, _ string) error {
		if code == websocket.CloseNoStatusReceived {
			code = closeNormal
		}
		c.requestClose(code, "")
		return nil
	})
}

// readOne reads and handles one message; false when the reader must stop.
func (c *conn) readOne() bool {
	_, data, err := c.ws.ReadMessage()
	if err != nil {
		c.readFailed(err)
		return false
	}
	if c.helloSeen {
		_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
	}
	select {
	case <-c.done:
		return false
	default:
	}
	if c.closed.Load() {
		return true // closing: wait for the client's close frame
	}
	msg, derr := protocol.Decode(data)
	if !c.limit(msg.ID) {
		return true
	}
	helloBefore := c.helloSeen
	c.handle(msg, AsError(derr))
	if !helloBefore && c.helloSeen {
		// From the hello on, any frame (pongs included) within pongWait keeps it open.
		// Later frames set it when they arrive (above): their handling ends well within
		// pongWait (commandTimeout), so a second deadline per frame is not needed.
		_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
	}
	return true
}

func (c *conn) readFailed(err error) {
	var ce *websocket.CloseError
	switch {
	case errors.As(err, &ce):
		// The close handler has already asked the writer to answer.
		c.requestClose(closeNormal, "")
	case errors.Is(err, websocket.ErrReadLimit):
		// gorilla already sent 1009.
		c.noData.Store(true)
		c.s.metrics.countError(protocol.CodeTooLarge)
		c.requestClose(closeTooBig, protocol.CodeTooLarge)
	case !c.helloSeen && isTimeout(err):
		c.s.metrics.countError(protocol.CodeHelloRequired)
		c.requestClose(closePolicy, closeReasonHello)
	case isTimeout(err):
		c.requestClose(closeNormal, "timeout")
	default:
		// A network error, or a protocol error gorilla has answered with its own close.
		c.noData.Store(true)
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
		c.s.metrics.countError(protocol.CodeRateLimited)
		c.requestClose(closePolicy, closeReasonFlood)
		return false
	}
	c.sendError(id, Errorf(protocol.CodeRateLimited, "too many messages: at most %g per second", c.s.cfg.RateLimit))
	return false
}

// handle runs one decoded client frame (or answers its decoding error).
func (c *conn) handle(msg protocol.ClientMsg, derr *Error) {
	if derr != nil {
		c.sendError(msg.ID, derr)
		return
	}
	c.s.metrics.Messages.WithLabelValues(msg.Type).Inc()
	switch {
	case msg.Type == protocol.TypePing:
		c.enqueue(protocol.Encode(protocol.NewPong(msg.ID)))
		return
	case msg.Type == protocol.TypeHello:
		if c.helloSeen {
			c.sendError(msg.ID, Errorf(protocol.CodeBadRequest, "hello was already accepted on this connection"))
			return
		}
		c.hello(msg)
		return
	case !c.helloSeen:
		c.sendError(msg.ID, Errorf(protocol.CodeHelloRequired, `send {"type":"hello"} first`))
		return
	}
	c.command(msg)
}

func (c *conn) hello(msg protocol.ClientMsg) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	p, err := authenticate(ctx, c.s.players, msg.Token)
	if err != nil {
		c.sendError(msg.ID, AsError(err))
		return
	}
	sess, err := c.s.rooms.Join(ctx, c.roomID, p, msg.LastSeq, c.roomUpdate)
	if err != nil {
		e := c.s.edgeError(err)
		c.sendError(msg.ID, e)
		if e.Code == protocol.CodeNoSuchRoom {
			c.requestClose(closePolicy, closeReasonNoRoom)
		}
		return
	}
	c.helloSeen, c.sess, c.player = true, sess, p
	c.hookPlayer.Store(p)
	you := protocol.You{Role: sess.Role()}
	if p != nil {
		you.PlayerID, you.Name = p.ID, p.Name
	}
	if !c.enqueue(protocol.Encode(protocol.NewWelcome(c.roomID, you))) {
		return
	}
	// After the welcome is queued: the writer loads att before it takes the queue, so
	// the welcome goes out before the snapshot or events.
	c.att.Store(&attached{sess: sess, updates: sess.Updates()})
	c.flushInline()
}

// roomUpdate is the room's notice (room.SubscribeOptions.Notify, on the room's
// goroutine) that it queued an update for this connection or ended its subscription: a
// parked writer is started; a running one finds the update in its select.
func (c *conn) roomUpdate() {
	if c.wstate.Load() == writerParked {
		c.wakeWriter()
	}
}

// command runs a room command and answers ack or error.
func (c *conn) command(msg protocol.ClientMsg) {
	if msg.Type != protocol.TypeChat && msg.Type != protocol.TypeSit && c.player == nil {
		c.sendError(msg.ID, Errorf(protocol.CodeNotAPlayer, "spectators cannot play: send a token in hello to take a seat"))
		return
	}
	if c.player == nil {
		c.sendError(msg.ID, Errorf(protocol.CodeUnauthorized, "this needs a player token in hello (POST /api/players)"))
		return
	}
	cmd := room.ClientCommand(msg)
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
	if msg.Type == protocol.TypeMove && !rep.Duplicate {
		c.s.metrics.Moves.Inc()
		c.s.metrics.MoveLatency.Observe(time.Since(start).Seconds())
	}
	if !c.enqueue(protocol.Encode(protocol.NewAck(msg.ID, rep.Seq, rep.Duplicate))) {
		return
	}
	if rep.Hint != nil {
		c.enqueue(protocol.Encode(hintFrame{Type: protocol.TypeHint, Ephemeral: true, ID: msg.ID, Hint: rep.Hint}))
	}
}

// Ephemeral and numbered server → client frames built from room updates.
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

// encodeUpdate returns the frames for one room update.
func encodeUpdate(u room.Update) [][]byte {
	switch {
	case u.Event != nil:
		return [][]byte{protocol.Encode(protocol.EventMsg{Type: protocol.TypeEvent, Seq: u.Event.Seq, Event: u.Event})}
	case u.Snapshot != nil:
		f := protocol.Encode(protocol.SnapshotMsg{Type: protocol.TypeSnapshot, Seq: u.Snapshot.Seq, Room: u.Snapshot})
		if u.Resync {
			return [][]byte{protocol.ResyncFrame, f}
		}
		return [][]byte{f}
	case u.AI != nil:
		return [][]byte{protocol.Encode(aiFrame{Type: protocol.TypeAI, Ephemeral: true, AIProgress: u.AI})}
	case u.Presence != nil:
		return [][]byte{protocol.Encode(presenceFrame{Type: protocol.TypePresence, Ephemeral: true, Presence: u.Presence})}
	}
	return nil
}
