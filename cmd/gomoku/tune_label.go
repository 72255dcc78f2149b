package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/schollz/progressbar/v3"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/tune"
)

// labelConfig is what `gomoku tune -label` was asked to do.
type labelConfig struct {
	data, out   string
	teacher     string // the teacher brain's executable
	nodes       uint64 // its node limit per position
	concurrency int    // teacher processes at once
	quiet       bool
}

// runTuneLabel copies the games of c.data to c.out with every position after the
// opening valued by the teacher brain (tune.Label). c.out is the checkpoint: it must
// hold the first games of c.data, labelled; a rerun continues after them.
func runTuneLabel(ctx context.Context, c labelConfig, stdout, stderr io.Writer) error {
	games, err := readGamesFile(c.data)
	if err != nil {
		return err
	}
	done, err := readGamesFile(c.out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if len(done) > len(games) {
		return fmt.Errorf("%s holds %d games, more than the %d of %s", c.out, len(done), len(games), c.data)
	}
	for i, g := range done {
		if g.Rule != games[i].Rule || g.Size != games[i].Size || !slices.Equal(g.Moves, games[i].Moves) {
			return fmt.Errorf("%s: game %d is not game %d of %s: label into a new file", c.out, i+1, i+1, c.data)
		}
	}
	f, err := os.OpenFile(c.out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if len(done) == 0 {
		if _, err := fmt.Fprintf(f, "# the games of %s, the positions valued by %s at %d nodes (wins and losses found by the games' own searches kept)\n", c.data, c.teacher, c.nodes); err != nil {
			return err
		}
	}
	var bar *progressbar.ProgressBar
	if !c.quiet && len(done) < len(games) {
		bar = newBar(stderr, len(games), "labelling")
		_ = bar.Set(len(done))
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		i     int
		game  tune.Game
		asked int
		err   error
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < max(c.concurrency, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			teacher := tune.NewBrainTeacher(c.teacher, c.nodes)
			defer teacher.Close()
			for i := range jobs {
				g, n, err := tune.Label(ctx, games[i], teacher)
				select {
				case results <- result{i, g, n, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := len(done); i < len(games); i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	// Games finish out of order; they are written in order.
	pending := map[int]result{}
	next, asked := len(done), 0
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: game %d: %w", c.data, r.i+1, r.err)
				cancel()
			}
			continue
		}
		pending[r.i] = r
		for firstErr == nil {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if _, err := fmt.Fprintln(f, p.game); err != nil {
				firstErr = err
				cancel()
				break
			}
			next++
			asked += p.asked
			if bar != nil {
				_ = bar.Add(1)
			}
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if bar != nil {
		_ = bar.Finish()
	}
	fmt.Fprintf(stdout, "%s: %d games (%d positions valued by the teacher in this run)\n", c.out, len(games), asked)
	return nil
}

// readGamesFile reads and checks a games file.
func readGamesFile(path string) ([]tune.Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	games, err := tune.ReadGames(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return games, nil
}
