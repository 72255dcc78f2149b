package room

import (
	"fmt"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// fold applies one stored event to s: the only place where a State changes. Apply
// emits events through fold and Replay folds the log, so both give the same state.
func fold(s State, e Event) (State, error) {
	if e.Seq != s.seq+1 {
		return s, fmt.Errorf("room: event seq %d after %d: log not contiguous", e.Seq, s.seq)
	}
	if s.id == "" && e.Kind != EvCreated {
		return s, fmt.Errorf("room: first event is %q, want created", e.Kind)
	}
	if e.Kind != EvCreated && e.Kind != EvRematch && e.Game != s.game {
		return s, fmt.Errorf("room: event %d of game %d in game %d", e.Seq, e.Game, s.game)
	}
	at := time.UnixMilli(e.At).UTC()
	switch e.Kind {
	case EvCreated:
		if s.id != "" || e.Settings == nil {
			return s, fmt.Errorf("room: bad created event")
		}
		set, err := e.Settings.Normalize()
		if err != nil {
			return s, err
		}
		b, err := engine.NewBoard(set.Size, set.rule())
		if err != nil {
			return s, err
		}
		s = State{id: e.Room, settings: set, createdAt: e.At, game: 1, phase: PhaseWaiting, board: b}
		if s.id == "" {
			return s, fmt.Errorf("room: created event without id")
		}
		s.seats[0] = seat{spec: set.Black, filled: set.Black.IsMachine()}
		s.seats[1] = seat{spec: set.White, filled: set.White.IsMachine()}
		s.setClocks(baseClocks(set)) // the waiting room shows the configured time
	case EvSeated, EvLeft:
		c := parseColor(e.Color)
		if c == engine.Empty || e.Player == nil {
			return s, fmt.Errorf("room: bad %s event", e.Kind)
		}
		st := s.seats[ci(c)]
		switch {
		case e.Kind == EvSeated:
			st.player, st.filled, st.left = *e.Player, true, false
		case s.phase == PhaseWaiting:
			st.player, st.filled = Player{}, false
		default:
			st.left = true
			s.rematch = engine.Empty
		}
		s.seats[ci(c)] = st
	case EvStarted:
		b, err := openingBoard(s.board, e)
		if err != nil {
			return s, err
		}
		s.board = b
		s.phase = PhasePlaying
		s.setClocks(e.Clock)
		s.moveSeq, s.plyClocks = repeat(b.Ply(), e.Seq), repeat(b.Ply(), s.storedClocks())
		s.turnStart = at
		s.startOpening()
	case EvMove:
		p, err := engine.ParsePoint(e.Point, s.settings.Size)
		if err != nil {
			return s, err
		}
		if s.phase != PhasePlaying || e.Ply != s.board.Ply() {
			return s, fmt.Errorf("room: move event at ply %d out of place", e.Ply)
		}
		step := s.step
		if step != "" {
			if err := foldOpeningMove(&s, e); err != nil {
				return s, err
			}
		}
		b := s.board.Clone()
		if err := b.Play(p); err != nil {
			return s, err
		}
		s.board = b
		s.moveSeq = append(s.moveSeq[:len(s.moveSeq):len(s.moveSeq)], e.Seq)
		s.plyClocks = append(s.plyClocks[:len(s.plyClocks):len(s.plyClocks)], s.storedClocks())
		s.setClocks(e.Clock)
		if step == "" || s.step != step {
			s.turnStart = at // an opening's placement step is one turn
		}
		s.drawOffer, s.takeback = engine.Empty, engine.Empty
	case EvOpeningChoice:
		if err := foldChoice(&s, e); err != nil {
			return s, err
		}
		s.setClocks(e.Clock)
		s.turnStart = at
	case EvRating:
		if e.Rating == nil || e.Game < 1 || e.Game > s.game {
			return s, fmt.Errorf("room: rating event for game %d", e.Game)
		}
		r := *e.Rating
		s.ratedGame, s.rating = e.Game, &r
	case EvColors:
		if s.choice == "" || s.choice == ChoicePlace2 {
			return s, fmt.Errorf("room: colors event without a colour choice")
		}
		if e.Swap {
			s.seats[0], s.seats[1] = s.seats[1], s.seats[0]
			s.clocks[0], s.clocks[1] = s.clocks[1], s.clocks[0]
			s.swapped, s.flipped = true, !s.flipped
		}
		s.setClocks(e.Clock)
		s.step, s.choice = "", ""
		s.turnStart = at
	case EvDrawOffered:
		s.drawOffer = parseColor(e.Color)
	case EvDrawDeclined:
		s.drawOffer = engine.Empty
	case EvTakebackRequested:
		s.takeback = parseColor(e.Color)
	case EvTakebackDeclined:
		s.takeback = engine.Empty
	case EvTakeback:
		if e.Plies < 1 || e.Plies > s.board.Ply()-s.openPlies || s.step != "" {
			return s, fmt.Errorf("room: takeback of %d plies at ply %d", e.Plies, s.board.Ply())
		}
		b := s.board.Clone()
		for i := 0; i < e.Plies; i++ {
			if _, err := b.Undo(); err != nil {
				return s, err
			}
		}
		s.board = b
		s.moveSeq = s.moveSeq[:b.Ply():b.Ply()]
		s.plyClocks = s.plyClocks[:b.Ply():b.Ply()]
		s.setClocks(e.Clock)
		s.turnStart = at
		s.drawOffer, s.takeback = engine.Empty, engine.Empty
	case EvChat:
		if e.Text != "" {
			s.chat = withChat(s.chat, chatLine(s, e))
		}
	case EvGameOver:
		s.phase = PhaseOver
		s.result, s.reason = e.Result, e.Reason
		s.line = append([]string(nil), e.Line...)
		s.setClocks(e.Clock)
		s.drawOffer, s.takeback, s.rematch = engine.Empty, engine.Empty, engine.Empty
	case EvRematchOffered:
		s.rematch = parseColor(e.Color)
	case EvRematch:
		if e.Game != s.game+1 {
			return s, fmt.Errorf("room: rematch to game %d from %d", e.Game, s.game)
		}
		b, err := engine.NewBoard(s.settings.Size, s.settings.rule())
		if err != nil {
			return s, err
		}
		if b, err = openingBoard(b, e); err != nil {
			return s, err
		}
		s.game++
		// The players change roles: colours, or under an opening rule who proposes
		// (the seats as they were before the last game's colour choice).
		if e.KeepSeats != s.swapped {
			return s, fmt.Errorf("room: rematch keep_seats %v after a game with swapped %v", e.KeepSeats, s.swapped)
		}
		if !s.swapped {
			s.seats[0], s.seats[1] = s.seats[1], s.seats[0]
			s.flipped = !s.flipped
		}
		s.board, s.moveSeq = b, nil
		s.phase = PhasePlaying
		s.setClocks(e.Clock)
		s.moveSeq, s.plyClocks = repeat(b.Ply(), e.Seq), repeat(b.Ply(), s.storedClocks())
		s.turnStart = at
		s.result, s.reason, s.line = "", "", nil
		s.drawOffer, s.takeback, s.rematch = engine.Empty, engine.Empty, engine.Empty
		s.startOpening()
	default:
		return s, fmt.Errorf("room: unknown event kind %q", e.Kind)
	}
	s.seq = e.Seq
	s.updatedAt = e.At
	return s, nil
}

// openingBoard returns b with the opening stones of a started or rematch event played
// (b itself when there are none).
func openingBoard(b *engine.Board, e Event) (*engine.Board, error) {
	if len(e.OpeningStones) == 0 {
		return b, nil
	}
	if b.Ply() != 0 {
		return nil, fmt.Errorf("room: opening on a board with %d stones", b.Ply())
	}
	b = b.Clone()
	for _, m := range e.OpeningStones {
		p, err := engine.ParsePoint(m, b.Size())
		if err != nil {
			return nil, err
		}
		if err := b.Play(p); err != nil {
			return nil, fmt.Errorf("room: opening move %s: %w", m, err)
		}
	}
	return b, nil
}

// repeat returns n copies of v (nil when n is 0): the move seqs and turn-start clocks of
// the opening stones a started or rematch event places.
func repeat[T any](n int, v T) []T {
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// storedClocks returns the clocks as stored (the side to move not charged).
func (s State) storedClocks() Clocks {
	return Clocks{BlackMS: s.clocks[0].Milliseconds(), WhiteMS: s.clocks[1].Milliseconds()}
}

// baseClocks returns both clocks at the base time (nil without a Fischer clock).
func baseClocks(set Settings) *Clocks {
	if b := set.Time.BaseMS; b > 0 {
		return &Clocks{BlackMS: b, WhiteMS: b}
	}
	return nil
}

func (s *State) setClocks(c *Clocks) {
	if c != nil {
		s.clocks = [2]time.Duration{time.Duration(c.BlackMS) * time.Millisecond, time.Duration(c.WhiteMS) * time.Millisecond}
	}
}

// startOpening sets up the opening rule's first step for a new game.
func (s *State) startOpening() {
	s.step, s.openPlies, s.choice, s.swapped = "", 0, "", false
	if o := s.settings.Opening; o == OpeningSwap || o == OpeningSwap2 {
		s.step = StepPlace3
	}
}

// foldChoice checks an opening_choice event against the step and records it.
func foldChoice(s *State, e Event) error {
	if s.phase != PhasePlaying || (s.step != StepChoose && s.step != StepChoose2) || s.choice != "" ||
		parseColor(e.Color) != s.step.actor() {
		return fmt.Errorf("room: opening choice out of place (step %q)", s.step)
	}
	switch {
	case e.Choice == ChoiceBlack || e.Choice == ChoiceWhite:
		s.choice = e.Choice
	case e.Choice == ChoicePlace2 && s.step == StepChoose && s.settings.Opening == OpeningSwap2:
		s.step = StepPlace2
	default:
		return fmt.Errorf("room: bad opening choice %q", e.Choice)
	}
	return nil
}
