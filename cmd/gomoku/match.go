package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/match"
	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/stats"
	"github.com/gomoku-arena/gomoku/cmd/internal/players"
	"github.com/gomoku-arena/gomoku/engine"
)

func runMatch(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("match", stderr)
	a := fs.String("a", "level:master", "first player (results are from its point of view)")
	b := fs.String("b", "baseline", "second player")
	games := fs.Int("games", 200, "number of games (each opening is played twice, colours swapped)")
	openings := fs.String("openings", "", "openings file (default: the shipped balanced 5-stone set)")
	ruleName := fs.String("rule", "freestyle", "rule: freestyle, standard or renju")
	size := fs.Int("size", 15, "board size (15 to 20)")
	moveTime := fs.Duration("time", 200*time.Millisecond, "time per move")
	clock := fs.Duration("clock", 0, "game clock per side instead of a per-move time (e.g. 60s)")
	inc := fs.Duration("inc", 0, "increment per move with -clock")
	conc := fs.Int("concurrency", 1, "games played at once")
	nodes := fs.Uint64("nodes", 0, "node cap per move of the built-in engines besides -time (0: none; the same play at any load)")
	sprtSpec := fs.String("sprt", "", "stop early by SPRT: elo0,elo1,alpha,beta (e.g. 0,50,0.05,0.05)")
	psq := fs.String("psq", "", "directory for PSQ game records")
	seed := fs.Uint64("seed", 1, "seed of the players' randomness")
	hash := fs.Int("hash", 16, "transposition table MiB per engine")
	threads := fs.Int("threads", 1, "search threads of each engine level player (Lazy SMP above 1)")
	threadsA := fs.Int("threads-a", 0, "search threads of the first player (0: -threads)")
	threadsB := fs.Int("threads-b", 0, "search threads of the second player (0: -threads)")
	quiet := fs.Bool("quiet", false, "no progress bar: one line per game on stderr instead")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rule, err := engine.ParseRule(*ruleName)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *threadsA == 0 {
		*threadsA = *threads
	}
	if *threadsB == 0 {
		*threadsB = *threads
	}
	fa, err := players.Parse(*a, players.Options{HashMiB: *hash, Seed: *seed, Threads: *threadsA})
	if err != nil {
		return fmt.Errorf("%w: -a: %v", errUsage, err)
	}
	fb, err := players.Parse(*b, players.Options{HashMiB: *hash, Seed: *seed + 1, Threads: *threadsB})
	if err != nil {
		return fmt.Errorf("%w: -b: %v", errUsage, err)
	}
	ops, err := loadOpenings(*openings, *size, rule)
	if err != nil {
		return err
	}
	var sprt *stats.SPRT
	if *sprtSpec != "" {
		v, err := floats(*sprtSpec, 4)
		if err != nil {
			return fmt.Errorf("%w: -sprt: %v", errUsage, err)
		}
		sprt = &stats.SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3]}
	}
	var bar *progressbar.ProgressBar
	if !*quiet {
		bar = newBar(stderr, *games, fmt.Sprintf("%s vs %s", *a, *b))
	}
	cfg := match.Config{
		A: fa.New, B: fb.New, Games: *games, Openings: ops, Size: *size, Rule: rule,
		MoveTime: *moveTime, Clock: *clock, Increment: *inc, Nodes: *nodes, Concurrency: *conc, SPRT: sprt,
		PSQDir: *psq, Seed: *seed, Close: players.Close,
		OnGame: func(g match.Game, s match.Summary) {
			if bar != nil {
				elo, _, _ := s.Total.Elo()
				bar.Describe(fmt.Sprintf("%s vs %s  +%d =%d -%d  %.1f%%  Elo %+.0f", *a, *b,
					s.Total.Wins, s.Total.Draws, s.Total.Losses, 100*s.Total.Score(), elo))
				_ = bar.Add(1)
			}
			if bar == nil {
				elo, lo, hi := s.Total.Elo()
				fmt.Fprintf(stderr, "game %d: opening %s, black %s, white %s: %s (%s); total +%d =%d -%d, %.1f%%, Elo %s [%s, %s]\n",
					g.Index+1, g.Opening, g.Black, g.White, resultText(g), g.Reason, s.Total.Wins, s.Total.Draws, s.Total.Losses,
					100*s.Total.Score(), fmtElo(elo), fmtElo(lo), fmtElo(hi))
			}
			if strings.HasPrefix(g.Reason, "error") || strings.HasPrefix(g.Reason, "illegal") || g.Reason == "time" {
				fmt.Fprintf(stderr, "\ngame %d: %s forfeits: %s\n", g.Index+1, g.Winner.Opponent(), g.Reason)
			}
		},
	}
	start := time.Now()
	sum, err := match.Run(ctx, cfg)
	if bar != nil {
		_ = bar.Finish()
	}
	printSummary(stdout, *a, *b, sum, sprt, time.Since(start))
	tc := timeControl(*moveTime, *clock, *inc)
	if *nodes > 0 {
		tc += fmt.Sprintf(", %d nodes per move", *nodes)
	}
	if *threadsA != 1 || *threadsB != 1 {
		tc += fmt.Sprintf(", threads %d/%d", *threadsA, *threadsB)
	}
	fmt.Fprintf(stdout, "settings: rule %s, %dx%d, %s, %d openings, concurrency %d\n", rule, *size, *size, tc, len(ops), *conc)
	return err
}

func resultText(g match.Game) string {
	switch g.Winner {
	case engine.Black:
		return "1-0"
	case engine.White:
		return "0-1"
	}
	return "1/2"
}

func timeControl(mt, clock, inc time.Duration) string {
	if clock > 0 {
		return fmt.Sprintf("clock %v+%v", clock, inc)
	}
	return fmt.Sprintf("%v per move", mt)
}

func floats(s string, n int) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %d comma-separated numbers", n)
	}
	out := make([]float64, n)
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func fmtElo(v float64) string {
	if math.IsInf(v, 0) {
		if v > 0 {
			return "+inf"
		}
		return "-inf"
	}
	if math.Abs(v) < 0.5 {
		return "0"
	}
	return fmt.Sprintf("%+.0f", v)
}

// printSummary writes the final table.
func printSummary(w io.Writer, a, b string, s match.Summary, sprt *stats.SPRT, took time.Duration) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "%s vs %s\tgames\twins\tdraws\tlosses\tscore\n", a, b)
	line := func(name string, r stats.Result) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f%%\n", name, r.Games(), r.Wins, r.Draws, r.Losses, 100*r.Score())
	}
	line("total", s.Total)
	line(a+" as black", s.AsBlack)
	line(a+" as white", s.AsWhite)
	tw.Flush()
	elo, lo, hi := s.Total.Elo()
	fmt.Fprintf(w, "Elo difference: %s (95%% interval %s to %s) over %d games in %v\n", fmtElo(elo), fmtElo(lo), fmtElo(hi), s.Games, took.Round(time.Second))
	if sprt != nil {
		l, u := sprt.Bounds()
		fmt.Fprintf(w, "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f (bounds %.2f, %.2f): %s\n", sprt.Elo0, sprt.Elo1, sprt.Alpha, sprt.Beta, s.LLR, l, u, s.SPRT)
	}
}

// loadOpenings reads the openings file at path ("": the shipped balanced set).
func loadOpenings(path string, size int, rule engine.Rule) ([]match.Opening, error) {
	var src io.Reader = strings.NewReader(engine.OpeningsText())
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		src = f
	}
	return match.ParseOpenings(src, size, rule)
}
