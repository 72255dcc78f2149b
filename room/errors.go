package room

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// newError declares a room sentinel: a protocol error with a stable code, compared by
// identity (two sentinels sharing a code are different errors).
func newError(code, msg string) error { return protocol.NewError("room", code, msg) }

// Sentinel errors, each with its stable protocol code (protocol.Code reads it).
var (
	ErrBadRequest     = newError(protocol.CodeBadRequest, "bad request")
	ErrBadJSON        = newError(protocol.CodeBadJSON, "malformed JSON")
	ErrUnknownType    = newError(protocol.CodeUnknownType, "unknown command type")
	ErrUnauthorized   = newError(protocol.CodeUnauthorized, "unauthorized")
	ErrNotAPlayer     = newError(protocol.CodeNotAPlayer, "not a player of this game")
	ErrNotYourTurn    = newError(protocol.CodeNotYourTurn, "not your turn")
	ErrOffBoard       = newError(protocol.CodeOffBoard, "point is off the board")
	ErrOccupied       = newError(protocol.CodeOccupied, "point is occupied")
	ErrForbidden      = newError(protocol.CodeForbidden, "forbidden point")
	ErrStalePly       = newError(protocol.CodeStalePly, "stale ply: the position has changed")
	ErrGameOver       = newError(protocol.CodeGameOver, "game is over")
	ErrGameNotStarted = newError(protocol.CodeGameNotStarted, "game has not started")
	ErrSeatTaken      = newError(protocol.CodeSeatTaken, "seat is taken")
	ErrNoSuchRoom     = newError(protocol.CodeNoSuchRoom, "no such room")
	ErrNotAllowed     = newError(protocol.CodeNotAllowed, "not allowed")
	ErrNoPendingOffer = newError(protocol.CodeNoPendingOffer, "no pending offer")
	ErrAIBusy         = newError(protocol.CodeAIBusy, "AI capacity is saturated, try again later")
	ErrUnavailable    = newError(protocol.CodeUnavailable, "store unavailable, nothing changed")
	ErrConflict       = newError(protocol.CodeConflict, "concurrent update, state reloaded")
	ErrInternal       = newError(protocol.CodeInternal, "internal error")
	ErrRateLimited    = newError(protocol.CodeRateLimited, "too many commands")
	ErrTooLarge       = newError(protocol.CodeTooLarge, "too large")
	ErrNoSuchEngine   = newError(protocol.CodeNoSuchEngine, "no such external engine")
	ErrShuttingDown   = newError(protocol.CodeShuttingDown, "server is shutting down")
	ErrRoomClosed     = newError(protocol.CodeUnavailable, "room is closed")
	ErrStaleAIResult  = newError(protocol.CodeStalePly, "AI result for a position that is no longer current")
	ErrTimeUp         = newError(protocol.CodeGameOver, "time is up")
	ErrPaced          = newError(protocol.CodeNotAllowed, "an AI vs AI move before the room's pace allows it")
	ErrNotClaimable   = newError(protocol.CodeNotAllowed, "the opponent is not gone beyond the grace period")
	ErrTimeNotUp      = newError(protocol.CodeNotAllowed, "no clock has run out")
	ErrChatDisabled   = newError(protocol.CodeNotAllowed, "chat is disabled in this room")
	ErrTakebackOff    = newError(protocol.CodeNotAllowed, "takebacks are disabled in this room")
	ErrHintsOff       = newError(protocol.CodeNotAllowed, "hints are disabled in this room")
	ErrAbortTooLate   = newError(protocol.CodeNotAllowed, "abort is only possible before both sides have moved")
	ErrAlreadySeated  = newError(protocol.CodeNotAllowed, "already seated in this room")
	ErrOfferPending   = newError(protocol.CodeNotAllowed, "an offer is already pending")
	ErrNothingToTake  = newError(protocol.CodeNotAllowed, "no move of yours to take back")
	ErrAISeat         = newError(protocol.CodeNotAllowed, "the opponent is an AI")
	ErrOpponentLeft   = newError(protocol.CodeNotAllowed, "the opponent has left")
	ErrBadSettings    = newError(protocol.CodeBadRequest, "bad room settings")
	ErrUnknownPlayer  = newError(protocol.CodeBadRequest, "unknown AI level or engine")
	ErrAccountNeeded  = newError(protocol.CodeAccountRequired, "a rated game is played between accounts: sign up or log in")
)

// Subscription end reasons (not client errors: the connection just ends).
var (
	ErrSlowSubscriber = errors.New("room: subscriber too slow, dropped")
	ErrRoomStopped    = errors.New("room: room stopped")
	ErrUnsubscribed   = errors.New("room: unsubscribed")
)

// ErrDuplicate is matched (errors.Is) by *DuplicateError.
var ErrDuplicate = errors.New("room: duplicate of an applied move")

// DuplicateError reports a resent move that is already applied at its ply by the same
// seat (README invariant 3). It is not a failure: the caller acknowledges Seq again.
type DuplicateError struct {
	Seq uint64 // seq of the stored move event
}

// Error implements error.
func (e *DuplicateError) Error() string {
	return fmt.Sprintf("room: duplicate of the move stored at seq %d", e.Seq)
}

// Is makes errors.Is(err, ErrDuplicate) true.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicate }

// moveError maps an engine legality error to the room's client error.
func moveError(err error) error {
	var fe *engine.ForbiddenError
	switch {
	case errors.As(err, &fe):
		return protocol.Detail(ErrForbidden, "%s", fe.Kind)
	case errors.Is(err, engine.ErrOffBoard), errors.Is(err, engine.ErrBadPoint):
		return ErrOffBoard
	case errors.Is(err, engine.ErrOccupied):
		return ErrOccupied
	case errors.Is(err, engine.ErrGameOver):
		return ErrGameOver
	}
	return fmt.Errorf("%w: %v", ErrBadRequest, strings.TrimPrefix(err.Error(), "engine: "))
}
