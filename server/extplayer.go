package server

import (
	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
)

// externalPlayer starts a configured external (Gomocup) engine seat.
// TODO(server): switch to room/extengine once it is committed.
func externalPlayer(name string, argv []string) (engine.Player, error) {
	return nil, room.ErrNoEngines
}
