package wstest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// LobbyURL returns the lobby WebSocket URL on base (http://host:port).
func LobbyURL(base string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "/ws/lobby"
}

// DialLobby opens the lobby on base, sends hello with token ("" for a visitor) and
// waits for the welcome. The client is read with Next or NextOf and written with Send
// or Do (a seek's answer is seeking or error, a cancel's seek_ended or error).
func DialLobby(ctx context.Context, base, token string) (*Client, error) {
	ws, err := dial(ctx, LobbyURL(base), nil)
	if err != nil {
		return nil, err
	}
	first, data, err := handshake(ws, protocol.LobbyMsg{Type: protocol.TypeHello, Token: token})
	if err != nil {
		return nil, err
	}
	c := NewClient(base, "", token)
	c.welcomed(ws, first, data)
	return c, nil
}

// NextOf returns the next message of one of types, skipping the others.
func (c *Client) NextOf(ctx context.Context, types ...string) (Msg, error) {
	for {
		m, err := c.Next(ctx)
		if err != nil {
			return m, err
		}
		if slices.Contains(types, m.Type) {
			return m, nil
		}
	}
}

// Seek asks for a game in a pool and returns the seeking answer (an error reply is
// returned as an error).
func (c *Client) Seek(ctx context.Context, id, rule, clock string, rated bool) (Msg, error) {
	m, err := c.Do(ctx, map[string]any{"type": protocol.TypeSeek, "id": id, "rule": rule, "clock": clock, "rated": rated})
	if err == nil && m.Type != protocol.TypeSeeking {
		err = fmt.Errorf("seek: %s %s: %s", m.Type, m.Code, m.Message)
	}
	return m, err
}
