package room

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openingGame returns a started game under opening rule o: Alice is the first player
// (black while the opening runs), Bob the second.
func openingGame(t testing.TB, o string, mod func(*Settings)) State {
	t.Helper()
	return seated(t, func(s *Settings) {
		s.Opening = o
		if mod != nil {
			mod(s)
		}
	})
}

// place puts opening stones by by, one second apart.
func place(t testing.TB, s State, by Player, points ...string) State {
	t.Helper()
	for _, p := range points {
		s, _ = apply(t, s, Command{Kind: CmdMove, By: by, Ply: s.Ply(), Point: p}, t0.Add(time.Duration(s.Ply()+1)*time.Second))
	}
	return s
}

func choose(t testing.TB, s State, by Player, choice string) State {
	t.Helper()
	s, _ = apply(t, s, Command{Kind: CmdChoose, By: by, Choice: choice}, t0.Add(10*time.Second))
	return s
}

// openingView is what a test checks of a state during and after an opening.
type openingView struct {
	Step         OpeningStep
	ToMove       engine.Color // the seat to act
	Stone        engine.Color // the next stone's colour
	Alice, Bob   engine.Color // their seats
	OpeningPlies int
}

func viewOf(s State) openingView {
	return openingView{Step: s.Opening(), ToMove: s.ToMove(), Stone: s.Stone(), Alice: s.ColorOf(alice.ID),
		Bob: s.ColorOf(bob.ID), OpeningPlies: s.OpeningPlies()}
}

func TestOpeningTable(t *testing.T) {
	const B, W = engine.Black, engine.White
	swapFresh := func(t *testing.T) State { return openingGame(t, OpeningSwap, nil) }
	swap2Fresh := func(t *testing.T) State { return openingGame(t, OpeningSwap2, nil) }
	swap2Two := func(t *testing.T) State { return place(t, swap2Fresh(t), alice, "h8", "i9") }
	swapChoose := func(t *testing.T) State { return place(t, swapFresh(t), alice, "h8", "i9", "j8") }
	swap2Choose := func(t *testing.T) State { return place(t, swap2Fresh(t), alice, "h8", "i9", "j8") }
	swap2Place2 := func(t *testing.T) State { return choose(t, swap2Choose(t), bob, ChoicePlace2) }
	swap2Place2One := func(t *testing.T) State { return place(t, swap2Place2(t), bob, "h9") }
	swap2Choose2 := func(t *testing.T) State { return place(t, swap2Place2(t), bob, "h9", "h10") }
	renjuChoose2 := func(t *testing.T) State {
		s := openingGame(t, OpeningSwap2, func(s *Settings) { s.Rule = "renju"; s.Size = 20 })
		s = place(t, s, alice, "h8", "i9", "j8")
		s = choose(t, s, bob, ChoicePlace2)
		return place(t, s, bob, "h9", "h10")
	}
	swapWhite := func(t *testing.T) State { return choose(t, swapChoose(t), bob, ChoiceWhite) }
	swapBlack := func(t *testing.T) State { return choose(t, swapChoose(t), bob, ChoiceBlack) }
	swapBlackPlayed := func(t *testing.T) State {
		return place(t, swapBlack(t), alice, "k8") // alice is white now and plays stone 4
	}
	none := func(t *testing.T) State { return seated(t, nil) }
	waitingSwap := func(t *testing.T) State { return created(t, func(s *Settings) { s.Opening = OpeningSwap2 }) }
	mv := func(by Player, ply int, p string) Command { return Command{Kind: CmdMove, By: by, Ply: ply, Point: p} }
	ch := func(by Player, c string) Command { return Command{Kind: CmdChoose, By: by, Choice: c} }

	tests := []struct {
		name  string
		state func(*testing.T) State
		cmd   Command
		err   error
		want  []EventKind
		view  *openingView // the state after an accepted command
	}{
		// swap2 step 1: the first player places black, white, black.
		{"first stone", swap2Fresh, mv(alice, 0, "h8"), nil, []EventKind{EvMove},
			&openingView{StepPlace3, B, W, B, W, 1}},
		{"second stone is white, same player", func(t *testing.T) State { return place(t, swap2Fresh(t), alice, "h8") },
			mv(alice, 1, "i9"), nil, []EventKind{EvMove}, &openingView{StepPlace3, B, B, B, W, 2}},
		{"third stone ends the step", swap2Two, mv(alice, 2, "j8"), nil, []EventKind{EvMove},
			&openingView{StepChoose, W, W, B, W, 3}},
		{"second player places in step 1", swap2Two, mv(bob, 2, "j8"), ErrNotYourTurn, nil, nil},
		{"spectator places", swap2Two, mv(carol, 2, "j8"), ErrNotAPlayer, nil, nil},
		{"stale ply", swap2Two, mv(alice, 1, "j8"), ErrStalePly, nil, nil},
		{"occupied point", swap2Two, mv(alice, 2, "i9"), ErrOccupied, nil, nil},
		{"off-board point", swap2Two, mv(alice, 2, "z99"), ErrOffBoard, nil, nil},
		{"choice before the stones", swap2Two, ch(alice, ChoiceBlack), ErrOpeningPlace, nil, nil},
		{"second player chooses before the stones", swap2Two, ch(bob, ChoiceWhite), ErrNotYourTurn, nil, nil},
		{"resent stone acknowledged", swap2Choose, mv(alice, 1, "i9"), ErrDuplicate, nil, nil},

		// swap2 step 2: the second player chooses.
		{"swap2 second player takes white", swap2Choose, ch(bob, ChoiceWhite), nil, []EventKind{EvOpeningChoice, EvColors},
			&openingView{"", W, W, B, W, 3}},
		{"swap2 second player takes black", swap2Choose, ch(bob, ChoiceBlack), nil, []EventKind{EvOpeningChoice, EvColors},
			&openingView{"", W, W, W, B, 3}},
		{"swap2 second player places two more", swap2Choose, ch(bob, ChoicePlace2), nil, []EventKind{EvOpeningChoice},
			&openingView{StepPlace2, W, W, B, W, 3}},
		{"first player chooses in step 2", swap2Choose, ch(alice, ChoiceBlack), ErrNotYourTurn, nil, nil},
		{"spectator chooses", swap2Choose, ch(carol, ChoiceBlack), ErrNotAPlayer, nil, nil},
		{"bad choice", swap2Choose, ch(bob, "red"), ErrBadChoice, nil, nil},
		{"empty choice", swap2Choose, ch(bob, ""), ErrBadChoice, nil, nil},
		{"stone instead of a choice", swap2Choose, mv(bob, 3, "k8"), ErrOpeningChoice, nil, nil},
		{"first player's stone in step 2", swap2Choose, mv(alice, 3, "k8"), ErrNotYourTurn, nil, nil},

		// swap2 step 3: the second player places white, black.
		{"fourth stone", swap2Place2, mv(bob, 3, "h9"), nil, []EventKind{EvMove},
			&openingView{StepPlace2, W, B, B, W, 4}},
		{"fifth stone ends the step", swap2Place2One, mv(bob, 4, "h10"), nil, []EventKind{EvMove},
			&openingView{StepChoose2, B, W, B, W, 5}},
		{"first player places in step 3", swap2Place2, mv(alice, 3, "h9"), ErrNotYourTurn, nil, nil},
		{"choice instead of the stones", swap2Place2One, ch(bob, ChoiceWhite), ErrOpeningPlace, nil, nil},
		{"occupied in step 3", swap2Place2One, mv(bob, 4, "h9"), ErrOccupied, nil, nil},
		{"resent fourth stone acknowledged", swap2Choose2, mv(bob, 3, "h9"), ErrDuplicate, nil, nil},

		// swap2 step 4: the first player chooses.
		{"first player keeps black", swap2Choose2, ch(alice, ChoiceBlack), nil, []EventKind{EvOpeningChoice, EvColors},
			&openingView{"", W, W, B, W, 5}},
		{"first player takes white", swap2Choose2, ch(alice, ChoiceWhite), nil, []EventKind{EvOpeningChoice, EvColors},
			&openingView{"", W, W, W, B, 5}},
		{"no third option in step 4", swap2Choose2, ch(alice, ChoicePlace2), ErrBadChoice, nil, nil},
		{"second player chooses in step 4", swap2Choose2, ch(bob, ChoiceBlack), ErrNotYourTurn, nil, nil},
		{"stone instead of the last choice", swap2Choose2, mv(alice, 5, "k8"), ErrOpeningChoice, nil, nil},
		{"renju: the last choice", renjuChoose2, ch(alice, ChoiceWhite), nil, []EventKind{EvOpeningChoice, EvColors},
			&openingView{"", W, W, W, B, 5}},

		// swap: one choice, no third option.
		{"swap second player takes white", swapChoose, ch(bob, ChoiceWhite), nil, []EventKind{EvOpeningChoice, EvColors},
			&openingView{"", W, W, B, W, 3}},
		{"swap second player takes black", swapChoose, ch(bob, ChoiceBlack), nil, []EventKind{EvOpeningChoice, EvColors},
			&openingView{"", W, W, W, B, 3}},
		{"swap has no place2", swapChoose, ch(bob, ChoicePlace2), ErrBadChoice, nil, nil},

		// After the opening the game goes on as usual.
		{"white plays stone 4 after taking white", swapWhite, mv(bob, 3, "k8"), nil, []EventKind{EvMove},
			&openingView{"", B, B, B, W, 3}},
		{"the swapped first player plays white", swapBlack, mv(alice, 3, "k8"), nil, []EventKind{EvMove},
			&openingView{"", B, B, W, B, 3}},
		{"the swapped second player waits", swapBlack, mv(bob, 3, "k8"), ErrNotYourTurn, nil, nil},
		{"no choice after the opening", swapWhite, ch(bob, ChoiceBlack), ErrNoOpening, nil, nil},
		{"resent opening stone after a swap", swapBlack, mv(alice, 0, "h8"), ErrDuplicate, nil, nil},
		{"opening stone is not the swapped player's", swapBlack, mv(bob, 0, "h8"), ErrNotYourTurn, nil, nil},
		{"no choice without an opening", none, ch(alice, ChoiceBlack), ErrNoOpening, nil, nil},
		{"no choice before the game", waitingSwap, ch(alice, ChoiceBlack), ErrNotAPlayer, nil, nil},

		// Takebacks never reach into the opening; abort until the second player acted.
		{"takeback during the opening", swap2Choose, Command{Kind: CmdTakebackRequest, By: alice}, ErrInOpening, nil, nil},
		{"takeback of an opening stone", swapWhite, Command{Kind: CmdTakebackRequest, By: alice}, ErrNothingToTake, nil, nil},
		{"takeback of the first stone after the opening", swapBlackPlayed, Command{Kind: CmdTakebackRequest, By: alice},
			nil, []EventKind{EvTakebackRequested}, nil},
		{"abort in step 1", swap2Two, Command{Kind: CmdAbort, By: bob}, nil, []EventKind{EvGameOver}, nil},
		{"abort in step 2", swap2Choose, Command{Kind: CmdAbort, By: alice}, nil, []EventKind{EvGameOver}, nil},
		{"abort after the second player acted", swap2Place2, Command{Kind: CmdAbort, By: alice}, ErrAbortTooLate, nil, nil},
		{"resign during the opening", swap2Place2, Command{Kind: CmdResign, By: bob}, nil, []EventKind{EvGameOver}, nil},
		{"normal AI move refused in the opening", swap2Choose, Command{Kind: CmdAIMove, Color: "white", Ply: 3, Point: "k8"},
			ErrBadRequest, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.state(t)
			ns, evs, err := Apply(s, tc.cmd, t0.Add(time.Minute))
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				require.Equal(t, s, ns, "a refusal changes nothing")
				require.Empty(t, evs)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, kinds(evs))
			if tc.view != nil {
				require.Equal(t, *tc.view, viewOf(ns))
			}
		})
	}
}

// TestOpeningEvents checks the events' fields: the stone colour of placements, the
// step after each one, the choice and the colour assignment.
func TestOpeningEvents(t *testing.T) {
	s := place(t, openingGame(t, OpeningSwap2, nil), alice, "h8", "i9")
	_, evs := apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "j8"}, t0.Add(5*time.Second))
	require.Len(t, evs, 1)
	assert.Equal(t, Event{Seq: evs[0].Seq, Kind: EvMove, At: evs[0].At, Game: 1, Color: "black", Point: "j8", Ply: 2,
		Opening: string(StepChoose)}, evs[0])

	s = place(t, s, alice, "j8")
	_, evs = apply(t, s, Command{Kind: CmdChoose, By: bob, Choice: ChoiceBlack}, t0.Add(6*time.Second))
	require.Len(t, evs, 2)
	assert.Equal(t, "white", evs[0].Color, "the chooser's seat")
	assert.Equal(t, ChoiceBlack, evs[0].Choice)
	assert.Empty(t, evs[0].Opening)
	assert.True(t, evs[1].Swap)
	assert.Equal(t, 3, evs[1].Ply)

	_, evs = apply(t, s, Command{Kind: CmdChoose, By: bob, Choice: ChoicePlace2}, t0.Add(6*time.Second))
	require.Len(t, evs, 1)
	assert.Equal(t, string(StepPlace2), evs[0].Opening)
}

// TestOpeningClocks: each opening action is its player's move for the clock. A
// player's clock starts with its first action (the first player's placement step, the
// second player's first choice), timed by the first-move time until then; the placement
// step runs as one turn (no increment per stone), a choice ends a turn, and the clocks
// follow the people when the colours are swapped.
func TestOpeningClocks(t *testing.T) {
	s := openingGame(t, OpeningSwap, func(s *Settings) { s.Time = TimeControl{BaseMS: 60_000, IncrementMS: 1_000} })
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	var evs []Event
	assert.Equal(t, at(30), s.Deadline(), "the first-move time covers the placement step")
	s, evs = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, at(5))
	assert.Nil(t, evs[0].Clock, "the step goes on")
	s, _ = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 1, Point: "i9"}, at(10))
	c, running := s.Clock(at(20))
	assert.False(t, running, "no clock runs before a player's first action")
	assert.Equal(t, Clocks{BlackMS: 60_000, WhiteMS: 60_000}, c)
	s, evs = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "j8"}, at(20))
	assert.Equal(t, &Clocks{BlackMS: 60_000, WhiteMS: 60_000}, evs[0].Clock, "free, and no increment")
	c, _ = s.Clock(at(25))
	assert.Equal(t, Clocks{BlackMS: 60_000, WhiteMS: 60_000}, c, "the chooser's first choice is timed by the first-move time")
	assert.Equal(t, at(50), s.Deadline())

	s, evs = apply(t, s, Command{Kind: CmdChoose, By: bob, Choice: ChoiceBlack}, at(30))
	assert.Equal(t, &Clocks{BlackMS: 60_000, WhiteMS: 60_000}, evs[0].Clock)
	assert.True(t, evs[1].Swap)
	c, _ = s.Clock(at(31))
	assert.Equal(t, Clocks{BlackMS: 60_000, WhiteMS: 59_000}, c, "Alice now plays white, is to move, and her clock runs")
	assert.Equal(t, at(30).Add(60*time.Second), s.Deadline())
	s, evs = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 3, Point: "k8"}, at(35))
	assert.Equal(t, int64(56_000), evs[0].ClockMS, "60 - 5 + 1")
	c, _ = s.Clock(at(37))
	assert.Equal(t, Clocks{BlackMS: 58_000, WhiteMS: 56_000}, c, "Bob (black) now")

	// A first player who lets the first-move time pass in the placement step aborts the
	// game (no result), whatever the per-move limit.
	o := openingGame(t, OpeningSwap2, func(s *Settings) { s.Time = TimeControl{PerMoveMS: 10_000} })
	o = place(t, o, alice, "h8")
	o, _ = apply(t, o, Command{Kind: CmdMove, By: alice, Ply: 1, Point: "i9"}, t0.Add(11*time.Second))
	_, _, err := Apply(o, Command{Kind: CmdMove, By: alice, Ply: 2, Point: "j8"}, t0.Add(30*time.Second))
	require.ErrorIs(t, err, ErrTimeUp, "the first-move time covers the whole step")
	_, evs = apply(t, o, Command{Kind: CmdTimeout}, t0.Add(30*time.Second))
	assert.Equal(t, ResultAborted, evs[0].Result)
	assert.Equal(t, ReasonFirstMove, evs[0].Reason)
}

func TestAIOpeningCommand(t *testing.T) {
	vsAI := func(t *testing.T) State {
		s := created(t, func(s *Settings) { s.Opening = OpeningSwap2; s.White = SeatSpec{Kind: AI, Level: "novice"} })
		s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
		return place(t, s, alice, "h8", "i9", "j8")
	}
	s := vsAI(t)
	ai := func(s State, mod func(*Command)) Command {
		c := Command{Kind: CmdAIOpening, Color: "white", Ply: s.Ply(), Hash: s.Hash(), Step: string(s.Opening())}
		mod(&c)
		return c
	}
	for _, tc := range []struct {
		name string
		cmd  Command
		err  error
		want []EventKind
	}{
		{"choice", ai(s, func(c *Command) { c.Choice = ChoiceBlack }), nil, []EventKind{EvOpeningChoice, EvColors}},
		{"place two more", ai(s, func(c *Command) { c.Choice = ChoicePlace2 }), nil, []EventKind{EvOpeningChoice}},
		{"stale hash", ai(s, func(c *Command) { c.Choice = ChoiceBlack; c.Hash++ }), ErrStaleAIResult, nil},
		{"stale step", ai(s, func(c *Command) { c.Choice = ChoiceBlack; c.Step = string(StepPlace2) }), ErrStaleAIResult, nil},
		{"human seat", ai(s, func(c *Command) { c.Choice = ChoiceBlack; c.Color = "black" }), ErrBadRequest, nil},
		{"stones in a choice step", ai(s, func(c *Command) { c.Points = []string{"k8"} }), ErrOpeningChoice, nil},
		{"nothing", ai(s, func(*Command) {}), ErrBadRequest, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns, evs, err := Apply(s, tc.cmd, t0.Add(time.Minute))
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				require.Equal(t, s, ns)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, kinds(evs))
		})
	}
	// The AI's placement step: both stones in one command, all or nothing.
	p2, _ := apply(t, s, ai(s, func(c *Command) { c.Choice = ChoicePlace2 }), t0.Add(time.Minute))
	_, _, err := Apply(p2, ai(p2, func(c *Command) { c.Points = []string{"h9", "h8"} }), t0.Add(time.Minute))
	require.ErrorIs(t, err, ErrOccupied)
	_, _, err = Apply(p2, ai(p2, func(c *Command) { c.Points = []string{"h9", "h10", "h11"} }), t0.Add(time.Minute))
	require.ErrorIs(t, err, ErrBadRequest)
	done, evs := apply(t, p2, ai(p2, func(c *Command) { c.Points = []string{"h9", "h10"} }), t0.Add(time.Minute))
	require.Equal(t, []EventKind{EvMove, EvMove}, kinds(evs))
	require.Equal(t, StepChoose2, done.Opening())
	require.Equal(t, []string{"h8", "i9", "j8", "h9", "h10"}, done.Moves())
}

// TestOpeningReplay plays a whole swap2 game with both choices handed over, a rematch
// (the other person proposes) and a swap: the JSON event log replays to the live state.
func TestOpeningReplay(t *testing.T) {
	s := created(t, func(s *Settings) {
		s.Opening = OpeningSwap2
		s.Time = TimeControl{BaseMS: 300_000, IncrementMS: 2_000}
	})
	_, first, _ := NewState("r1", s.Settings(), t0)
	log := []Event{first}
	now := t0
	do := func(c Command) {
		now = now.Add(3 * time.Second)
		var evs []Event
		s, evs = apply(t, s, c, now)
		for _, e := range evs {
			b, err := EncodeEvent(e)
			require.NoError(t, err)
			d, err := DecodeEvent(b)
			require.NoError(t, err)
			log = append(log, d)
		}
	}
	do(Command{Kind: CmdSit, By: alice, Color: "black"})
	do(Command{Kind: CmdSit, By: bob, Color: "white"})
	mv := func(by Player, p string) Command { return Command{Kind: CmdMove, By: by, Ply: s.Ply(), Point: p} }
	do(mv(alice, "h8"))
	do(mv(alice, "i9"))
	do(mv(alice, "j8"))
	do(Command{Kind: CmdChoose, By: bob, Choice: ChoicePlace2})
	do(mv(bob, "h9"))
	do(mv(bob, "h10"))
	do(Command{Kind: CmdChoose, By: alice, Choice: ChoiceWhite})
	require.Equal(t, engine.White, s.ColorOf(alice.ID))
	// Alice (white now) plays on; Bob resigns.
	do(mv(alice, "k8"))
	do(Command{Kind: CmdResign, By: bob})
	require.Equal(t, "white", s.result)
	// The rematch swaps the seats: Bob, white in the last game, proposes in this one.
	do(Command{Kind: CmdRematch, By: alice})
	do(Command{Kind: CmdRematch, By: bob})
	require.Equal(t, engine.Black, s.ColorOf(bob.ID))
	require.Equal(t, StepPlace3, s.Opening())
	require.Equal(t, 1, s.SeatOfGame1(engine.Black), "Bob sat at white in game 1")
	do(mv(bob, "h8"))
	do(mv(bob, "a1"))
	do(mv(bob, "o15"))
	do(Command{Kind: CmdChoose, By: alice, Choice: ChoiceBlack})
	require.Equal(t, engine.Black, s.ColorOf(alice.ID))
	require.Equal(t, 0, s.SeatOfGame1(engine.Black))

	replayed, err := Replay(log)
	require.NoError(t, err)
	require.Equal(t, s, replayed)
	a, _ := json.Marshal(s.Snapshot(now))
	b, _ := json.Marshal(replayed.Snapshot(now))
	require.JSONEq(t, string(a), string(b))

	// A reconnecting client resumes mid-opening from the snapshot.
	mid, err := Replay(log[:len(log)-1])
	require.NoError(t, err)
	snap := mid.Snapshot(now)
	assert.Equal(t, string(StepChoose), snap.Opening)
	assert.Equal(t, "white", snap.ToMove, "the second player chooses")
	assert.Equal(t, "white", snap.Stone)
	assert.Equal(t, "white", snap.Clock.ToMove)
}

func TestOpeningSettings(t *testing.T) {
	set, err := Settings{}.Normalize()
	require.NoError(t, err)
	assert.Equal(t, OpeningNone, set.Opening)
	_, err = Settings{Opening: "swap3"}.Normalize()
	require.ErrorIs(t, err, ErrBadSettings)
	s := created(t, func(s *Settings) { s.Opening = OpeningSwap2 })
	assert.Equal(t, OpeningSwap2, s.Summary().Opening)
	assert.Empty(t, created(t, nil).Summary().Opening)
}
