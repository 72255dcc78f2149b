package room

// The offers a player makes to the other and the other's answer: draw, takeback and
// rematch (each an offer/accept/decline command), and abort before the game really
// started.

import (
	"fmt"

	"github.com/gomoku-arena/gomoku/engine"
)

func (a *applier) draw() error {
	me, err := a.player()
	if err != nil {
		return err
	}
	if err := a.playing(); err != nil {
		return err
	}
	opp := me.Opponent()
	switch a.cmd.Kind {
	case CmdDrawOffer:
		if a.s.drawOffer == opp {
			return a.gameOver(ResultDraw, ReasonDrawAgreed, nil)
		}
		if a.s.drawOffer == me {
			return ErrOfferPending
		}
		if a.s.seats[ci(opp)].spec.IsMachine() {
			return ErrAISeat
		}
		return a.emit(Event{Kind: EvDrawOffered, Color: me.String()})
	case CmdDrawAccept:
		if a.s.drawOffer != opp {
			return ErrNoPendingOffer
		}
		return a.gameOver(ResultDraw, ReasonDrawAgreed, nil)
	default:
		if a.s.drawOffer != opp {
			return ErrNoPendingOffer
		}
		return a.emit(Event{Kind: EvDrawDeclined, Color: me.String()})
	}
}

// takebackPlies returns how many plies to undo so that requester is to move again.
func (a *applier) takebackPlies(requester engine.Color) int {
	if a.s.board.ToMove() == requester {
		return 2
	}
	return 1
}

// takebackEvent takes moves back so that requester is to move again; both clocks go
// back to what they were when that turn began (no time or increment banked by the
// moves taken back).
func (a *applier) takebackEvent(requester engine.Color) error {
	plies := a.takebackPlies(requester)
	var clk *Clocks
	if a.s.settings.Time.BaseMS > 0 {
		c := a.s.plyClocks[a.s.board.Ply()-plies]
		clk = &c
	}
	return a.emit(Event{Kind: EvTakeback, Color: requester.String(), Plies: plies, Clock: clk})
}

func (a *applier) takebackCmd() error {
	me, err := a.player()
	if err != nil {
		return err
	}
	if err := a.playing(); err != nil {
		return err
	}
	if !a.s.settings.Takebacks {
		return ErrTakebackOff
	}
	if a.s.step != "" {
		return ErrInOpening
	}
	opp := me.Opponent()
	switch a.cmd.Kind {
	case CmdTakebackRequest:
		// The requester must have a stone to take back, placed after the opening.
		if a.s.board.Ply()-a.takebackPlies(me) < a.s.openPlies {
			return ErrNothingToTake
		}
		if a.s.takeback != engine.Empty {
			return ErrOfferPending
		}
		if a.s.seats[ci(opp)].spec.IsMachine() {
			return a.takebackEvent(me) // machines always agree
		}
		return a.emit(Event{Kind: EvTakebackRequested, Color: me.String()})
	case CmdTakebackAccept:
		if a.s.takeback != opp {
			return ErrNoPendingOffer
		}
		return a.takebackEvent(opp)
	default:
		if a.s.takeback != opp {
			return ErrNoPendingOffer
		}
		return a.emit(Event{Kind: EvTakebackDeclined, Color: me.String()})
	}
}

func (a *applier) rematchCmd() error {
	me, err := a.player()
	if err != nil {
		return err
	}
	if a.s.phase != PhaseOver {
		return fmt.Errorf("%w: the game is not over", ErrNotAllowed)
	}
	opp := me.Opponent()
	if a.s.seats[0].left || a.s.seats[1].left {
		return ErrOpponentLeft
	}
	if a.s.rematch == me {
		return ErrOfferPending
	}
	if a.s.rematch == opp || a.s.seats[ci(opp)].spec.IsMachine() {
		return a.emit(Event{Kind: EvRematch, Game: a.s.game + 1, Clock: baseClocks(a.s.settings), KeepSeats: a.s.swapped,
			OpeningStones: a.s.gameOpening(a.s.game + 1)})
	}
	return a.emit(Event{Kind: EvRematchOffered, Color: me.String()})
}

func (a *applier) abort() error {
	var reason string
	if a.cmd.Kind == CmdAbandon {
		reason = ReasonAbandoned
	} else {
		if _, err := a.player(); err != nil {
			return err
		}
		reason = ReasonAborted
	}
	if a.s.phase == PhaseOver {
		return ErrGameOver
	}
	if a.s.ReallyStarted() {
		return ErrAbortTooLate
	}
	return a.gameOver(ResultAborted, reason, nil)
}
