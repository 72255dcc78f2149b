package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/gomoku-arena/gomoku/engine"
)

// Limits of client messages (docs/protocol.md, section 5).
const (
	// MaxMessageBytes is the largest client frame Decode accepts.
	MaxMessageBytes = 4096
	// MaxIDLen bounds a client message id.
	MaxIDLen = 64
	// MaxChatRunes bounds a chat text after trimming.
	MaxChatRunes = 300
	// ChatPlayers and ChatSpectators are the chat channels (the chat event's "channel"):
	// lines of the current game's players, and of anyone else.
	ChatPlayers    = "players"
	ChatSpectators = "spectators"
	// MaxTokenLen bounds a hello's token (tokens are 32 characters).
	MaxTokenLen = 256
	// MaxPly is the largest ply a move may name: the stones on a full board of the
	// largest size. A larger one cannot be current in any room.
	MaxPly = engine.MaxSize * engine.MaxSize
)

// Client → server message types.
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
	TypeChoose          = "choose"
)

// Opening choices (the choose message's choice).
const (
	ChoiceBlack  = "black"  // play black
	ChoiceWhite  = "white"  // play white
	ChoicePlace2 = "place2" // swap2: place two more stones and hand the choice back
)

// clientTypes lists every client message type.
var clientTypes = map[string]bool{
	TypeHello: true, TypeSit: true, TypeMove: true, TypeResign: true,
	TypeDrawOffer: true, TypeDrawAccept: true, TypeDrawDecline: true,
	TypeTakebackRequest: true, TypeTakebackAccept: true, TypeTakebackDecline: true,
	TypeRematch: true, TypeAbort: true, TypeClaimVictory: true, TypeChat: true,
	TypeHint: true, TypePing: true, TypeChoose: true,
}

// IsRoomCommand reports whether a client message of type typ is a command for the room
// (everything but hello and ping, which the connection answers itself).
func IsRoomCommand(typ string) bool { return clientTypes[typ] && typ != TypeHello && typ != TypePing }

// ClientMsg is one client → server message. Decode fills only the fields of its type;
// Ply is a pointer because a move must name it (0 is a valid ply).
type ClientMsg struct {
	Type    string `json:"type"`
	ID      string `json:"id,omitempty"`
	Token   string `json:"token,omitempty"`
	LastSeq uint64 `json:"last_seq,omitempty"`
	Color   string `json:"color,omitempty"`
	Ply     *int   `json:"ply,omitempty"`
	Point   string `json:"point,omitempty"`
	Text    string `json:"text,omitempty"`
	Choice  string `json:"choice,omitempty"`
}

// Decode parses and validates one client frame; a refusal is an *Error with a stable
// code. It does not know the room, so it does not check points against the board. The
// returned ID is set whenever the frame had a readable id, so that errors can echo it.
// Points are lower-cased and chat text trimmed.
func Decode(data []byte) (ClientMsg, error) {
	var m ClientMsg
	if err := unmarshalFrame(data, &m, &m.ID, &m.Type); err != nil {
		return m, err
	}
	if !clientTypes[m.Type] {
		return m, Errorf(CodeUnknownType, "unknown message type %q", Truncate(m.Type, 32))
	}
	switch m.Type {
	case TypeHello:
		if len(m.Token) > MaxTokenLen {
			return m, Errorf(CodeUnauthorized, "token too long")
		}
	case TypeSit:
		if m.Color != "black" && m.Color != "white" {
			return m, Errorf(CodeBadRequest, `sit needs "color": "black" or "white"`)
		}
	case TypeMove:
		if m.Ply == nil || *m.Ply < 0 || *m.Ply > MaxPly {
			return m, Errorf(CodeBadRequest, `move needs "ply": the 0-based number of stones on the board`)
		}
		// An empty or overlong point names no point of any board: off_board, the code
		// of every unreadable point (the room refuses "z99" the same way).
		if m.Point == "" || len(m.Point) > 4 {
			return m, Errorf(CodeOffBoard, `move needs "point" on the board, like "h8"`)
		}
		m.Point = strings.ToLower(m.Point)
	case TypeChoose:
		if m.Choice != ChoiceBlack && m.Choice != ChoiceWhite && m.Choice != ChoicePlace2 {
			return m, Errorf(CodeBadRequest, `choose needs "choice": "black", "white" or "place2"`)
		}
	case TypeChat:
		m.Text = strings.TrimSpace(m.Text)
		if m.Text == "" {
			return m, Errorf(CodeBadRequest, "empty chat message")
		}
		if utf8.RuneCountInString(m.Text) > MaxChatRunes {
			return m, Errorf(CodeTooLarge, "chat message longer than %d characters", MaxChatRunes)
		}
	}
	return m, nil
}

// unmarshalFrame is the part of decoding every client frame shares, whatever the
// endpoint: size, UTF-8, a JSON object, an id within MaxIDLen (*id is kept for the
// error reply when it can be read) and a type. dst is reset on failure.
func unmarshalFrame[T any](data []byte, dst *T, id, typ *string) error {
	if len(data) > MaxMessageBytes {
		return Errorf(CodeTooLarge, "frame larger than %d bytes", MaxMessageBytes)
	}
	if !utf8.Valid(data) {
		return Errorf(CodeBadJSON, "frame is not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Errorf(CodeBadJSON, "frame is not a JSON object")
	}
	if err := json.Unmarshal(trimmed, dst); err != nil {
		var probe struct {
			ID string `json:"id"`
		}
		var zero T
		*dst = zero
		if json.Unmarshal(trimmed, &probe) == nil && len(probe.ID) <= MaxIDLen {
			*id = probe.ID
		}
		return Errorf(CodeBadJSON, "malformed message: %s", jsonErrText(err))
	}
	if len(*id) > MaxIDLen {
		*id = ""
		return Errorf(CodeBadRequest, "id longer than %d characters", MaxIDLen)
	}
	if *typ == "" {
		return Errorf(CodeBadRequest, "message without a type")
	}
	return nil
}

// jsonErrText says what is wrong with a frame without echoing it.
func jsonErrText(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return "syntax error"
	case errors.As(err, &te):
		return "field " + te.Field + " has the wrong type"
	}
	return "invalid JSON"
}

// Truncate shortens s to at most n bytes without splitting a character (for echoing
// client input in messages).
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
