package protocol

// The lobby WebSocket (GET /ws/lobby, docs/protocol.md section 8): the lobby's lists
// pushed as they change, and quick pairing (seek, cancel; seeking, paired, seek_ended).

// Lobby client → server message types (hello and ping as on a room connection).
const (
	TypeSeek   = "seek"
	TypeCancel = "cancel"
)

// Lobby server → client message types (welcome, error and pong as on a room connection).
const (
	TypeLobby     = "lobby"      // the open and live lists
	TypeSeeking   = "seeking"    // a seek is stored; the player waits
	TypePaired    = "paired"     // matched: the room to go to
	TypeSeekEnded = "seek_ended" // the seek ended without a match (reason)
)

// Why a seek ended without a match (SeekEnded.Reason).
const (
	SeekCancelled = "cancelled" // the player cancelled it
	SeekReplaced  = "replaced"  // the player seeks from another connection now
	SeekExpired   = "expired"   // it ran out (the server lost it, e.g. Redis was away)
	// SeekMatchFailed: an opponent was found but the room could not be set up (both
	// players are told, nobody is seated); the player may seek again.
	SeekMatchFailed = "match_failed"
)

var lobbyTypes = map[string]bool{TypeHello: true, TypePing: true, TypeSeek: true, TypeCancel: true}

// LobbyMsg is one client → server message of the lobby connection.
type LobbyMsg struct {
	Type  string `json:"type"`
	ID    string `json:"id,omitempty"`
	Token string `json:"token,omitempty"`
	// seek: the pool (rule, clock, rated); the server validates the pool's names.
	Rule  string `json:"rule,omitempty"`
	Clock string `json:"clock,omitempty"`
	Rated bool   `json:"rated,omitempty"`
}

// DecodeLobby parses and validates one frame of a lobby connection, with the limits
// and codes of Decode. A seek's rule defaults to freestyle; its clock is required.
func DecodeLobby(data []byte) (LobbyMsg, error) {
	var m LobbyMsg
	if err := unmarshalFrame(data, &m, &m.ID, &m.Type); err != nil {
		return m, err
	}
	if !lobbyTypes[m.Type] {
		return m, Errorf(CodeUnknownType, "unknown lobby message type %q", Truncate(m.Type, 32))
	}
	switch m.Type {
	case TypeHello:
		if len(m.Token) > MaxTokenLen {
			return m, Errorf(CodeUnauthorized, "token too long")
		}
	case TypeSeek:
		if m.Rule == "" {
			m.Rule = "freestyle"
		}
		if m.Clock == "" || len(m.Clock) > 8 || len(m.Rule) > 16 {
			return m, Errorf(CodeBadRequest, `seek needs "clock", like "3+2", and an optional "rule"`)
		}
	}
	return m, nil
}

// LobbyWelcome answers a lobby hello. You is empty for a visitor without a token
// (who sees the lists but cannot seek). Clocks lists the clocks one may seek.
type LobbyWelcome struct {
	Type   string   `json:"type"` // TypeWelcome
	You    You      `json:"you"`
	Clocks []string `json:"clocks"`
}

// LobbyLists carries the lobby's lists (room summaries, as GET /api/rooms).
type LobbyLists struct {
	Type string `json:"type"` // TypeLobby
	Open []any  `json:"open"`
	Live []any  `json:"live"`
}

// Seeking says the player's seek is stored: Pool, the player's Rating in it, when the
// wait began (SinceMS, Unix ms), the current rating Range (±) and how it widens, and
// AILevel, the AI level to offer after a wait ("play the AI instead").
type Seeking struct {
	Type      string  `json:"type"` // TypeSeeking
	ID        string  `json:"id,omitempty"`
	Pool      string  `json:"pool"`
	Rating    float64 `json:"rating"`
	SinceMS   int64   `json:"since_ms"`
	Range     float64 `json:"range"`
	PerSecond float64 `json:"range_per_second"`
	MaxRange  float64 `json:"range_max"`
	AILevel   string  `json:"ai_level"`
}

// Opponent is the other player of a match.
type Opponent struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Rating float64 `json:"rating"`
}

// Paired tells a seeker its game: the room (seated at Color already) and the opponent.
type Paired struct {
	Type     string   `json:"type"` // TypePaired
	RoomID   string   `json:"room_id"`
	Pool     string   `json:"pool"`
	Color    string   `json:"color"`
	Opponent Opponent `json:"opponent"`
}

// SeekEnded says the seek ended without a game (Reason: SeekCancelled, ...); ID
// answers the cancel that ended it.
type SeekEnded struct {
	Type   string `json:"type"` // TypeSeekEnded
	ID     string `json:"id,omitempty"`
	Reason string `json:"reason"`
}
