package room

import (
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aiShow returns a started AI vs AI game of room id (both seats the built-in AI).
func aiShow(t *testing.T, id string, mod func(*Settings)) (State, []Event) {
	t.Helper()
	set := DefaultSettings()
	set.Black = SeatSpec{Kind: AI, Level: "novice"}
	set.White = SeatSpec{Kind: AI, Level: "beginner"}
	if mod != nil {
		mod(&set)
	}
	s, created, err := NewState(id, set, t0)
	require.NoError(t, err)
	s, evs := apply(t, s, Command{Kind: CmdStart}, t0)
	require.Equal(t, []EventKind{EvStarted}, kinds(evs))
	return s, append([]Event{created}, evs...)
}

// aiMove is the AI seat to move playing p at now.
func aiMove(s State, p string) Command {
	return Command{Kind: CmdAIMove, Color: s.ToMove().String(), Point: p, Ply: s.Ply(), Hash: s.Hash()}
}

// TestAIPace is the table of the AI vs AI pace: a move is applied no earlier than
// Settings.AIPaceMS after the previous one, and the pause is not charged to the clock.
func TestAIPace(t *testing.T) {
	tests := []struct {
		name   string
		paceMS int64
		early  time.Duration // an AI move this long after the turn began is refused (0: none)
		ok     time.Duration
	}{
		{"default 1 s", DefaultAIPaceMS, 999 * time.Millisecond, time.Second},
		{"a room setting", 2500, 2499 * time.Millisecond, 2500 * time.Millisecond},
		{"0: no pace", 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := aiShow(t, "show", func(s *Settings) { s.AIPaceMS = tc.paceMS })
			for i, p := range []string{"a1", "a2", "a3"} {
				start := t0.Add(time.Duration(i) * tc.ok) // each move at the earliest
				if tc.early > 0 {
					assert.Equal(t, start.Add(time.Duration(tc.paceMS)*time.Millisecond), s.PaceUntil())
					_, _, err := Apply(s, aiMove(s, p), start.Add(tc.early))
					assert.ErrorIs(t, err, ErrPaced, "move %d", i)
				} else {
					assert.True(t, s.PaceUntil().IsZero())
				}
				s, _ = apply(t, s, aiMove(s, p), start.Add(tc.ok))
			}
		})
	}

	t.Run("the pause is not charged to the clock", func(t *testing.T) {
		s, _ := aiShow(t, "show", func(s *Settings) { s.Time = TimeControl{BaseMS: 10_000} })
		mover := ci(s.ToMove())
		c, running := s.Clock(at(time.Second))
		assert.True(t, running)
		assert.Equal(t, int64(10_000), []int64{c.BlackMS, c.WhiteMS}[mover])
		c, _ = s.Clock(at(1300 * time.Millisecond))
		assert.Equal(t, int64(9_700), []int64{c.BlackMS, c.WhiteMS}[mover])
		assert.Equal(t, at(11*time.Second), s.Deadline())
		s, evs := apply(t, s, aiMove(s, "a1"), at(1500*time.Millisecond))
		assert.Equal(t, int64(9_500), evs[0].ClockMS)
	})
	t.Run("games with a human are not paced", func(t *testing.T) {
		s := created(t, func(s *Settings) { s.White = SeatSpec{Kind: AI, Level: "novice"} })
		s, _ = apply(t, s, Command{Kind: CmdSit, By: alice, Color: "black"}, t0)
		s, _ = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 0, Point: "h8"}, t0)
		assert.True(t, s.PaceUntil().IsZero())
		_, _, err := Apply(s, aiMove(s, "i9"), t0)
		assert.NoError(t, err)
	})
}

// TestAIShowOpening: an AI vs AI game starts from one of the shipped balanced openings,
// drawn by the game's seed: the same room and game give the same opening (replay,
// another node), other rooms and the next game another one.
func TestAIShowOpening(t *testing.T) {
	ops := map[string]bool{}
	for _, o := range engine.BalancedOpenings(15, engine.Freestyle) {
		ops[engine.FormatMoves(o)] = true
	}
	seen := map[string]bool{}
	for _, id := range []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"} {
		s, log := aiShow(t, id, nil)
		require.Len(t, log[1].OpeningStones, 5)
		packed := ""
		for _, m := range log[1].OpeningStones {
			packed += m
		}
		assert.True(t, ops[packed], "%s is a shipped opening", packed)
		assert.Equal(t, log[1].OpeningStones, s.Moves())
		assert.Equal(t, engine.White, s.ToMove())
		seen[packed] = true

		again, _ := aiShow(t, id, nil)
		assert.Equal(t, s.Moves(), again.Moves(), "same room, same game: same opening")
		r, err := Replay(log)
		require.NoError(t, err)
		assert.Equal(t, s, r)
	}
	assert.Greater(t, len(seen), 3, "rooms start from different openings")

	t.Run("under renju on 20x20", func(t *testing.T) {
		s, _ := aiShow(t, "big", func(s *Settings) { s.Rule, s.Size = "renju", 20 })
		assert.Len(t, s.Moves(), 5)
		assert.Equal(t, "k11", s.Moves()[0], "centred")
	})
	t.Run("games with a human start empty", func(t *testing.T) {
		s := seated(t, nil)
		assert.Equal(t, 0, s.Ply())
	})
}

func TestGameSeed(t *testing.T) {
	assert.Equal(t, GameSeed("r1", 1), GameSeed("r1", 1))
	assert.NotEqual(t, GameSeed("r1", 1), GameSeed("r1", 2))
	assert.NotEqual(t, GameSeed("r1", 1), GameSeed("r2", 1))
	assert.NotZero(t, GameSeed("", 0))
}

// TestAIVsAIPaceActor: the room holds an AI vs AI move that came early until the pace
// allows it (the fake clock shows that nothing is applied before).
func TestAIVsAIPaceActor(t *testing.T) {
	stub := &stubPlayer{name: "stub"}
	e := newEnv(t, func(o *Options) { o.Players = stubPlayers(stub) })
	set := DefaultSettings()
	set.Black = SeatSpec{Kind: AI, Level: "novice"}
	set.White = SeatSpec{Kind: AI, Level: "novice"}
	r, err := e.m.Create(e.ctx, CreateRequest{Settings: set})
	require.NoError(t, err)
	s := e.sub(r, carol, 0)
	for ply := 5; ply < 8; ply++ {
		waitFor(t, "the AI answered", func() bool { return int(stub.started.Load()) == ply-4 })
		require.NoError(t, r.control(e.ctx, func() {}))
		e.clock.Advance(999 * time.Millisecond)
		require.NoError(t, r.control(e.ctx, func() {}))
		assert.Equal(t, ply, r.State().Ply(), "held until the pace allows it")
		e.clock.Advance(time.Millisecond)
		ev := waitEvent(t, s, EvMove)
		assert.Equal(t, ply, ev.Ply)
		assert.Equal(t, e.clock.Now().UnixMilli(), ev.At)
	}
}

// TestAIRepliesVaryPerGame: a human who plays the same moves against the same level in
// two rooms meets different replies (the level noise is seeded per game), and the same
// room id (the same seed: a replay, another node) gives the same replies.
func TestAIRepliesVaryPerGame(t *testing.T) {
	// A noisy level limited by depth only, so that its replies do not depend on timing.
	noisy := engine.Level{Name: "noisy", Depth: 2, Noise: 300, NoVCT: true, NoVCF: true, HandEval: true}
	replies := func(id string) []string {
		e := newEnv(t, func(o *Options) {
			o.Players = func(SeatSpec) (engine.Player, error) { return engine.NewPlayer(noisy, engine.Options{HashMiB: 1}), nil }
		})
		set := DefaultSettings()
		set.White = SeatSpec{Kind: AI, Level: "novice"}
		r, err := e.m.Create(e.ctx, CreateRequest{ID: id, Settings: set, Creator: &alice, Color: "black"})
		require.NoError(t, err)
		s := e.sub(r, alice, r.State().Seq())
		var out []string
		for ply := 0; ply < 8; ply += 2 {
			b := r.State().Board()
			mine := []string{"h8", "a1", "o15", "a15", "o1", "b2", "n14", "b14"}
			for _, m := range mine {
				p, _ := engine.ParsePoint(m, 15)
				if b.At(p) == engine.Empty {
					e.move(r, alice, ply, m)
					break
				}
			}
			ev := waitEvent(t, s, EvMove)
			for ev.Color != "white" {
				ev = waitEvent(t, s, EvMove)
			}
			out = append(out, ev.Point)
		}
		return out
	}
	a, b := replies("room-a"), replies("room-b")
	assert.NotEqual(t, a, b, "another game, other replies")
	assert.Equal(t, a, replies("room-a"), "the same seed, the same replies")
}
