package match

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/stats"
	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
)

func TestParseOpenings(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		rule    engine.Rule
		want    []string
		wantErr string
	}{
		{"basic", "h8 i9 j7\n# comment\n\nh8i8h9 # direct\n", engine.Freestyle, []string{"h8i9j7", "h8i8h9"}, ""},
		{"crlf", "h8 i9 j7\r\nh8,g7,j9\r\n", engine.Renju, []string{"h8i9j7", "h8g7j9"}, ""},
		{"bad point", "h8 z99\n", engine.Freestyle, nil, "line 1"},
		{"occupied", "h8 h8\n", engine.Freestyle, nil, "line 1: move 2 (h8)"},
		{"empty", "# nothing\n", engine.Freestyle, nil, "no openings"},
		{"game over", "a1b1a2b2a3b3a4b4a5\n", engine.Freestyle, nil, "game is over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := ParseOpenings(strings.NewReader(tt.in), 15, tt.rule)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			var got []string
			for _, o := range ops {
				got = append(got, o.String())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestShippedOpenings checks the shipped openings file under every rule.
func TestShippedOpenings(t *testing.T) {
	for _, rule := range []engine.Rule{engine.Freestyle, engine.Standard, engine.Renju} {
		ops, err := ParseOpenings(strings.NewReader(engine.OpeningsText()), 15, rule)
		require.NoError(t, err, rule.String())
		assert.GreaterOrEqual(t, len(ops), 40)
		seen := map[string]bool{}
		for _, o := range ops {
			assert.False(t, seen[o.String()], "duplicate %s", o)
			seen[o.String()] = true
		}
	}
}

func FuzzParseOpenings(f *testing.F) {
	f.Add("h8 i9 j7\n# c\nh8i8")
	f.Add("z1\n")
	f.Add("a15 o1 # x")
	f.Fuzz(func(t *testing.T, in string) {
		ops, err := ParseOpenings(strings.NewReader(in), 15, engine.Renju)
		if err == nil {
			for _, o := range ops {
				_, err := engine.BoardFromMoves(15, engine.Renju, o.Moves)
				require.NoError(t, err)
			}
		}
	})
}

func TestPSQRoundTrip(t *testing.T) {
	moves, _ := engine.ParseMoves("h8i9a1o15", 15)
	var buf bytes.Buffer
	require.NoError(t, WritePSQ(&buf, 15, moves, []int64{0, 12, 30}, "x", "y"))
	assert.True(t, strings.HasPrefix(buf.String(), "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,12\n1,15,30\n15,1,0\nx\ny\n-1\n"), buf.String())
	size, got, err := ReadPSQ(&buf)
	require.NoError(t, err)
	assert.Equal(t, 15, size)
	assert.Equal(t, moves, got)
}

// scripted plays its moves in order (or the first free point), optionally failing.
type scripted struct {
	name string
	fail error
	slow time.Duration
}

func (s *scripted) Name() string { return s.name }

func (s *scripted) Play(ctx context.Context, b *engine.Board, _ engine.Limits, _ func(engine.Info)) (engine.Result, error) {
	if s.fail != nil {
		return engine.Result{}, s.fail
	}
	if s.slow > 0 {
		select {
		case <-time.After(s.slow):
		case <-ctx.Done():
		}
	}
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			if p := (engine.Point{X: x, Y: y}); b.Check(p) == nil {
				return engine.Result{Move: p}, nil
			}
		}
	}
	return engine.Result{Move: engine.NoPoint}, nil
}

func TestRunForfeitsAndColours(t *testing.T) {
	ops, err := ParseOpenings(strings.NewReader("h8i9j7\nh8i8h9\n"), 15, engine.Freestyle)
	require.NoError(t, err)
	dir := t.TempDir()
	var games []Game
	sum, err := Run(context.Background(), Config{
		A:        func(uint64) engine.Player { return baseline.New(baseline.Options{Depth: 1}) },
		B:        func(uint64) engine.Player { return &scripted{name: "broken", fail: errors.New("boom")} },
		Games:    4,
		Openings: ops, Size: 15, Rule: engine.Freestyle, MoveTime: 50 * time.Millisecond,
		Concurrency: 2, PSQDir: dir,
		OnGame: func(g Game, _ Summary) { games = append(games, g) },
	})
	require.NoError(t, err)
	assert.Equal(t, stats.Result{Wins: 4}, sum.Total)
	assert.Equal(t, stats.Result{Wins: 2}, sum.AsBlack)
	assert.Equal(t, stats.Result{Wins: 2}, sum.AsWhite)
	require.Len(t, games, 4)
	for _, g := range games {
		assert.Equal(t, "error: boom", g.Reason)
		assert.Equal(t, ops[g.Index/2].Moves, g.Moves[:3])
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.psq"))
	assert.Len(t, files, 4)
}

func TestRunPlaysToTheEnd(t *testing.T) {
	sum, err := Run(context.Background(), Config{
		A:     func(uint64) engine.Player { return baseline.New(baseline.Options{Depth: 2, MaxCandidates: 8}) },
		B:     func(uint64) engine.Player { return &scripted{name: "dumb"} },
		Games: 2, Size: 15, Rule: engine.Standard, MoveTime: 50 * time.Millisecond,
	})
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Games)
	assert.Equal(t, 2, sum.Total.Wins, "the baseline beats a first-free-point player")
}

// TestRunRenjuNoLegalMove: a renju game where black, to move, has only forbidden
// points left is a draw, not a forfeit of the side that cannot move.
func TestRunRenjuNoLegalMove(t *testing.T) {
	data, err := os.ReadFile("../../../../engine/testdata/renju-no-legal-move.txt")
	require.NoError(t, err)
	moves, err := engine.ParseMoves(string(data), 15)
	require.NoError(t, err)
	var games []Game
	sum, err := Run(context.Background(), Config{
		A:        func(uint64) engine.Player { return &scripted{name: "a"} },
		B:        func(uint64) engine.Player { return &scripted{name: "b"} },
		Games:    2,
		Openings: []Opening{{Moves: moves}}, Size: 15, Rule: engine.Renju, MoveTime: 50 * time.Millisecond,
		OnGame: func(g Game, _ Summary) { games = append(games, g) },
	})
	require.NoError(t, err)
	assert.Equal(t, stats.Result{Draws: 2}, sum.Total)
	require.Len(t, games, 2)
	for _, g := range games {
		assert.Equal(t, engine.Empty, g.Winner)
		assert.Equal(t, "draw", g.Reason)
		assert.Len(t, g.Moves, 224)
	}
}

func TestRunTimeForfeitAndClock(t *testing.T) {
	sum, err := Run(context.Background(), Config{
		A:     func(uint64) engine.Player { return &scripted{name: "slow", slow: time.Second} },
		B:     func(uint64) engine.Player { return &scripted{name: "fast"} },
		Games: 2, Size: 15, Rule: engine.Freestyle, Clock: 100 * time.Millisecond, Grace: 10 * time.Millisecond,
	})
	require.NoError(t, err)
	assert.Equal(t, stats.Result{Losses: 2}, sum.Total)
}

func TestRunSPRTStops(t *testing.T) {
	sum, err := Run(context.Background(), Config{
		A:     func(uint64) engine.Player { return &scripted{name: "ok"} },
		B:     func(uint64) engine.Player { return &scripted{name: "broken", fail: errors.New("x")} },
		Games: 1000, Size: 15, Rule: engine.Freestyle, MoveTime: 10 * time.Millisecond,
		SPRT: &stats.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05},
	})
	require.NoError(t, err)
	assert.Equal(t, stats.AcceptH1, sum.SPRT)
	assert.Less(t, sum.Games, 1000)
}

// slowStart is a scripted player whose start is slower than a move may take: the match
// must start it off the clock (Prepare), or fail it when the start fails.
type slowStart struct {
	scripted
	start    time.Duration
	startErr error
	prepared bool
}

func (s *slowStart) Prepare(ctx context.Context, size int, rule engine.Rule) error {
	time.Sleep(s.start)
	s.prepared = true
	return s.startErr
}

func (s *slowStart) Play(ctx context.Context, b *engine.Board, l engine.Limits, p func(engine.Info)) (engine.Result, error) {
	if !s.prepared {
		return engine.Result{}, errors.New("not prepared")
	}
	return s.scripted.Play(ctx, b, l, p)
}

func TestRunPreparesSlowStarters(t *testing.T) {
	for _, tc := range []struct {
		name     string
		startErr error
		want     stats.Result
		reason   string
	}{
		{"slow start is off the clock", nil, stats.Result{Wins: 1, Losses: 1}, "five"},
		{"failed start forfeits", errors.New("no table"), stats.Result{Losses: 2}, "error: no table"},
	} {
		var reasons []string
		sum, err := Run(context.Background(), Config{
			A: func(uint64) engine.Player {
				return &slowStart{scripted: scripted{name: "slow"}, start: 300 * time.Millisecond, startErr: tc.startErr}
			},
			B:     func(uint64) engine.Player { return &scripted{name: "fast"} },
			Games: 2, Size: 15, Rule: engine.Freestyle, MoveTime: 50 * time.Millisecond, Grace: 50 * time.Millisecond,
			OnGame: func(g Game, _ Summary) { reasons = append(reasons, g.Reason) },
		})
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, sum.Total, tc.name)
		assert.Equal(t, []string{tc.reason, tc.reason}, reasons, tc.name)
	}
}
