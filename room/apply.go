package room

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// NewState normalizes settings and returns the state of a new room and its created
// event (seq 1), which the store keeps as the room's first event.
func NewState(id string, settings Settings, now time.Time) (State, Event, error) {
	settings, err := settings.Normalize()
	if err != nil {
		return State{}, Event{}, err
	}
	if id == "" {
		return State{}, Event{}, fmt.Errorf("%w: empty room id", ErrBadRequest)
	}
	ev := Event{Seq: 1, Kind: EvCreated, At: now.UnixMilli(), Game: 1, Settings: &settings, Room: id}
	st, err := fold(State{}, ev)
	return st, ev, err
}

// Apply checks cmd against state at time now and returns the new state and the events
// that record the change, numbered from state.Seq()+1. On error nothing changes: the
// state is returned as it was, with no events. No events and no error means the command
// was accepted as a no-op (for example sitting again at one's own seat). A resent move
// that is already applied returns a *DuplicateError (errors.Is ErrDuplicate) holding
// the seq to acknowledge again. Apply is pure: no I/O, no goroutines, no clock reads.
func Apply(state State, cmd Command, now time.Time) (State, []Event, error) {
	if state.id == "" {
		return state, nil, ErrNoSuchRoom
	}
	a := applier{s: state, cmd: cmd, now: now, at: now.UnixMilli()}
	if err := a.run(); err != nil {
		return state, nil, err
	}
	return a.s, a.events, nil
}

// Replay rebuilds a room's state from its event log, which must start at seq 1 and be
// contiguous.
func Replay(events []Event) (State, error) {
	var s State
	for _, e := range events {
		var err error
		if s, err = fold(s, e); err != nil {
			return State{}, err
		}
	}
	if s.id == "" {
		return State{}, fmt.Errorf("room: replay: %w", errors.New("no created event"))
	}
	return s, nil
}

// ReplayFrom applies further events (seq state.Seq()+1, …) to state.
func ReplayFrom(state State, events []Event) (State, error) {
	for _, e := range events {
		var err error
		if state, err = fold(state, e); err != nil {
			return state, err
		}
	}
	return state, nil
}

type applier struct {
	s      State
	cmd    Command
	now    time.Time
	at     int64
	events []Event
}

// emit folds a new event into the state and records it.
func (a *applier) emit(e Event) error {
	e.Seq = a.s.seq + 1
	e.At = a.at
	if e.Game == 0 {
		e.Game = a.s.game
	}
	if e.Kind != EvMove {
		e.Ply = a.s.Ply() // stones on the board before the event
	}
	s, err := fold(a.s, e)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInternal, err)
	}
	if e.Kind == EvMove || e.Kind == EvTakeback {
		e.Forbidden = s.Forbidden()
	}
	a.s = s
	a.events = append(a.events, e)
	return nil
}

func (a *applier) me() engine.Color { return a.s.ColorOf(a.cmd.By.ID) }

// player returns the caller's colour or ErrNotAPlayer.
func (a *applier) player() (engine.Color, error) {
	c := a.me()
	if c == engine.Empty {
		return c, ErrNotAPlayer
	}
	return c, nil
}

func (a *applier) playing() error {
	switch a.s.phase {
	case PhaseWaiting:
		return ErrGameNotStarted
	case PhaseOver:
		return ErrGameOver
	}
	return nil
}

// clocksNow returns the clocks with the side to move charged until now.
func (a *applier) clocksNow() *Clocks {
	if a.s.settings.Time.BaseMS == 0 {
		return nil
	}
	c, _ := a.s.Clock(a.now)
	return &c
}

func (a *applier) gameOver(result, reason string, line []string) error {
	return a.emit(Event{Kind: EvGameOver, Result: result, Reason: reason, Line: line, Clock: a.clocksNow()})
}

func (a *applier) run() error {
	c := a.cmd
	switch c.Kind {
	case CmdSit:
		return a.sit()
	case CmdStart:
		return a.start()
	case CmdLeave:
		return a.leave()
	case CmdMove, CmdAIMove:
		return a.move()
	case CmdResign:
		me, err := a.player()
		if err != nil {
			return err
		}
		if err := a.playing(); err != nil {
			return err
		}
		return a.gameOver(me.Opponent().String(), ReasonResign, nil)
	case CmdForfeit:
		col := parseColor(c.Color)
		if col == engine.Empty || !a.s.seats[ci(col)].spec.IsMachine() {
			return ErrBadRequest
		}
		if err := a.playing(); err != nil {
			return err
		}
		return a.gameOver(col.Opponent().String(), ReasonForfeit, nil)
	case CmdDrawOffer, CmdDrawAccept, CmdDrawDecline:
		return a.draw()
	case CmdTakebackRequest, CmdTakebackAccept, CmdTakebackDecline:
		return a.takebackCmd()
	case CmdRematch:
		return a.rematchCmd()
	case CmdAbort, CmdAbandon:
		return a.abort()
	case CmdClaimVictory:
		return a.claim()
	case CmdRating:
		return a.ratingCmd()
	case CmdAutoClaim:
		return a.autoClaim()
	case CmdFlag, CmdTimeout:
		if err := a.playing(); err != nil {
			return err
		}
		if !a.s.Expired(a.now) {
			return ErrTimeNotUp
		}
		if a.s.FirstMovePending() {
			return a.gameOver(ResultAborted, ReasonFirstMove, nil) // no result, not a loss
		}
		loser := a.s.ToMove()
		return a.gameOver(loser.Opponent().String(), ReasonTimeout, nil)
	case CmdChat:
		return a.chat()
	case CmdChoose:
		return a.chooseCmd()
	case CmdAIOpening:
		return a.aiOpening()
	}
	return fmt.Errorf("%w: %q", ErrUnknownType, protocol.Truncate(string(c.Kind), 32))
}

func (a *applier) sit() error {
	col := parseColor(a.cmd.Color)
	if col == engine.Empty {
		return fmt.Errorf("%w: color must be black or white", ErrBadRequest)
	}
	if a.cmd.By.ID == "" {
		return ErrUnauthorized
	}
	if !validName(a.cmd.By.Name) || len(a.cmd.By.Rating) > maxRatingLen {
		return fmt.Errorf("%w: name", ErrBadRequest)
	}
	if a.s.settings.Rated && !a.cmd.By.Account {
		return ErrAccountNeeded
	}
	if me := a.me(); me == col {
		return nil // already there
	} else if me != engine.Empty {
		return ErrAlreadySeated
	}
	if a.s.phase != PhaseWaiting {
		return ErrSeatTaken
	}
	st := a.s.seats[ci(col)]
	if st.spec.Kind != Human || st.filled || (st.spec.Player != "" && st.spec.Player != a.cmd.By.ID) {
		return ErrSeatTaken
	}
	p := a.cmd.By
	if err := a.emit(Event{Kind: EvSeated, Color: col.String(), Player: &p}); err != nil {
		return err
	}
	return a.start()
}

// start emits started when every seat is filled while waiting.
func (a *applier) start() error {
	if a.s.phase != PhaseWaiting || !a.s.seats[0].filled || !a.s.seats[1].filled {
		return nil
	}
	return a.emit(Event{Kind: EvStarted, Clock: baseClocks(a.s.settings), OpeningStones: a.s.gameOpening(a.s.game)})
}

func (a *applier) leave() error {
	me, err := a.player()
	if err != nil {
		return err
	}
	if a.s.phase == PhasePlaying {
		return fmt.Errorf("%w: resign or abort first", ErrNotAllowed)
	}
	p := a.s.seats[ci(me)].player
	return a.emit(Event{Kind: EvLeft, Color: me.String(), Player: &p})
}

func (a *applier) move() error {
	c := a.cmd
	var me engine.Color
	if c.Kind == CmdAIMove {
		me = parseColor(c.Color)
		if me == engine.Empty || !a.s.seats[ci(me)].spec.IsMachine() {
			return ErrBadRequest
		}
	} else {
		var err error
		if me, err = a.player(); err != nil {
			return err
		}
	}
	if a.s.board == nil {
		return ErrGameNotStarted
	}
	p, err := engine.ParsePoint(c.Point, a.s.settings.Size)
	if err != nil {
		return ErrOffBoard
	}
	// A resent move already applied at its ply by the same seat: acknowledge again.
	if c.Kind == CmdMove && c.Ply >= 0 && c.Ply < a.s.board.Ply() && a.s.placedBy(c.Ply) == me &&
		a.s.board.Moves()[c.Ply] == p {
		return &DuplicateError{Seq: a.s.moveSeq[c.Ply]}
	}
	if err := a.playing(); err != nil {
		return err
	}
	if c.Kind == CmdAIMove && (a.s.board.Hash() != c.Hash || a.s.board.Ply() != c.Ply || a.s.ToMove() != me || a.s.step != "") {
		return ErrStaleAIResult
	}
	if a.s.step != "" {
		return a.place(me, c.Ply, p)
	}
	if a.s.board.ToMove() != me {
		return ErrNotYourTurn
	}
	if c.Ply != a.s.board.Ply() {
		return ErrStalePly
	}
	if p := a.s.PaceUntil(); c.Kind == CmdAIMove && a.now.Before(p) {
		return ErrPaced
	}
	if err := a.s.board.Check(p); err != nil {
		return moveError(err)
	}
	ev := Event{Kind: EvMove, Color: me.String(), Point: p.String(), Ply: c.Ply}
	if err := a.charge(&ev, me, true); err != nil {
		return err
	}
	if err := a.emit(ev); err != nil {
		return err
	}
	out := a.s.board.Outcome()
	switch {
	case out.Over && out.Winner != engine.Empty:
		line := make([]string, len(out.Line))
		for i, q := range out.Line {
			line[i] = q.String()
		}
		return a.gameOver(out.Winner.String(), ReasonFive, line)
	case out.Over:
		return a.gameOver(ResultDraw, ReasonBoardFull, nil)
	case !a.s.board.HasLegalMove():
		return a.gameOver(ResultDraw, ReasonNoLegalMove, nil)
	}
	return nil
}

// charge checks that me (the seat acting) has time left and, when its turn ends with
// ev, charges its clock until now and adds the increment (ev.ClockMS, ev.Clock).
func (a *applier) charge(ev *Event, me engine.Color, endTurn bool) error {
	tc := a.s.settings.Time
	if !tc.Enabled() {
		return nil
	}
	if a.s.Expired(a.now) {
		return ErrTimeUp
	}
	if tc.BaseMS > 0 && endTurn {
		clk := *a.clocksNow()
		left := &clk.BlackMS
		if me == engine.White {
			left = &clk.WhiteMS
		}
		if !a.s.FirstMovePending() {
			*left += tc.IncrementMS // the clock runs from this side's first move on
		}
		ev.ClockMS = *left
		ev.Clock = &clk
	}
	return nil
}

func (a *applier) claim() error {
	me, err := a.player()
	if err != nil {
		return err
	}
	if err := a.playing(); err != nil {
		return err
	}
	opp := a.s.seats[ci(me.Opponent())]
	if opp.spec.IsMachine() || a.cmd.GoneSince.IsZero() || a.cmd.Grace <= 0 ||
		a.now.Sub(a.cmd.GoneSince) < a.cmd.Grace {
		return ErrNotClaimable
	}
	return a.gameOver(me.String(), ReasonAbandoned, nil)
}

// autoClaim ends a game whose human seat (cmd.Color) is gone beyond the grace against
// a machine: the machine wins by abandonment.
func (a *applier) autoClaim() error {
	if err := a.playing(); err != nil {
		return err
	}
	col := parseColor(a.cmd.Color)
	if col == engine.Empty || a.s.seats[ci(col)].spec.IsMachine() || !a.s.seats[ci(col.Opponent())].spec.IsMachine() ||
		a.cmd.GoneSince.IsZero() || a.cmd.Grace <= 0 || a.now.Sub(a.cmd.GoneSince) < a.cmd.Grace {
		return ErrNotClaimable
	}
	return a.gameOver(col.Opponent().String(), ReasonAbandoned, nil)
}

func (a *applier) chat() error {
	if !a.s.settings.Chat {
		return ErrChatDisabled
	}
	text := strings.TrimSpace(a.cmd.Text)
	switch n := utf8.RuneCountInString(text); {
	case !utf8.ValidString(text) || n == 0:
		return fmt.Errorf("%w: empty chat text", ErrBadRequest)
	case n > protocol.MaxChatRunes:
		return fmt.Errorf("%w: chat text over %d characters", ErrTooLarge, protocol.MaxChatRunes)
	}
	if a.cmd.By.ID == "" {
		return ErrUnauthorized
	}
	author := a.cmd.By
	ev := Event{Kind: EvChat, Text: text, Channel: ChannelSpectators}
	if me := a.me(); me != engine.Empty {
		ev.Channel, ev.Color = ChannelPlayers, me.String()
		if author.Name == "" {
			author.Name = a.s.seats[ci(me)].player.Name
		}
	}
	if author.Name == "" || !validName(author.Name) {
		return fmt.Errorf("%w: name", ErrBadRequest)
	}
	ev.Player = &author
	return a.emit(ev)
}
