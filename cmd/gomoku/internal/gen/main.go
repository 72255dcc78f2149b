// Command gen generates the shipped test data of cmd/gomoku: the balanced openings
// and the puzzle suite.
//
//	go run ./cmd/gomoku/internal/gen -openings cmd/gomoku/testdata/openings.txt -stones 5 -sample 3000 -quick 25ms -refine 300 -per 300ms -n 60 -target -60
//	go run ./cmd/gomoku/internal/gen -puzzles cmd/gomoku/testdata/puzzles.txt
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

func main() {
	openings := flag.String("openings", "", "write the balanced openings to this file")
	n := flag.Int("n", 50, "number of openings")
	per := flag.Duration("per", 300*time.Millisecond, "engine time per candidate opening")
	quick := flag.Duration("quick", 50*time.Millisecond, "engine time per candidate in the first pass")
	refine := flag.Int("refine", 300, "candidates searched again for -per after the first pass")
	sample := flag.Int("sample", 0, "search this many random candidate openings instead of all of them (0: all)")
	stones := flag.Int("stones", 4, "stones in each opening (black first)")
	target := flag.Int("target", 0, "the score (black's view, centi-stones) a balanced opening should have")
	puzzles := flag.String("puzzles", "", "write the puzzle suite to this file")
	flag.Parse()
	if *openings != "" {
		if err := write(*openings, func(f *os.File) error {
			return genOpenings(f, *n, *stones, *sample, *refine, *quick, *per, engine.Score(*target))
		}); err != nil {
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
