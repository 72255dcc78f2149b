package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/bench"
)

func runBench(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("bench", stderr)
	depth := fs.Int("depth", 4, "search depth in plies for every method")
	positions := fs.String("positions", "", "positions as move lists separated by ';' (default: the built-in set)")
	withEngine := fs.Bool("engine", true, "include the full engine")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg := bench.Config{Depth: *depth, Engine: *withEngine}
	if *positions != "" {
		cfg.Positions = strings.Split(*positions, ";")
	}
	rows, err := bench.Run(ctx, cfg, func(r bench.Row) {
		fmt.Fprintf(stderr, "%-22s %-24s %10d nodes %v\n", r.Position, r.Method, r.Nodes, r.Time)
	})
	bench.Print(stdout, rows)
	fmt.Fprintf(stdout, "15x15 freestyle, depth %d; 'same' compares with plain minimax (engine values use its own evaluation)\n", *depth)
	return err
}
