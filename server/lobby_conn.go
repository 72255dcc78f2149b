package server

import (
	"context"
	"time"

	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// lobbyRoomID is a conn's roomID on the lobby WebSocket (no room id is empty).
const lobbyRoomID = ""

// readLobby handles one frame of a lobby connection: hello (a token is optional:
// visitors watch the lists), ping, seek and cancel.
func (c *conn) readLobby(typ int, data []byte) bool {
	msg, derr := decodeText(typ, data, protocol.DecodeLobby)
	if !c.limit(msg.ID) {
		return true
	}
	if derr != nil {
		c.sendError(msg.ID, derr)
		return true
	}
	c.s.metrics.Messages.WithLabelValues("lobby_" + msg.Type).Inc()
	switch {
	case msg.Type == protocol.TypePing:
		c.enqueue(protocol.Encode(protocol.NewPong(msg.ID)))
	case msg.Type == protocol.TypeHello:
		if c.helloSeen {
			c.sendError(msg.ID, protocol.Errorf(protocol.CodeBadRequest, "hello was already accepted on this connection"))
			return true
		}
		c.lobbyHello(msg)
		if c.helloSeen {
			_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.PongWait))
		}
	case !c.helloSeen:
		c.sendError(msg.ID, protocol.Errorf(protocol.CodeHelloRequired, `send {"type":"hello"} first`))
	case c.player == nil:
		c.sendError(msg.ID, protocol.Errorf(protocol.CodeUnauthorized, "quick pairing needs a player token in hello (POST /api/players)"))
	case c.s.pairing == nil:
		c.sendError(msg.ID, protocol.Errorf(protocol.CodeUnavailable, "quick pairing is not available on this server"))
	case msg.Type == protocol.TypeSeek:
		ctx, cancel := context.WithTimeout(c.ctx, commandTimeout)
		defer cancel()
		if err := c.s.pairing.seek(ctx, c.sess.(*lobbySession), msg); err != nil {
			c.sendError(msg.ID, err)
		}
	case msg.Type == protocol.TypeCancel:
		ctx, cancel := context.WithTimeout(c.ctx, commandTimeout)
		defer cancel()
		if err := c.s.pairing.cancel(ctx, c.sess.(*lobbySession), msg.ID); err != nil {
			c.sendError(msg.ID, err)
		}
	}
	return true
}

func (c *conn) lobbyHello(msg protocol.LobbyMsg) {
	var p *Player
	if msg.Token != "" {
		ctx, cancel := context.WithTimeout(c.ctx, commandTimeout)
		defer cancel()
		var err error
		if p, err = authenticate(ctx, c.s.players, msg.Token); err != nil {
			c.sendError(msg.ID, err)
			return
		}
	}
	sess := c.s.lobby.join(p)
	c.helloSeen, c.sess, c.player = true, sess, p
	you := protocol.You{Role: "lobby"}
	if p != nil {
		you.PlayerID, you.Name = p.ID, p.Name
	}
	c.enqueueItem(&outgoing{
		frame: protocol.Encode(protocol.LobbyWelcome{Type: protocol.TypeWelcome, You: you, Clocks: pairing.Clocks}),
		join:  &attached{sess: sess, updates: sess.Updates()},
	})
}
