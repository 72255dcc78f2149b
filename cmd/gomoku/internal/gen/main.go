// Command gen generates the shipped test data of cmd/gomoku: the balanced openings
// and the puzzle suite.
//
//	go run ./cmd/gomoku/internal/gen -openings engine/openings.txt
//	go run ./cmd/gomoku/internal/gen -puzzles engine/puzzle/puzzles.txt
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

func main() {
	openings := flag.String("openings", "", "write the balanced openings to this file")
	n := flag.Int("n", 60, "number of openings")
	sample := flag.Int("sample", 3000, "search this many random candidate openings instead of all of them (0: all)")
	stones := flag.Int("stones", 5, "stones in each opening (black first)")
	passes := flag.String("passes", "25ms,300:300ms,120:1500ms", "search passes: time per candidate for all of them, then KEEP:TIME for the KEEP closest to the target, ...")
	target := flag.Int("target", -60, "the score (black's view, centi-stones) a balanced opening should have")
	puzzles := flag.String("puzzles", "", "write the puzzle suite to this file")
	flag.Parse()
	if *openings != "" {
		ps, err := parsePasses(*passes)
		if err == nil {
			spec := openingSpec{N: *n, Stones: *stones, Sample: *sample, Passes: ps, Target: engine.Score(*target)}
			err = write(*openings, func(f *os.File) error { return genOpenings(f, spec) })
		}
		if err != nil {
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

// parsePasses reads "25ms,300:300ms,120:1500ms": the first pass searches every
// candidate, each later one KEEP candidates.
func parsePasses(spec string) ([]searchPass, error) {
	var out []searchPass
	for i, f := range strings.Split(spec, ",") {
		keep := 0
		if k, d, ok := strings.Cut(f, ":"); ok {
			n, err := strconv.Atoi(k)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("gen: -passes: bad count %q", k)
			}
			keep, f = n, d
		} else if i > 0 {
			return nil, fmt.Errorf("gen: -passes: %q needs KEEP:TIME", f)
		}
		d, err := time.ParseDuration(f)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("gen: -passes: bad time %q", f)
		}
		out = append(out, searchPass{Keep: keep, Time: d})
	}
	return out, nil
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
