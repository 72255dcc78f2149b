// Command gomoku is the Gomoku Arena command-line toolbox:
//
//	gomoku match    play a match between two players and measure the Elo difference
//	gomoku puzzles  run the tactical puzzle suite
//	gomoku bench    the classroom node-count table (minimax, alpha-beta, ordering, TT, engine)
//	gomoku play     play against the AI in the terminal
//	gomoku tune     self-play games and Texel tuning of the evaluation tables
//	gomoku spsa     tune the search settings by SPSA self-play
//	gomoku load     load-test a server on this machine (see package internal/load)
//
// Players are written level:NAME (beginner … master), baseline, mcts or
// ext:/path/to/pbrain-x (any Gomocup brain).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/load"
)

// command is a subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"match":   {"play a match between two players (Elo, SPRT, PSQ records)", runMatch},
	"puzzles": {"run the tactical puzzle suite", runPuzzles},
	"bench":   {"node counts: minimax, alpha-beta, ordering, TT and the engine at equal depth", runBench},
	"play":    {"play against the AI in the terminal", runPlay},
	"spsa":    {"tune the search settings by SPSA self-play (a checkpointed log)", runSPSA},
	"tune":    {"self-play games for evaluation tuning (-gen) and Texel tuning of the evaluation tables", runTune},
	"load":    {"load-test a server on this machine (WebSocket games, spectators, churn, idle memory)", load.Main},
}

// errBelowThreshold makes the puzzles command exit with status 1.
var errBelowThreshold = errors.New("gomoku: solved fewer puzzles than the threshold")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				_ = c.run(ctx, []string{"-h"}, stdin, stdout, stderr)
				return 0
			}
		}
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gomoku: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	err := c.run(ctx, args[1:], stdin, stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errBelowThreshold):
		fmt.Fprintln(stderr, err)
		return 1
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, "gomoku:", err)
		return 2
	}
	fmt.Fprintln(stderr, "gomoku:", err)
	return 1
}

// errUsage marks bad command-line arguments.
var errUsage = errors.New("usage")

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gomoku <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  help     this list; gomoku help <command> shows its flags")
	fmt.Fprintln(w, "\nplayers: level:NAME (beginner, novice, intermediate, advanced, expert, master), baseline, mcts, ext:/path/to/pbrain-x")
}

// newFlags returns a FlagSet that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gomoku "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}
