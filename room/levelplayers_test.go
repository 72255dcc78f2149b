package room

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func TestLevelPlayers(t *testing.T) {
	b, err := engine.BoardFromMoves(15, engine.Freestyle, []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}, {X: 6, Y: 8}})
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		threads int
		spec    SeatSpec
		err     error
	}{
		{"master on two threads", 2, SeatSpec{Kind: AI, Level: "master"}, nil},
		{"novice stays on one", 2, SeatSpec{Kind: AI, Level: "novice"}, nil},
		{"default resolver", 1, SeatSpec{Kind: AI, Level: "master"}, nil},
		{"unknown level", 2, SeatSpec{Kind: AI, Level: "grandmaster"}, ErrUnknownPlayer},
		{"external engine seat", 2, SeatSpec{Kind: Engine, Engine: "x"}, ErrNoEngines},
		{"human seat", 2, SeatSpec{Kind: Human}, ErrBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := LevelPlayers(tc.threads)(tc.spec)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			res, err := p.Play(context.Background(), b, engine.Limits{Nodes: 20_000}, nil)
			require.NoError(t, err)
			require.NoError(t, b.Check(res.Move))
		})
	}
}
