package puzzles

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room/rating"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func mustMoves(t testing.TB, s string) []engine.Point {
	t.Helper()
	m, err := engine.ParseMoves(s, 15)
	require.NoError(t, err)
	return m
}

// testShipped is a small shipped suite: two freestyle puzzles of different
// categories and one renju puzzle.
func testShipped(t testing.TB) []puzzle.Puzzle {
	return []puzzle.Puzzle{
		{ID: "win-in-one-001", Category: "win-in-one", Rule: engine.Freestyle, Size: 15, ToMove: engine.Black, Moves: mustMoves(t, "h8 a1 i8 a2 j8 a3 k8 a4")},
		{ID: "vct-001", Category: "vct", Rule: engine.Freestyle, Size: 15, ToMove: engine.Black, Moves: mustMoves(t, "h8 a1 i8 a2")},
		{ID: "vcf-001", Category: "vcf", Rule: engine.Renju, Size: 15, ToMove: engine.Black, Moves: mustMoves(t, "h8 a1 i8 a2 j8 a3")},
	}
}

func newMini(t *testing.T) (*Store, redis.UniversalClient) {
	t.Helper()
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	return newTestStore(t, c), c
}

func newTestStore(t testing.TB, c redis.UniversalClient) *Store {
	s := NewStore(c, testShipped(t), WithClock(func() time.Time { return t0 }))
	require.NoError(t, s.Seed(context.Background()))
	return s
}

func TestPuzzleAndPriors(t *testing.T) {
	s, _ := newMini(t)
	ctx := context.Background()
	tests := []struct {
		id     string
		prior  float64
		source string
		err    error
	}{
		{"win-in-one-001", 900, SourceShipped, nil},
		{"vct-001", 1800, SourceShipped, nil},
		{"nope", 0, "", ErrNoSuchPuzzle},
		{"bad:id", 0, "", ErrNoSuchPuzzle},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			p, st, err := s.Puzzle(ctx, tt.id)
			if tt.err != nil {
				require.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.source, s.Source(p.ID))
			assert.Equal(t, tt.prior, st.R)
			assert.Equal(t, PriorRD, st.RD)
			assert.Zero(t, st.Plays)
		})
	}
}

func TestAddMinedOnce(t *testing.T) {
	s, c := newMini(t)
	ctx := context.Background()
	p := puzzle.Puzzle{ID: "mined-0123456789ab", Category: "vcf", Rule: engine.Standard, Size: 15, ToMove: engine.Black,
		Moves: mustMoves(t, "h8 h9 i8 i9 j8 j9"), Answers: mustMoves(t, "k8"), Note: "a mined note"}
	id := p.ID
	added, err := s.AddMined(ctx, p, "room1", 1)
	require.NoError(t, err)
	assert.True(t, added)
	added, err = s.AddMined(ctx, p, "room2", 3)
	require.NoError(t, err)
	assert.False(t, added, "a position is stored once")
	n, err := s.MinedCount(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)

	got, st, err := s.Puzzle(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, SourceMined, s.Source(id))
	assert.Equal(t, p, got, "the stored puzzle is the mined one, note included")
	assert.Equal(t, Prior("vcf"), st.Rating)
	score, err := c.ZScore(ctx, IndexKey("standard"), id).Result()
	require.NoError(t, err)
	assert.Equal(t, Prior("vcf").R, score)

	_, err = s.AddMined(ctx, puzzle.Puzzle{}, "room1", 1)
	assert.Error(t, err)
}

func TestFirstAttemptRatedOnce(t *testing.T) {
	s, c := newMini(t)
	ctx := context.Background()
	p, _, err := s.Puzzle(ctx, "vct-001")
	require.NoError(t, err)

	a, err := s.Start(ctx, "alice", false, p.ID)
	require.NoError(t, err)
	assert.True(t, a.First)
	assert.True(t, a.Rated())
	_, raw, err := s.Load(ctx, a.ID)
	require.NoError(t, err)
	done, err := s.Finish(ctx, a, raw, p, true)
	require.NoError(t, err)
	require.NotNil(t, done.Change)
	wantP, wantZ := rating.Pair(rating.Initial(), Prior("vct"), rating.Win)
	assert.Equal(t, wantP, done.Change.After)
	assert.True(t, done.Change.Rated)
	assert.Equal(t, OutcomeSolved, done.Outcome)

	// A retry of the same end (same read) changes nothing and answers the stored end.
	again, err := s.Finish(ctx, a, raw, p, false)
	require.NoError(t, err)
	assert.Equal(t, done, again)
	pr, err := s.PlayerRating(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, wantP, pr.Rating)
	assert.Equal(t, 1, pr.N)
	_, st, err := s.Puzzle(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, wantZ, st.Rating)
	assert.Equal(t, 1, st.Plays)
	assert.Equal(t, 1, st.Solved)
	score, err := c.ZScore(ctx, IndexKey("freestyle"), p.ID).Result()
	require.NoError(t, err)
	assert.InDelta(t, wantZ.R, score, 0.01)

	// The second attempt is practice: nothing moves.
	b, err := s.Start(ctx, "alice", false, p.ID)
	require.NoError(t, err)
	assert.False(t, b.First)
	_, raw, err = s.Load(ctx, b.ID)
	require.NoError(t, err)
	done, err = s.Finish(ctx, b, raw, p, false)
	require.NoError(t, err)
	assert.False(t, done.Change.Rated)
	assert.Equal(t, done.Change.Before, done.Change.After)
	pr2, err := s.PlayerRating(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, pr, pr2)
	_, st2, err := s.Puzzle(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, st, st2)

	_, err = s.Finish(ctx, done, raw, p, true)
	assert.ErrorIs(t, err, ErrAttemptOver)
}

func TestAssistedFirstAttemptUnrated(t *testing.T) {
	s, _ := newMini(t)
	ctx := context.Background()
	p, _, err := s.Puzzle(ctx, "win-in-one-001")
	require.NoError(t, err)
	a, err := s.Start(ctx, "bob", true, p.ID)
	require.NoError(t, err)
	_, raw, err := s.Load(ctx, a.ID)
	require.NoError(t, err)
	a.Assisted = true
	raw, err = s.Save(ctx, raw, a)
	require.NoError(t, err)
	done, err := s.Finish(ctx, a, raw, p, true)
	require.NoError(t, err)
	assert.False(t, done.Change.Rated)
	_, st, err := s.Puzzle(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, Prior("win-in-one"), st.Rating, "an assisted attempt rates nobody")
	assert.Equal(t, 1, st.Plays, "but counts as the player's play")
	assert.Equal(t, 1, st.Solved)
}

func TestSaveConflict(t *testing.T) {
	s, _ := newMini(t)
	ctx := context.Background()
	a, err := s.Start(ctx, "carol", false, "vct-001")
	require.NoError(t, err)
	_, raw, err := s.Load(ctx, a.ID)
	require.NoError(t, err)
	a.Line = append(a.Line, "h9", "h10")
	_, err = s.Save(ctx, raw, a)
	require.NoError(t, err)
	_, err = s.Save(ctx, raw, a)
	assert.ErrorIs(t, err, ErrConflict, "a second writer from the same read loses")
	_, _, err = s.Load(ctx, "nosuch")
	assert.ErrorIs(t, err, ErrNoSuchAttempt)
}

func TestNextNearRatingAndFresh(t *testing.T) {
	s, _ := newMini(t)
	now := t0
	s.now = func() time.Time { return now }
	ctx := context.Background()
	// A new player (1500) gets the freestyle puzzle nearest its rating first: vct
	// (1800) is within 400, win-in-one (900) only within 800.
	p, _, err := s.Next(ctx, "dave", "freestyle")
	require.NoError(t, err)
	assert.Equal(t, "vct-001", p.ID)
	_, err = s.Start(ctx, "dave", false, p.ID)
	require.NoError(t, err)
	now = now.Add(time.Hour)
	p, _, err = s.Next(ctx, "dave", "freestyle")
	require.NoError(t, err)
	assert.Equal(t, "win-in-one-001", p.ID, "a puzzle played recently is not offered again")
	_, err = s.Start(ctx, "dave", false, p.ID)
	require.NoError(t, err)
	p, _, err = s.Next(ctx, "dave", "freestyle")
	require.NoError(t, err)
	assert.Equal(t, "vct-001", p.ID, "all played: the one played longest ago")

	_, _, err = s.Next(ctx, "dave", "standard")
	assert.ErrorIs(t, err, ErrNoSuchPuzzle)
	p, _, err = s.Next(ctx, "dave", "renju")
	require.NoError(t, err)
	assert.Equal(t, "vcf-001", p.ID)
}
