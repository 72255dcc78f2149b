package room

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A reserved seat takes only its player; the room stays out of the open list until
// both players sit, and a rematch keeps each reservation with its player.
func TestReservedSeats(t *testing.T) {
	reserve := func(s *Settings) {
		s.Black = SeatSpec{Kind: Human, Player: alice.ID}
		s.White = SeatSpec{Kind: Human, Player: bob.ID}
	}
	cases := []struct {
		name  string
		by    Player
		color string
		err   error
	}{
		{"owner sits", alice, "black", nil},
		{"other player refused", carol, "black", ErrSeatTaken},
		{"wrong seat refused", alice, "white", ErrSeatTaken},
		{"second owner sits", bob, "white", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := created(t, reserve)
			ns, _, err := Apply(s, Command{Kind: CmdSit, By: c.by, Color: c.color}, t0)
			if c.err != nil {
				require.ErrorIs(t, err, c.err)
				require.Equal(t, s.Seq(), ns.Seq(), "a refusal changes nothing")
				return
			}
			require.NoError(t, err)
		})
	}
	s := created(t, reserve)
	sum := s.Summary()
	require.True(t, sum.Black.Reserved && sum.White.Reserved)
	s, _ = apply(t, s, Command{Kind: CmdSit, By: bob, Color: "white"}, t0)
	s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
	require.Equal(t, PhasePlaying, s.Phase())
}

func TestSeatSpecNormalizeKeepsReservation(t *testing.T) {
	for _, c := range []struct {
		in   SeatSpec
		want string
	}{
		{SeatSpec{Kind: Human, Player: "p1"}, "p1"},
		{SeatSpec{Player: "p1"}, "p1"},
		{SeatSpec{Kind: AI, Player: "p1"}, ""},
	} {
		got, err := c.in.Normalize()
		require.NoError(t, err)
		require.Equal(t, c.want, got.Player)
	}
}

// Abandon ends a room whose game has not really started, a room nobody sat in
// included (quick pairing closes the room of a match it failed to seat with it), and
// refuses a game that really started.
func TestAbandon(t *testing.T) {
	e := newEnv(t, nil)
	reserve := func(s *Settings) {
		s.Black = SeatSpec{Kind: Human, Player: alice.ID}
		s.White = SeatSpec{Kind: Human, Player: bob.ID}
	}
	for _, sit := range [][]Player{nil, {alice}, {alice, bob}} {
		set := DefaultSettings()
		reserve(&set)
		r, err := e.m.Create(e.ctx, CreateRequest{Settings: set})
		require.NoError(t, err)
		for i, p := range sit {
			e.do(r, Command{Kind: CmdSit, By: p, Color: []string{"black", "white"}[i]})
		}
		require.NoError(t, r.Abandon(e.ctx), "%d seated", len(sit))
		st := r.State()
		require.Equal(t, PhaseOver, st.Phase())
		require.Equal(t, ResultAborted, st.Summary().Result)
		require.ErrorIs(t, r.Abandon(e.ctx), ErrGameOver)
	}
	r := e.humans(nil)
	e.move(r, alice, 0, "h8")
	e.move(r, bob, 1, "h9")
	require.ErrorIs(t, r.Abandon(e.ctx), ErrAbortTooLate)
}
