package protocol

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestErrorIdentity(t *testing.T) {
	errA := NewError("pkg", CodeNotAllowed, "chat is off")
	errB := NewError("pkg", CodeNotAllowed, "the opponent is an AI")
	require.NotErrorIs(t, errA, errB, "sentinels sharing a code are still different errors")
	require.Equal(t, "pkg: chat is off", errA.Error())

	wrapped := fmt.Errorf("%w: in room r1", errA)
	require.ErrorIs(t, wrapped, errA)
	require.NotErrorIs(t, wrapped, errB)
	require.Equal(t, CodeNotAllowed, Code(wrapped))

	d := Detail(errA, "double_three")
	require.ErrorIs(t, d, errA)
	require.Equal(t, "pkg: double_three", d.Error())
	ce := ClientError(d)
	require.Equal(t, CodeNotAllowed, ce.Code)
	require.Equal(t, "double_three", ce.Message)
	require.ErrorIs(t, ce, errA, "the client error keeps its cause for the log")
}

func TestClientError(t *testing.T) {
	cause := errors.New("dial tcp 10.0.0.7:6379: connection refused")
	for _, tc := range []struct {
		err           error
		code, message string
	}{
		{nil, "", ""},
		{Errorf(CodeTooLarge, "frame larger than %d bytes", 4096), CodeTooLarge, "frame larger than 4096 bytes"},
		{fmt.Errorf("%w: %v", NewError("room", CodeUnavailable, "store unavailable"), cause), CodeUnavailable, "store unavailable"},
		{fmt.Errorf("join: %w", context.DeadlineExceeded), CodeTimeout, "the operation timed out"},
		{context.Canceled, CodeShuttingDown, "the operation was cancelled"},
		{cause, CodeInternal, "internal error"},
	} {
		require.Equal(t, tc.code, Code(tc.err), "%v", tc.err)
		ce := ClientError(tc.err)
		if tc.err == nil {
			require.Nil(t, ce)
			continue
		}
		require.Equal(t, tc.message, ce.Message, "the client never sees the cause")
		require.ErrorIs(t, ce, tc.err)
	}
}
