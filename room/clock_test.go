package room

import (
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func at(d time.Duration) time.Time { return t0.Add(d) }

func TestClockFischer(t *testing.T) {
	s := seated(t, func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000, IncrementMS: 2_000} })
	c, running := s.Clock(at(3 * time.Second))
	assert.False(t, running, "no clock runs before a side's first move")
	assert.Equal(t, Clocks{BlackMS: 60_000, WhiteMS: 60_000}, c)
	assert.Equal(t, at(30*time.Second), s.Deadline(), "the first-move time instead")

	s, evs := apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, at(5*time.Second))
	assert.Equal(t, int64(60_000), evs[0].ClockMS, "a first move is free and earns no increment")
	assert.Equal(t, &Clocks{BlackMS: 60_000, WhiteMS: 60_000}, evs[0].Clock)
	s, evs = apply(t, s, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "i9"}, at(15*time.Second))
	assert.Equal(t, int64(60_000), evs[0].ClockMS)
	c, running = s.Clock(at(20 * time.Second))
	assert.True(t, running)
	assert.Equal(t, Clocks{BlackMS: 55_000, WhiteMS: 60_000}, c, "black's clock runs from white's first move")
	s, evs = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "h9"}, at(25*time.Second))
	assert.Equal(t, int64(52_000), evs[0].ClockMS, "60 s - 10 s + 2 s increment")
	s, evs = apply(t, s, Command{Kind: CmdMove, By: bob, Ply: 3, Point: "i10"}, at(35*time.Second))
	assert.Equal(t, int64(52_000), evs[0].ClockMS)
	assert.Equal(t, at(35*time.Second+52*time.Second), s.Deadline())

	// Not yet expired: flag refused, move accepted up to the deadline.
	_, _, err := Apply(s, Command{Kind: CmdFlag}, at(86*time.Second))
	assert.ErrorIs(t, err, ErrTimeNotUp)
	assert.False(t, s.Expired(at(86*time.Second)))
	assert.True(t, s.Expired(at(87*time.Second)))

	// Expired: the move is refused, the flag ends the game for white.
	_, _, err = Apply(s, Command{Kind: CmdMove, By: alice, Ply: 4, Point: "h10"}, at(88*time.Second))
	assert.ErrorIs(t, err, ErrTimeUp)
	assert.Equal(t, "game_over", protocol.Code(err))
	s2, evs := apply(t, s, Command{Kind: CmdTimeout}, at(88*time.Second))
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
	assert.Equal(t, at(30*time.Second), s.Deadline(), "the first-move time, not the per-move limit")
	s, evs := apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, at(20*time.Second))
	assert.Nil(t, evs[0].Clock, "no Fischer clock")
	s, _ = apply(t, s, Command{Kind: CmdMove, By: bob, Ply: 1, Point: "i9"}, at(45*time.Second))
	assert.Equal(t, at(55*time.Second), s.Deadline(), "the limit applies from the third ply on")
	s, _ = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "h9"}, at(54*time.Second))
	assert.Equal(t, at(64*time.Second), s.Deadline(), "the limit restarts every move")
	_, _, err := Apply(s, Command{Kind: CmdMove, By: bob, Ply: 3, Point: "i10"}, at(64*time.Second+time.Millisecond))
	assert.ErrorIs(t, err, ErrTimeUp)
	_, evs, err = Apply(s, Command{Kind: CmdFlag, By: carol}, at(65*time.Second))
	require.NoError(t, err)
	assert.Equal(t, ResultBlack, evs[0].Result)
	assert.Equal(t, ReasonTimeout, evs[0].Reason)
}

func TestClockPerMoveWithFischer(t *testing.T) {
	s := seated(t, func(s *Settings) { s.Time = TimeControl{BaseMS: 10_000, PerMoveMS: 20_000} })
	s = play(t, s, "h8", "i9") // at 1 s and 2 s: first moves, no clock
	assert.Equal(t, at(2*time.Second+10*time.Second), s.Deadline(), "the main clock is shorter")
	s = play(t, s, "h9") // at 3 s: black has 9 s left
	assert.Equal(t, at(3*time.Second+10*time.Second), s.Deadline(), "white's 10 s")
	s = play(t, s, "i10") // at 4 s: white has 9 s left, black 9 s, per-move 20 s
	assert.Equal(t, at(4*time.Second+9*time.Second), s.Deadline())
}

// TestFirstMove is the table of the first-move rule: a side's clock starts with its
// first move; a side that does not make it within Settings.FirstMoveMS aborts the game
// (no result), in timed games.
func TestFirstMove(t *testing.T) {
	fischer := func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000, IncrementMS: 1_000} }
	vsAI := func(s *Settings) { fischer(s); s.White = SeatSpec{Kind: AI, Level: "novice"} }
	tests := []struct {
		name     string
		mod      func(*Settings)
		moves    []time.Duration // times of the first moves made (alternately black, white)
		deadline time.Duration   // 0: none
		clocks   Clocks          // at the deadline - 1 ms
	}{
		{"black never moves", fischer, nil, 30 * time.Second, Clocks{60_000, 60_000}},
		{"white never moves", fischer, []time.Duration{29 * time.Second}, 59 * time.Second, Clocks{60_000, 60_000}},
		{"a room setting", func(s *Settings) { fischer(s); s.FirstMoveMS = 12_000 }, []time.Duration{5 * time.Second}, 17 * time.Second, Clocks{60_000, 60_000}},
		{"per-move control", func(s *Settings) { s.Time = TimeControl{PerMoveMS: 5_000} }, nil, 30 * time.Second, Clocks{}},
		{"no clock: no first-move limit", nil, nil, 0, Clocks{}},
		{"after both first moves the clock runs", fischer, []time.Duration{time.Second, 2 * time.Second}, 62 * time.Second, Clocks{0, 60_000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := seated(t, tc.mod)
			for i, d := range tc.moves {
				by := []Player{alice, bob}[i%2]
				s, _ = apply(t, s, Command{Kind: CmdMove, By: by, Ply: i, Point: []string{"h8", "i9"}[i]}, at(d))
			}
			if tc.deadline == 0 {
				assert.True(t, s.Deadline().IsZero())
				assert.True(t, s.FirstMoveDeadline().IsZero())
				return
			}
			assert.Equal(t, at(tc.deadline), s.Deadline())
			c, _ := s.Clock(at(tc.deadline - time.Millisecond))
			if s.Settings().Time.BaseMS > 0 {
				want := tc.clocks
				if want.BlackMS == 0 {
					want.BlackMS = 1
				}
				assert.Equal(t, want, c)
			}
			_, _, err := Apply(s, Command{Kind: CmdTimeout}, at(tc.deadline-time.Millisecond))
			assert.ErrorIs(t, err, ErrTimeNotUp)
			_, evs, err := Apply(s, Command{Kind: CmdTimeout}, at(tc.deadline))
			require.NoError(t, err)
			require.Equal(t, []EventKind{EvGameOver}, kinds(evs))
			if len(tc.moves) < 2 {
				assert.Equal(t, ResultAborted, evs[0].Result, "no result, not a loss")
				assert.Equal(t, ReasonFirstMove, evs[0].Reason)
				snap := s.Snapshot(at(time.Second))
				assert.Equal(t, at(tc.deadline).UnixMilli(), snap.Clock.FirstMoveDeadlineMS)
				assert.Zero(t, snap.Clock.DeadlineMS)
				assert.False(t, snap.Clock.Running)
			} else {
				assert.Equal(t, ResultWhite, evs[0].Result)
				assert.Equal(t, ReasonTimeout, evs[0].Reason)
			}
		})
	}

	t.Run("against the AI the human's clock is full before moving", func(t *testing.T) {
		s := created(t, func(s *Settings) { vsAI(s); s.White, s.Black = s.Black, s.White })
		s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "white"}, t0)
		s, evs := apply(t, s, Command{Kind: CmdAIMove, Color: "black", Point: "h8", Ply: 0, Hash: s.Hash()}, at(3*time.Second))
		assert.Equal(t, &Clocks{BlackMS: 60_000, WhiteMS: 60_000}, evs[0].Clock)
		c, running := s.Clock(at(20 * time.Second))
		assert.False(t, running)
		assert.Equal(t, Clocks{BlackMS: 60_000, WhiteMS: 60_000}, c)
	})
	t.Run("the waiting room shows the configured time", func(t *testing.T) {
		s := created(t, fischer)
		c, running := s.Clock(at(time.Minute))
		assert.False(t, running)
		assert.Equal(t, Clocks{BlackMS: 60_000, WhiteMS: 60_000}, c)
		snap := s.Snapshot(at(time.Minute))
		require.NotNil(t, snap.Clock)
		assert.Equal(t, int64(60_000), snap.Clock.BlackMS)
		assert.Equal(t, int64(60_000), snap.Clock.WhiteMS)
	})
}

// TestTakebackRestoresClocks: a takeback puts both clocks back to what they were when
// the requester's turn began, whoever grants it (the opponent, or an AI at once); the
// event log alone gives the same (Replay).
func TestTakebackRestoresClocks(t *testing.T) {
	fischer := func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000, IncrementMS: 2_000} }
	// Moves at 1 s (h8), 2 s (i9) are free; h9 at 12 s: black 60-10+2 = 52; i10 at 17 s:
	// white 60-5+2 = 57; h10 at 20 s: black 52-3+2 = 51; then white is to move.
	game := func(t *testing.T, mod func(*Settings)) []Event {
		set := DefaultSettings()
		mod(&set)
		s, ev, err := NewState("r1", set, t0)
		require.NoError(t, err)
		log := []Event{ev}
		step := func(cmd Command, d time.Duration) {
			var evs []Event
			s, evs = apply(t, s, cmd, at(d))
			log = append(log, evs...)
		}
		step(Command{Kind: CmdSit, By: alice, Color: "black"}, 0)
		if s.Phase() == PhaseWaiting {
			step(Command{Kind: CmdSit, By: bob, Color: "white"}, 0)
		}
		for i, m := range []string{"h8", "i9", "h9", "i10", "h10"} {
			by, d := alice, []time.Duration{1, 2, 12, 17, 20}[i]*time.Second
			if i%2 == 1 {
				if s.Seat(engineWhite()).Spec.IsMachine() {
					step(Command{Kind: CmdAIMove, Color: "white", Point: m, Ply: i, Hash: s.Hash()}, d)
					continue
				}
				by = bob
			}
			step(Command{Kind: CmdMove, By: by, Ply: i, Point: m}, d)
		}
		return log
	}
	tests := []struct {
		name     string
		mod      func(*Settings)
		by       Player
		accept   *Player
		plies    int
		restored Clocks
	}{
		{"black takes back its last move", fischer, alice, &bob, 1, Clocks{BlackMS: 52_000, WhiteMS: 57_000}},
		{"white, to move, takes back black's move and its own", fischer, bob, &alice, 2, Clocks{BlackMS: 52_000, WhiteMS: 60_000}},
		{"into the first moves", fischer, bob, &alice, 1, Clocks{BlackMS: 60_000, WhiteMS: 60_000}},
		{"against the AI, granted at once", func(s *Settings) { fischer(s); s.White = SeatSpec{Kind: AI, Level: "novice"} }, alice, nil, 1,
			Clocks{BlackMS: 52_000, WhiteMS: 57_000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := game(t, tc.mod)
			if tc.name == "into the first moves" {
				log = log[:len(log)-3] // after i9: white asks at once
			}
			s, err := Replay(log)
			require.NoError(t, err)
			ply := s.Ply()
			s, evs := apply(t, s, Command{Kind: CmdTakebackRequest, By: tc.by}, at(30*time.Second))
			log = append(log, evs...)
			if tc.accept != nil {
				s, evs = apply(t, s, Command{Kind: CmdTakebackAccept, By: *tc.accept}, at(40*time.Second))
				log = append(log, evs...)
			}
			require.Equal(t, []EventKind{EvTakeback}, kinds(evs))
			assert.Equal(t, tc.plies, evs[0].Plies)
			assert.Equal(t, ply-tc.plies, s.Ply())
			assert.Equal(t, &tc.restored, evs[0].Clock, "no time or increment banked")
			c, _ := s.Clock(evs[0].Time())
			assert.Equal(t, tc.restored, c)

			// The log alone (a restart, another node) rebuilds the same state, and a
			// further move and takeback on it are exact as well.
			r, err := Replay(log)
			require.NoError(t, err)
			assert.Equal(t, s, r)
			me := r.ToMove()
			who := alice
			if r.ColorOf(bob.ID) == me {
				who = bob
			}
			r, _ = apply(t, r, Command{Kind: CmdMove, By: who, Ply: r.Ply(), Point: "a1"}, at(50*time.Second))
			r, evs = apply(t, r, Command{Kind: CmdTakebackRequest, By: who}, at(55*time.Second))
			if r.TakebackRequest() != engine.Empty {
				other := alice
				if who == alice {
					other = bob
				}
				_, evs = apply(t, r, Command{Kind: CmdTakebackAccept, By: other}, at(56*time.Second))
			}
			assert.Equal(t, &tc.restored, evs[len(evs)-1].Clock)
		})
	}
}

// TestResumeChargesTheTurnUntilLastAlive is a known-answer table: black's turn started at
// 20 s with 60 s left (the first moves are free); the room stopped running at some point
// and resumes at 1 h.
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
		{"unknown: the turn restarts", time.Time{}, 60_000},
		{"alive 7 s into the turn", at(27 * time.Second), 53_000},
		{"alive until just before the resume (hand-over)", resumed.Add(-time.Second), 0},
		{"last sign of life before the turn began", at(15 * time.Second), 60_000},
		{"a clock ahead of ours: nothing charged", resumed.Add(time.Minute), 60_000},
	}
	for _, tc := range tests {
		r, credit := s.Resume(tc.lastAlive, resumed)
		c, _ := r.Clock(resumed)
		assert.Equal(t, tc.blackMS, c.BlackMS, tc.name)
		assert.Equal(t, int64(60_000), c.WhiteMS, tc.name)
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
