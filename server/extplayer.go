package server

import (
	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/extengine"
)

// externalPlayer makes a configured external (Gomocup) engine seat: argv is the
// configured command split on spaces (no shell). The process starts at its first move
// and is closed with the room.
func externalPlayer(name string, argv []string) (engine.Player, error) {
	return extengine.New(extengine.Config{Path: argv[0], Args: argv[1:], Name: name}), nil
}
