package server

import (
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gomoku-arena/gomoku/room"
)

// Writer scheduling.
const (
	// writerLinger is how long a writer with nothing to send waits for more before it
	// parks (its goroutine exits). Connections of a game in play get something every few
	// seconds and keep their writer; idle ones park and cost only their reader.
	writerLinger = 5 * time.Second
	// maxBatchFrames and maxBatchBytes bound one coalesced write (and so the buffer it
	// borrows from batchPool); more frames simply take another write.
	maxBatchFrames = 128
	maxBatchBytes  = 64 << 10
)

// Writer states.
const (
	writerNew     int32 = iota // serve has not started: it checks for a close request when it does
	writerParked               // no writer goroutine
	writerRunning              // a writeLoop runs
)

// lingerOverride, when not zero, replaces writerLinger (tests).
var lingerOverride atomic.Int64

func lingerTime() time.Duration {
	if d := lingerOverride.Load(); d != 0 {
		return time.Duration(d)
	}
	return writerLinger
}

// pooledBatch is the largest write buffer batchPool keeps. Most writes are one event
// or reply (~100-300 bytes); larger batches (a join's snapshot, a burst) take a buffer
// of their own, so that the pool, which keeps as many buffers as writes ran at once
// (thousands during a burst of joins), stays small.
const pooledBatch = 1024

// batchPool holds write buffers: a connection borrows one per write, so idle
// connections hold none.
var batchPool = sync.Pool{New: func() any { b := make([]byte, 0, pooledBatch); return &b }}

// wakeWriter tells the writer there is work, starting it if it is parked.
func (c *conn) wakeWriter() {
	if c.wstate.Load() == writerNew {
		return // c.wake is not made yet
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
	if c.wstate.CompareAndSwap(writerParked, writerRunning) {
		go c.writeLoop()
	}
}

// updatesPending reports whether the room has queued updates for a parked writer.
func (c *conn) updatesPending() bool {
	a := c.att.Load()
	return a != nil && len(a.updates) > 0
}

// park stops the writer unless work arrived meanwhile; true means the goroutine must
// exit. The state is published before the work is checked again, and producers queue
// work before they try to start a writer, so no wake-up is lost.
func (c *conn) park() bool {
	c.wstate.Store(writerParked)
	if len(c.wake) == 0 && !c.updatesPending() {
		return true
	}
	// Work arrived: carry on, unless a producer has already started a new writer.
	return !c.wstate.CompareAndSwap(writerParked, writerRunning)
}

// flushInline does the writer's work on the calling goroutine (the reader, after an
// accepted hello: the welcome and the join's backlog) when no writer runs, so that a
// join does not start a goroutine (a burst of joins would leave thousands of short-lived
// writers behind: their goroutine records and stack fragments stay allocated). If the
// connection must close or more work arrives meanwhile, a writer goroutine takes over.
func (c *conn) flushInline() {
	if !c.wstate.CompareAndSwap(writerParked, writerRunning) {
		c.wakeWriter()
		return
	}
	select {
	case <-c.wake:
	default:
	}
	_, ended, stop := c.flush(nil, false, false)
	switch {
	case stop:
	case ended != nil:
		go c.writeLoop() // it finds the close again
	case c.park():
	default:
		go c.writeLoop() // new work came meanwhile
	}
}

// writeLoop is the connection's only data writer: queued replies, room updates, pings
// and the close. It runs while there is work and parks writerLinger after the last
// reply or persisted event it wrote, at once after pings and ephemeral updates only
// (presence, AI progress: no one waits for those, and a room whose spectator count
// changes would otherwise keep every idle writer running).
func (c *conn) writeLoop() {
	var linger *time.Timer
	armed := false
	var active time.Time   // when the last data frame was written (zero: none in this run)
	var first *room.Update // an update already taken from the channel (when hasFirst)
	var hasFirst, firstOK bool
	defer func() {
		if linger != nil {
			linger.Stop()
		}
	}()
	for {
		// Take the wake-up before the work it announces: one that comes during flush
		// stays for park to see.
		select {
		case <-c.wake:
		default:
		}
		var pending *room.Update
		if hasFirst {
			pending = first
		}
		lasting, ended, stop := c.flush(pending, hasFirst, firstOK)
		hasFirst = false
		if stop {
			return
		}
		if ended != nil {
			c.finish(ended.code, ended.reason)
			return
		}
		now := time.Now()
		if lasting > 0 {
			active = now
		}
		idle := now.Sub(active)
		if idle >= lingerTime() {
			if c.park() {
				return
			}
			continue
		}
		switch {
		case linger == nil:
			linger, armed = time.NewTimer(lingerTime()-idle), true
		case !armed:
			linger.Reset(lingerTime() - idle)
			armed = true
		}
		var updates <-chan *room.Update
		if a := c.att.Load(); a != nil {
			updates = a.updates
		}
		select {
		case <-c.wake:
		case first, firstOK = <-updates:
			hasFirst = true
		case <-linger.C:
			armed = false
		}
	}
}

// flush writes everything pending in one write: the queued replies, then (once joined)
// the room's queued updates, then a ping if one is due. It returns the number of
// frames written that are not ephemeral, the close to send when the connection must
// end, and stop when it has already ended.
func (c *conn) flush(first *room.Update, hasFirst, firstOK bool) (lasting int, ended *closeReq, stop bool) {
	// att before out: the welcome is queued before att is set (hello), so it is taken
	// here before any update of the session.
	a := c.att.Load()
	c.outMu.Lock()
	out := c.out
	c.out = nil
	c.outMu.Unlock()
	req := c.closeReq.Load()

	bp := batchPool.Get().(*[]byte)
	buf := (*bp)[:0]
	defer func() {
		if cap(buf) <= pooledBatch {
			*bp = buf[:0]
			batchPool.Put(bp)
		}
	}()
	n := 0
	add := func(frame []byte) {
		if c.s.writeHook != nil {
			c.s.writeHook(c.hookID())
		}
		buf = appendTextFrame(buf, frame)
		n++
	}
	for _, f := range out {
		add(f)
	}
	lasting = len(out)
	var subEnd *closeReq
	if a != nil && req == nil {
		take := func(u *room.Update, ok bool) bool {
			if !ok {
				subEnd = subscriptionEnd(a.sess.Err())
				return false
			}
			for _, f := range c.s.frames.frames(u) {
				add(f)
			}
			if !u.Ephemeral() {
				lasting++
			}
			return true
		}
		more := !hasFirst || take(first, firstOK)
		for more && n < maxBatchFrames && len(buf) < maxBatchBytes {
			select {
			case u, ok := <-a.updates:
				more = take(u, ok)
			default:
				more = false
			}
		}
		if more && (n >= maxBatchFrames || len(buf) >= maxBatchBytes) {
			// More is probably queued: come round again without waiting.
			select {
			case c.wake <- struct{}{}:
			default:
			}
		}
	}
	if n > 0 && !c.noData.Load() {
		if !c.writeRaw(buf) {
			c.finish(0, "")
			return lasting, nil, true
		}
		c.writes.Add(1)
		c.frames.Add(uint32(n))
	}
	if c.pingDue.Swap(false) && req == nil {
		if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
			c.finish(0, "")
			return lasting, nil, true
		}
	}
	if req != nil {
		return lasting, req, false
	}
	return lasting, subEnd, false
}

// subscriptionEnd is the close for a room subscription that ended with err.
func subscriptionEnd(err error) *closeReq {
	if errors.Is(err, room.ErrSlowSubscriber) {
		return &closeReq{closeTryAgain, closeReasonSlow}
	}
	return &closeReq{closeTryAgain, "room_closed"}
}

// writeRaw writes already framed data frames in one write. gorilla writes every
// message with its own write call (one syscall per frame); framing the server's text
// frames here (RFC 6455 5.2: final, unmasked) lets a burst go out at once. Control
// frames still go through gorilla's WriteControl, which may run concurrently (the
// reader answers pings); net.Conn writes do not interleave.
func (c *conn) writeRaw(b []byte) bool {
	nc := c.ws.NetConn()
	_ = nc.SetWriteDeadline(time.Now().Add(writeWait))
	_, err := nc.Write(b)
	return err == nil
}

// appendTextFrame appends payload as one final, unmasked text frame.
func appendTextFrame(b, payload []byte) []byte {
	n := len(payload)
	switch {
	case n <= 125:
		b = append(b, 0x81, byte(n))
	case n <= 0xffff:
		b = append(b, 0x81, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 0x81, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
}

// finish ends the connection: with code != 0 it sends that close frame and waits a
// little for the client's answer (a clean close handshake, so the client reliably sees
// the code and reason); then it drops the TCP connection, which also ends the reader.
func (c *conn) finish(code int, reason string) {
	if code != 0 {
		if code == closeTryAgain && reason == closeReasonSlow && c.closeReq.Load() == nil {
			c.s.metrics.SlowConsumers.Inc() // dropped by the room (the reader counts its own)
		}
		c.closed.Store(true)
		c.closeWith(code, reason)
		select {
		case <-c.readEnd: // the client answered the close (or the reader failed)
		case <-time.After(closeGrace):
		}
	}
	_ = c.ws.Close() // unblocks the reader
	c.s.clock.remove(c)
	close(c.done)
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
