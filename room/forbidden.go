package room

import (
	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// ForbiddenPoint is an empty point black may not play under renju, and why. Clients draw
// these instead of repeating the renju rules (protocol: snapshot and event "forbidden").
type ForbiddenPoint = protocol.ForbiddenPoint

// Forbidden returns black's forbidden points in the current position, in board order
// (row by row from a1), when they matter: renju, a game in play that is not decided,
// black to move. Otherwise it returns nil.
func (s State) Forbidden() []ForbiddenPoint {
	if s.board == nil || s.settings.rule() != engine.Renju || s.phase != PhasePlaying ||
		s.board.ToMove() != engine.Black || s.board.Outcome().Over {
		return nil
	}
	// The check places stones on the board for a moment: work on a copy, the State's
	// board is shared and never written.
	return ForbiddenOf(s.board.Clone())
}

// ForbiddenOf returns black's forbidden points on b in board order, whoever is to move
// (nil when there are none). It places stones on b for a moment: b must not be shared.
func ForbiddenOf(b *engine.Board) []ForbiddenPoint {
	points := b.ForbiddenPoints()
	if len(points) == 0 {
		return nil
	}
	out := make([]ForbiddenPoint, len(points))
	for i, f := range points {
		out[i] = ForbiddenPoint{Point: f.Point.String(), Kind: f.Kind.String()}
	}
	return out
}
