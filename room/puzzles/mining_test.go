package puzzles

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

// fakeMiner finds the game's position after each of its first plies that are listed
// in at (as a vcf puzzle); its ids ignore the move order of each side, so two games
// reaching one position by other orders find the same puzzle.
type fakeMiner struct {
	at    []int
	calls atomic.Int32
}

func (f *fakeMiner) Mine(_ context.Context, rule engine.Rule, size int, moves []engine.Point) ([]puzzle.Puzzle, error) {
	f.calls.Add(1)
	var out []puzzle.Puzzle
	for _, n := range f.at {
		if n <= len(moves) {
			p := puzzle.Puzzle{Category: "vcf", Rule: rule, Size: size, Moves: moves[:n]}
			h := sha256.Sum256([]byte(canonicalKey(p)))
			p.ID = "mined-" + hex.EncodeToString(h[:6])
			out = append(out, p)
		}
	}
	return out, nil
}

// canonicalKey is the fake miner's position key.
func canonicalKey(p puzzle.Puzzle) string {
	var b, w []string
	for i, m := range p.Moves {
		if i%2 == 0 {
			b = append(b, m.String())
		} else {
			w = append(w, m.String())
		}
	}
	return p.Rule.String() + sortedJoin(b) + "/" + sortedJoin(w)
}

func sortedJoin(s []string) string {
	slices.Sort(s)
	return strings.Join(s, " ")
}

func TestMineGame(t *testing.T) {
	backends := map[string]func(t *testing.T) redis.UniversalClient{
		"miniredis": func(t *testing.T) redis.UniversalClient {
			c := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
			t.Cleanup(func() { _ = c.Close() })
			return c
		},
	}
	if redistest.Enabled() {
		backends["redis"] = func(t *testing.T) redis.UniversalClient {
			return redistest.Start(t, redistest.WithoutAOF()).Client()
		}
	}
	games := map[string]string{
		"g1":    "h8 a1 i8 a2 j8 a3 k9 b5 c7 b6 d7",
		"g2":    "j8 a3 i8 a2 h8 a1 k9 b5 c7 b6 d7", // g1's positions after 6 plies and on, by another order
		"short": "h8 a1 i8",
	}
	for name, open := range backends {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := newTestStore(t, open(t))
			miner := &fakeMiner{at: []int{6, 7, 8, 9, 10}}
			src := func(_ context.Context, room string, _ int) (Game, error) {
				mv, ok := games[room]
				if !ok {
					return Game{}, errors.New("no such game")
				}
				return Game{Rule: engine.Freestyle, Size: 15, Moves: mustMoves(t, mv)}, nil
			}
			m := NewMining(s, miner, room.NewScheduler(1, -1), src, nil)

			n, err := m.MineGame(ctx, "g1", 1)
			require.NoError(t, err)
			assert.Equal(t, MaxMinedPerGame, n, "at most MaxMinedPerGame puzzles from one game")
			n, err = m.MineGame(ctx, "g1", 1)
			require.NoError(t, err)
			assert.Zero(t, n, "a game is mined once")
			assert.Equal(t, int32(1), miner.calls.Load())

			n, err = m.MineGame(ctx, "g2", 1)
			require.NoError(t, err)
			assert.Equal(t, 2, n, "the positions g1 stored are not stored again")
			count, err := s.MinedCount(ctx)
			require.NoError(t, err)
			assert.Equal(t, int64(MaxMinedPerGame+2), count)

			n, err = m.MineGame(ctx, "short", 1)
			require.NoError(t, err)
			assert.Zero(t, n)
			assert.Equal(t, int32(2), miner.calls.Load(), "a short game is not searched")
			_, err = m.MineGame(ctx, "missing", 1)
			assert.Error(t, err)
			_, err = m.MineGame(ctx, "bad{id}", 1)
			assert.Error(t, err)
		})
	}
}

// Ended never blocks: beyond the queue's room a game is dropped.
func TestMiningEndedNeverBlocks(t *testing.T) {
	s, _ := newMini(t)
	m := NewMining(s, &fakeMiner{}, room.NewScheduler(1, -1), nil, nil)
	for i := 0; i < cap(m.q)+10; i++ {
		m.Ended("r", i+1)
	}
	assert.Len(t, m.q, cap(m.q))
}

// Run tells Observe of every game it mined: the puzzles it stored, or the error.
func TestMiningRunObserves(t *testing.T) {
	s, _ := newMini(t)
	src := func(_ context.Context, room string, _ int) (Game, error) {
		if room != "g1" {
			return Game{}, errors.New("no such game")
		}
		return Game{Rule: engine.Freestyle, Size: 15, Moves: mustMoves(t, "h8 a1 i8 a2 j8 a3 k9 b5 c7 b6 d7")}, nil
	}
	m := NewMining(s, &fakeMiner{at: []int{6}}, room.NewScheduler(1, -1), src, nil)
	type seen struct {
		added int
		err   bool
	}
	got := make(chan seen, 2)
	m.Observe = func(added int, err error) { got <- seen{added, err != nil} }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go m.Run(ctx)
	m.Ended("g1", 1)
	m.Ended("missing", 1)
	assert.Equal(t, seen{1, false}, <-got)
	assert.Equal(t, seen{0, true}, <-got)
}
