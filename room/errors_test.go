package room

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestSentinelsHaveIdentity: sentinels that share a protocol code are still different
// errors, so a check for one (a closed room) never catches another (a store outage).
func TestSentinelsHaveIdentity(t *testing.T) {
	require.NotErrorIs(t, ErrRoomClosed, ErrUnavailable)
	require.NotErrorIs(t, ErrChatDisabled, ErrAISeat)
	require.Equal(t, protocol.Code(ErrRoomClosed), protocol.Code(ErrUnavailable))

	coded := []error{ErrBadRequest, ErrBadJSON, ErrUnknownType, ErrUnauthorized, ErrNotAPlayer,
		ErrNotYourTurn, ErrOffBoard, ErrOccupied, ErrForbidden, ErrStalePly, ErrGameOver,
		ErrGameNotStarted, ErrSeatTaken, ErrNoSuchRoom, ErrNotAllowed, ErrNoPendingOffer, ErrAIBusy,
		ErrUnavailable, ErrConflict, ErrInternal, ErrRateLimited, ErrTooLarge, ErrNoSuchEngine,
		ErrShuttingDown, ErrRoomClosed, ErrStaleAIResult, ErrTimeUp, ErrNotClaimable, ErrTimeNotUp,
		ErrChatDisabled, ErrTakebackOff, ErrHintsOff, ErrAbortTooLate, ErrAlreadySeated,
		ErrOfferPending, ErrNothingToTake, ErrAISeat, ErrOpponentLeft, ErrBadSettings,
		ErrUnknownPlayer, ErrSeqConflict, ErrStoreUnavailable}
	for i, a := range coded {
		require.True(t, protocol.KnownCode(protocol.Code(a)), "%v", a)
		if a != ErrInternal {
			require.NotEqual(t, protocol.CodeInternal, protocol.Code(a), "%v", a)
		}
		require.Regexp(t, "^room: ", a.Error())
		for j, b := range coded {
			if i != j {
				require.NotErrorIs(t, a, b, "%v matches %v", a, b)
			}
		}
	}

	wrapped := fmt.Errorf("%w: in room r1", ErrChatDisabled)
	require.ErrorIs(t, wrapped, ErrChatDisabled)
	require.NotErrorIs(t, wrapped, ErrAISeat)
	require.Equal(t, protocol.CodeNotAllowed, protocol.Code(wrapped))
}

func TestMoveErrorDetail(t *testing.T) {
	err := moveError(&engine.ForbiddenError{Kind: engine.DoubleThree})
	require.ErrorIs(t, err, ErrForbidden)
	ce := protocol.ClientError(err)
	require.Equal(t, protocol.CodeForbidden, ce.Code)
	require.Equal(t, "double_three", ce.Message)
}
