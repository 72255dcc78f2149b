package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Wire limits (docs/protocol.md).
const (
	// maxMessageSize is the largest client frame the server reads; larger frames close the
	// connection with 1009 after a too_large error.
	maxMessageSize = 4096
	maxClientIDLen = 64
	maxChatRunes   = 300
	maxTokenLen    = 256
)

// Client message types.
const (
	TypeHello           = "hello"
	TypeSit             = "sit"
	TypeMove            = "move"
	TypeResign          = "resign"
	TypeDrawOffer       = "draw_offer"
	TypeDrawAccept      = "draw_accept"
	TypeDrawDecline     = "draw_decline"
	TypeTakebackRequest = "takeback_request"
	TypeTakebackAccept  = "takeback_accept"
	TypeTakebackDecline = "takeback_decline"
	TypeRematch         = "rematch"
	TypeAbort           = "abort"
	TypeClaimVictory    = "claim_victory"
	TypeChat            = "chat"
	TypeHint            = "hint"
	TypePing            = "ping"
)

// clientTypes lists every client message type; the bool says whether it changes the room
// (and so needs a seat or, for chat, at least a hello).
var clientTypes = map[string]bool{
	TypeHello: false, TypeSit: true, TypeMove: true, TypeResign: true,
	TypeDrawOffer: true, TypeDrawAccept: true, TypeDrawDecline: true,
	TypeTakebackRequest: true, TypeTakebackAccept: true, TypeTakebackDecline: true,
	TypeRematch: true, TypeAbort: true, TypeClaimVictory: true, TypeChat: true,
	TypeHint: true, TypePing: false,
}

// ClientMsg is one decoded, validated client → server message. Fields not used by its
// type are zero.
type ClientMsg struct {
	Type    string `json:"type"`
	ID      string `json:"id,omitempty"`
	Token   string `json:"token,omitempty"`
	LastSeq uint64 `json:"last_seq,omitempty"`
	Color   string `json:"color,omitempty"`
	Ply     *int   `json:"ply,omitempty"`
	Point   string `json:"point,omitempty"`
	Text    string `json:"text,omitempty"`
}

// DecodeClient parses and validates one client frame. The returned ID is set whenever the
// frame had a readable id, so that errors can echo it.
func DecodeClient(data []byte) (ClientMsg, *Error) {
	var m ClientMsg
	if len(data) > maxMessageSize {
		return m, Errorf(CodeTooLarge, "frame larger than %d bytes", maxMessageSize)
	}
	if !utf8.Valid(data) {
		return m, Errorf(CodeBadJSON, "frame is not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return m, Errorf(CodeBadJSON, "frame is not a JSON object")
	}
	if err := json.Unmarshal(trimmed, &m); err != nil {
		// Try to keep the id for the error reply.
		var probe struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(trimmed, &probe) == nil && len(probe.ID) <= maxClientIDLen {
			m = ClientMsg{ID: probe.ID}
		} else {
			m = ClientMsg{}
		}
		return m, Errorf(CodeBadJSON, "malformed message: %s", jsonErrText(err))
	}
	if len(m.ID) > maxClientIDLen {
		m.ID = ""
		return m, Errorf(CodeBadRequest, "id longer than %d characters", maxClientIDLen)
	}
	if m.Type == "" {
		return m, Errorf(CodeBadRequest, "message without a type")
	}
	if _, ok := clientTypes[m.Type]; !ok {
		return m, Errorf(CodeUnknownType, "unknown message type %q", truncate(m.Type, 32))
	}
	switch m.Type {
	case TypeHello:
		if len(m.Token) > maxTokenLen {
			return m, Errorf(CodeUnauthorized, "token too long")
		}
	case TypeSit:
		if m.Color != "black" && m.Color != "white" {
			return m, Errorf(CodeBadRequest, `sit needs "color": "black" or "white"`)
		}
	case TypeMove:
		if m.Ply == nil || *m.Ply < 0 || *m.Ply > 1000 {
			return m, Errorf(CodeBadRequest, `move needs "ply": the 0-based number of stones on the board`)
		}
		if m.Point == "" || len(m.Point) > 4 {
			return m, Errorf(CodeBadRequest, `move needs "point" like "h8"`)
		}
		m.Point = strings.ToLower(m.Point)
	case TypeChat:
		m.Text = strings.TrimSpace(m.Text)
		if m.Text == "" {
			return m, Errorf(CodeBadRequest, "empty chat message")
		}
		if utf8.RuneCountInString(m.Text) > maxChatRunes {
			return m, Errorf(CodeTooLarge, "chat message longer than %d characters", maxChatRunes)
		}
	}
	return m, nil
}

func jsonErrText(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case asErr(err, &se):
		return "syntax error"
	case asErr(err, &te):
		return "field " + te.Field + " has the wrong type"
	}
	return "invalid JSON"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Server → client message types.
const (
	TypeWelcome  = "welcome"
	TypeSnapshot = "snapshot"
	TypeEvent    = "event"
	TypeAck      = "ack"
	TypeError    = "error"
	TypeResync   = "resync"
	TypePong     = "pong"
)

// You describes the connection's role in the welcome message.
type You struct {
	Role     string `json:"role"` // black, white or spectator
	PlayerID string `json:"player_id,omitempty"`
	Name     string `json:"name,omitempty"`
}

type welcomeMsg struct {
	Type   string `json:"type"`
	RoomID string `json:"room_id"`
	You    You    `json:"you"`
}

type ackMsg struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Seq       uint64 `json:"seq"`
	Duplicate bool   `json:"duplicate,omitempty"`
}

type errorMsg struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

type pongMsg struct {
	Type string `json:"type"`
	ID   string `json:"id,omitempty"`
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only our own message structs are marshalled here; they always encode.
		panic("server: encode: " + err.Error())
	}
	return b
}
