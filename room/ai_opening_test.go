package room

import (
	"context"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAIOpeningSwap2 runs swap2 rooms with the real engine through the opening into
// normal play: the AI proposes (Alice chooses) and the AI chooses (Alice proposes), and
// an AI-vs-AI room plays a whole game. Every log replays to the live state.
func TestAIOpeningSwap2(t *testing.T) {
	e := newEnv(t, func(o *Options) {
		o.Players = DefaultPlayers
		o.Clock = RealClock{}
		o.AILimits = func(l engine.Limits) engine.Limits { l.Time = 5 * time.Millisecond; l.Depth = 2; return l }
	})
	replays := func(r *Room) {
		t.Helper()
		evs, err := e.store.Events(e.ctx, r.ID(), 1)
		require.NoError(t, err)
		st, err := Replay(evs)
		require.NoError(t, err)
		assert.Equal(t, r.State(), st)
	}

	t.Run("the AI proposes", func(t *testing.T) {
		set := DefaultSettings()
		set.Opening = OpeningSwap2
		set.Black = SeatSpec{Kind: AI, Level: "novice"} // black at the start: the first player
		r, err := e.m.Create(e.ctx, CreateRequest{Settings: set, Creator: &alice, Color: "white"})
		require.NoError(t, err)
		s := e.sub(r, alice, 0)
		var placed []string
		for len(placed) < 3 {
			ev := waitEvent(t, s, EvMove)
			placed = append(placed, ev.Point)
		}
		require.Equal(t, StepChoose, r.State().Opening())
		require.Equal(t, engine.White, r.State().ToMove())
		// Alice takes black: the AI plays white, stone 4.
		e.do(r, Command{Kind: CmdChoose, By: alice, Choice: ChoiceBlack})
		assert.True(t, waitEvent(t, s, EvColors).Swap)
		ev := waitEvent(t, s, EvMove)
		assert.Equal(t, "white", ev.Color)
		assert.Equal(t, 3, ev.Ply)
		assert.Equal(t, engine.Black, r.State().ColorOf(alice.ID))
		replays(r)
	})

	t.Run("the AI chooses", func(t *testing.T) {
		set := DefaultSettings()
		set.Opening = OpeningSwap2
		set.White = SeatSpec{Kind: AI, Level: "novice"}
		r, err := e.m.Create(e.ctx, CreateRequest{Settings: set, Creator: &alice, Color: "black"})
		require.NoError(t, err)
		s := e.sub(r, alice, r.State().Seq())
		// A proposal that favours black (two black stones together, white's far away).
		e.move(r, alice, 0, "h8")
		e.move(r, alice, 1, "a1")
		e.move(r, alice, 2, "i8")
		ch := waitEvent(t, s, EvOpeningChoice)
		assert.Equal(t, "white", ch.Color)
		if ch.Choice == ChoicePlace2 {
			waitFor(t, "the AI's two stones", func() bool { return r.State().Opening() == StepChoose2 })
			e.do(r, Command{Kind: CmdChoose, By: alice, Choice: ChoiceBlack})
		}
		waitEvent(t, s, EvColors)
		waitFor(t, "normal play", func() bool { return r.State().Opening() == "" })
		replays(r)
	})

	t.Run("AI vs AI", func(t *testing.T) {
		set := DefaultSettings()
		set.Opening = OpeningSwap2
		set.Rule = "standard"
		set.Black = SeatSpec{Kind: AI, Level: "beginner"}
		set.White = SeatSpec{Kind: AI, Level: "novice"}
		r, err := e.m.Create(e.ctx, CreateRequest{Settings: set})
		require.NoError(t, err)
		s := e.sub(r, carol, 0)
		// Only a guard against a hang: under -race on a loaded 2-core machine a ply took
		// about a second, and a game may run past 100 plies.
		ctx, cancel := context.WithTimeout(e.ctx, 4*time.Minute)
		defer cancel()
		sawChoice := false
		for r.State().Phase() != PhaseOver {
			select {
			case u := <-s.C:
				if u != nil && u.Event != nil && u.Event.Kind == EvOpeningChoice {
					sawChoice = true
				}
			case <-ctx.Done():
				t.Fatalf("AI vs AI swap2 game not over at ply %d, step %q", r.State().Ply(), r.State().Opening())
			}
		}
		assert.True(t, sawChoice)
		assert.GreaterOrEqual(t, r.State().OpeningPlies(), 3)
		replays(r)
	})
}

// TestDecideOpening checks the room's use of the engine's decisions: how many stones
// each placement step asks for, and when place2 is offered.
func TestDecideOpening(t *testing.T) {
	zero := func(context.Context, *engine.Board) (engine.Score, error) { return 0, nil }
	empty, _ := engine.NewBoard(15, engine.Freestyle)
	three, _ := engine.BoardFromMoves(15, engine.Freestyle, []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}, {X: 9, Y: 7}})
	ctx := context.Background()

	a, err := decideOpening(ctx, StepPlace3, empty, OpeningSwap2, zero, 1)
	require.NoError(t, err)
	assert.Len(t, a.points, 3)
	a, err = decideOpening(ctx, StepPlace2, three, OpeningSwap2, zero, 1)
	require.NoError(t, err)
	assert.Len(t, a.points, 2)
	a, err = decideOpening(ctx, StepChoose, three, OpeningSwap2, zero, 1)
	require.NoError(t, err)
	assert.Equal(t, engine.ChoosePlaceTwo, a.choice, "balanced: two more stones")
	a, err = decideOpening(ctx, StepChoose, three, OpeningSwap, zero, 1)
	require.NoError(t, err)
	assert.Equal(t, engine.ChooseWhite, a.choice, "swap has no place2")

	cmd := a.command(searchKey{ply: 3, hash: 9, color: engine.White, step: StepChoose})
	assert.Equal(t, Command{Kind: CmdAIOpening, Color: "white", Ply: 3, Hash: 9, Step: "choose", Choice: "white"}, cmd)
	assert.Equal(t, 50*time.Millisecond, openingBudget(engine.Limits{Time: 20 * time.Millisecond}))
	assert.Equal(t, openingMaxTime, openingBudget(engine.Limits{}))
	assert.Equal(t, 3*time.Second/2, openingBudget(engine.Limits{Clock: &engine.Clock{Left: 30 * time.Second}}))
}
