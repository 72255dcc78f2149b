package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/match"
	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/spsa"
	"github.com/gomoku-arena/gomoku/engine"
)

// runSPSA tunes the master level's search settings (engine.SearchParams) by SPSA
// self-play. The log is the checkpoint: a rerun with the same flags goes on after the
// last iteration it holds.
func runSPSA(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("spsa", stderr)
	paramsPath := fs.String("params", "", "parameter file: \"name start min max c_end r_end\" a line (names: engine.SearchParams fields)")
	logPath := fs.String("log", "", "the run's log and checkpoint (appended; a rerun resumes it)")
	iterations := fs.Int("iterations", 2000, "iterations (a pair of games each)")
	nodes := fs.Uint64("nodes", 50_000, "node cap per move (the same play at any load)")
	moveTime := fs.Duration("time", 5*time.Second, "time per move, a guard besides -nodes")
	openings := fs.String("openings", "", "openings file (default: the shipped balanced 5-stone set)")
	ruleName := fs.String("rule", "freestyle", "rule: freestyle, standard or renju")
	conc := fs.Int("concurrency", 1, "pairs played at once (above 1 the order of the updates depends on timing)")
	seed := fs.Uint64("seed", 1, "seed of the perturbations")
	hash := fs.Int("hash", 16, "transposition table MiB per engine")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *paramsPath == "" || *logPath == "" {
		return fmt.Errorf("%w: -params and -log are required", errUsage)
	}
	rule, err := engine.ParseRule(*ruleName)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	params, err := readSPSAParams(*paramsPath)
	if err != nil {
		return err
	}
	ops, err := loadOpenings(*openings, 15, rule)
	if err != nil {
		return err
	}
	t, err := spsa.New(params, *iterations)
	if err != nil {
		return err
	}
	logFile, next, err := openSPSALog(*logPath, t, *seed)
	if err != nil {
		return err
	}
	defer logFile.Close()

	master, err := engine.LevelByName("master")
	if err != nil {
		return err
	}
	player := func(values []int) match.Factory {
		sp := engine.DefaultSearchParams()
		for i, p := range params {
			_ = sp.Set(p.Name, values[i]) // checked in range by readSPSAParams
		}
		return func(uint64) engine.Player {
			return engine.NewPlayer(master, engine.Options{HashMiB: *hash, Search: &sp})
		}
	}
	bar := newBar(stderr, t.Iterations(), "spsa")
	_ = bar.Set(t.Done())

	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		firstEr error
		sum     float64
	)
	for w := 0; w < max(*conc, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next >= t.Iterations() || ctx.Err() != nil || firstEr != nil {
					mu.Unlock()
					return
				}
				st := t.Perturb(next, *seed)
				next++
				mu.Unlock()
				s, err := match.Run(ctx, match.Config{
					A: player(st.Plus), B: player(st.Minus), Games: 2,
					Openings: []match.Opening{ops[st.K%len(ops)]}, Size: 15, Rule: rule,
					MoveTime: *moveTime, Nodes: *nodes, Concurrency: 1, Seed: *seed + uint64(st.K),
				})
				if err != nil || s.Games < 2 {
					return // cancelled: the pair is not applied
				}
				result := float64(s.Total.Wins - s.Total.Losses)
				mu.Lock()
				t.Update(st, result)
				sum += result
				if err := spsa.WriteStep(logFile, st, result, t.Theta()); err != nil && firstEr == nil {
					firstEr = err
				}
				bar.Describe(fmt.Sprintf("spsa  plus-minus %+g", sum))
				_ = bar.Add(1)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	_ = bar.Finish()
	if firstEr != nil {
		return firstEr
	}
	return printSPSA(stdout, *logPath, params)
}

// printSPSA prints where the run in the log stands: per parameter the mean of θ over
// the second half of the applied iterations (the tuned value), the last θ and the
// start.
func printSPSA(w io.Writer, logPath string, params []spsa.Param) error {
	f, err := os.Open(logPath)
	if err != nil {
		return err
	}
	defer f.Close()
	l, err := spsa.ReadLog(f)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "after %d of %d iterations (plus side %+g over them): name, mean of the second half (rounded, exact), last, start\n",
		l.Done, l.Iterations, l.Results)
	mean := l.MeanTheta()
	for i, p := range params {
		if mean == nil {
			fmt.Fprintf(w, "%s %g\n", p.Name, p.Start)
			continue
		}
		fmt.Fprintf(w, "%s %d (%.2f) last %.2f start %g\n", p.Name, int(math.Round(mean[i])), mean[i], l.Theta[i], p.Start)
	}
	return nil
}

// readSPSAParams reads the parameter file and checks each name and range against
// the engine's search settings.
func readSPSAParams(path string) ([]spsa.Param, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	params, err := spsa.ParseParams(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ranges := map[string]engine.SearchParamRange{}
	for _, r := range engine.SearchParamRanges() {
		ranges[r.Name] = r
	}
	for _, p := range params {
		r, ok := ranges[p.Name]
		if !ok {
			return nil, fmt.Errorf("%s: %w: unknown search setting %q", path, spsa.ErrParams, p.Name)
		}
		if p.Min < float64(r.Min) || p.Max > float64(r.Max) {
			return nil, fmt.Errorf("%s: %w: %s: %g..%g outside the engine's %d..%d", path, spsa.ErrParams, p.Name, p.Min, p.Max, r.Min, r.Max)
		}
	}
	return params, nil
}

// openSPSALog opens the log for appending: a new one gets the run's header, an
// existing one must be of the same run and restores the tuner (a line cut short by a
// killed run is dropped). It returns the first iteration number to play: one past the
// highest in the log.
func openSPSALog(path string, t *spsa.Tuner, seed uint64) (*os.File, int, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	next, err := resumeSPSALog(f, path, t, seed)
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, next, nil
}

// resumeSPSALog reads the log once and leaves f at the end of its last whole line.
func resumeSPSALog(f *os.File, path string, t *spsa.Tuner, seed uint64) (int, error) {
	data, err := io.ReadAll(f)
	if err != nil {
		return 0, err
	}
	if len(data) == 0 {
		return 0, spsa.WriteHeader(f, t, seed)
	}
	l, err := spsa.ReadLog(bytes.NewReader(data))
	if err != nil {
		return 0, err
	}
	if !l.SameRun(t.Params(), t.Iterations(), seed) {
		return 0, fmt.Errorf("%w: %s is the log of another run (parameters, iterations or seed differ)", spsa.ErrLog, path)
	}
	if l.Theta != nil {
		if err := t.Restore(l.Theta, l.Done); err != nil {
			return 0, err
		}
	}
	whole := int64(bytes.LastIndexByte(data, '\n') + 1)
	if err := f.Truncate(whole); err != nil {
		return 0, err
	}
	_, err = f.Seek(whole, io.SeekStart)
	return l.NextK, err
}
