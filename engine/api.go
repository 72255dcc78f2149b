package engine

import (
	"context"
	"time"
)

// Score is a search score from the point of view of the side to move, in centi-stones
// of evaluation. Scores beyond ±MateThreshold are mates: MateScore - n means the side to
// move wins in n plies, -(MateScore - n) that it loses in n plies.
type Score int32

// Mate score bounds.
const (
	MateScore     Score = 1_000_000
	MateThreshold Score = MateScore - 1000
)

// IsMate reports whether s is a proven win or loss.
func (s Score) IsMate() bool { return s > MateThreshold || s < -MateThreshold }

// MatePlies returns the plies to the end for a mate score: positive when the side to
// move wins, negative when it loses, 0 for ordinary scores.
func (s Score) MatePlies() int {
	switch {
	case s > MateThreshold:
		return int(MateScore - s)
	case s < -MateThreshold:
		return -int(MateScore + s)
	}
	return 0
}

// Clock is a game clock as seen by the side to move.
type Clock struct {
	Left      time.Duration // time left on the mover's clock
	Increment time.Duration // Fischer increment added after the move
	MovesToGo int           // 0: unknown (sudden death)
}

// Limits bounds a search. Zero fields are unlimited; with no limit at all the search
// runs until its context is cancelled or it proves the result.
type Limits struct {
	Time  time.Duration // time for this move
	Clock *Clock        // game clock; the time manager derives a budget, capped by Time
	Depth int           // maximum nominal depth
	Nodes uint64        // maximum nodes
	// Seed, when not 0, sets this search's level noise: the same seed and position give
	// the same noise whatever searches came before (a room seeds it per game, so
	// replays and a takeover by another node choose alike, and two games differ).
	// 0: the engine's own sequence (Options.Rand).
	Seed uint64
}

// Info is a progress report of a running search.
type Info struct {
	Depth    int
	SelDepth int
	Score    Score
	Nodes    uint64
	NPS      uint64
	Elapsed  time.Duration
	Budget   time.Duration // the time the search plans to use (0: none)
	Best     Point
	PV       []Point
	// Refuted is how many root moves the safety check rejected (the opponent had a
	// winning VCF or VCT after them) before it accepted Best; 0 when the search's own
	// choice stood.
	Refuted int
}

// Result is the outcome of a search: the move to play and the last report.
type Result struct {
	Info
	Move Point // NoPoint only when the board was full or the game over
}

// Player chooses moves: the engine at a level, the classic baseline, an MCTS player or
// an external Gomocup engine. Play returns an error only when the player failed (an
// external engine crashed or sent garbage); the caller forfeits it.
type Player interface {
	Name() string
	Play(ctx context.Context, b *Board, limits Limits, progress func(Info)) (Result, error)
}
