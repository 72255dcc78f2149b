package room

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// CommandKind is a command's type. Client kinds have the protocol's names; internal
// kinds are issued by the room actor itself and refused by DecodeCommand.
type CommandKind string

// Client command kinds (docs/protocol.md, "Client → server").
const (
	CmdSit             CommandKind = "sit"
	CmdLeave           CommandKind = "leave"
	CmdMove            CommandKind = "move"
	CmdResign          CommandKind = "resign"
	CmdDrawOffer       CommandKind = "draw_offer"
	CmdDrawAccept      CommandKind = "draw_accept"
	CmdDrawDecline     CommandKind = "draw_decline"
	CmdTakebackRequest CommandKind = "takeback_request"
	CmdTakebackAccept  CommandKind = "takeback_accept"
	CmdTakebackDecline CommandKind = "takeback_decline"
	CmdRematch         CommandKind = "rematch"
	CmdAbort           CommandKind = "abort"
	CmdClaimVictory    CommandKind = "claim_victory"
	CmdFlag            CommandKind = "flag"
	CmdChat            CommandKind = "chat"
	CmdHint            CommandKind = "hint" // handled by the actor (ephemeral answer), not by Apply
)

// Internal command kinds, issued by the actor.
const (
	CmdAIMove    CommandKind = "ai_move"    // an AI seat's move: Color, Point, Ply, Hash
	CmdForfeit   CommandKind = "forfeit"    // an AI seat failed: Color loses
	CmdAbandon   CommandKind = "abandon"    // a seat left before the game really started: abort
	CmdTimeout   CommandKind = "timeout"    // the actor's clock timer fired (same as flag)
	CmdStart     CommandKind = "start"      // start the game if every seat is filled (AI vs AI)
	CmdAutoClaim CommandKind = "auto_claim" // a human (Color) abandoned an AI game: the machine wins
)

// Command is an input to Apply. By is the authenticated player issuing it (zero for
// spectators without identity and for internal commands). The remaining fields depend
// on Kind: Color (sit; internal AI commands), Ply and Point (move), Text (chat).
type Command struct {
	Kind  CommandKind `json:"type"`
	ID    string      `json:"id,omitempty"` // client message id, echoed by the server
	By    Player      `json:"-"`
	Color string      `json:"color,omitempty"`
	Ply   int         `json:"ply"`
	Point string      `json:"point,omitempty"`
	Text  string      `json:"text,omitempty"`

	// Hash is the position hash an AI move was computed for (CmdAIMove).
	Hash uint64 `json:"-"`
	// GoneSince is when the claimer's opponent disconnected (CmdClaimVictory, CmdAbandon),
	// filled in by the actor from its presence tracking.
	GoneSince time.Time `json:"-"`
	// Grace is the abandonment grace that applies (CmdClaimVictory), filled in by the actor.
	Grace time.Duration `json:"-"`
}

var clientCommands = map[CommandKind]bool{
	CmdSit: true, CmdLeave: true, CmdMove: true, CmdResign: true, CmdDrawOffer: true,
	CmdDrawAccept: true, CmdDrawDecline: true, CmdTakebackRequest: true,
	CmdTakebackAccept: true, CmdTakebackDecline: true, CmdRematch: true, CmdAbort: true,
	CmdClaimVictory: true, CmdFlag: true, CmdChat: true, CmdHint: true,
}

// IsClientCommand reports whether k is a command a client may send.
func IsClientCommand(k CommandKind) bool { return clientCommands[k] }

// MaxCommandBytes bounds a client command frame (docs/protocol.md: 4 KiB).
const MaxCommandBytes = 4 << 10

// MaxClientIDLen bounds the client message id.
const MaxClientIDLen = 64

// DecodeCommand parses a client command frame ({"type":"move","id":"7","ply":4,"point":"h8"}).
// It refuses oversized frames, malformed JSON, unknown fields' types, internal and
// unknown kinds, and fields that cannot be valid; it does not know the room, so it
// does not check points against the board. By must be set by the caller.
func DecodeCommand(data []byte) (Command, error) {
	var c Command
	if len(data) > MaxCommandBytes {
		return c, fmt.Errorf("%w: frame over %d bytes", ErrTooLarge, MaxCommandBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&c); err != nil {
		return Command{}, fmt.Errorf("%w: %v", ErrBadJSON, err)
	}
	if dec.More() {
		return Command{}, fmt.Errorf("%w: trailing data", ErrBadJSON)
	}
	if !clientCommands[c.Kind] {
		return Command{}, fmt.Errorf("%w: %q", ErrUnknownType, truncate(string(c.Kind), 32))
	}
	if err := c.validate(); err != nil {
		return Command{}, err
	}
	return c, nil
}

// validate checks the fields that do not depend on the room.
func (c Command) validate() error {
	if len(c.ID) > MaxClientIDLen || !utf8.ValidString(c.ID) {
		return fmt.Errorf("%w: id too long", ErrBadRequest)
	}
	switch c.Kind {
	case CmdSit:
		if c.Color != "black" && c.Color != "white" {
			return fmt.Errorf("%w: color must be black or white", ErrBadRequest)
		}
	case CmdMove:
		if c.Ply < 0 || c.Ply > 400 {
			return fmt.Errorf("%w: ply out of range", ErrBadRequest)
		}
		if c.Point == "" || len(c.Point) > 4 {
			return fmt.Errorf("%w: point", ErrBadRequest)
		}
	case CmdChat:
		t := strings.TrimSpace(c.Text)
		n := utf8.RuneCountInString(t)
		if !utf8.ValidString(t) || n == 0 {
			return fmt.Errorf("%w: empty chat text", ErrBadRequest)
		}
		if n > MaxChatRunes {
			return fmt.Errorf("%w: chat text over %d characters", ErrTooLarge, MaxChatRunes)
		}
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
