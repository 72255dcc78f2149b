// Package spsa tunes integer engine settings by simultaneous perturbation stochastic
// approximation (SPSA), the method the chess engines' testing frameworks tune their
// search with: each iteration k draws a random sign Δᵢ = ±1 for every parameter, plays
// a pair of games (one opening, colours swapped) between θ + cₖΔ and θ − cₖΔ, and
// moves every parameter at once by aₖ · result · Δᵢ / cₖ, where result is the wins
// minus the losses of the θ + cₖΔ side (−2 to 2). One pair of games estimates the
// gradient along all the parameters together, so many parameters cost no more games
// than one.
//
// The schedules are the usual ones: cₖ = c / (k+1)^γ and aₖ = a / (A+k+1)^α with
// α = 0.602, γ = 0.101 and A a tenth of the iterations. Each parameter gives its
// perturbation at the last iteration (CEnd) and its learning rate there (REnd, the
// step per unit of result relative to CEnd²), from which c and a follow.
package spsa

import (
	"errors"
	"fmt"
	"math"
)

// Schedule exponents and the stability constant's share of the iterations.
const (
	Alpha     = 0.602
	Gamma     = 0.101
	AFraction = 0.1
)

// Param is one tuned parameter.
type Param struct {
	Name     string
	Start    float64 // the value the tuning starts from
	Min, Max float64 // θ and the played values stay within [Min, Max]
	CEnd     float64 // the perturbation at the last iteration (> 0)
	REnd     float64 // the learning rate at the last iteration (> 0): aₙ = REnd · CEnd²
}

// ErrParams is returned for a parameter list the tuner cannot use.
var ErrParams = errors.New("spsa: bad parameters")

// Tuner is the state of a tuning run. It is not safe for concurrent use.
type Tuner struct {
	params     []Param
	iterations int
	theta      []float64
	a, c       []float64 // per parameter: the schedules' numerators
	bigA       float64
	done       int // iterations whose results were applied
}

// New returns a tuner over params for the given number of iterations, at θ = Start.
func New(params []Param, iterations int) (*Tuner, error) {
	if len(params) == 0 {
		return nil, fmt.Errorf("%w: none", ErrParams)
	}
	if iterations <= 0 {
		return nil, fmt.Errorf("%w: %d iterations", ErrParams, iterations)
	}
	t := &Tuner{params: append([]Param(nil), params...), iterations: iterations}
	t.bigA = AFraction * float64(iterations)
	seen := map[string]bool{}
	for _, p := range params {
		switch {
		case p.Name == "" || seen[p.Name]:
			return nil, fmt.Errorf("%w: name %q empty or repeated", ErrParams, p.Name)
		case !(p.Min <= p.Start && p.Start <= p.Max):
			return nil, fmt.Errorf("%w: %s: start %g outside %g..%g", ErrParams, p.Name, p.Start, p.Min, p.Max)
		case !(p.CEnd > 0) || !(p.REnd > 0) || math.IsInf(p.CEnd, 0) || math.IsInf(p.REnd, 0):
			return nil, fmt.Errorf("%w: %s: c_end and r_end must be positive", ErrParams, p.Name)
		}
		seen[p.Name] = true
		n := float64(iterations)
		t.c = append(t.c, p.CEnd*math.Pow(n, Gamma))
		t.a = append(t.a, p.REnd*p.CEnd*p.CEnd*math.Pow(t.bigA+n, Alpha))
		t.theta = append(t.theta, p.Start)
	}
	return t, nil
}

// Params returns the tuned parameters.
func (t *Tuner) Params() []Param { return append([]Param(nil), t.params...) }

// Theta returns the current values.
func (t *Tuner) Theta() []float64 { return append([]float64(nil), t.theta...) }

// Done returns how many iterations' results have been applied.
func (t *Tuner) Done() int { return t.done }

// Iterations returns the planned number of iterations.
func (t *Tuner) Iterations() int { return t.iterations }

// Restore sets θ and the count of applied iterations (resuming a run).
func (t *Tuner) Restore(theta []float64, done int) error {
	if len(theta) != len(t.theta) || done < 0 {
		return fmt.Errorf("%w: %d values for %d parameters", ErrParams, len(theta), len(t.theta))
	}
	for i, v := range theta {
		t.theta[i] = t.clamp(i, v)
	}
	t.done = done
	return nil
}

// Step is one iteration's perturbation: the signs and the two rounded points to play.
type Step struct {
	K           int
	Delta       []float64 // ±1 per parameter
	Plus, Minus []int     // round(θ ± cₖΔ), clamped into range
}

// Perturb returns iteration k's step from the current θ; the signs follow from
// (seed, k) alone.
func (t *Tuner) Perturb(k int, seed uint64) Step {
	st := Step{K: k}
	r := seed ^ (uint64(k)+1)*0x9E3779B97F4A7C15
	for i := range t.params {
		d := 1.0
		if splitmix(&r)&1 == 1 {
			d = -1
		}
		ck := t.ck(i, k)
		st.Delta = append(st.Delta, d)
		st.Plus = append(st.Plus, int(math.Round(t.clamp(i, t.theta[i]+ck*d))))
		st.Minus = append(st.Minus, int(math.Round(t.clamp(i, t.theta[i]-ck*d))))
	}
	return st
}

// Update applies a step's result: the wins minus the losses of the Plus side over
// its pair of games (−2 to 2).
func (t *Tuner) Update(st Step, result float64) {
	k := float64(st.K)
	for i := range t.params {
		ak := t.a[i] / math.Pow(t.bigA+k+1, Alpha)
		t.theta[i] = t.clamp(i, t.theta[i]+ak*result*st.Delta[i]/t.ck(i, st.K))
	}
	t.done++
}

func (t *Tuner) ck(i, k int) float64 { return t.c[i] / math.Pow(float64(k+1), Gamma) }

func (t *Tuner) clamp(i int, v float64) float64 {
	return min(max(v, t.params[i].Min), t.params[i].Max)
}

// splitmix advances the state and returns the next value of SplitMix64.
func splitmix(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}
