package room

import "github.com/gomoku-arena/gomoku/engine"

// ForbiddenPoint is an empty point black may not play under renju, and why. Clients draw
// these instead of repeating the renju rules (protocol: snapshot and event "forbidden").
type ForbiddenPoint struct {
	Point string `json:"point"` // renju notation, "h8"
	Kind  string `json:"kind"`  // double_three, double_four or overline
}

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
	points := s.board.Clone().ForbiddenPoints()
	if len(points) == 0 {
		return nil
	}
	out := make([]ForbiddenPoint, len(points))
	for i, f := range points {
		out[i] = ForbiddenPoint{Point: f.Point.String(), Kind: f.Kind.String()}
	}
	return out
}
