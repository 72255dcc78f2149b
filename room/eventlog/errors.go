package eventlog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/redis/go-redis/v9"
)

// Sentinel errors. Test with errors.Is; returned errors wrap them with detail.
var (
	// ErrSeqConflict: the room's stored sequence number is not the expected one
	// (another writer won). Nothing was written; reload and retry.
	ErrSeqConflict = errors.New("eventlog: seq conflict")
	// ErrNoSuchRoom: the room has no stored state (never created, deleted or expired).
	ErrNoSuchRoom = errors.New("eventlog: no such room")
	// ErrExists: Create found the room already stored.
	ErrExists = errors.New("eventlog: room exists")
	// ErrUnavailable: Redis could not be reached or did not answer in time
	// (network error, connection refused, deadline, pool timeout, LOADING,
	// CLUSTERDOWN, ...). Whether the write happened is unknown when this comes
	// back from Append: reload before retrying.
	ErrUnavailable = errors.New("eventlog: unavailable")
	// ErrBadRequest: the arguments cannot be stored (empty room id, too many events, ...).
	ErrBadRequest = errors.New("eventlog: bad request")
)

// wrap classifies a go-redis error: transport-level failures wrap ErrUnavailable
// (and keep the cause reachable with errors.Is/As); others are returned with
// context. A caller's own context cancellation is passed through unwrapped.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("eventlog: %s: %w", op, err)
	}
	if IsUnavailable(err) {
		return fmt.Errorf("%w: %s: %w", ErrUnavailable, op, err)
	}
	return fmt.Errorf("eventlog: %s: %w", op, err)
}

// IsUnavailable reports whether err means that Redis is not reachable or not
// serving right now (as opposed to a bad command or a logical conflict).
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, redis.ErrClosed) ||
		errors.Is(err, redis.ErrPoolTimeout) ||
		errors.Is(err, redis.ErrPoolExhausted) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	if redis.IsLoadingError(err) || redis.IsClusterDownError(err) || redis.IsTryAgainError(err) ||
		redis.IsMasterDownError(err) || redis.IsReadOnlyError(err) || redis.IsMaxClientsError(err) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "connection refused") || strings.Contains(msg, "broken pipe") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "i/o timeout")
}
