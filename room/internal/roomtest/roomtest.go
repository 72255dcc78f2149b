// Package roomtest is the fixture shared by the tests of the room packages that run on
// Redis (room/roomstore, room/replica): one miniredis, a fake clock and two players.
// Each package embeds Fixture in its own fixture and adds its nodes.
package roomtest

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
)

// The players and the start time of the tests.
var (
	Alice = room.Player{ID: "p_alice", Name: "Alice"}
	Bob   = room.Player{ID: "p_bob", Name: "Bob"}
	T0    = time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
)

// Fixture is one miniredis shared by a test's nodes, and a fake clock at T0.
type Fixture struct {
	MR    *miniredis.Miniredis
	Clock *room.FakeClock
	Ctx   context.Context
}

// New returns a Fixture whose miniredis stops with the test.
func New(t *testing.T) *Fixture {
	return &Fixture{MR: miniredis.RunT(t), Clock: room.NewFakeClock(T0), Ctx: context.Background()}
}

// Move plays point p at ply for by in r and requires it to be accepted.
func Move(t *testing.T, r *room.Room, by room.Player, ply int, p string) room.Reply {
	t.Helper()
	rep, err := r.Do(context.Background(), room.Command{Kind: room.CmdMove, By: by, Ply: ply, Point: p})
	require.NoError(t, err, "%s at %d", p, ply)
	return rep
}
