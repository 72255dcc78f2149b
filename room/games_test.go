package room

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// threeGames returns the whole log of a room that played two games and is in its
// third: game 1 Alice (black) wins by five, game 2 (colours swapped) Bob (black) resigns after
// two moves, game 3 has one move.
func threeGames(t *testing.T) []Event {
	t.Helper()
	s, first, err := NewState("r1", DefaultSettings(), t0)
	require.NoError(t, err)
	log := []Event{first}
	do := func(c Command) {
		var evs []Event
		s, evs = apply(t, s, c, t0)
		log = append(log, evs...)
	}
	move := func(points ...string) {
		for _, p := range points {
			by := alice
			if s.ColorOf(alice.ID) != s.ToMove() {
				by = bob
			}
			do(Command{Kind: CmdMove, By: by, Ply: s.Ply(), Point: p})
		}
	}
	do(Command{Kind: CmdSit, By: alice, Color: "black"})
	do(Command{Kind: CmdSit, By: bob, Color: "white"})
	move("h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12")
	do(Command{Kind: CmdRematch, By: bob})
	do(Command{Kind: CmdRematch, By: alice})
	move("j10", "k11")
	do(Command{Kind: CmdResign, By: bob})
	do(Command{Kind: CmdRematch, By: alice})
	do(Command{Kind: CmdRematch, By: bob})
	move("c3")
	return log
}

func TestReplayGame(t *testing.T) {
	log := threeGames(t)
	for _, tc := range []struct {
		game          int
		moves         []string
		black, result string
		reason        string
		ended         bool
	}{
		{1, []string{"h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"}, "Alice", "black", "five", true},
		{2, []string{"j10", "k11"}, "Bob", "white", "resign", true},
		{3, []string{"c3"}, "Alice", "", "", false},
	} {
		st, games, span, err := ReplayGame(log, tc.game)
		require.NoError(t, err, "game %d", tc.game)
		assert.Equal(t, 3, games)
		assert.Equal(t, tc.game, st.Game())
		assert.Equal(t, tc.moves, st.Moves(), "game %d", tc.game)
		assert.Equal(t, tc.black, st.Seat(1).Player.Name, "game %d", tc.game)
		res, reason, _ := st.Result()
		assert.Equal(t, tc.result, res, "game %d", tc.game)
		assert.Equal(t, tc.reason, reason, "game %d", tc.game)
		assert.NotZero(t, span.StartedAt, "game %d", tc.game)
		assert.Equal(t, tc.ended, span.EndedAt != 0, "game %d", tc.game)
	}
	// The last game replayed from the log is the room's state.
	whole, err := Replay(log)
	require.NoError(t, err)
	last, _, _, err := ReplayGame(log, 3)
	require.NoError(t, err)
	assert.Equal(t, whole.Snapshot(t0), last.Snapshot(t0))
}

func TestReplayGameRefusesMissingGames(t *testing.T) {
	log := threeGames(t)
	for _, n := range []int{-1, 0, 4, 1 << 30} {
		_, games, _, err := ReplayGame(log, n)
		require.ErrorIs(t, err, ErrNoSuchGame, "game %d", n)
		assert.Equal(t, 3, games)
	}
	_, games, _, err := ReplayGame(nil, 1)
	require.ErrorIs(t, err, ErrNoSuchGame)
	assert.Zero(t, games)
}
