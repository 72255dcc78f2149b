package room

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApplyTable(t *testing.T) {
	waiting := func(t *testing.T) State { return created(t, nil) }
	half := func(t *testing.T) State {
		s := created(t, nil)
		s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
		return s
	}
	fresh := func(t *testing.T) State { return seated(t, nil) }
	one := func(t *testing.T) State { return play(t, seated(t, nil), "h8") }
	two := func(t *testing.T) State { return play(t, seated(t, nil), "h8", "i9") }
	over := func(t *testing.T) State { return finished(t) }
	drawOffered := func(t *testing.T) State {
		s, _ := apply(t, two(t), Command{Kind: CmdDrawOffer, By: alice}, t0)
		return s
	}
	tbRequested := func(t *testing.T) State {
		s, _ := apply(t, two(t), Command{Kind: CmdTakebackRequest, By: alice}, t0)
		return s
	}
	noTB := func(t *testing.T) State {
		return play(t, seated(t, func(s *Settings) { s.Takebacks = false }), "h8", "i9")
	}
	noChat := func(t *testing.T) State { return seated(t, func(s *Settings) { s.Chat = false }) }
	vsAI := func(t *testing.T) State {
		s := created(t, func(s *Settings) { s.White = SeatSpec{Kind: AI, Level: "novice"} })
		s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
		return s
	}
	rematchOffered := func(t *testing.T) State {
		s, _ := apply(t, over(t), Command{Kind: CmdRematch, By: bob}, t0)
		return s
	}
	renju := func(t *testing.T) State {
		// Black to move; i8 would make two open threes (g8-h8-i8 and i8-i9-i10).
		return play(t, seated(t, func(s *Settings) { s.Rule = "renju" }), "g8", "a1", "h8", "a2", "i9", "a3", "i10", "a15")
	}

	tests := []struct {
		name  string
		state func(*testing.T) State
		cmd   Command
		err   error
		want  []EventKind
	}{
		// sit
		{"sit open seat", waiting, Command{Kind: CmdSit, By: alice, Color: "black"}, nil, []EventKind{EvSeated}},
		{"sit completes seats starts", half, Command{Kind: CmdSit, By: bob, Color: "white"}, nil, []EventKind{EvSeated, EvStarted}},
		{"sit again own seat no-op", half, Command{Kind: CmdSit, By: alice, Color: "black"}, nil, []EventKind{}},
		{"sit taken seat", half, Command{Kind: CmdSit, By: bob, Color: "black"}, ErrSeatTaken, nil},
		{"sit twice other colour", half, Command{Kind: CmdSit, By: alice, Color: "white"}, ErrAlreadySeated, nil},
		{"sit anonymous", waiting, Command{Kind: CmdSit, Color: "black"}, ErrUnauthorized, nil},
		{"sit bad colour", waiting, Command{Kind: CmdSit, By: alice, Color: "red"}, ErrBadRequest, nil},
		{"sit while playing", fresh, Command{Kind: CmdSit, By: carol, Color: "black"}, ErrSeatTaken, nil},
		{"sit AI seat", vsAI, Command{Kind: CmdSit, By: bob, Color: "white"}, ErrSeatTaken, nil},
		{"sit vs AI starts", func(t *testing.T) State {
			return created(t, func(s *Settings) { s.White = SeatSpec{Kind: AI, Level: "novice"} })
		}, Command{Kind: CmdSit, By: alice, Color: "black"}, nil, []EventKind{EvSeated, EvStarted}},
		// leave
		{"leave waiting", half, Command{Kind: CmdLeave, By: alice}, nil, []EventKind{EvLeft}},
		{"leave playing refused", fresh, Command{Kind: CmdLeave, By: alice}, ErrNotAllowed, nil},
		{"leave after game", over, Command{Kind: CmdLeave, By: bob}, nil, []EventKind{EvLeft}},
		{"leave spectator", half, Command{Kind: CmdLeave, By: carol}, ErrNotAPlayer, nil},
		// move
		{"move first", fresh, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, nil, []EventKind{EvMove}},
		{"move upper case", fresh, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "H8"}, nil, []EventKind{EvMove}},
		{"move waiting", half, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, ErrGameNotStarted, nil},
		{"move not your turn", fresh, Command{Kind: CmdMove, By: bob, Ply: 0, Point: "h8"}, ErrNotYourTurn, nil},
		{"move spectator", fresh, Command{Kind: CmdMove, By: carol, Ply: 0, Point: "h8"}, ErrNotAPlayer, nil},
		{"move anonymous", fresh, Command{Kind: CmdMove, Ply: 0, Point: "h8"}, ErrNotAPlayer, nil},
		{"move stale ply", two, Command{Kind: CmdMove, By: alice, Ply: 1, Point: "a1"}, ErrStalePly, nil},
		{"move future ply", two, Command{Kind: CmdMove, By: alice, Ply: 5, Point: "a1"}, ErrStalePly, nil},
		{"move occupied", two, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "i9"}, ErrOccupied, nil},
		{"move off board", two, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "p1"}, ErrOffBoard, nil},
		{"move garbage", two, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "zz"}, ErrOffBoard, nil},
		{"move forbidden renju", renju, Command{Kind: CmdMove, By: alice, Ply: 8, Point: "i8"}, ErrForbidden, nil},
		{"move after game", over, Command{Kind: CmdMove, By: bob, Ply: 9, Point: "b1"}, ErrGameOver, nil},
		{"move wins", func(t *testing.T) State {
			return play(t, seated(t, nil), "h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4")
		}, Command{Kind: CmdMove, By: alice, Ply: 8, Point: "h12"}, nil, []EventKind{EvMove, EvGameOver}},
		{"move for AI seat", func(t *testing.T) State { return play(t, vsAI(t), "h8") },
			Command{Kind: CmdMove, By: alice, Ply: 1, Point: "a1"}, ErrNotYourTurn, nil},
		// resign
		{"resign", two, Command{Kind: CmdResign, By: bob}, nil, []EventKind{EvGameOver}},
		{"resign before start", half, Command{Kind: CmdResign, By: alice}, ErrGameNotStarted, nil},
		{"resign spectator", two, Command{Kind: CmdResign, By: carol}, ErrNotAPlayer, nil},
		{"resign over", over, Command{Kind: CmdResign, By: bob}, ErrGameOver, nil},
		// draw
		{"draw offer", two, Command{Kind: CmdDrawOffer, By: alice}, nil, []EventKind{EvDrawOffered}},
		{"draw offer twice", drawOffered, Command{Kind: CmdDrawOffer, By: alice}, ErrOfferPending, nil},
		{"draw counter-offer agrees", drawOffered, Command{Kind: CmdDrawOffer, By: bob}, nil, []EventKind{EvGameOver}},
		{"draw accept", drawOffered, Command{Kind: CmdDrawAccept, By: bob}, nil, []EventKind{EvGameOver}},
		{"draw accept own offer", drawOffered, Command{Kind: CmdDrawAccept, By: alice}, ErrNoPendingOffer, nil},
		{"draw accept none", two, Command{Kind: CmdDrawAccept, By: bob}, ErrNoPendingOffer, nil},
		{"draw decline", drawOffered, Command{Kind: CmdDrawDecline, By: bob}, nil, []EventKind{EvDrawDeclined}},
		{"draw decline none", two, Command{Kind: CmdDrawDecline, By: bob}, ErrNoPendingOffer, nil},
		{"draw offer to AI", func(t *testing.T) State { return play(t, vsAI(t), "h8") }, Command{Kind: CmdDrawOffer, By: alice}, ErrAISeat, nil},
		{"draw offer over", over, Command{Kind: CmdDrawOffer, By: alice}, ErrGameOver, nil},
		{"draw offer spectator", two, Command{Kind: CmdDrawOffer, By: carol}, ErrNotAPlayer, nil},
		{"draw offer waiting", half, Command{Kind: CmdDrawOffer, By: alice}, ErrGameNotStarted, nil},
		// takeback
		{"takeback request", two, Command{Kind: CmdTakebackRequest, By: alice}, nil, []EventKind{EvTakebackRequested}},
		{"takeback nothing to take", one, Command{Kind: CmdTakebackRequest, By: bob}, ErrNothingToTake, nil},
		{"takeback none on empty", fresh, Command{Kind: CmdTakebackRequest, By: alice}, ErrNothingToTake, nil},
		{"takeback twice", tbRequested, Command{Kind: CmdTakebackRequest, By: bob}, ErrOfferPending, nil},
		{"takeback accept", tbRequested, Command{Kind: CmdTakebackAccept, By: bob}, nil, []EventKind{EvTakeback}},
		{"takeback accept own", tbRequested, Command{Kind: CmdTakebackAccept, By: alice}, ErrNoPendingOffer, nil},
		{"takeback decline", tbRequested, Command{Kind: CmdTakebackDecline, By: bob}, nil, []EventKind{EvTakebackDeclined}},
		{"takeback decline none", two, Command{Kind: CmdTakebackDecline, By: bob}, ErrNoPendingOffer, nil},
		{"takeback disabled", noTB, Command{Kind: CmdTakebackRequest, By: alice}, ErrTakebackOff, nil},
		{"takeback vs AI immediate", func(t *testing.T) State { return play(t, vsAI(t), "h8") },
			Command{Kind: CmdTakebackRequest, By: alice}, nil, []EventKind{EvTakeback}},
		{"takeback over", over, Command{Kind: CmdTakebackRequest, By: alice}, ErrGameOver, nil},
		{"takeback spectator", two, Command{Kind: CmdTakebackRequest, By: carol}, ErrNotAPlayer, nil},
		// rematch
		{"rematch offer", over, Command{Kind: CmdRematch, By: bob}, nil, []EventKind{EvRematchOffered}},
		{"rematch accept", rematchOffered, Command{Kind: CmdRematch, By: alice}, nil, []EventKind{EvRematch}},
		{"rematch twice", rematchOffered, Command{Kind: CmdRematch, By: bob}, ErrOfferPending, nil},
		{"rematch playing", two, Command{Kind: CmdRematch, By: bob}, ErrNotAllowed, nil},
		{"rematch spectator", over, Command{Kind: CmdRematch, By: carol}, ErrNotAPlayer, nil},
		{"rematch after leave", func(t *testing.T) State {
			s, _ := apply(t, over(t), Command{Kind: CmdLeave, By: alice}, t0)
			return s
		}, Command{Kind: CmdRematch, By: bob}, ErrOpponentLeft, nil},
		// abort
		{"abort waiting", half, Command{Kind: CmdAbort, By: alice}, nil, []EventKind{EvGameOver}},
		{"abort fresh", fresh, Command{Kind: CmdAbort, By: bob}, nil, []EventKind{EvGameOver}},
		{"abort after one", one, Command{Kind: CmdAbort, By: bob}, nil, []EventKind{EvGameOver}},
		{"abort too late", two, Command{Kind: CmdAbort, By: alice}, ErrAbortTooLate, nil},
		{"abort spectator", fresh, Command{Kind: CmdAbort, By: carol}, ErrNotAPlayer, nil},
		{"abort over", over, Command{Kind: CmdAbort, By: alice}, ErrGameOver, nil},
		{"abandon internal", one, Command{Kind: CmdAbandon}, nil, []EventKind{EvGameOver}},
		{"abandon too late", two, Command{Kind: CmdAbandon}, ErrAbortTooLate, nil},
		// claim victory
		{"claim not gone", two, Command{Kind: CmdClaimVictory, By: alice}, ErrNotClaimable, nil},
		{"claim within grace", two, Command{Kind: CmdClaimVictory, By: alice, GoneSince: t0.Add(time.Hour - 30*time.Second), Grace: time.Minute}, ErrNotClaimable, nil},
		{"claim after grace", two, Command{Kind: CmdClaimVictory, By: alice, GoneSince: t0.Add(-2 * time.Minute), Grace: time.Minute}, nil, []EventKind{EvGameOver}},
		{"claim spectator", two, Command{Kind: CmdClaimVictory, By: carol, GoneSince: t0.Add(-2 * time.Minute), Grace: time.Minute}, ErrNotAPlayer, nil},
		{"claim over", over, Command{Kind: CmdClaimVictory, By: alice, GoneSince: t0.Add(-2 * time.Minute), Grace: time.Minute}, ErrGameOver, nil},
		{"auto claim vs AI", func(t *testing.T) State {
			s := play(t, vsAI(t), "h8")
			s, _ = apply(t, s, Command{Kind: CmdAIMove, Color: "white", Ply: 1, Point: "i9", Hash: s.Hash()}, t0)
			return s
		}, Command{Kind: CmdAutoClaim, Color: "black", GoneSince: t0, Grace: time.Minute}, nil, []EventKind{EvGameOver}},
		{"auto claim between humans refused", two, Command{Kind: CmdAutoClaim, Color: "black", GoneSince: t0, Grace: time.Minute}, ErrNotClaimable, nil},
		// flag
		{"flag without clock", two, Command{Kind: CmdFlag, By: carol}, ErrTimeNotUp, nil},
		{"flag waiting", half, Command{Kind: CmdFlag}, ErrGameNotStarted, nil},
		// chat
		{"chat player", two, Command{Kind: CmdChat, By: alice, Text: "gg"}, nil, []EventKind{EvChat}},
		{"chat spectator", two, Command{Kind: CmdChat, By: carol, Text: "nice"}, nil, []EventKind{EvChat}},
		{"chat waiting", waiting, Command{Kind: CmdChat, By: carol, Text: "hi"}, nil, []EventKind{EvChat}},
		{"chat over", over, Command{Kind: CmdChat, By: bob, Text: "gg"}, nil, []EventKind{EvChat}},
		{"chat anonymous", two, Command{Kind: CmdChat, Text: "x"}, ErrUnauthorized, nil},
		{"chat empty", two, Command{Kind: CmdChat, By: alice}, ErrBadRequest, nil},
		{"chat too long", two, Command{Kind: CmdChat, By: alice, Text: strings.Repeat("é", 301)}, ErrTooLarge, nil},
		{"chat blank", two, Command{Kind: CmdChat, By: alice, Text: " \n "}, ErrBadRequest, nil},
		{"chat disabled", noChat, Command{Kind: CmdChat, By: alice, Text: "x"}, ErrChatDisabled, nil},
		// internal and unknown
		{"ai move on human seat", two, Command{Kind: CmdAIMove, Color: "black", Ply: 2, Point: "a1"}, ErrBadRequest, nil},
		{"forfeit human seat", two, Command{Kind: CmdForfeit, Color: "black"}, ErrBadRequest, nil},
		{"unknown", two, Command{Kind: "dance", By: alice}, ErrUnknownType, nil},
		{"hint is not Apply's", two, Command{Kind: CmdHint, By: alice}, ErrUnknownType, nil},
		{"start no-op when playing", two, Command{Kind: CmdStart}, nil, []EventKind{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.state(t)
			now := t0.Add(time.Hour)
			ns, evs, err := Apply(s, tt.cmd, now)
			if tt.err != nil {
				require.Error(t, err)
				assert.True(t, errors.Is(err, tt.err), "got %v (%s), want %v", err, protocol.Code(err), tt.err)
				assert.Equal(t, protocol.Code(tt.err), protocol.Code(err))
				assert.Nil(t, evs)
				assert.Equal(t, s, ns, "a refused command changes nothing")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, kinds(evs))
			for i, e := range evs {
				assert.Equal(t, s.Seq()+uint64(i)+1, e.Seq, "contiguous seq")
				assert.Equal(t, now.UnixMilli(), e.At)
			}
			// Every accepted result replays from its events.
			rs, err := ReplayFrom(s, evs)
			require.NoError(t, err)
			assert.Equal(t, ns, rs)
		})
	}
}

func TestApplyDetails(t *testing.T) {
	t.Run("duplicate move is acknowledged with its seq", func(t *testing.T) {
		s := play(t, seated(t, nil), "h8", "i9", "h9")
		_, evs, err := Apply(s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, t0)
		var dup *DuplicateError
		require.ErrorAs(t, err, &dup)
		assert.True(t, errors.Is(err, ErrDuplicate))
		assert.Nil(t, evs)
		assert.Equal(t, s.MoveSeq(0), dup.Seq)
		assert.Equal(t, uint64(5), dup.Seq) // created, seated, seated, started, move
		// The same point at the same ply by the other seat is not a duplicate.
		_, _, err = Apply(s, Command{Kind: CmdMove, By: bob, Ply: 0, Point: "h8"}, t0)
		assert.ErrorIs(t, err, ErrStalePly)
		// The last move of a finished game is still re-acknowledged.
		f := finished(t)
		_, _, err = Apply(f, Command{Kind: CmdMove, By: alice, Ply: 8, Point: "h12"}, t0)
		assert.ErrorIs(t, err, ErrDuplicate)
	})
	t.Run("forbidden message names the kind", func(t *testing.T) {
		s := play(t, seated(t, func(s *Settings) { s.Rule = "renju" }), "g8", "a1", "h8", "a2", "i9", "a3", "i10", "a15")
		_, _, err := Apply(s, Command{Kind: CmdMove, By: alice, Ply: 8, Point: "i8"}, t0)
		e := protocol.ClientError(err)
		assert.Equal(t, "forbidden", e.Code)
		assert.Equal(t, "double_three", e.Message)
	})
	t.Run("game over by five carries the line", func(t *testing.T) {
		s := finished(t)
		res, reason, line := s.Result()
		assert.Equal(t, "black", res)
		assert.Equal(t, ReasonFive, reason)
		assert.Equal(t, []string{"h8", "h9", "h10", "h11", "h12"}, line)
		assert.Equal(t, "finished", s.Status())
	})
	t.Run("renju draw when black has only forbidden points", func(t *testing.T) {
		data, err := os.ReadFile("../engine/testdata/renju-no-legal-move.txt")
		require.NoError(t, err)
		moves := strings.Fields(string(data))
		s := play(t, seated(t, func(s *Settings) { s.Rule = "renju" }), moves...)
		require.Equal(t, 224, s.Ply())
		res, reason, line := s.Result()
		assert.Equal(t, ResultDraw, res)
		assert.Equal(t, ReasonNoLegalMove, reason)
		assert.Nil(t, line)
		assert.Equal(t, "finished", s.Status())
		// One move earlier the game was still on.
		s = play(t, seated(t, func(s *Settings) { s.Rule = "renju" }), moves[:223]...)
		assert.Equal(t, PhasePlaying, s.Phase())
	})
	t.Run("takeback plies", func(t *testing.T) {
		s := play(t, seated(t, nil), "h8", "i9", "h9")
		// Bob (white) requests on his turn: Alice's reply and his stone go (2 plies).
		s2, _ := apply(t, s, Command{Kind: CmdTakebackRequest, By: bob}, t0)
		s3, evs := apply(t, s2, Command{Kind: CmdTakebackAccept, By: alice}, t0)
		require.Equal(t, EvTakeback, evs[0].Kind)
		assert.Equal(t, 2, evs[0].Plies)
		assert.Equal(t, []string{"h8"}, s3.Moves())
		assert.Equal(t, engineWhite(), s3.ToMove())
		// Alice (black) requests while Bob is to move: only her stone goes (1 ply).
		s4, _ := apply(t, s3, Command{Kind: CmdTakebackRequest, By: alice}, t0)
		s5, evs := apply(t, s4, Command{Kind: CmdTakebackAccept, By: bob}, t0)
		assert.Equal(t, 1, evs[0].Plies)
		assert.Empty(t, s5.Moves())
		assert.Equal(t, uint64(0), s5.MoveSeq(0))
	})
	t.Run("a move clears pending offers", func(t *testing.T) {
		s := play(t, seated(t, nil), "h8", "i9")
		s, _ = apply(t, s, Command{Kind: CmdDrawOffer, By: bob}, t0)
		s = play(t, s, "h9")
		_, _, err := Apply(s, Command{Kind: CmdDrawAccept, By: alice}, t0)
		assert.ErrorIs(t, err, ErrNoPendingOffer)
	})
	t.Run("rematch swaps colours and numbers the game", func(t *testing.T) {
		s, _ := apply(t, finished(t), Command{Kind: CmdRematch, By: bob}, t0)
		s, evs := apply(t, s, Command{Kind: CmdRematch, By: alice}, t0)
		assert.Equal(t, 2, evs[0].Game)
		assert.Equal(t, 2, s.Game())
		assert.Equal(t, PhasePlaying, s.Phase())
		assert.Equal(t, bob.ID, s.Seat(s.ToMove()).Player.ID, "Bob has black now")
		assert.Empty(t, s.Moves())
		r, _, _ := s.Result()
		assert.Empty(t, r)
	})
	t.Run("rematch against AI is immediate", func(t *testing.T) {
		s := created(t, func(s *Settings) { s.White = SeatSpec{Kind: AI, Level: "novice"} })
		s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
		s, _ = apply(t, s, Command{Kind: CmdResign, By: alice}, t0)
		s, evs := apply(t, s, Command{Kind: CmdRematch, By: alice}, t0)
		assert.Equal(t, []EventKind{EvRematch}, kinds(evs))
		assert.Equal(t, engineWhite(), s.ColorOf(alice.ID))
		assert.Equal(t, AI, s.Seat(s.ToMove()).Spec.Kind, "the AI has black")
	})
	t.Run("AI move checked against position hash", func(t *testing.T) {
		s := created(t, func(s *Settings) { s.White = SeatSpec{Kind: AI, Level: "novice"} })
		s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
		s = play(t, s, "h8")
		h := s.Hash()
		_, _, err := Apply(s, Command{Kind: CmdAIMove, Color: "white", Ply: 1, Point: "i9", Hash: h + 1}, t0)
		assert.ErrorIs(t, err, ErrStaleAIResult)
		_, _, err = Apply(s, Command{Kind: CmdAIMove, Color: "white", Ply: 0, Point: "i9", Hash: h}, t0)
		assert.ErrorIs(t, err, ErrStaleAIResult)
		_, _, err = Apply(s, Command{Kind: CmdAIMove, Color: "black", Ply: 1, Point: "i9", Hash: h}, t0)
		assert.ErrorIs(t, err, ErrBadRequest)
		ns, evs := apply(t, s, Command{Kind: CmdAIMove, Color: "white", Ply: 1, Point: "i9", Hash: h}, t0)
		assert.Equal(t, []EventKind{EvMove}, kinds(evs))
		assert.Equal(t, []string{"h8", "i9"}, ns.Moves())
		_, evs = apply(t, s, Command{Kind: CmdForfeit, Color: "white"}, t0)
		assert.Equal(t, "black", evs[0].Result)
		assert.Equal(t, ReasonForfeit, evs[0].Reason)
	})
	t.Run("zero state", func(t *testing.T) {
		_, _, err := Apply(State{}, Command{Kind: CmdChat}, t0)
		assert.ErrorIs(t, err, ErrNoSuchRoom)
	})
}
