// Messages: writing frames on the current connection, reading the log one message at a
// time, and commands that wait for their ack or error.

package wstest

import (
	"context"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gorilla/websocket"
)

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
