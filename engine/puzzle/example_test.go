package puzzle_test

import (
	"context"
	"fmt"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

// Example plays a shipped VCF puzzle through the trainer: each move of the solution is
// checked and answered with the best defence until the five.
func Example() {
	ps, err := puzzle.Shipped()
	if err != nil {
		panic(err)
	}
	var p puzzle.Puzzle
	for _, q := range ps {
		if q.ID == "vcf-022" {
			p = q
		}
	}
	ctx := context.Background()
	e := engine.New(engine.Options{HashMiB: 1})
	var line []engine.Point
	for {
		move, err := puzzle.Hint(ctx, e, p, line, 0)
		if err != nil {
			panic(err)
		}
		st, err := puzzle.Check(ctx, e, p, line, move, 0)
		if err != nil {
			panic(err)
		}
		fmt.Println(move, st.Result, st.Reply)
		if st.Result != puzzle.Continue {
			break
		}
		line = append(line, move, st.Reply)
	}
	// Output:
	// e10 continue d11
	// f11 continue g11
	// g12 continue i14
	// d9 solved -
}
