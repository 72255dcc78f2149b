// Package players turns the player specs of the command-line tools into
// engine.Players: "level:NAME" (or a bare level name), "baseline", "mcts" and
// "ext:/path/to/pbrain-x".
package players

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
	"github.com/gomoku-arena/gomoku/engine/extengine"
	"github.com/gomoku-arena/gomoku/engine/mcts"
)

// ErrBadSpec is returned for a spec that names no player.
var ErrBadSpec = errors.New("players: unknown player (want level:NAME, baseline, mcts or ext:/path/to/pbrain)")

// Options are shared by the players a factory creates.
type Options struct {
	HashMiB int
	Seed    uint64
	Threads int // search threads of the engine levels (0 or 1: one)
}

// Factory creates fresh players of one spec; seed varies per game.
type Factory struct {
	Spec string
	New  func(seed uint64) engine.Player
}

// Parse returns the factory for spec.
func Parse(spec string, opts Options) (Factory, error) {
	kind, arg, _ := strings.Cut(spec, ":")
	f := Factory{Spec: spec}
	switch kind {
	case "level":
		l, err := engine.LevelByName(arg)
		if err != nil {
			return f, err
		}
		f.New = func(seed uint64) engine.Player {
			return engine.NewPlayer(l, engine.Options{HashMiB: opts.HashMiB, Rand: opts.Seed ^ seed, Threads: opts.Threads})
		}
	case "baseline":
		if arg != "" {
			return f, fmt.Errorf("%w: %q", ErrBadSpec, spec)
		}
		f.New = func(uint64) engine.Player { return baseline.New(baseline.Options{}) }
	case "mcts":
		if arg != "" {
			return f, fmt.Errorf("%w: %q", ErrBadSpec, spec)
		}
		f.New = func(seed uint64) engine.Player { return mcts.New(mcts.Options{Seed: opts.Seed ^ seed}) }
	case "ext":
		if arg == "" {
			return f, fmt.Errorf("%w: %q", ErrBadSpec, spec)
		}
		f.New = func(uint64) engine.Player { return extengine.New(extengine.Config{Path: arg}) }
	default:
		if l, err := engine.LevelByName(spec); err == nil {
			f.New = func(seed uint64) engine.Player {
				return engine.NewPlayer(l, engine.Options{HashMiB: opts.HashMiB, Rand: opts.Seed ^ seed, Threads: opts.Threads})
			}
			return f, nil
		}
		return f, fmt.Errorf("%w: %q", ErrBadSpec, spec)
	}
	return f, nil
}

// Close releases a player's resources (an external engine's process) if it has any.
func Close(p engine.Player) {
	if c, ok := p.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}
