package room

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
)

// Error is a client-facing error with a stable code from docs/protocol.md. Two
// *Error values match with errors.Is when their codes are equal, so a detailed error
// (for example a forbidden point with its kind) still matches its sentinel.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error implements error.
func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func newError(code, msg string) *Error { return &Error{Code: code, Message: "room: " + msg} }

// Sentinel errors, each with its stable protocol code.
var (
	ErrBadRequest     = newError("bad_request", "bad request")
	ErrBadJSON        = newError("bad_json", "malformed JSON")
	ErrUnknownType    = newError("unknown_type", "unknown command type")
	ErrUnauthorized   = newError("unauthorized", "unauthorized")
	ErrNotAPlayer     = newError("not_a_player", "not a player of this game")
	ErrNotYourTurn    = newError("not_your_turn", "not your turn")
	ErrOffBoard       = newError("off_board", "point is off the board")
	ErrOccupied       = newError("occupied", "point is occupied")
	ErrForbidden      = newError("forbidden", "forbidden point")
	ErrStalePly       = newError("stale_ply", "stale ply: the position has changed")
	ErrGameOver       = newError("game_over", "game is over")
	ErrGameNotStarted = newError("game_not_started", "game has not started")
	ErrSeatTaken      = newError("seat_taken", "seat is taken")
	ErrNoSuchRoom     = newError("no_such_room", "no such room")
	ErrNotAllowed     = newError("not_allowed", "not allowed")
	ErrNoPendingOffer = newError("no_pending_offer", "no pending offer")
	ErrAIBusy         = newError("ai_busy", "AI capacity is saturated, try again later")
	ErrUnavailable    = newError("unavailable", "store unavailable, nothing changed")
	ErrConflict       = newError("conflict", "concurrent update, state reloaded")
	ErrInternal       = newError("internal", "internal error")
	ErrRateLimited    = newError("rate_limited", "too many commands")
	ErrTooLarge       = newError("too_large", "too large")
	ErrNoSuchEngine   = newError("no_such_engine", "no such external engine")
	ErrShuttingDown   = newError("shutting_down", "server is shutting down")
	ErrRoomClosed     = newError("unavailable", "room is closed")
	ErrStaleAIResult  = newError("stale_ply", "AI result for a position that is no longer current")
	ErrTimeUp         = newError("game_over", "time is up")
	ErrNotClaimable   = newError("not_allowed", "the opponent is not gone beyond the grace period")
	ErrTimeNotUp      = newError("not_allowed", "no clock has run out")
	ErrChatDisabled   = newError("not_allowed", "chat is disabled in this room")
	ErrTakebackOff    = newError("not_allowed", "takebacks are disabled in this room")
	ErrHintsOff       = newError("not_allowed", "hints are disabled in this room")
	ErrAbortTooLate   = newError("not_allowed", "abort is only possible before both sides have moved")
	ErrAlreadySeated  = newError("not_allowed", "already seated in this room")
	ErrOfferPending   = newError("not_allowed", "an offer is already pending")
	ErrNothingToTake  = newError("not_allowed", "no move of yours to take back")
	ErrAISeat         = newError("not_allowed", "the opponent is an AI")
	ErrOpponentLeft   = newError("not_allowed", "the opponent has left")
	ErrBadSettings    = newError("bad_request", "bad room settings")
	ErrUnknownPlayer  = newError("bad_request", "unknown AI level or engine")
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

// ClientError maps any error to the client-facing *Error: *Error values (also wrapped)
// are returned as they are, context errors become unavailable, anything else internal.
func ClientError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, ErrSeqConflict) {
		return ErrConflict
	}
	if errors.Is(err, ErrStoreUnavailable) {
		return ErrUnavailable
	}
	return &Error{Code: ErrInternal.Code, Message: ErrInternal.Message}
}

// Code returns the stable protocol code of err ("" for nil).
func Code(err error) string {
	if err == nil {
		return ""
	}
	return ClientError(err).Code
}

// moveError maps an engine legality error to the room's client error.
func moveError(err error) error {
	var fe *engine.ForbiddenError
	switch {
	case errors.As(err, &fe):
		return &Error{Code: ErrForbidden.Code, Message: fe.Kind.String()}
	case errors.Is(err, engine.ErrOffBoard), errors.Is(err, engine.ErrBadPoint):
		return ErrOffBoard
	case errors.Is(err, engine.ErrOccupied):
		return ErrOccupied
	case errors.Is(err, engine.ErrGameOver):
		return ErrGameOver
	}
	return fmt.Errorf("%w: %v", ErrBadRequest, strings.TrimPrefix(err.Error(), "engine: "))
}
