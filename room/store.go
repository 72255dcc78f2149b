package room

import (
	"context"
	"errors"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Store errors. Implementations return (or wrap) these. A client that meets one is
// told conflict or unavailable.
var (
	ErrSeqConflict      = newError(protocol.CodeConflict, "store: sequence conflict")
	ErrStoreUnavailable = newError(protocol.CodeUnavailable, "store: unavailable")
	ErrNotFound         = errors.New("room: store: no such room")
	ErrExists           = errors.New("room: store: room exists")
)

// Store is a room's durable event log. It is shaped after a Redis log: one atomic,
// seq-checked append per command that also writes the room's lobby summary.
//
// Create stores a new room with its first event (seq 1); ErrExists if the id is taken.
// Append stores events numbered expectedSeq+1, … atomically, only if the room's last
// seq is expectedSeq (else ErrSeqConflict, nothing written), and replaces the room's
// summary. Events returns the stored events with Seq >= fromSeq in order (fromSeq 0 or
// 1: the whole log); ErrNotFound for an unknown room. Failures of the backend are
// reported as ErrStoreUnavailable (wrapped); after such a failure, Append has either
// written everything or nothing.
type Store interface {
	Create(ctx context.Context, id string, first Event, sum Summary) error
	Append(ctx context.Context, id string, expectedSeq uint64, events []Event, sum Summary) error
	Events(ctx context.Context, id string, fromSeq uint64) ([]Event, error)
}

// ListQuery selects lobby entries: Status "open", "live" or "finished" ("" all), public
// rooms only unless All, at most Limit (default 50), after Cursor (from a previous List).
type ListQuery struct {
	Status string
	All    bool
	Cursor string
	Limit  int
}

// AliveStore is implemented by stores that know when the node running a room last
// showed it was alive (roomstore: every lease renewal, and the hand-over at a graceful
// shutdown). A room restored active (no other node runs it) charges the side to move
// for its turn up to that time and not for the downtime after it (State.Resume); without
// it the turn restarts.
type AliveStore interface {
	AliveAt(ctx context.Context, id string) (time.Time, error)
}

// CreditStore is implemented by stores that keep a room's turn credit: the downtime a
// restore did not charge to the turn in play (State.Resume). Every node that loads the
// room later applies it (State.Credited), so a turn is charged the same whichever node
// runs it, through any later hand-over.
type CreditStore interface {
	TurnCredit(ctx context.Context, id string) (TurnCredit, error)
	// SetTurnCredit stores c unless events were appended after seq.
	SetTurnCredit(ctx context.Context, id string, seq uint64, c TurnCredit) error
}

// TurnCredit is the time (MS) the turn that started at TurnStartMS (Unix ms, as its
// events say) is not charged for.
type TurnCredit struct {
	TurnStartMS int64 `json:"turn_start_ms"`
	MS          int64 `json:"ms"`
}

// Lister is implemented by stores that keep lobby indexes.
type Lister interface {
	List(ctx context.Context, q ListQuery) (rooms []Summary, next string, err error)
}
