package server

import (
	"errors"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gomoku-arena/gomoku/room"
)

// outgoing is one item of a connection's send queue: a reply frame, and with the
// welcome the joined session, whose room updates the writer sends from then on.
type outgoing struct {
	frame []byte
	join  *attached
}

// attached is the session a connection joined and its update channel.
type attached struct {
	sess    Session
	updates <-chan *room.Update
}

// closeReq is the close frame a connection ends with.
type closeReq struct {
	code   int
	reason string
}

// writeLoop is the connection's writer goroutine and the only writer of data frames
// (gorilla allows one concurrent writer; control frames may come from any goroutine).
// It sends the reader's replies, the joined room's updates and a ping every
// pingPeriod, until the connection must close.
func (c *conn) writeLoop() {
	ping := time.NewTicker(c.s.cfg.PingPeriod)
	defer ping.Stop()
	var joined *attached
	var updates <-chan *room.Update // nil until hello: a nil channel is never ready
	for {
		select {
		case o := <-c.send:
			if !c.write(o.frame) {
				return
			}
			if o.join != nil {
				// After the welcome: the snapshot or events follow it.
				joined, updates = o.join, o.join.updates
			}
		case u, ok := <-updates:
			if !ok {
				end := subscriptionEnd(joined.sess.Err())
				if end.reason == closeReasonSlow {
					c.s.metrics.SlowConsumers.Inc() // dropped by the room (enqueue counts its own)
				}
				c.finish(end.code, end.reason)
				return
			}
			for _, f := range u.Frames() { // encoded by the room
				if !c.write(f) {
					return
				}
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				c.finish(0, "")
				return
			}
		case <-c.closing:
			if c.drainReplies() { // else a failed write has finished the connection
				c.finish(c.closeReq.code, c.closeReq.reason)
			}
			return
		}
	}
}

// write sends one text frame within writeWait; on failure it ends the connection and
// returns false.
func (c *conn) write(frame []byte) bool {
	if c.noData.Load() {
		return true // gorilla already sent a close frame: nothing may follow it
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
	if err := c.ws.WriteMessage(websocket.TextMessage, frame); err != nil {
		c.finish(0, "")
		return false
	}
	return true
}

// drainReplies writes the replies queued before the close was asked for (an error
// that explains the close goes out before it); room updates are not sent any more. It
// returns false when a write failed (write has then finished the connection).
func (c *conn) drainReplies() bool {
	for {
		select {
		case o := <-c.send:
			if !c.write(o.frame) {
				return false
			}
		default:
			return true
		}
	}
}

// subscriptionEnd is the close for a room subscription that ended with err.
func subscriptionEnd(err error) closeReq {
	if errors.Is(err, room.ErrSlowSubscriber) {
		return closeReq{closeTryAgain, closeReasonSlow}
	}
	return closeReq{closeTryAgain, "room_closed"}
}

// finish ends the connection: with code != 0 it sends that close frame and waits a
// little for the client's answer (a clean close handshake, so the client reliably sees
// the code and reason); then it drops the TCP connection, which also ends the reader.
// Only the writer calls it, once.
func (c *conn) finish(code int, reason string) {
	c.closed.Store(true)
	if code != 0 && !c.noData.Load() {
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(writeWait))
		t := time.NewTimer(closeGrace)
		select {
		case <-c.ctx.Done(): // the reader stopped: the client answered the close (or failed)
		case <-t.C:
		}
		t.Stop()
	}
	c.cancel()       // a command in flight ends with the connection
	_ = c.ws.Close() // unblocks the reader
	close(c.done)
}
