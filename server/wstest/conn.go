// Connections: dialling a room, the hello handshake, reconnection with failover to
// another node, and the reader that logs every frame of a connection.

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
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gorilla/websocket"
)

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
