package engine_test

import (
	"context"
	"fmt"

	"github.com/gomoku-arena/gomoku/engine"
)

// Black has four in a row: the engine completes the five.
func Example() {
	moves, _ := engine.ParseMoves("h8 h9 i8 i9 j8 j9 k8 a1", 15)
	b, _ := engine.BoardFromMoves(15, engine.Freestyle, moves)
	e := engine.New(engine.Options{HashMiB: 1})
	res := e.Search(context.Background(), b, engine.Limits{Depth: 4}, nil)
	fmt.Println(res.Move, res.Score.MatePlies())
	// Output: g8 1
}

// Levels are ordered from the weakest to the strongest.
func ExampleLevels() {
	for _, l := range engine.Levels() {
		fmt.Println(l.Name, l.Budget)
	}
	// Output:
	// beginner 50ms
	// novice 100ms
	// intermediate 200ms
	// advanced 500ms
	// expert 1s
	// master 3s
}
