package room

import "github.com/gomoku-arena/gomoku/room/protocol"

// Every game of a room stays addressable for the room's retention: the event log keeps
// the whole room, so any game is rebuilt by folding the log up to the rematch that
// ended it.

// ErrNoSuchGame: the room has no game of that number (yet).
var ErrNoSuchGame = newError(protocol.CodeNoSuchGame, "no such game in this room")

// GameSpan is when a game ran (Unix ms; 0 when it has not started or ended).
type GameSpan struct {
	StartedAt int64 `json:"started_at,omitempty"`
	EndedAt   int64 `json:"ended_at,omitempty"`
}

// ReplayGame rebuilds game n (1, 2, …) of a room from its whole event log: the state
// as it was at the end of that game (just before the rematch that started game n+1),
// or as it is now for the game in play. It also returns the number of games in the log
// and when game n started and ended. ErrNoSuchGame when n is below 1 or beyond the log.
func ReplayGame(events []Event, n int) (State, int, GameSpan, error) {
	games := 0
	if len(events) > 0 {
		games = max(events[len(events)-1].Game, 1)
	}
	if n < 1 || n > games {
		return State{}, games, GameSpan{}, ErrNoSuchGame
	}
	end := len(events)
	var span GameSpan
	for i, e := range events {
		if e.Game > n {
			end = i
			break
		}
		if e.Game != n && e.Kind != EvCreated {
			continue
		}
		switch e.Kind {
		case EvStarted, EvRematch:
			span.StartedAt = e.At
		case EvGameOver:
			span.EndedAt = e.At
		}
	}
	st, err := Replay(events[:end])
	if err != nil {
		return State{}, games, GameSpan{}, err
	}
	return st, games, span, nil
}
