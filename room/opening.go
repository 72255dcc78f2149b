package room

import (
	"fmt"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Opening rules (Settings.Opening). Under swap and swap2 the first player (the seat that
// is black when the game starts) places the first stones of both colours and the second
// player chooses a colour, so that a first-player win in freestyle and standard is no
// advantage of either person.
const (
	OpeningNone  = "none"  // black plays first, as dealt
	OpeningSwap  = "swap"  // first player places 3 stones (B, W, B); second chooses a colour
	OpeningSwap2 = "swap2" // as swap, or the second places 2 more (W, B) and the first chooses
)

// OpeningStep is the step of an opening in progress ("" when there is none or it is
// over and the game goes on as usual).
type OpeningStep string

// Opening steps. The actor of place3 and choose2 is the first player (the seat that is
// black while the opening runs), that of choose and place2 the second (white).
const (
	StepPlace3  OpeningStep = "place3"  // first player: stones 1–3 (black, white, black)
	StepChoose  OpeningStep = "choose"  // second player: black, white (or place2 under swap2)
	StepPlace2  OpeningStep = "place2"  // second player: stones 4–5 (white, black)
	StepChoose2 OpeningStep = "choose2" // first player: black or white
)

// Opening choices (the choose command's choice).
const (
	ChoiceBlack  = protocol.ChoiceBlack
	ChoiceWhite  = protocol.ChoiceWhite
	ChoicePlace2 = protocol.ChoicePlace2
)

// Opening errors (docs/protocol.md, choose and move).
var (
	ErrNoOpening     = newError(protocol.CodeNotAllowed, "no opening choice is due")
	ErrOpeningChoice = newError(protocol.CodeNotAllowed, "the opening needs a colour choice, not a stone")
	ErrOpeningPlace  = newError(protocol.CodeNotAllowed, "the opening stones are not all placed yet")
	ErrBadChoice     = newError(protocol.CodeBadRequest, "choice must be black or white (or place2 in swap2's first choice)")
	ErrInOpening     = newError(protocol.CodeNotAllowed, "not allowed during the opening")
)

func validOpening(s string) bool {
	return s == OpeningNone || s == OpeningSwap || s == OpeningSwap2
}

// actor returns the seat colour that acts in step st.
func (st OpeningStep) actor() engine.Color {
	switch st {
	case StepPlace3, StepChoose2:
		return engine.Black
	case StepChoose, StepPlace2:
		return engine.White
	}
	return engine.Empty
}

// placing reports whether st is a placement step.
func (st OpeningStep) placing() bool { return st == StepPlace3 || st == StepPlace2 }

// Opening returns the current opening step ("" when none is in progress).
func (s State) Opening() OpeningStep {
	if s.phase != PhasePlaying {
		return ""
	}
	return s.step
}

// OpeningPlies returns how many stones of the current game were placed under the
// opening rule (3 or 5 once it is over; 0 without one). Takebacks never remove them.
func (s State) OpeningPlies() int { return s.openPlies }

// SeatOfGame1 returns the index (0 black, 1 white) in game 1's settings of the seat
// that plays colour c now: rematches and opening colour choices swap the seats.
func (s State) SeatOfGame1(c engine.Color) int {
	i := ci(c)
	if s.flipped {
		i ^= 1
	}
	return i
}

// placedBy returns the colour now played by whoever put the stone of ply on the board.
func (s State) placedBy(ply int) engine.Color {
	if ply < s.openPlies {
		c := engine.Black // the first player placed stones 1–3
		if ply >= 3 {
			c = engine.White // the second player stones 4–5
		}
		if s.swapped {
			c = c.Opponent()
		}
		return c
	}
	if ply%2 == 0 {
		return engine.Black
	}
	return engine.White
}

// place puts one opening stone for me (the actor of a placement step).
func (a *applier) place(me engine.Color, ply int, p engine.Point) error {
	st := a.s.step
	if me != st.actor() {
		return ErrNotYourTurn
	}
	if !st.placing() {
		return ErrOpeningChoice
	}
	if ply != a.s.board.Ply() {
		return ErrStalePly
	}
	if err := a.s.board.Check(p); err != nil {
		return moveError(err)
	}
	stone := a.s.board.ToMove()
	next := st
	if (st == StepPlace3 && ply == 2) || (st == StepPlace2 && ply == 4) {
		next = StepChoose
		if st == StepPlace2 {
			next = StepChoose2
		}
	}
	ev := Event{Kind: EvMove, Color: stone.String(), Point: p.String(), Ply: ply, Opening: string(next)}
	// A placement step is one move for the clock: it ends with its last stone.
	if err := a.charge(&ev, me, next != st); err != nil {
		return err
	}
	return a.emit(ev)
}

// choose applies an opening choice by me (a seat colour while the opening runs).
func (a *applier) choose(me engine.Color, choice string) error {
	st := a.s.step
	if st == "" {
		return ErrNoOpening
	}
	if me != st.actor() {
		return ErrNotYourTurn
	}
	if st.placing() {
		return ErrOpeningPlace
	}
	switch {
	case choice == ChoiceBlack || choice == ChoiceWhite:
	case choice == ChoicePlace2 && st == StepChoose && a.s.settings.Opening == OpeningSwap2:
	default:
		return ErrBadChoice
	}
	ev := Event{Kind: EvOpeningChoice, Color: me.String(), Choice: choice}
	if choice == ChoicePlace2 {
		ev.Opening = string(StepPlace2)
	}
	if err := a.charge(&ev, me, true); err != nil {
		return err
	}
	if err := a.emit(ev); err != nil {
		return err
	}
	if choice == ChoicePlace2 {
		return nil
	}
	swap := parseColor(choice) != me
	var clk *Clocks
	if c := ev.Clock; c != nil && swap {
		clk = &Clocks{BlackMS: c.WhiteMS, WhiteMS: c.BlackMS}
	} else {
		clk = c
	}
	return a.emit(Event{Kind: EvColors, Swap: swap, Clock: clk})
}

// chooseCmd is the choose command of a player.
func (a *applier) chooseCmd() error {
	me, err := a.player()
	if err != nil {
		return err
	}
	if err := a.playing(); err != nil {
		return err
	}
	return a.choose(me, a.cmd.Choice)
}

// aiOpening applies a machine seat's whole opening action (CmdAIOpening): the stones
// of its placement step or its choice, computed for the position of cmd.Hash/Ply/Step.
func (a *applier) aiOpening() error {
	c := a.cmd
	me := parseColor(c.Color)
	if me == engine.Empty || !a.s.seats[ci(me)].spec.IsMachine() {
		return ErrBadRequest
	}
	if err := a.playing(); err != nil {
		return err
	}
	if a.s.board.Hash() != c.Hash || a.s.board.Ply() != c.Ply || a.s.step != OpeningStep(c.Step) ||
		a.s.step == "" || a.s.step.actor() != me {
		return ErrStaleAIResult
	}
	if c.Choice != "" {
		return a.choose(me, c.Choice)
	}
	if len(c.Points) == 0 {
		return fmt.Errorf("%w: no stones", ErrBadRequest)
	}
	for _, s := range c.Points {
		if a.s.step != OpeningStep(c.Step) {
			return fmt.Errorf("%w: too many stones", ErrBadRequest)
		}
		p, err := engine.ParsePoint(s, a.s.settings.Size)
		if err != nil {
			return ErrOffBoard
		}
		if err := a.place(me, a.s.board.Ply(), p); err != nil {
			return err
		}
	}
	return nil
}

// foldOpening applies the opening's part of a move event (stone already checked).
func foldOpeningMove(s *State, e Event) error {
	st := s.step
	if !st.placing() {
		return fmt.Errorf("room: move event at ply %d during opening step %q", e.Ply, st)
	}
	if (st == StepPlace3 && e.Ply >= 3) || (st == StepPlace2 && (e.Ply < 3 || e.Ply >= 5)) {
		return fmt.Errorf("room: opening stone at ply %d in step %q", e.Ply, st)
	}
	s.openPlies = e.Ply + 1
	switch {
	case st == StepPlace3 && e.Ply == 2:
		s.step = StepChoose
	case st == StepPlace2 && e.Ply == 4:
		s.step = StepChoose2
	}
	return nil
}
