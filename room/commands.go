package room

import (
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// CommandKind is a command's type. Client kinds are the protocol's message types;
// the other kinds are issued by in-process callers or by the room actor itself, and
// never come from the wire.
type CommandKind string

// Client command kinds (docs/protocol.md, "Client → server").
const (
	CmdSit             CommandKind = protocol.TypeSit
	CmdMove            CommandKind = protocol.TypeMove
	CmdResign          CommandKind = protocol.TypeResign
	CmdDrawOffer       CommandKind = protocol.TypeDrawOffer
	CmdDrawAccept      CommandKind = protocol.TypeDrawAccept
	CmdDrawDecline     CommandKind = protocol.TypeDrawDecline
	CmdTakebackRequest CommandKind = protocol.TypeTakebackRequest
	CmdTakebackAccept  CommandKind = protocol.TypeTakebackAccept
	CmdTakebackDecline CommandKind = protocol.TypeTakebackDecline
	CmdRematch         CommandKind = protocol.TypeRematch
	CmdAbort           CommandKind = protocol.TypeAbort
	CmdClaimVictory    CommandKind = protocol.TypeClaimVictory
	CmdChat            CommandKind = protocol.TypeChat
	CmdHint            CommandKind = protocol.TypeHint // handled by the actor (ephemeral answer), not by Apply
	CmdChoose          CommandKind = protocol.TypeChoose
)

// Commands of in-process callers (Do), not on the wire.
const (
	CmdLeave CommandKind = "leave" // vacate a seat after the game ended
	CmdFlag  CommandKind = "flag"  // claim the win on time (same as the actor's timeout)
)

// Internal command kinds, issued by the actor.
const (
	CmdAIMove    CommandKind = "ai_move"    // an AI seat's move: Color, Point, Ply, Hash
	CmdForfeit   CommandKind = "forfeit"    // an AI seat failed: Color loses
	CmdAbandon   CommandKind = "abandon"    // a seat left before the game really started: abort
	CmdTimeout   CommandKind = "timeout"    // the actor's clock timer fired (same as flag)
	CmdStart     CommandKind = "start"      // start the game if every seat is filled (AI vs AI)
	CmdAutoClaim CommandKind = "auto_claim" // a human (Color) abandoned an AI game: the machine wins
	CmdAIOpening CommandKind = "ai_opening" // a machine seat's opening action: Color, Ply, Hash, Step, Points or Choice
	CmdRating    CommandKind = "rating"     // the ledger recorded game Game of a rated room: Rating
)

// Command is an input to Apply. By is the authenticated player issuing it (zero for
// spectators without identity and for internal commands). The remaining fields depend
// on Kind: Color (sit; internal AI commands), Ply and Point (move), Text (chat).
type Command struct {
	Kind  CommandKind
	ID    string // client message id, echoed by the server
	By    Player
	Color string
	Ply   int
	Point string
	Text  string
	// Choice is an opening choice (choose; CmdAIOpening): black, white or place2.
	Choice string
	// Step and Points are a machine seat's opening action (CmdAIOpening): the step it
	// was computed for and the stones it places.
	Step   string
	Points []string

	// Hash is the position hash an AI move was computed for (CmdAIMove).
	Hash uint64
	// GoneSince is when the claimer's opponent disconnected (CmdClaimVictory, CmdAbandon),
	// filled in by the actor from its presence tracking.
	GoneSince time.Time
	// Grace is the abandonment grace that applies (CmdClaimVictory), filled in by the actor.
	Grace time.Duration
	// Game and Rating are a rated game's number and rating change (CmdRating).
	Game   int
	Rating *RatingChange
}

// ClientCommand returns the room command of a decoded client message (a room command:
// protocol.IsRoomCommand). The caller sets By from the connection's identity.
func ClientCommand(m protocol.ClientMsg) Command {
	c := Command{Kind: CommandKind(m.Type), ID: m.ID, Color: m.Color, Point: m.Point, Text: m.Text, Choice: m.Choice}
	if m.Ply != nil {
		c.Ply = *m.Ply
	}
	return c
}
