package server

import (
	"errors"
	"fmt"

	"github.com/gomoku-arena/gomoku/room/protocol"
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

// Errorf builds an *Error with the status of code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Status: protocol.HTTPStatus(code)}
}

// AsError converts any error to an *Error. Protocol errors keep their code; context deadline becomes timeout; anything unknown is
// internal (its text is not shown).
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	pe := protocol.ClientError(err)
	return &Error{Code: pe.Code, Message: pe.Message, Status: protocol.HTTPStatus(pe.Code), cause: err}
}
