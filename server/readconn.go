package server

import (
	"bufio"
	"encoding/binary"
	"net"
	"net/http"
	"syscall"
)

// Why readConn exists: an idle connection costs one goroutine, its reader, parked in a
// read. Parked inside gorilla's ReadMessage its stack holds about 1.7 KiB of frames,
// which keeps the goroutine's stack at 8 KiB (the runtime halves a stack only when less
// than a quarter of it is in use). Parked in waitReadable, called from the top of the
// reader's loop, it holds a few hundred bytes and the stack shrinks to 4 KiB at the next
// collection. Waiting for the socket is only right when gorilla's read buffer is empty,
// so readConn, the net.Conn gorilla reads from, follows the WebSocket frame boundaries
// in the bytes it hands over and knows where each message ends.

// readConn wraps the connection gorilla reads from (see above). Its methods other than
// Read pass through; Read, messageRead and waitReadable are the reader goroutine's only.
type readConn struct {
	net.Conn
	raw syscall.RawConn

	delivered int64   // bytes returned by Read so far
	ends      []int64 // stream offsets where the delivered messages end, oldest first
	empty     bool    // gorilla's read buffer holds nothing (known at a message's end)
	frames    frameTracker
	peek      [1]byte
	peeked    bool // ready has peeked in this wait
}

// newReadConn wraps nc when it is a socket (a *net.TCPConn, a *net.UnixConn); others
// (TLS, pipes in tests) are returned as they are and their reader parks in gorilla.
func newReadConn(nc net.Conn) net.Conn {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	return &readConn{Conn: nc, raw: raw, empty: true}
}

// Read reads from the socket and notes where the messages in what it read end.
func (r *readConn) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	if n > 0 {
		r.ends = r.frames.track(p[:n], r.delivered, r.ends)
		r.delivered += int64(n)
		r.empty = false
	}
	return n, err
}

// messageRead is called after gorilla returned a whole message: the stream has been
// consumed up to that message's end, so the read buffer is empty when nothing was
// delivered after it.
func (r *readConn) messageRead() {
	if len(r.ends) == 0 {
		r.empty = false // not tracked (cannot happen): never wait on the socket then
		return
	}
	end := r.ends[0]
	r.ends = append(r.ends[:0], r.ends[1:]...)
	r.empty = end == r.delivered
}

// waitReadable blocks until the socket has data, is closed or the read deadline
// passes, when gorilla's read buffer is empty; otherwise it returns at once. Errors
// are left for the following read to find.
func (r *readConn) waitReadable() {
	if !r.empty {
		return
	}
	r.peeked = false
	_ = r.raw.Read(r.ready)
}

// ready is the RawConn callback. The first call peeks: true when a read would not
// block (data, end of stream or an error), false to wait for the socket to become
// readable. After that wait it answers true without another syscall: a spurious
// wake-up only means gorilla's read waits instead.
func (r *readConn) ready(fd uintptr) bool {
	if r.peeked {
		return true
	}
	r.peeked = true
	return peekReady(fd, r.peek[:])
}

// wsHijacker hands gorilla's Upgrade a readConn in place of the hijacked connection.
type wsHijacker struct {
	http.ResponseWriter
}

// Hijack implements http.Hijacker.
func (h wsHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	return newReadConn(nc), brw, nil
}

// Unwrap lets http.ResponseController reach the wrapped writer.
func (h wsHijacker) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// frameTracker follows WebSocket frame headers (RFC 6455 5.2) across reads without
// copying payloads: only header bytes are looked at.
type frameTracker struct {
	hdr  [14]byte
	hn   int   // header bytes collected (0: at a frame's start when skip is 0)
	need int   // header length, known once two bytes are in
	skip int64 // payload bytes of the current frame still to pass
	fin  bool  // the current frame is final
	data bool  // the current frame is a data frame (continuation, text, binary)
	bad  bool  // the stream is not WebSocket framing: stop tracking
}

// track scans p, which starts at stream offset base, and appends to ends the offset
// just past every final data frame (a message's end) that p completes.
func (t *frameTracker) track(p []byte, base int64, ends []int64) []int64 {
	for i := 0; i < len(p) && !t.bad; {
		if t.skip > 0 {
			k := int64(len(p) - i)
			if k > t.skip {
				k = t.skip
			}
			t.skip -= k
			i += int(k)
			if t.skip == 0 {
				ends = t.frameEnd(base+int64(i), ends)
			}
			continue
		}
		t.hdr[t.hn] = p[i]
		t.hn++
		i++
		if t.hn == 2 {
			t.need = 2 + 4*int(t.hdr[1]>>7)
			switch t.hdr[1] & 0x7f {
			case 126:
				t.need += 2
			case 127:
				t.need += 8
			}
		}
		if t.hn < 2 || t.hn < t.need {
			continue
		}
		op := t.hdr[0] & 0x0f
		t.fin, t.data = t.hdr[0]&0x80 != 0, op <= 2
		switch l := t.hdr[1] & 0x7f; l {
		case 126:
			t.skip = int64(binary.BigEndian.Uint16(t.hdr[2:4]))
		case 127:
			v := binary.BigEndian.Uint64(t.hdr[2:10])
			if v>>63 != 0 {
				t.bad = true // gorilla refuses such a frame and ends the connection
				return ends
			}
			t.skip = int64(v)
		default:
			t.skip = int64(l)
		}
		t.hn = 0
		if t.skip == 0 {
			ends = t.frameEnd(base+int64(i), ends)
		}
	}
	return ends
}

func (t *frameTracker) frameEnd(at int64, ends []int64) []int64 {
	if t.fin && t.data {
		ends = append(ends, at)
	}
	return ends
}
