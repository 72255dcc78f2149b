package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gomoku-arena/gomoku/cmd/internal/players"
	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

func runPuzzles(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("puzzles", stderr)
	spec := fs.String("player", "level:master", "player to test")
	moveTime := fs.Duration("time", time.Second, "time per position")
	file := fs.String("file", "", "puzzle file (default: the shipped suite)")
	category := fs.String("category", "", "run only this category")
	threshold := fs.Float64("threshold", 0.8, "exit with status 1 when the solved fraction is below this")
	verbose := fs.Bool("v", false, "one line per position")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	f, err := players.Parse(*spec, players.Options{})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var src io.Reader = strings.NewReader(puzzle.ShippedText())
	if *file != "" {
		fh, err := os.Open(*file)
		if err != nil {
			return err
		}
		defer fh.Close()
		src = fh
	}
	ps, err := puzzle.Parse(src)
	if err != nil {
		return err
	}
	type tally struct {
		n, solved int
		time      time.Duration
	}
	per := map[string]*tally{}
	total := &tally{}
	for _, p := range ps {
		if *category != "" && p.Category != *category {
			continue
		}
		b, err := p.Board()
		if err != nil {
			return fmt.Errorf("%s: %w", p.ID, err)
		}
		pl := f.New(1)
		start := time.Now()
		res, err := pl.Play(ctx, b, engine.Limits{Time: *moveTime}, nil)
		took := time.Since(start)
		players.Close(pl)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ok := err == nil && p.Accepts(res.Move)
		t := per[p.Category]
		if t == nil {
			t = &tally{}
			per[p.Category] = t
		}
		for _, x := range []*tally{t, total} {
			x.n++
			x.time += took
			if ok {
				x.solved++
			}
		}
		if *verbose {
			mark := "ok  "
			if !ok {
				mark = "FAIL"
			}
			fmt.Fprintf(stdout, "%s %-18s %-8s played %-4s want %-16s %6dms  %s\n", mark, p.ID, p.Rule, res.Move,
				engine.FormatMoves(p.Answers), took.Milliseconds(), p.Note)
		}
	}
	if total.n == 0 {
		return fmt.Errorf("%w: no puzzle selected", errUsage)
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "category\tsolved\tof\trate\tavg time\n")
	row := func(name string, t *tally) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f%%\t%v\n", name, t.solved, t.n, 100*float64(t.solved)/float64(t.n),
			(t.time / time.Duration(t.n)).Round(time.Millisecond))
	}
	for _, c := range puzzle.Categories {
		if t := per[c]; t != nil {
			row(c, t)
		}
	}
	row("total", total)
	tw.Flush()
	fmt.Fprintf(stdout, "player %s, %v per position\n", *spec, *moveTime)
	if rate := float64(total.solved) / float64(total.n); rate < *threshold {
		return fmt.Errorf("%w: %.1f%% < %.1f%%", errBelowThreshold, 100*rate, 100**threshold)
	}
	return nil
}
