// Package puzzle reads, writes and verifies tactical Gomoku puzzles, and plays them
// with a user: the trainer's step logic and the mining of puzzles from finished games.
// Like package engine it does no I/O and keeps no mutable package state.
//
// A puzzle is a position, the side to move, a category and the accepted answers, each
// answer set recomputed by the solver in this package (Expected, Verify). The verified
// suite shipped with Gomoku Arena is embedded (Shipped); `gomoku puzzles` runs it
// against a player.
//
// # The trainer
//
// ModeOf sorts puzzles into attack puzzles (win-in-one, vcf, vct, and the renju and
// overline traps whose answers win) and defence puzzles (must-block, open-three, and
// the traps whose answers block). In an attack puzzle the user plays the attacker's
// moves and the trainer answers with the best defence until the five:
//
//	st, err := puzzle.Check(ctx, e, p, line, move, 0)
//
// where line is what has been played since the puzzle's start and move the attacker's
// next move. Check accepts a move iff it keeps a forced win (proved by the engine's
// VCF/VCT solvers against every legal defence, at most Slack attacker moves slower
// than the shortest win from the start); Step.Reply is then the defence that makes the
// remaining win longest. A move that lets the win slip, a renju forbidden point of
// black, or an overline under the standard rule is Wrong, and Step.Solution shows a
// winning line from before it. Hint gives one correct move, Solution the whole
// remaining line. A defence puzzle is one move: its Answers are correct, any other
// move is Wrong. Check, Hint and Solution keep no state between calls; each is bounded
// by a node budget and its context.
//
// # Mining
//
// Mine turns a finished game into puzzles: the positions where the side to move had a
// short forced win (a VCF of at most 7 attacker moves or a VCT of at most 5 by
// default), each verified by playing the trainer's Solution against the best defence.
// CanonicalKey identifies a position under the board's eight symmetries, so the same
// puzzle reached in several games (or mirrored) is stored once.
package puzzle
