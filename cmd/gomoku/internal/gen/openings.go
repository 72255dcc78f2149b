package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// symmetry maps a point by one of the 8 symmetries of the square board.
func symmetry(p engine.Point, k, size int) engine.Point {
	x, y := p.X, p.Y
	if k&1 != 0 {
		x = size - 1 - x
	}
	if k&2 != 0 {
		y = size - 1 - y
	}
	if k&4 != 0 {
		x, y = y, x
	}
	return engine.Point{X: x, Y: y}
}

// canonical returns the smallest packed form of the position over the 8 symmetries.
// Stones of one colour are sorted first, so that two move orders reaching the same
// position count as one opening.
func canonical(moves []engine.Point, size int) string {
	best := ""
	for k := 0; k < 8; k++ {
		var black, white []engine.Point
		for i, p := range moves {
			q := symmetry(p, k, size)
			if i%2 == 0 {
				black = append(black, q)
			} else {
				white = append(white, q)
			}
		}
		less := func(s []engine.Point) func(a, b int) bool {
			return func(a, b int) bool { return s[a].Y < s[b].Y || s[a].Y == s[b].Y && s[a].X < s[b].X }
		}
		sort.Slice(black, less(black))
		sort.Slice(white, less(white))
		s := engine.FormatMoves(black) + "/" + engine.FormatMoves(white)
		if best == "" || s < best {
			best = s
		}
	}
	return best
}

// openingRadius is how far from the centre each stone of a generated opening may be
// (Chebyshev distance), by move number: the first stone is always the centre.
var openingRadius = [...]int{0, 2, 3, 3, 3}

// candidateOpenings enumerates the distinct openings of the given number of stones
// (up to symmetry) that are legal under every rule and do not end the game. With
// sample > 0 it draws that many random openings instead (seeded: the same every run),
// for stone counts whose full enumeration is too large to search.
func candidateOpenings(size, stones, sample int) [][]engine.Point {
	if sample > 0 {
		return sampleOpenings(size, stones, sample)
	}
	c := size / 2
	seen := map[string]bool{}
	var out [][]engine.Point
	moves := make([]engine.Point, 0, stones)
	var rec func()
	rec = func() {
		if len(moves) == stones {
			k := canonical(moves, size)
			if seen[k] {
				return
			}
			seen[k] = true
			out = append(out, append([]engine.Point(nil), moves...))
			return
		}
		r := openingRadius[len(moves)]
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				moves = append(moves, engine.Point{X: c + dx, Y: c + dy})
				if b, err := engine.BoardFromMoves(size, engine.Renju, moves); err == nil && !b.Outcome().Over {
					rec()
				}
				moves = moves[:len(moves)-1]
			}
		}
	}
	rec()
	return out
}

// sampleOpenings draws n distinct random openings (see candidateOpenings).
func sampleOpenings(size, stones, n int) [][]engine.Point {
	c := size / 2
	rng := rand.New(rand.NewPCG(1, uint64(stones)))
	seen := map[string]bool{}
	var out [][]engine.Point
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		moves := make([]engine.Point, stones)
		for i := range moves {
			r := openingRadius[i]
			moves[i] = engine.Point{X: c + rng.IntN(2*r+1) - r, Y: c + rng.IntN(2*r+1) - r}
		}
		b, err := engine.BoardFromMoves(size, engine.Renju, moves)
		if err != nil || b.Outcome().Over {
			continue
		}
		if k := canonical(moves, size); !seen[k] {
			seen[k] = true
			out = append(out, moves)
		}
	}
	return out
}

// openingSpec says how genOpenings chooses its openings.
type openingSpec struct {
	N, Stones int
	Sample    int          // random candidates to draw (0: all of them)
	Passes    []searchPass // successive searches, each over the best of the one before
	Target    engine.Score // the balanced score, black's point of view
}

// searchPass searches the Keep candidates closest to the target (all of them in the
// first pass) for Time each.
type searchPass struct {
	Keep int
	Time time.Duration
}

// genOpenings writes the spec.N most balanced openings of spec.Stones stones (black h8
// first), judged by the engine's score from black's point of view, the score closest to
// spec.Target first. Each pass searches longer than the one before, over the candidates
// the one before found closest to the target, so that the slow searches are spent only
// where they matter and the last, deepest one decides.
func genOpenings(w io.Writer, spec openingSpec) error {
	if spec.Stones < 1 || spec.Stones > len(openingRadius) {
		return fmt.Errorf("gen: stones must be 1..%d", len(openingRadius))
	}
	if len(spec.Passes) == 0 {
		return fmt.Errorf("gen: no search pass")
	}
	const size = 15
	type cand struct {
		moves []engine.Point
		score engine.Score // black's point of view
	}
	var cands []cand
	for _, ms := range candidateOpenings(size, spec.Stones, spec.Sample) {
		cands = append(cands, cand{moves: ms})
	}
	total := len(cands)
	eng := engine.New(engine.Options{})
	score := func(c *cand, d time.Duration) {
		b, _ := engine.BoardFromMoves(size, engine.Freestyle, c.moves)
		eng.Clear()
		res := eng.Search(context.Background(), b, engine.Limits{Time: d}, nil)
		c.score = res.Score
		if b.ToMove() == engine.White {
			c.score = -res.Score
		}
	}
	byDistance := func(a, b int) bool {
		return abs(cands[a].score-spec.Target) < abs(cands[b].score-spec.Target)
	}
	desc := ""
	for i, ps := range spec.Passes {
		if i > 0 {
			cands = cands[:min(len(cands), max(ps.Keep, spec.N))]
			desc += ", then"
		}
		for j := range cands {
			score(&cands[j], ps.Time)
		}
		sort.SliceStable(cands, byDistance)
		desc += fmt.Sprintf(" %d for %v", len(cands), ps.Time)
	}
	fmt.Fprintf(w, "# Balanced %d-stone openings for 15x15 (legal under every rule; black h8 first).\n", spec.Stones)
	fmt.Fprintf(w, "# From %d distinct candidates (up to symmetry), searched%s each, the %d\n", total, desc, spec.N)
	fmt.Fprintf(w, "# whose score from black's point of view is closest to %d centi-stones (see docs/tools.md).\n", spec.Target)
	for i := 0; i < spec.N && i < len(cands); i++ {
		fmt.Fprintf(w, "%s # black's eval %d\n", formatSpaced(cands[i].moves), cands[i].score)
	}
	return nil
}

// formatSpaced writes a move list with a space between moves ("h8 h9 i7").
func formatSpaced(ms []engine.Point) string {
	s := ""
	for i, p := range ms {
		if i > 0 {
			s += " "
		}
		s += p.String()
	}
	return s
}

func abs(s engine.Score) engine.Score {
	if s < 0 {
		return -s
	}
	return s
}
