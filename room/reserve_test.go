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
