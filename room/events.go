package room

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// EventKind is the kind of a persisted room event (docs/protocol.md, "Event kinds").
type EventKind string

// Persisted event kinds.
const (
	EvCreated           EventKind = "created"            // Room, Settings
	EvSeated            EventKind = "seated"             // Color, Player
	EvLeft              EventKind = "left"               // Color, Player: a seat was vacated
	EvStarted           EventKind = "started"            // Clock, OpeningStones
	EvMove              EventKind = "move"               // Color, Point, Ply, ClockMS, Clock, Forbidden
	EvDrawOffered       EventKind = "draw_offered"       // Color
	EvDrawDeclined      EventKind = "draw_declined"      // Color (who declined)
	EvTakebackRequested EventKind = "takeback_requested" // Color
	EvTakebackDeclined  EventKind = "takeback_declined"  // Color (who declined)
	EvTakeback          EventKind = "takeback"           // Color (requester), Plies, Clock, Forbidden
	EvChat              EventKind = "chat"               // Channel, Player (author), Color (a player's seat), Text
	EvGameOver          EventKind = "game_over"          // Result, Reason, Line, Clock
	EvRematchOffered    EventKind = "rematch_offered"    // Color
	EvRematch           EventKind = "rematch"            // Game (new number), Clock, KeepSeats, OpeningStones
	EvOpeningChoice     EventKind = "opening_choice"     // Color (chooser's seat), Choice, Opening, ClockMS, Clock
	EvColors            EventKind = "colors"             // Swap, Clock: the opening assigned the colours
	EvRating            EventKind = "rating"             // Game (the rated game), Rating: its rating change (rated.go)
)

// Game results and end reasons (game_over event).
const (
	ResultBlack   = "black"
	ResultWhite   = "white"
	ResultDraw    = "draw"
	ResultAborted = "aborted"

	ReasonFive       = "five"
	ReasonResign     = "resign"
	ReasonTimeout    = "timeout"
	ReasonDrawAgreed = "draw_agreed"
	ReasonBoardFull  = "board_full"
	// ReasonNoLegalMove ends a renju game in a draw when black, to move, has only
	// forbidden points left.
	ReasonNoLegalMove = "no_legal_move"
	ReasonAbandoned   = "abandoned"
	ReasonAborted     = "aborted"
	ReasonForfeit     = "forfeit"
	// ReasonFirstMove: a side did not make its first move in time (result aborted).
	ReasonFirstMove = "first_move_timeout"
)

// Chat channels (chat event): the seated players' chat and the spectators' chat.
const (
	ChannelPlayers    = protocol.ChatPlayers
	ChannelSpectators = protocol.ChatSpectators
)

// Clocks are both sides' remaining times in milliseconds.
type Clocks struct {
	BlackMS int64 `json:"black_ms"`
	WhiteMS int64 `json:"white_ms"`
}

// Event is a persisted room event. Seq is contiguous from 1 per room; At is the server
// time in Unix milliseconds; Game is the game number (1, then +1 per rematch). The
// other fields depend on Kind (see the constants). Events are plain JSON values: the
// event log alone rebuilds the room (Replay).
type Event struct {
	Seq      uint64    `json:"seq"`
	Kind     EventKind `json:"kind"`
	At       int64     `json:"at"`
	Game     int       `json:"game"`
	Room     string    `json:"room,omitempty"` // created: the room id
	Settings *Settings `json:"settings,omitempty"`
	Color    string    `json:"color,omitempty"`
	Player   *Player   `json:"player,omitempty"`
	Point    string    `json:"point,omitempty"`
	Ply      int       `json:"ply"`
	ClockMS  int64     `json:"clock_ms,omitempty"`
	Plies    int       `json:"plies,omitempty"`
	// Name is the author of a spectator's chat line in logs written before chat events
	// carried Player and Channel; new events leave it empty.
	Name    string   `json:"name,omitempty"`
	Channel string   `json:"channel,omitempty"` // chat: ChannelPlayers or ChannelSpectators
	Text    string   `json:"text,omitempty"`
	Result  string   `json:"result,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	Line    []string `json:"line,omitempty"`
	Clock   *Clocks  `json:"clock,omitempty"`
	// Opening (move, opening_choice) is the opening step after the event while an
	// opening runs (place3, choose, place2, choose2); empty once the colours are set.
	Opening string `json:"opening,omitempty"`
	Choice  string `json:"choice,omitempty"` // opening_choice: black, white or place2
	Swap    bool   `json:"swap,omitempty"`   // colors: the two seats changed colour
	// KeepSeats (rematch): the seats keep their colours, because the last game's
	// opening swapped them; the players still change roles (who proposes).
	KeepSeats bool `json:"keep_seats,omitempty"`
	// OpeningStones (started, rematch) lists the stones the game starts from, in order
	// (an AI vs AI game's balanced opening); they count as plies but belong to no seat.
	OpeningStones []string `json:"opening_stones,omitempty"`
	// Forbidden (move, takeback) lists black's renju forbidden points in the position
	// after the event (State.Forbidden); empty when none apply.
	Forbidden []ForbiddenPoint `json:"forbidden,omitempty"`
	// Rating (rating) is the rating change of game Game.
	Rating *RatingChange `json:"rating,omitempty"`
}

// Time returns At as a time.Time.
func (e Event) Time() time.Time { return time.UnixMilli(e.At).UTC() }

// clone returns a deep copy of e.
func (e Event) clone() Event {
	if e.Settings != nil {
		s := *e.Settings
		e.Settings = &s
	}
	if e.Player != nil {
		p := *e.Player
		e.Player = &p
	}
	if e.Clock != nil {
		c := *e.Clock
		e.Clock = &c
	}
	if e.Rating != nil {
		r := *e.Rating
		e.Rating = &r
	}
	e.Line = append([]string(nil), e.Line...)
	e.OpeningStones = append([]string(nil), e.OpeningStones...)
	e.Forbidden = append([]ForbiddenPoint(nil), e.Forbidden...)
	return e
}

// MaxEventBytes bounds an encoded event accepted by DecodeEvent.
const MaxEventBytes = 16 << 10

// EncodeEvent returns the JSON encoding of e.
func EncodeEvent(e Event) ([]byte, error) { return json.Marshal(e) }

// DecodeEvent parses one stored event (from the store or another node's pub/sub
// message). Fields it does not know are ignored: during a rolling upgrade a newer node
// may store events with a field this one does not have yet, and they must still replay
// and replicate. An unknown kind is an error (it cannot be folded), and so are
// malformed JSON and trailing data. Client input is not decoded here (protocol.Decode).
func DecodeEvent(data []byte) (Event, error) {
	var e Event
	if len(data) > MaxEventBytes {
		return e, fmt.Errorf("%w: event too large", ErrBadJSON)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&e); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadJSON, err)
	}
	if dec.More() {
		return Event{}, fmt.Errorf("%w: trailing data", ErrBadJSON)
	}
	if !knownEvent[e.Kind] {
		return Event{}, fmt.Errorf("%w: event kind %q", ErrUnknownType, e.Kind)
	}
	return e, nil
}

var knownEvent = map[EventKind]bool{
	EvCreated: true, EvSeated: true, EvLeft: true, EvStarted: true, EvMove: true,
	EvDrawOffered: true, EvDrawDeclined: true, EvTakebackRequested: true,
	EvTakebackDeclined: true, EvTakeback: true, EvChat: true, EvGameOver: true,
	EvRematchOffered: true, EvRematch: true, EvOpeningChoice: true, EvColors: true, EvRating: true,
}

// AIStatus is the state of an AI seat's search.
type AIStatus string

// AI statuses.
const (
	AIQueued   AIStatus = "queued"   // waiting for a scheduler slot
	AIThinking AIStatus = "thinking" // searching
)

// AIProgress is an ephemeral AI progress report (protocol message "ai").
type AIProgress struct {
	Color     string   `json:"color"`
	Status    AIStatus `json:"status"`
	Depth     int      `json:"depth"`
	SelDepth  int      `json:"seldepth"`
	Score     int      `json:"score"`
	Mate      int      `json:"mate"` // plies to mate (+ the AI wins), 0 when none
	Nodes     uint64   `json:"nodes"`
	NPS       uint64   `json:"nps"`
	PV        []string `json:"pv"`
	ElapsedMS int64    `json:"elapsed_ms"`
	BudgetMS  int64    `json:"budget_ms"`
	Ply       int      `json:"ply"` // the ply the search is for
}

// SeatPresence is one seat's connection state. Since is the Unix ms time of the last
// change; GraceMS the abandonment grace that applies while the seat is gone (the
// countdown ends at Since+GraceMS).
type SeatPresence struct {
	Connected bool  `json:"connected"`
	Since     int64 `json:"since"`
	GraceMS   int64 `json:"grace_ms"`
	Claimable bool  `json:"claimable,omitempty"` // grace has run out: the opponent may claim
}

// Presence is an ephemeral presence report (protocol message "presence").
type Presence struct {
	Black      SeatPresence `json:"black"`
	White      SeatPresence `json:"white"`
	Spectators int          `json:"spectators"`
}

// Hint is the answer to a hint command.
type Hint struct {
	Point string `json:"point"`
	Score int    `json:"score"`
}

// Update is what a subscriber receives: exactly one of its pointer fields is set.
// Event is persisted and numbered; AI and Presence are ephemeral (no seq, never
// stored, may be dropped). Snapshot starts a subscription when the missed events are
// not replayed (Resync: the client asked for a seq that is gone or unknown).
type Update struct {
	Event    *Event
	AI       *AIProgress
	Presence *Presence
	Snapshot *Snapshot
	Resync   bool

	// frames is the update's wire encoding, set by the room before it queues the
	// update (Frames).
	frames [][]byte
}

// Ephemeral reports whether u is an ephemeral update (AI progress, presence).
func (u Update) Ephemeral() bool { return u.AI != nil || u.Presence != nil }

// Frames returns the protocol frames that carry u to a client. The room encodes each
// update once, before it queues it for its subscribers (Encoded): a broadcast costs one
// encoding however many connections receive it, and a connection's writer only writes
// bytes, so its stack stays small (docs/performance.md, idle memory). An update that
// was not made by Encoded is encoded on each call.
func (u *Update) Frames() [][]byte {
	if u.frames != nil {
		return u.frames
	}
	return u.encode()
}

// Pushed returns an update that carries frames encoded elsewhere (the lobby's pushes
// reach a connection's writer the same way as a room's updates).
func Pushed(frames ...[]byte) *Update { return &Update{frames: frames} }

// Encoded returns a copy of u with its frames encoded, as the room queues it.
func (u Update) Encoded() *Update {
	u.frames = u.encode()
	return &u
}

// encode returns u's frames (protocol: event, resync + snapshot, ai, presence).
func (u *Update) encode() [][]byte {
	switch {
	case u.Event != nil:
		return [][]byte{protocol.Encode(protocol.EventMsg{Type: protocol.TypeEvent, Seq: u.Event.Seq, Event: u.Event})}
	case u.Snapshot != nil:
		f := protocol.Encode(protocol.SnapshotMsg{Type: protocol.TypeSnapshot, Seq: u.Snapshot.Seq, Room: u.Snapshot})
		if u.Resync {
			return [][]byte{protocol.ResyncFrame, f}
		}
		return [][]byte{f}
	case u.AI != nil:
		return [][]byte{protocol.EphemeralFrame(protocol.TypeAI, "", u.AI)}
	case u.Presence != nil:
		return [][]byte{protocol.EphemeralFrame(protocol.TypePresence, "", u.Presence)}
	}
	return nil
}
