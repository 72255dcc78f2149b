package protocol

import "encoding/json"

// Server → client message types.
const (
	TypeWelcome  = "welcome"
	TypeSnapshot = "snapshot"
	TypeEvent    = "event"
	TypeAck      = "ack"
	TypeError    = "error"
	TypeResync   = "resync"
	TypePong     = "pong"
	TypeAI       = "ai"
	TypePresence = "presence"
	// TypeHint (client.go) is also the type of the answer to a hint.
)

// You describes the connection's role in the welcome message.
type You struct {
	Role     string `json:"role"` // black, white or spectator
	PlayerID string `json:"player_id,omitempty"`
	Name     string `json:"name,omitempty"`
}

// Welcome is the first answer to an accepted hello.
type Welcome struct {
	Type   string `json:"type"` // TypeWelcome
	RoomID string `json:"room_id"`
	You    You    `json:"you"`
}

// Ack acknowledges a command once its events are stored; Seq is its last event's.
type Ack struct {
	Type      string `json:"type"` // TypeAck
	ID        string `json:"id"`
	Seq       uint64 `json:"seq"`
	Duplicate bool   `json:"duplicate,omitempty"`
}

// ErrorMsg refuses a message; the message changed nothing.
type ErrorMsg struct {
	Type    string `json:"type"` // TypeError
	ID      string `json:"id"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Pong answers a ping.
type Pong struct {
	Type string `json:"type"` // TypePong
	ID   string `json:"id,omitempty"`
}

// EventMsg carries one persisted event (a room.Event) with its seq.
type EventMsg struct {
	Type  string `json:"type"` // TypeEvent
	Seq   uint64 `json:"seq"`
	Event any    `json:"event"`
}

// SnapshotMsg carries a room's whole state (a room.Snapshot) as of Seq.
type SnapshotMsg struct {
	Type string `json:"type"` // TypeSnapshot
	Seq  uint64 `json:"seq"`
	Room any    `json:"room"`
}

// ResyncFrame announces that a snapshot replaces the client's state.
var ResyncFrame = []byte(`{"type":"resync"}`)

// NewWelcome, NewAck, NewError and NewPong build the frames the connection sends.
func NewWelcome(roomID string, you You) Welcome {
	return Welcome{Type: TypeWelcome, RoomID: roomID, You: you}
}

// NewAck returns the ack of command id.
func NewAck(id string, seq uint64, duplicate bool) Ack {
	return Ack{Type: TypeAck, ID: id, Seq: seq, Duplicate: duplicate}
}

// NewErrorMsg returns the error frame answering message id with e.
func NewErrorMsg(id string, e *Error) ErrorMsg {
	return ErrorMsg{Type: TypeError, ID: id, Code: e.Code, Message: e.Message}
}

// NewPong returns the answer to ping id.
func NewPong(id string) Pong { return Pong{Type: TypePong, ID: id} }

// EphemeralFrame returns the frame of an ephemeral message (TypeAI, TypePresence,
// TypeHint): "type", "ephemeral":true and, when id is set (a hint answers command id),
// "id", followed by the fields of payload, which must encode as a JSON object (a
// room.AIProgress, room.Presence or room.Hint) without those names.
func EphemeralFrame(typ, id string, payload any) []byte {
	body := Encode(payload)
	if len(body) < 2 || body[0] != '{' {
		panic("protocol: ephemeral payload is not an object: " + string(body))
	}
	head := Encode(ephemeralHead{Type: typ, Ephemeral: true, ID: id})
	out := make([]byte, 0, len(head)+len(body))
	out = append(out, head[:len(head)-1]...) // without its '}'
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...)
}

// ephemeralHead is the part of an ephemeral frame before its payload's fields.
type ephemeralHead struct {
	Type      string `json:"type"`
	Ephemeral bool   `json:"ephemeral"`
	ID        string `json:"id,omitempty"`
}

// Encode marshals a frame built by this package (they always encode).
func Encode(frame any) []byte {
	b, err := json.Marshal(frame)
	if err != nil {
		panic("protocol: encode: " + err.Error())
	}
	return b
}
