package room

import (
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func at(d time.Duration) time.Time { return t0.Add(d) }

func TestClockFischer(t *testing.T) {
	s := seated(t, func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000, IncrementMS: 2_000} })
	c, running := s.Clock(at(3 * time.Second))
	assert.True(t, running)
	assert.Equal(t, Clocks{BlackMS: 57_000, WhiteMS: 60_000}, c, "black's clock runs from the start")
	assert.Equal(t, at(60*time.Second), s.Deadline())

	s, evs := apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, at(5*time.Second))
	assert.Equal(t, int64(57_000), evs[0].ClockMS, "60 s - 5 s + 2 s increment")
	assert.Equal(t, &Clocks{BlackMS: 57_000, WhiteMS: 60_000}, evs[0].Clock)
	s, evs = apply(t, s, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "i9"}, at(15*time.Second))
	assert.Equal(t, int64(52_000), evs[0].ClockMS)
	c, _ = s.Clock(at(20 * time.Second))
	assert.Equal(t, Clocks{BlackMS: 52_000, WhiteMS: 52_000}, c)
	assert.Equal(t, at(15*time.Second+57*time.Second), s.Deadline())

	// Not yet expired: flag refused, move accepted up to the deadline.
	_, _, err := Apply(s, Command{Kind: CmdFlag}, at(71*time.Second))
	assert.ErrorIs(t, err, ErrTimeNotUp)
	assert.False(t, s.Expired(at(71*time.Second)))
	assert.True(t, s.Expired(at(72*time.Second)))

	// Expired: the move is refused, the flag ends the game for white.
	_, _, err = Apply(s, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "h9"}, at(73*time.Second))
	assert.ErrorIs(t, err, ErrTimeUp)
	assert.Equal(t, "game_over", protocol.Code(err))
	s2, evs := apply(t, s, Command{Kind: CmdTimeout}, at(73*time.Second))
	require.Equal(t, []EventKind{EvGameOver}, kinds(evs))
	assert.Equal(t, ResultWhite, evs[0].Result)
	assert.Equal(t, ReasonTimeout, evs[0].Reason)
	assert.Equal(t, int64(0), evs[0].Clock.BlackMS)
	c, running = s2.Clock(at(100 * time.Second))
	assert.False(t, running)
	assert.Equal(t, int64(52_000), c.WhiteMS, "clocks stop when the game ends")
	assert.True(t, s2.Deadline().IsZero())
}

func TestClockPerMove(t *testing.T) {
	s := seated(t, func(s *Settings) { s.Time = TimeControl{PerMoveMS: 10_000} })
	assert.Equal(t, at(10*time.Second), s.Deadline())
	s, evs := apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, at(9*time.Second))
	assert.Nil(t, evs[0].Clock, "no Fischer clock")
	assert.Equal(t, at(19*time.Second), s.Deadline(), "the limit restarts every move")
	_, _, err := Apply(s, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "i9"}, at(19*time.Second+time.Millisecond))
	assert.ErrorIs(t, err, ErrTimeUp)
	_, evs, err = Apply(s, Command{Kind: CmdFlag, By: carol}, at(20*time.Second))
	require.NoError(t, err)
	assert.Equal(t, ResultBlack, evs[0].Result)
	assert.Equal(t, ReasonTimeout, evs[0].Reason)
}

func TestClockPerMoveWithFischer(t *testing.T) {
	s := seated(t, func(s *Settings) { s.Time = TimeControl{BaseMS: 10_000, PerMoveMS: 20_000} })
	assert.Equal(t, at(10*time.Second), s.Deadline(), "the main clock is shorter")
	s = play(t, s, "h8") // at 1 s
	assert.Equal(t, at(11*time.Second), s.Deadline())
	s = play(t, s, "i9") // at 2 s: white has 9 s left, then per-move 20 s
	assert.Equal(t, at(2*time.Second+9*time.Second), s.Deadline())
}

func TestClockTakebackChargesMoverAndResumeDoesNot(t *testing.T) {
	s := seated(t, func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000} })
	s, _ = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, at(10*time.Second))
	s, _ = apply(t, s, Command{Kind: CmdTakebackRequest, By: alice}, at(12*time.Second))
	s, evs := apply(t, s, Command{Kind: CmdTakebackAccept, By: bob}, at(20*time.Second))
	assert.Equal(t, &Clocks{BlackMS: 50_000, WhiteMS: 50_000}, evs[0].Clock, "white was charged 10 s")
	c, _ := s.Clock(at(25 * time.Second))
	assert.Equal(t, Clocks{BlackMS: 45_000, WhiteMS: 50_000}, c)

	// A restart one hour later: the side to move is not charged the downtime.
	r, _ := s.Resume(time.Time{}, at(time.Hour))
	c, _ = r.Clock(at(time.Hour + 2*time.Second))
	assert.Equal(t, Clocks{BlackMS: 48_000, WhiteMS: 50_000}, c)
	assert.False(t, r.Expired(at(time.Hour+2*time.Second)))
}

// TestResumeChargesTheTurnUntilLastAlive is a known-answer table: black's turn started at
// 20 s with 50 s left; the room stopped running at some point and resumes at 1 h.
func TestResumeChargesTheTurnUntilLastAlive(t *testing.T) {
	s := seated(t, func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000} })
	s, _ = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, at(10*time.Second))
	s, _ = apply(t, s, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "a1"}, at(20*time.Second))
	resumed := at(time.Hour)
	tests := []struct {
		name      string
		lastAlive time.Time
		blackMS   int64 // at the resume
	}{
		{"unknown: the turn restarts", time.Time{}, 50_000},
		{"alive 7 s into the turn", at(27 * time.Second), 43_000},
		{"alive until just before the resume (hand-over)", resumed.Add(-time.Second), 0},
		{"last sign of life before the turn began", at(15 * time.Second), 50_000},
		{"a clock ahead of ours: nothing charged", resumed.Add(time.Minute), 50_000},
	}
	for _, tc := range tests {
		r, credit := s.Resume(tc.lastAlive, resumed)
		c, _ := r.Clock(resumed)
		assert.Equal(t, tc.blackMS, c.BlackMS, tc.name)
		assert.Equal(t, int64(50_000), c.WhiteMS, tc.name)
		assert.Equal(t, tc.blackMS == 0, r.Expired(resumed), tc.name)
		assert.Equal(t, r.TurnStart().Sub(s.TurnStart()), credit, tc.name)
		// Another node applying the stored credit charges the turn the same.
		again := s.Credited(TurnCredit{TurnStartMS: s.TurnStart().UnixMilli(), MS: credit.Milliseconds()})
		assert.Equal(t, r.TurnStart(), again.TurnStart(), tc.name)
	}
	over := finished(t)
	r, credit := over.Resume(at(time.Second), resumed)
	assert.Equal(t, over, r, "a finished game is left alone")
	assert.Zero(t, credit)
	assert.Equal(t, s.TurnStart(), s.Credited(TurnCredit{TurnStartMS: at(10 * time.Second).UnixMilli(), MS: 5000}).TurnStart(),
		"a credit of another turn does not apply")
}

func TestFakeClock(t *testing.T) {
	f := NewFakeClock(t0)
	tm := f.NewTimer(time.Second)
	tm2 := f.NewTimer(3 * time.Second)
	assert.Equal(t, 2, f.Timers())
	f.Advance(time.Second)
	select {
	case v := <-tm.C():
		assert.Equal(t, at(time.Second), v)
	default:
		t.Fatal("timer did not fire")
	}
	assert.True(t, tm2.Stop())
	f.Advance(time.Hour)
	select {
	case <-tm2.C():
		t.Fatal("stopped timer fired")
	default:
	}
	now := f.NewTimer(0)
	<-now.C()
}
