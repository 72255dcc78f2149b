package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Stable error codes of the wire protocol (docs/protocol.md). Clients switch on these;
// never rename one.
const (
	CodeBadRequest      = "bad_request"
	CodeBadJSON         = "bad_json"
	CodeUnknownType     = "unknown_type"
	CodeTooLarge        = "too_large"
	CodeRateLimited     = "rate_limited"
	CodeUnauthorized    = "unauthorized"
	CodeNotAPlayer      = "not_a_player"
	CodeNotYourTurn     = "not_your_turn"
	CodeOffBoard        = "off_board"
	CodeOccupied        = "occupied"
	CodeForbidden       = "forbidden"
	CodeStalePly        = "stale_ply"
	CodeGameOver        = "game_over"
	CodeGameNotStarted  = "game_not_started"
	CodeSeatTaken       = "seat_taken"
	CodeNoSuchRoom      = "no_such_room"
	CodeNotAllowed      = "not_allowed"
	CodeNoPendingOffer  = "no_pending_offer"
	CodeAIBusy          = "ai_busy"
	CodeUnavailable     = "unavailable"
	CodeConflict        = "conflict"
	CodeInternal        = "internal"
	CodeNotFound        = "not_found"
	CodeBadOrigin       = "bad_origin"
	CodeTooManyConns    = "too_many_connections"
	CodeHelloFirst      = "hello_required"
	CodeNoSuchEngine    = "no_such_engine"
	CodeShuttingDown    = "shutting_down"
	CodeTimeout         = "timeout"
	CodeMethodNotAllowd = "method_not_allowed"
)

// Error is the one typed error of the server edge: a stable code, a human message and
// the HTTP status it maps to. Everything else is converted by AsError.
type Error struct {
	Code    string
	Message string
	Status  int
	cause   error
}

// Error implements error.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.cause }

// Errorf builds an *Error with the default status of code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Status: statusOf(code)}
}

// coder is implemented by typed errors of other packages (room, store) that carry a
// stable protocol code.
type coder interface{ Code() string }

// AsError converts any error to an *Error. Errors with a Code() method keep their code;
// context deadline becomes timeout; anything unknown is internal (its text is not shown).
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var c coder
	if errors.As(err, &c) && c.Code() != "" {
		return &Error{Code: c.Code(), Message: err.Error(), Status: statusOf(c.Code()), cause: err}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Message: "the operation timed out", Status: http.StatusGatewayTimeout, cause: err}
	case errors.Is(err, context.Canceled):
		return &Error{Code: CodeShuttingDown, Message: "the operation was cancelled", Status: http.StatusServiceUnavailable, cause: err}
	}
	return &Error{Code: CodeInternal, Message: "internal error", Status: http.StatusInternalServerError, cause: err}
}

func statusOf(code string) int {
	switch code {
	case CodeBadRequest, CodeBadJSON, CodeUnknownType, CodeOffBoard, CodeOccupied, CodeForbidden,
		CodeNoSuchEngine, CodeHelloFirst:
		return http.StatusBadRequest
	case CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodeRateLimited, CodeTooManyConns:
		return http.StatusTooManyRequests
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case CodeNotAPlayer, CodeBadOrigin, CodeNotAllowed:
		return http.StatusForbidden
	case CodeNoSuchRoom, CodeNotFound:
		return http.StatusNotFound
	case CodeMethodNotAllowd:
		return http.StatusMethodNotAllowed
	case CodeNotYourTurn, CodeStalePly, CodeGameOver, CodeGameNotStarted, CodeSeatTaken,
		CodeNoPendingOffer, CodeConflict:
		return http.StatusConflict
	case CodeAIBusy, CodeUnavailable, CodeShuttingDown:
		return http.StatusServiceUnavailable
	case CodeTimeout:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}
