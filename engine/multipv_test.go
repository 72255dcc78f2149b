package engine

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchLinesKnownAnswers(t *testing.T) {
	for _, tt := range []struct {
		name, moves string
		n, want     int      // lines asked, lines expected
		best        []string // acceptable first moves
		win         bool     // line 1 is a proven win for the side to move
	}{
		// Black has an open three on row 8 and moves: the four wins.
		{"open four", "h8a1i8a2j8a15", 3, 3, []string{"g8", "k8"}, true},
		// White must block black's four: one sensible move, one line.
		{"forced block", "h8a1i8a2j8a15k8", 3, 1, []string{"g8", "l8"}, false},
		{"middle game", "h8j10k9i6i5j7j6k7i7k5f10g9k8j8i9h9g10j11j9i10", 3, 3, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			moves, err := ParseMoves(tt.moves, 15)
			require.NoError(t, err)
			b, err := BoardFromMoves(15, Freestyle, moves)
			require.NoError(t, err)
			before := b.Hash()
			res := New(Options{HashMiB: 4}).SearchLines(context.Background(), b, tt.n, Limits{Depth: 4}, nil)
			require.Equal(t, before, b.Hash(), "the board is left alone")
			require.Len(t, res.Lines, tt.want)
			seen := map[Point]bool{}
			for i, l := range res.Lines {
				require.NoError(t, b.Check(l.Move), "line %d plays a legal move", i)
				require.False(t, seen[l.Move], "line %d repeats a move", i)
				seen[l.Move] = true
				require.NotEmpty(t, l.PV)
				require.Equal(t, l.Move, l.PV[0])
				if i > 0 {
					require.LessOrEqual(t, l.Score, res.Lines[i-1].Score, "best first")
				}
			}
			if tt.best != nil {
				require.Contains(t, tt.best, res.Lines[0].Move.String())
			}
			require.Equal(t, tt.win, res.Lines[0].Score > MateThreshold)
			require.Positive(t, res.Nodes)
			require.Equal(t, 1, res.Round)
		})
	}
}

// TestSearchLinesFirstIsSearch: line 1 is what Search finds under the same limits,
// and the next lines are what Search would find without the earlier moves.
func TestSearchLinesFirstIsSearch(t *testing.T) {
	b := middleGame(t, Freestyle)
	lim := Limits{Depth: 4}
	want := New(Options{HashMiB: 4}).Search(context.Background(), b, lim, nil)
	got := New(Options{HashMiB: 4}).SearchLines(context.Background(), b, 2, lim, nil)
	require.Len(t, got.Lines, 2)
	require.Equal(t, want.Move, got.Lines[0].Move)
	require.Equal(t, want.Score, got.Lines[0].Score)
	require.NotEqual(t, got.Lines[0].Move, got.Lines[1].Move)

	// The exclusion ends with SearchLines: a later Search sees every root move again.
	e := New(Options{HashMiB: 4})
	e.SearchLines(context.Background(), b, 3, lim, nil)
	require.Nil(t, e.s.exclude)
	e.Clear()
	require.Equal(t, want.Move, e.Search(context.Background(), b, lim, nil).Move)
}

func TestSearchLinesRenjuSkipsForbidden(t *testing.T) {
	// Black to move with a double three at k8 (h8 i8 · k8 and k8 · k10 k11): no line may start
	// on a forbidden point.
	moves, err := ParseMoves("h8a1i8a2k10a3k11a15", 15)
	require.NoError(t, err)
	b, err := BoardFromMoves(15, Renju, moves)
	require.NoError(t, err)
	require.NotEmpty(t, b.ForbiddenPoints(), "the test position has a forbidden point")
	res := New(Options{HashMiB: 4}).SearchLines(context.Background(), b, 3, Limits{Depth: 2}, nil)
	require.NotEmpty(t, res.Lines)
	for _, l := range res.Lines {
		require.NoError(t, b.Check(l.Move))
	}
}

func TestSearchLinesRoundsAndProgress(t *testing.T) {
	b := middleGame(t, Freestyle)
	var reports []Lines
	budget := 1500 * time.Millisecond
	if raceEnabled {
		budget = 10 * time.Second // the race detector slows the search about tenfold
	}
	res := New(Options{HashMiB: 4}).SearchLines(context.Background(), b, 3, Limits{Time: budget}, func(l Lines) {
		reports = append(reports, l)
	})
	require.GreaterOrEqual(t, res.Round, 2, "a timed analysis deepens in rounds")
	require.Len(t, res.Lines, 3)
	require.NotEmpty(t, reports)
	for i := 1; i < len(reports); i++ {
		require.GreaterOrEqual(t, reports[i].Nodes, reports[i-1].Nodes)
		require.LessOrEqual(t, len(reports[i].Lines), 3)
	}
	last := reports[len(reports)-1]
	require.Equal(t, res.Lines[0].Move, last.Lines[0].Move)
	require.GreaterOrEqual(t, res.Lines[0].Depth, reports[0].Lines[0].Depth, "later rounds search deeper")
	require.False(t, res.Exhausted, "a middle game is not exhausted so soon")

	// A won position is proven in the first rounds: the analysis ends early.
	won, err := ParseMoves("h8a1i8a2j8a3k8", 15)
	require.NoError(t, err)
	wb, err := BoardFromMoves(15, Freestyle, won[:6])
	require.NoError(t, err)
	res = New(Options{HashMiB: 4}).SearchLines(context.Background(), wb, 2, Limits{}, nil)
	require.True(t, res.Exhausted)
	require.Greater(t, res.Lines[0].Score, MateThreshold)
}

func TestSearchLinesCancel(t *testing.T) {
	b := middleGame(t, Freestyle)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Lines)
	go func() { done <- New(Options{HashMiB: 4}).SearchLines(ctx, b, 3, Limits{}, nil) }()
	// The first round's lines come within a second; then stop the open-ended analysis.
	time.AfterFunc(300*time.Millisecond, cancel)
	select {
	case res := <-done:
		require.LessOrEqual(t, len(res.Lines), 3)
	case <-time.After(30 * time.Second):
		t.Fatal("SearchLines did not stop after cancel")
	}
}

func BenchmarkSearchLines(b *testing.B) {
	pos := middleGame(b, Freestyle)
	e := New(Options{HashMiB: 16})
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		e.Clear()
		nodes += e.SearchLines(context.Background(), pos, 3, Limits{Depth: 6}, nil).Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// TestSettled: only proven lines or lines searched to the depth cap end an analysis
// early; equal rounds of ordinary lines (a busy machine gave the doubled time no extra
// ply) do not.
func TestSettled(t *testing.T) {
	cases := []struct {
		name  string
		lines []Line
		want  bool
	}{
		{"ordinary scores", []Line{{Score: 120, Depth: 6}, {Score: -40, Depth: 6}}, false},
		{"one line proven", []Line{{Score: MateScore - 5, Depth: 3}, {Score: 10, Depth: 3}}, false},
		{"all proven", []Line{{Score: MateScore - 5, Depth: 3}, {Score: -MateScore + 8, Depth: 2}}, true},
		{"depth cap", []Line{{Score: 30, Depth: maxDepthCap}}, true},
		{"no lines", nil, true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, settled(c.lines), c.name)
	}
}
