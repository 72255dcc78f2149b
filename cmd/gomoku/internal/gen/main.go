// Command gen generates the shipped test data of cmd/gomoku: the balanced openings
// and the puzzle suite.
//
//	go run ./cmd/gomoku/internal/gen -openings cmd/gomoku/testdata/openings.txt
//	go run ./cmd/gomoku/internal/gen -puzzles cmd/gomoku/testdata/puzzles.txt
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	openings := flag.String("openings", "", "write the balanced openings to this file")
	n := flag.Int("n", 50, "number of openings")
	per := flag.Duration("per", 300*time.Millisecond, "engine time per candidate opening")
	puzzles := flag.String("puzzles", "", "write the puzzle suite to this file")
	flag.Parse()
	if *openings != "" {
		if err := write(*openings, func(f *os.File) error { return genOpenings(f, *n, *per) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if *puzzles != "" {
		if err := write(*puzzles, genPuzzles); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func write(path string, fn func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
