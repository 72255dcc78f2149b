package room

import (
	"github.com/gomoku-arena/gomoku/engine"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	t0    = time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	alice = Player{ID: "p_alice", Name: "Alice"}
	bob   = Player{ID: "p_bob", Name: "Bob"}
	carol = Player{ID: "p_carol", Name: "Carol"} // a spectator
)

// created returns a new room's state with settings changed by mod.
func created(t testing.TB, mod func(*Settings)) State {
	t.Helper()
	set := DefaultSettings()
	if mod != nil {
		mod(&set)
	}
	s, _, err := NewState("r1", set, t0)
	require.NoError(t, err)
	return s
}

// apply applies cmd at now and fails the test on error.
func apply(t testing.TB, s State, cmd Command, now time.Time) (State, []Event) {
	t.Helper()
	ns, evs, err := Apply(s, cmd, now)
	require.NoError(t, err, "%s", cmd.Kind)
	return ns, evs
}

// seated returns a started game: Alice black, Bob white.
func seated(t testing.TB, mod func(*Settings)) State {
	t.Helper()
	s := created(t, mod)
	s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
	s, _ = apply(t, s, Command{Kind: CmdSit, By: bob, Color: "white"}, t0)
	require.Equal(t, PhasePlaying, s.Phase())
	return s
}

// play plays moves alternately by the seated humans, one second apart from t0+1s.
func play(t testing.TB, s State, moves ...string) State {
	t.Helper()
	for _, m := range moves {
		by := alice
		if s.ColorOf(alice.ID) != s.ToMove() {
			by = bob
		}
		s, _ = apply(t, s, Command{Kind: CmdMove, By: by, Ply: s.Ply(), Point: m}, t0.Add(time.Duration(s.Ply()+1)*time.Second))
	}
	return s
}

func kinds(evs []Event) []EventKind {
	out := make([]EventKind, len(evs))
	for i, e := range evs {
		out[i] = e.Kind
	}
	return out
}

// finished returns a game Alice (black) won by five.
func finished(t testing.TB) State {
	t.Helper()
	return play(t, seated(t, nil), "h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12")
}

func engineWhite() engineColor { return engineColor(2) }

type engineColor = engine.Color
