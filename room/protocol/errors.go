package protocol

import (
	"context"
	"errors"
	"fmt"
)

// Error is the one client-facing error: a stable Code (codes.go) and a Message for
// people. Packages declare their refusals as sentinels with NewError and compare them by
// identity (errors.Is); Detail and fmt.Errorf("%w: …") add detail without losing the
// identity. Only the edge (HTTP handlers, WebSocket connections) turns an error into a
// status or an error frame, with ClientError.
type Error struct {
	// Code is the stable protocol code.
	Code string
	// Message is shown to clients; it never carries a wrapped cause.
	Message string

	prefix string // "room: ": where a sentinel was declared (Error only)
	cause  error  // what Unwrap returns: a Detail's sentinel, or the internal cause
}

// Error returns the message, prefixed with the declaring package for sentinels.
func (e *Error) Error() string { return e.prefix + e.Message }

// Unwrap returns the sentinel a Detail refines (nil for sentinels and Errorf).
func (e *Error) Unwrap() error { return e.cause }

// NewError declares a sentinel of package pkg with a stable code: its Error is
// "pkg: message", clients see message. Two sentinels are different errors even when
// they share a code.
func NewError(pkg, code, message string) error {
	return &Error{Code: code, Message: message, prefix: pkg + ": "}
}

// Errorf returns a client-facing error with code and a formatted message.
func Errorf(code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Detail returns an error with sentinel's code and its own message, for the client to
// see, that still matches sentinel with errors.Is (a forbidden point's kind, say).
func Detail(sentinel error, format string, args ...any) error {
	e := &Error{Code: Code(sentinel), Message: fmt.Sprintf(format, args...), cause: sentinel}
	var s *Error
	if errors.As(sentinel, &s) {
		e.prefix = s.prefix
	}
	return e
}

// ClientError returns what a client is told about err (nil for nil): the outermost
// *Error in its chain as it is; a context deadline is timeout and a cancellation
// shutting_down; anything else is internal, with a generic message (the cause, which
// may name addresses or drivers, goes to the log, not to the client).
func ClientError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	switch {
	case errors.As(err, &e):
		return &Error{Code: e.Code, Message: e.Message, cause: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Message: "the operation timed out", cause: err}
	case errors.Is(err, context.Canceled):
		return &Error{Code: CodeShuttingDown, Message: "the operation was cancelled", cause: err}
	}
	return &Error{Code: CodeInternal, Message: "internal error", cause: err}
}

// Code returns the stable protocol code of err ("" for nil), as ClientError decides it.
func Code(err error) string {
	if err == nil {
		return ""
	}
	return ClientError(err).Code
}
