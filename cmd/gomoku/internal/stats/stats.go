// Package stats holds the match statistics: the Elo difference implied by a score
// with its 95% confidence interval, and the sequential probability ratio test (SPRT)
// with the trinomial (win/draw/loss) generalised log-likelihood ratio used by
// cutechess-cli and fishtest.
package stats

import "math"

// Result counts the games of a match from the first player's point of view.
type Result struct {
	Wins, Draws, Losses int
}

// Games returns the number of games.
func (r Result) Games() int { return r.Wins + r.Draws + r.Losses }

// Score returns the first player's mean score (win 1, draw 0.5, loss 0) in [0,1],
// or 0.5 when no game was played.
func (r Result) Score() float64 {
	n := r.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(r.Wins) + 0.5*float64(r.Draws)) / float64(n)
}

// EloFromScore returns the Elo difference for an expected score s: -400·log10(1/s - 1).
// Scores of 0 and 1 give -Inf and +Inf.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the expected score for an Elo difference.
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// variance returns the per-game variance of the score.
func (r Result) variance() float64 {
	n := float64(r.Games())
	if n == 0 {
		return 0
	}
	s := r.Score()
	w, d, l := float64(r.Wins)/n, float64(r.Draws)/n, float64(r.Losses)/n
	return w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
}

// Elo returns the Elo difference and its 95% confidence interval (normal
// approximation of the mean score, mapped through EloFromScore).
func (r Result) Elo() (elo, lo, hi float64) {
	n := float64(r.Games())
	s := r.Score()
	elo = EloFromScore(s)
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	const z = 1.959963984540054
	margin := z * math.Sqrt(r.variance()/n)
	return elo, EloFromScore(s - margin), EloFromScore(s + margin)
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against H1: elo = Elo1
// with error rates Alpha (false accept of H1) and Beta (false accept of H0).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Decision is the state of an SPRT.
type Decision int

// SPRT decisions.
const (
	Continue Decision = iota
	AcceptH0
	AcceptH1
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "continue"
}

// Bounds returns the lower and upper LLR bounds: ln(β/(1-α)) and ln((1-β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the generalised log-likelihood ratio of the result:
// N·(s1-s0)·(2s - s0 - s1) / (2σ²), with s the mean score and σ² its per-game variance.
// It is 0 with no game; when all games had the same result (zero variance) the
// variance is taken from the counts plus half a game of each kind.
func (t SPRT) LLR(r Result) float64 {
	n := r.Games()
	if n == 0 {
		return 0
	}
	v := r.variance()
	if v == 0 {
		n := float64(n) + 1.5
		w, d, l := (float64(r.Wins)+0.5)/n, (float64(r.Draws)+0.5)/n, (float64(r.Losses)+0.5)/n
		s := w + d/2
		v = w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	}
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	return float64(n) * (s1 - s0) * (2*r.Score() - s0 - s1) / (2 * v)
}

// Decide returns the test's decision for a result.
func (t SPRT) Decide(r Result) Decision {
	llr := t.LLR(r)
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}
