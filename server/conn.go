package server

import (
	"context"
	"errors"
	"io"
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
	// pongWait is how long the reader waits for any frame (pongs included) once the
	// hello is accepted (the default of Config.PongWait).
	pongWait = 45 * time.Second
	// pingPeriod is how often the writer pings; it must be shorter than pongWait (the
	// default of Config.PingPeriod).
	pingPeriod = pongWait * 2 / 3
	// hardReadLimit is gorilla's read limit: larger frames close the connection with
	// 1009. Frames between protocol.MaxMessageBytes and hardReadLimit get a too_large error.
	hardReadLimit = 4 * protocol.MaxMessageBytes
	// writeBufferSize is the buffer a message is framed in (borrowed from a pool for
	// each write); larger messages (a long game's snapshot) go out as several frames.
	writeBufferSize = 4096
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

// conn is one WebSocket connection, in the shape of gorilla's chat example: a reader
// goroutine (serve) reads and handles the client's frames for the connection's whole
// life, and a writer goroutine (writeLoop, conn_writer.go) sends everything else: the
// reader's replies through the bounded send queue, the joined room's updates from the
// session's bounded queue, pings and the close. Nothing ever waits for a client: a full
// queue drops the connection as a slow consumer (1013), and the client rejoins with
// its last seq.
type conn struct {
	s      *Server
	ws     *websocket.Conn
	roomID string
	ip     string
	// ctx is cancelled when the reader stops (or the writer finishes): the commands
	// it runs end with the connection.
	ctx    context.Context
	cancel context.CancelFunc

	send     chan *outgoing // replies for the writer, at most cfg.SendQueue
	closing  chan struct{}  // closed by requestClose; closeReq is set before
	closeReq closeReq
	closed   atomic.Bool   // a close was requested: the reader discards further frames
	noData   atomic.Bool   // gorilla already sent a close frame: write no more data
	done     chan struct{} // closed when the writer has stopped
	limiter  *rate.Limiter

	closeOnce sync.Once

	// reader-owned state
	sess      Session
	player    *Player
	strikes   int
	strikeAt  time.Time
	helloSeen bool
}

// newConn makes the connection state for an upgraded WebSocket.
func newConn(s *Server, ws *websocket.Conn, roomID, ip string) *conn {
	ctx, cancel := context.WithCancel(context.Background())
	return &conn{
		s: s, ws: ws, roomID: roomID, ip: ip,
		ctx: ctx, cancel: cancel,
		send:    make(chan *outgoing, s.cfg.SendQueue),
		closing: make(chan struct{}),
		done:    make(chan struct{}),
		limiter: rate.NewLimiter(rate.Limit(s.cfg.RateLimit), s.cfg.RateBurst),
	}
}

// requestClose makes the writer send the replies queued so far, then a close frame,
// and stop (the first request wins).
func (c *conn) requestClose(code int, reason string) {
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		c.closeReq = closeReq{code, reason}
		close(c.closing)
	})
}

// enqueue queues a frame for the writer without blocking. A full queue means the client
// is not reading: it is dropped as a slow consumer.
func (c *conn) enqueue(frame []byte) bool {
	return c.enqueueItem(&outgoing{frame: frame})
}

func (c *conn) enqueueItem(o *outgoing) bool {
	select {
	case c.send <- o:
		return true
	default:
		c.s.metrics.SlowConsumers.Inc()
		c.requestClose(closeTryAgain, closeReasonSlow)
		return false
	}
}

// sendError answers message id with err as the client sees it (protocol.ClientError).
func (c *conn) sendError(id string, err error) {
	e := c.s.edgeError(err)
	c.s.metrics.countError(e.Code)
	c.enqueue(protocol.Encode(protocol.ErrorMsg{Type: protocol.TypeError, ID: id, Code: e.Code, Message: e.Message}))
}

// serve runs the connection: it starts the writer and runs the reader loop until the
// connection ends, then waits for the writer and takes the connection off the server's
// books.
//
// An idle connection's reader waits in gorilla's read below this loop's small frame
// only, about 1.1 KiB of stack in all; everything that needs more (decoding, the hello,
// commands) runs in received and returns before the next wait. Handling a hello grows
// the stack to 8 KiB, and the collector halves a parked goroutine's stack only while it
// uses less than a quarter of it (plus an 800-byte guard): waiting this shallow lets it
// shrink to 4 KiB, which saves 4 KiB per idle connection (TestIdleConnMemory checks
// it; docs/performance.md has the figures).
func (c *conn) serve() {
	c.start()
	go c.writeLoop()
	for {
		typ, r, err := c.ws.NextReader()
		if err != nil {
			c.readFailed(err)
			break
		}
		if !c.received(typ, r) {
			break
		}
	}
	if c.sess != nil {
		c.sess.Close()
	}
	c.cancel()
	<-c.done
	c.s.forget(c)
}

// start sets the reader's limit, deadline and handlers.
func (c *conn) start() {
	c.ws.SetReadLimit(hardReadLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.HelloTimeout))
	c.ws.SetPongHandler(func(string) error {
		if c.helloSeen {
			return c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.PongWait))
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

// received reads and handles one message from the client; false when the reader must
// stop.
func (c *conn) received(typ int, r io.Reader) bool {
	data, err := io.ReadAll(r)
	if err != nil {
		c.readFailed(err)
		return false
	}
	if c.helloSeen {
		_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.PongWait))
	}
	select {
	case <-c.done:
		return false
	default:
	}
	if c.closed.Load() {
		return true // closing: wait for the client's close frame
	}
	if c.roomID == lobbyRoomID {
		return c.readLobby(typ, data)
	}
	msg, derr := decodeText(typ, data, protocol.Decode)
	if !c.limit(msg.ID) {
		return true
	}
	helloBefore := c.helloSeen
	c.handle(msg, derr)
	if !helloBefore && c.helloSeen {
		// From the hello on, any frame (pongs included) within pongWait keeps it open.
		// Later frames set it when they arrive (above): their handling ends well within
		// PongWait (commandTimeout), so a second deadline per frame is not needed.
		_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.PongWait))
	}
	return true
}

// decodeText decodes a text frame with decode; binary frames are refused.
func decodeText[T any](typ int, data []byte, decode func([]byte) (T, error)) (T, error) {
	if typ == websocket.BinaryMessage {
		var zero T
		return zero, protocol.Errorf(protocol.CodeBadRequest, "binary frames are not accepted: send each message as a JSON text frame")
	}
	return decode(data)
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
	c.sendError(id, protocol.Errorf(protocol.CodeRateLimited, "too many messages: at most %g per second", c.s.cfg.RateLimit))
	return false
}

// handle runs one decoded client frame (or answers its decoding error).
func (c *conn) handle(msg protocol.ClientMsg, derr error) {
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
			c.sendError(msg.ID, protocol.Errorf(protocol.CodeBadRequest, "hello was already accepted on this connection"))
			return
		}
		c.hello(msg)
		return
	case !c.helloSeen:
		c.sendError(msg.ID, protocol.Errorf(protocol.CodeHelloRequired, `send {"type":"hello"} first`))
		return
	}
	c.command(msg)
}

func (c *conn) hello(msg protocol.ClientMsg) {
	ctx, cancel := context.WithTimeout(c.ctx, commandTimeout)
	defer cancel()
	p, err := authenticate(ctx, c.s.players, msg.Token)
	if err != nil {
		c.sendError(msg.ID, err)
		return
	}
	sess, err := c.s.rooms.Join(ctx, c.roomID, p, msg.LastSeq)
	if err != nil {
		c.sendError(msg.ID, err)
		if protocol.Code(err) == protocol.CodeNoSuchRoom {
			c.requestClose(closePolicy, closeReasonNoRoom)
		}
		return
	}
	c.helloSeen, c.sess, c.player = true, sess, p
	you := protocol.You{Role: sess.Role()}
	if p != nil {
		you.PlayerID, you.Name = p.ID, p.Name
	}
	// The session rides with the welcome: the writer sends the room's updates after it.
	c.enqueueItem(&outgoing{
		frame: protocol.Encode(protocol.NewWelcome(c.roomID, you)),
		join:  &attached{sess: sess, updates: sess.Updates()},
	})
}

// command runs a room command and answers ack or error.
func (c *conn) command(msg protocol.ClientMsg) {
	if msg.Type != protocol.TypeChat && msg.Type != protocol.TypeSit && c.player == nil {
		c.sendError(msg.ID, protocol.Errorf(protocol.CodeNotAPlayer, "spectators cannot play: send a token in hello to take a seat"))
		return
	}
	if c.player == nil {
		c.sendError(msg.ID, protocol.Errorf(protocol.CodeUnauthorized, "this needs a player token in hello (POST /api/players)"))
		return
	}
	cmd := room.ClientCommand(msg)
	start := time.Now()
	ctx, cancel := context.WithTimeout(c.ctx, commandTimeout)
	rep, err := c.sess.Do(ctx, cmd)
	cancel()
	var dup *room.DuplicateError
	if errors.As(err, &dup) {
		rep, err = room.Reply{Seq: dup.Seq, Duplicate: true}, nil
	}
	if err != nil {
		c.sendError(msg.ID, err)
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
		c.enqueue(protocol.EphemeralFrame(protocol.TypeHint, msg.ID, rep.Hint))
	}
}
