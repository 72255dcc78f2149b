package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/tune"
	"github.com/gomoku-arena/gomoku/engine"
)

func runTune(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("tune", stderr)
	gen := fs.Bool("gen", false, "generate self-play games into -out instead of fitting")
	out := fs.String("out", "", "output: the games file with -gen (appended to, resumed), else the tables file")
	games := fs.Int("games", 6000, "-gen: total games wanted in -out")
	nodes := fs.Uint64("nodes", 10000, "-gen: search nodes per move")
	rules := fs.String("rules", "freestyle,standard,renju", "-gen: rules played in turn")
	seed := fs.Uint64("seed", 1, "seed: game i of -gen is determined by (seed, i); when fitting, it picks the validation games")
	data := fs.String("data", "", "games file to fit to (the -gen format)")
	initFile := fs.String("init", "", "tables to start from (default: the engine's shipped tables)")
	iters := fs.Int("iters", 400, "fitting steps (full-batch Adam) per rule")
	rate := fs.Float64("rate", 4, "Adam step size in parameter units")
	ridge := fs.Float64("ridge", 1e-9, "pull towards the initial tables (times the squared distance)")
	scoreWeight := fs.Float64("score-weight", 0, "weight of a position's recorded search score in its target, 0..1 (0: the game result alone)")
	scoreScale := fs.Float64("score-scale", 0, "scale of the scores' sigmoid, σ(score/scale) (0: the k fitted to the evaluation; for a teacher's values, its scale)")
	label := fs.Bool("label", false, "copy the games of -data to -out with their positions valued by -teacher instead of fitting")
	teacher := fs.String("teacher", "", "-label: the teacher, a Gomocup brain that takes INFO MAX_NODE and reports its value as Rapfi does")
	teacherNodes := fs.Uint64("teacher-nodes", 20000, "-label: the teacher's nodes per position")
	concurrency := fs.Int("concurrency", 1, "-label: teacher processes at once")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: -out is required", errUsage)
	}
	if *label {
		if *data == "" || *teacher == "" {
			return fmt.Errorf("%w: -label needs -data and -teacher", errUsage)
		}
		if *teacherNodes == 0 || *concurrency < 1 {
			return fmt.Errorf("%w: -teacher-nodes and -concurrency must be positive", errUsage)
		}
		return runTuneLabel(ctx, labelConfig{data: *data, out: *out, teacher: *teacher, nodes: *teacherNodes,
			concurrency: *concurrency, quiet: *quiet}, stdout, stderr)
	}
	if *gen {
		var rs []engine.Rule
		for _, name := range strings.Split(*rules, ",") {
			r, err := engine.ParseRule(strings.TrimSpace(name))
			if err != nil {
				return fmt.Errorf("%w: -rules: %v", errUsage, err)
			}
			rs = append(rs, r)
		}
		return runTuneGen(ctx, tune.GenConfig{Rules: rs, Nodes: *nodes, Seed: *seed}, *out, *games, *quiet, stdout, stderr)
	}
	if *scoreWeight < 0 || *scoreWeight > 1 {
		return fmt.Errorf("%w: -score-weight %g is not in 0..1", errUsage, *scoreWeight)
	}
	if *scoreScale < 0 {
		return fmt.Errorf("%w: -score-scale %g is negative", errUsage, *scoreScale)
	}
	if *data == "" {
		return fmt.Errorf("%w: fitting needs -data (or -gen to make it)", errUsage)
	}
	init := engine.ShippedEvalTables()
	if *initFile != "" {
		raw, err := os.ReadFile(*initFile)
		if err != nil {
			return err
		}
		if init, err = engine.ParseEvalTables(raw); err != nil {
			return fmt.Errorf("%s: %w", *initFile, err)
		}
	}
	fc := tune.FitConfig{Iterations: *iters, Rate: *rate, Ridge: *ridge}
	return runTuneFit(*data, *out, init, *seed, tune.TuneConfig{Fit: fc, ScoreWeight: *scoreWeight, ScoreScale: *scoreScale}, *quiet, stdout, stderr)
}

// runTuneFit fits the tables to a games file and writes them to out.
func runTuneFit(data, out string, init *engine.EvalTables, seed uint64, tc tune.TuneConfig, quiet bool, stdout, stderr io.Writer) error {
	fc := tc.Fit
	games, err := readGamesFile(data)
	if err != nil {
		return err
	}
	newBar := func(n int, desc string) *progressbar.ProgressBar {
		if quiet {
			return nil
		}
		return newBar(stderr, n, desc)
	}
	bar := newBar(len(games), "positions")
	rd, err := tune.Samples(games, seed, func() {
		if bar != nil {
			_ = bar.Add(1)
		}
	})
	if err != nil {
		return err
	}
	rules := 0
	for _, d := range rd {
		if len(d.Train) > 0 {
			rules++
		}
	}
	iters := fc.Iterations
	if iters == 0 {
		iters = 400
	}
	bar = newBar(rules*iters, "fitting")
	tc.Progress = func(r engine.Rule, step int, loss float64) {
		if bar != nil {
			bar.Describe(fmt.Sprintf("fitting %s (loss %.5f)", r, loss))
			_ = bar.Add(1)
		}
	}
	tab, reports, err := tune.Tune(rd, init, tc)
	if err != nil {
		return err
	}
	comments := []string{fmt.Sprintf("fitted by gomoku tune from %d self-play games (%s), seed %d, %d steps, rate %g, ridge %g, score weight %g",
		len(games), filepath.Base(data), seed, iters, fc.Rate, fc.Ridge, tc.ScoreWeight)}
	if tc.ScoreScale > 0 {
		comments[0] += fmt.Sprintf(", score scale %g", tc.ScoreScale)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rule\tgames\ttrain positions\tscored\tvalid positions\tk\ttrain loss before\tafter\tvalid loss before\tafter\tstep kept\tchanged\t")
	for _, rep := range reports {
		if rep.SkippedNoData {
			fmt.Fprintf(tw, "%s\t0\t-\t-\t-\t-\t-\t-\t-\t-\t-\tkept\t\n", rep.Rule)
			comments = append(comments, fmt.Sprintf("%s: no games, initial parameters kept", rep.Rule))
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.0f\t%.5f\t%.5f\t%.5f\t%.5f\t%d\t%d\t\n", rep.Rule, rep.Games, rep.Train, rep.Scored, rep.Valid,
			rep.Scale, rep.TrainBefore, rep.TrainAfter, rep.ValidBefore, rep.ValidAfter, rep.Step, rep.Changed)
		comments = append(comments, fmt.Sprintf("%s: %d games, %d training and %d validation positions, k %.0f, loss %.5f -> %.5f (validation %.5f -> %.5f, step %d kept)",
			rep.Rule, rep.Games, rep.Train, rep.Valid, rep.Scale, rep.TrainBefore, rep.TrainAfter, rep.ValidBefore, rep.ValidAfter, rep.Step))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := os.WriteFile(out, tab.Marshal(comments...), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", out)
	return nil
}

// runTuneGen appends games to path until it holds want games. The file is the
// checkpoint: a rerun with the same flags continues where the last one stopped and
// produces the same file as an uninterrupted run.
func runTuneGen(ctx context.Context, cfg tune.GenConfig, path string, want int, quiet bool, stdout, stderr io.Writer) error {
	have, err := countGames(path)
	if err != nil {
		return err
	}
	g, err := tune.NewGenerator(cfg)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if have == 0 {
		if _, err := fmt.Fprintf(f, "# gomoku self-play games: seed %d, %d nodes per move\n", cfg.Seed, cfg.Nodes); err != nil {
			return err
		}
	}
	var bar *progressbar.ProgressBar
	if !quiet && have < want {
		bar = newBar(stderr, want, "self-play")
		_ = bar.Set(have)
	}
	for i := have; i < want; i++ {
		game, err := g.Play(ctx, i)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintln(f, game); err != nil {
			return err
		}
		if bar != nil {
			_ = bar.Add(1)
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	fmt.Fprintf(stdout, "%s: %d games\n", path, max(have, want))
	return nil
}

// countGames returns how many valid games path holds (0 if it does not exist).
func countGames(path string) (int, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if _, err := tune.ParseGame(line); err != nil {
			return 0, fmt.Errorf("%s: game %d: %w (truncate the file to its valid games to resume)", path, n+1, err)
		}
		n++
	}
	return n, sc.Err()
}

// newBar returns the tools' progress bar: n steps on w, a new line when complete.
func newBar(w io.Writer, n int, desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions(n, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
		progressbar.OptionSetDescription(desc), progressbar.OptionSetWidth(30),
		progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
}
