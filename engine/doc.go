// Package engine is Gomoku Arena's game logic and AI: the board and the rules
// (freestyle, standard and renju with its forbidden points, board sizes 15 to 20),
// notation, and a fast alpha-beta searcher.
//
// The package is pure: no I/O, no package-level mutable state (lookup tables are built
// once and only read afterwards), so any number of engines run at once, each with its
// own tables.
//
// Searching:
//
//	e := engine.New(engine.Options{HashMiB: 16})
//	res := e.Search(ctx, board, engine.Limits{Time: time.Second}, func(in engine.Info) {
//		// depth, score, nodes, best move and PV while the search runs
//	})
//	board.Play(res.Move)
//
// The searcher keeps its own padded board with per-point line keys updated on every
// move; precomputed tables map them to patterns (five, straight four, four, open and
// closed threes and twos, renju overline) and combined threats (four-three, double
// three, double four). The evaluation is a running sum over those patterns. The search
// is negamax with principal variation search, iterative deepening, a transposition
// table, killer and history ordering, late move reductions, threat-aware pruning, and
// VCF (continuous fours) and VCT (continuous threes and fours) solvers. Levels
// (beginner to master) trade depth, time and deliberate mistakes for strength; see
// Levels and NewPlayer. docs/engine.md describes the design in detail.
package engine
