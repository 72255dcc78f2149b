package tune

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func TestParseGame(t *testing.T) {
	g, err := ParseGame("freestyle 15 draw 3 h8i9g7h7g9g8f8")
	require.NoError(t, err)
	require.Equal(t, engine.Freestyle, g.Rule)
	require.Equal(t, 15, g.Size)
	require.Equal(t, 3, g.Opening)
	require.Len(t, g.Moves, 7)
	require.Equal(t, engine.Empty, g.Winner, "unfinished games count as draws")
	require.Equal(t, "freestyle 15 draw 3 h8i9g7h7g9g8f8", g.String())

	// Black five on row 8.
	won := "standard 15 black 2 h8h9i8i9j8j9k8k9l8"
	g, err = ParseGame(won)
	require.NoError(t, err)
	require.Equal(t, engine.Black, g.Winner)
	require.Equal(t, won, g.String())
	require.Nil(t, g.Scores)

	// Scores of the positions after the opening, one per move played from them.
	scored := "freestyle 15 draw 3 h8i9g7h7g9g8f8 12,-30,999995,-1000000"
	g, err = ParseGame(scored)
	require.NoError(t, err)
	require.Equal(t, []int32{12, -30, 999995, -1000000}, g.Scores)
	require.Equal(t, scored, g.String())

	for _, tc := range []struct{ line, msg string }{
		{"freestyle 15 black 3", "want 5 or 6 fields"},
		{"freestyle 15 draw 3 h8i9g7h7 1,2", "2 scores for 1 moves"},
		{"freestyle 15 draw 3 h8i9g7h7 x", "bad score"},
		{"freestyle 15 draw 0 ,", "no moves"},
		{"freestyle 15 draw 3 h8i9g7h7 1000001", "bad score"},
		{"freestyle 15 draw 3 h8i9g7h7 1 2", "want 5 or 6 fields"},
		{"gomoku 15 black 0 h8", "unknown rule"},
		{"freestyle 9 black 0 h8", "bad size"},
		{"freestyle 15 nobody 0 h8", "bad result"},
		{"freestyle 15 draw 2 h8", "bad opening"},
		{"freestyle 15 draw 0 h8h8", "occupied"},
		{"freestyle 15 draw 0 z99", "bad point"},
		{"standard 15 white 2 h8h9i8i9j8j9k8k9l8", "the moves give black"},
		{"standard 15 draw 2 h8h9i8i9j8j9k8k9l8", "the moves give black"},
	} {
		_, err := ParseGame(tc.line)
		require.ErrorIs(t, err, ErrBadGame, tc.line)
		require.ErrorContains(t, err, tc.msg, tc.line)
	}
}

func TestReadGamesNamesTheLine(t *testing.T) {
	gs, err := ReadGames(strings.NewReader("# comment\n\nfreestyle 15 draw 1 h8\n"))
	require.NoError(t, err)
	require.Len(t, gs, 1)
	_, err = ReadGames(strings.NewReader("# comment\nfreestyle 15 draw 1 h8\nfreestyle 15 draw 1 h8h8\n"))
	require.ErrorContains(t, err, "line 3")
}

func TestSampleDatasetParses(t *testing.T) {
	f, err := os.Open("testdata/games.txt")
	require.NoError(t, err)
	defer f.Close()
	gs, err := ReadGames(f)
	require.NoError(t, err)
	require.Len(t, gs, 30)
}

// TestGeneratorDeterministic plays the same game twice from the same seed and index,
// and checks the games are finished, legal and start with the random opening.
func TestGeneratorDeterministic(t *testing.T) {
	cfg := GenConfig{Rules: []engine.Rule{engine.Renju, engine.Standard}, Nodes: 300, Seed: 5}
	g1, err := NewGenerator(cfg)
	require.NoError(t, err)
	g2, err := NewGenerator(cfg)
	require.NoError(t, err)
	for i := 0; i < 2; i++ {
		a, err := g1.Play(context.Background(), i)
		require.NoError(t, err)
		b, err := g2.Play(context.Background(), i)
		require.NoError(t, err)
		require.Equal(t, a.String(), b.String())
		require.Equal(t, cfg.Rules[i], a.Rule)
		require.GreaterOrEqual(t, a.Opening, 3)
		require.LessOrEqual(t, a.Opening, 8)
		require.Equal(t, engine.Point{X: 7, Y: 7}, a.Moves[0])
		back, err := ParseGame(a.String())
		require.NoError(t, err, "a generated game is a valid dataset line")
		require.Equal(t, a, back)
		require.Len(t, a.Scores, len(a.Moves)-a.Opening, "a score for every searched position")
		if a.Winner != engine.Empty {
			last := a.Scores[len(a.Scores)-1]
			require.Greater(t, last, int32(engine.MateThreshold), "the winner's last move was scored as a win")
		}
	}
	other, err := NewGenerator(GenConfig{Rules: cfg.Rules, Nodes: 300, Seed: 6})
	require.NoError(t, err)
	a, _ := g1.Play(context.Background(), 0)
	c, err := other.Play(context.Background(), 0)
	require.NoError(t, err)
	require.NotEqual(t, a.Moves, c.Moves, "another seed, another game")
}

func TestGeneratorCancelled(t *testing.T) {
	g, err := NewGenerator(GenConfig{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = g.Play(ctx, 0)
	require.ErrorIs(t, err, context.Canceled)
	_, err = NewGenerator(GenConfig{OpeningMin: 5, OpeningMax: 2})
	require.ErrorIs(t, err, ErrBadConfig)
}

// TestTuneOnSample fits the sample games and checks the fitted tables lower the
// training loss, keep the scale, leave rules without games alone and are deterministic.
func TestTuneOnSample(t *testing.T) {
	f, err := os.Open("testdata/games.txt")
	require.NoError(t, err)
	defer f.Close()
	gs, err := ReadGames(f)
	require.NoError(t, err)
	var fs []Game
	for _, g := range gs {
		if g.Rule != engine.Renju {
			fs = append(fs, g)
		}
	}
	data, err := Samples(fs, 1, nil)
	require.NoError(t, err)
	require.Empty(t, data[engine.Renju].Train)
	require.NotEmpty(t, data[engine.Freestyle].Train)
	init := engine.ShippedEvalTables()
	cfg := TuneConfig{Fit: FitConfig{Iterations: 60, Rate: 1}}
	tab, reps, err := Tune(data, init, cfg)
	require.NoError(t, err)
	require.Len(t, reps, 3)
	for _, rep := range reps[:2] {
		require.Less(t, rep.TrainAfter, rep.TrainBefore, "%s", rep.Rule)
		require.Positive(t, rep.Changed)
	}
	require.True(t, reps[engine.Renju].SkippedNoData)
	require.Equal(t, init.Params(engine.Renju), tab.Params(engine.Renju))
	again, _, err := Tune(data, init, cfg)
	require.NoError(t, err)
	require.Equal(t, tab.Marshal(), again.Marshal())
}

// TestSamplesCarryScores: each sample of a scored game carries the score recorded for
// its own position (here the score is the position's ply, so the order shows it).
func TestSamplesCarryScores(t *testing.T) {
	g, err := ParseGame("freestyle 15 draw 3 h8i9g7h7g9g8f8 3,4,5,6")
	require.NoError(t, err)
	data, err := Samples([]Game{g}, 1, nil)
	require.NoError(t, err)
	d := data[engine.Freestyle]
	all := append(append([]Sample(nil), d.Train...), d.Valid...)
	require.Len(t, all, 4, "the four positions after the opening")
	for i, s := range all {
		require.True(t, s.Scored)
		require.Equal(t, float32(3+i), s.Score)
	}
}

// FuzzParseGame: a line is either refused with ErrBadGame or parses to a game whose
// line parses back to the same game.
func FuzzParseGame(f *testing.F) {
	for _, s := range []string{
		"freestyle 15 draw 3 h8i9g7h7g9g8f8",
		"freestyle 15 draw 3 h8i9g7h7g9g8f8 12,-30,999995,-1000000",
		"standard 15 black 2 h8h9i8i9j8j9k8k9l8",
		"renju 15 white 1 h8 1,2",
		"freestyle 15 draw 0 ,",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		g, err := ParseGame(line)
		if err != nil {
			require.ErrorIs(t, err, ErrBadGame)
			return
		}
		back, err := ParseGame(g.String())
		require.NoError(t, err)
		require.Equal(t, g, back)
	})
}
