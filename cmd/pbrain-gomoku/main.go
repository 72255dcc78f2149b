// Command pbrain-gomoku is the Gomoku Arena engine as a Gomocup protocol brain: it
// speaks the Piskvork protocol on stdin/stdout, so Piskvork, c-gomoku-cli and the
// Gomocup tournament managers can run it.
//
//	pbrain-gomoku [-player level:master] [-hash 64] [-threads 2] [-nodes 30000] [-quiet]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/gomoku-arena/gomoku/cmd/internal/players"
	"github.com/gomoku-arena/gomoku/cmd/pbrain-gomoku/internal/brain"
	"github.com/gomoku-arena/gomoku/engine"
)

func main() {
	spec := flag.String("player", "level:master", "player: level:NAME, baseline or mcts")
	hash := flag.Int("hash", 0, "transposition table MiB (0: from INFO max_memory, else the engine default)")
	quiet := flag.Bool("quiet", false, "no MESSAGE lines with search progress")
	threads := flag.Int("threads", 1, "search threads (Lazy SMP above 1; the master level only)")
	nodes := flag.Uint64("nodes", 0, "node cap per move besides the time (0: none; the same play at any load)")
	flag.Parse()
	if _, err := players.Parse(*spec, players.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, "pbrain-gomoku:", err)
		os.Exit(2)
	}
	cfg := brain.Config{
		Name: "GomokuArena", Version: "1.0", Author: "Gomoku Arena", Country: "-",
		Quiet: *quiet, Nodes: *nodes,
		NewPlayer: func(maxMemory int64) engine.Player {
			mib := *hash
			if mib == 0 && maxMemory > 0 {
				mib = int(maxMemory / 2 >> 20) // half of the allowance for the table
				mib = max(1, min(mib, 1024))
			}
			f, _ := players.Parse(*spec, players.Options{HashMiB: mib, Threads: *threads})
			return f.New(1)
		},
	}
	if err := brain.Run(context.Background(), os.Stdin, os.Stdout, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "pbrain-gomoku:", err)
		os.Exit(1)
	}
}
