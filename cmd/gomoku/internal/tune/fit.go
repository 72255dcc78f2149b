package tune

import (
	"math"
)

// Feature is one term of a sample's linear evaluation: Coef times parameter Param.
type Feature struct {
	Param uint16
	Coef  float32
}

// Sample is a position as the tuner sees it: its evaluation features and the target
// of the expected score, from the side to move's point of view: the game's result (1
// win, 0.5 draw, 0 loss), or a blend of it with the position's search score (Tune).
type Sample struct {
	Feats  []Feature
	Result float64
	// Score is the search score of the position from the side to move's view, when
	// the game recorded one (Scored).
	Score  float32
	Scored bool
}

// eval returns the linear evaluation of s under w.
func (s *Sample) eval(w []float64) float64 {
	e := 0.0
	for _, f := range s.Feats {
		e += float64(f.Coef) * w[f.Param]
	}
	return e
}

// sigmoid maps an evaluation to an expected score with scale k.
func sigmoid(e, k float64) float64 { return 1 / (1 + math.Exp(-e/k)) }

// Loss returns the mean squared error between the expected scores sigmoid(eval/k) and
// the results.
func Loss(samples []Sample, w []float64, k float64) float64 {
	if len(samples) == 0 {
		return 0
	}
	sum := 0.0
	for i := range samples {
		d := sigmoid(samples[i].eval(w), k) - samples[i].Result
		sum += d * d
	}
	return sum / float64(len(samples))
}

// FitScale returns the k that minimises Loss for fixed w (golden-section search on
// log k over [1, 1e5]): the scale that turns the evaluation into a win probability.
func FitScale(samples []Sample, w []float64) float64 {
	lo, hi := 0.0, math.Log(1e5)
	g := (math.Sqrt(5) - 1) / 2
	f := func(x float64) float64 { return Loss(samples, w, math.Exp(x)) }
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for i := 0; i < 60; i++ {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		}
	}
	return math.Exp((lo + hi) / 2)
}

// FitConfig configures Fit; zero values mean the documented defaults.
type FitConfig struct {
	Iterations int     // full-batch Adam steps (default 400)
	Rate       float64 // Adam step size in parameter units (default 4)
	// Ridge pulls every parameter towards its initial value: Ridge times the squared
	// distance, summed, is added to the loss (0: none). It keeps parameters the data
	// rarely sees where they were.
	Ridge float64
	Fixed []bool // parameters that keep their initial value (nil: none)
	// Valid are held-out samples (nil: none). With them Fit stops early: it returns
	// the parameters of the step with the lowest validation loss, not the last
	// step's. Adam moves a parameter that few samples touch as fast as a common one,
	// so on a small dataset the rare ones drift and the validation loss turns up long
	// before the training loss stops falling.
	Valid []Sample
	// Progress, if set, is called after every step with the step number and the loss.
	Progress func(step int, loss float64)
}

// Fit minimises Loss(samples, w, k) + Ridge·|w − init|² by full-batch Adam from init
// and returns the fitted parameters and the step they are from (0: init itself, with
// cfg.Valid when no step improved on its validation loss). It is deterministic: the
// same inputs give the same output.
func Fit(samples []Sample, init []float64, k float64, cfg FitConfig) ([]float64, int) {
	if cfg.Iterations == 0 {
		cfg.Iterations = 400
	}
	if cfg.Rate == 0 {
		cfg.Rate = 4
	}
	const beta1, beta2, eps = 0.9, 0.999, 1e-12
	w := append([]float64(nil), init...)
	m := make([]float64, len(w))
	v := make([]float64, len(w))
	grad := make([]float64, len(w))
	n := float64(len(samples))
	early := len(cfg.Valid) > 0
	var best []float64
	bestStep, bestLoss := 0, 0.0
	if early {
		best = append([]float64(nil), w...)
		bestLoss = Loss(cfg.Valid, w, k)
	}
	for step := 1; step <= cfg.Iterations; step++ {
		clear(grad)
		loss := 0.0
		for i := range samples {
			s := &samples[i]
			p := sigmoid(s.eval(w), k)
			d := p - s.Result
			loss += d * d
			// d/dw (p - r)^2 = 2 (p - r) p (1 - p) / k · coef
			g := 2 * d * p * (1 - p) / k / n
			for _, f := range s.Feats {
				grad[f.Param] += g * float64(f.Coef)
			}
		}
		loss /= n
		for j := range w {
			if cfg.Fixed != nil && cfg.Fixed[j] {
				grad[j] = 0
				continue
			}
			if cfg.Ridge > 0 {
				dj := w[j] - init[j]
				grad[j] += 2 * cfg.Ridge * dj
				loss += cfg.Ridge * dj * dj
			}
			m[j] = beta1*m[j] + (1-beta1)*grad[j]
			v[j] = beta2*v[j] + (1-beta2)*grad[j]*grad[j]
			mh := m[j] / (1 - math.Pow(beta1, float64(step)))
			vh := v[j] / (1 - math.Pow(beta2, float64(step)))
			if vh > 0 {
				w[j] -= cfg.Rate * mh / (math.Sqrt(vh) + eps)
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(step, loss)
		}
		if early {
			if l := Loss(cfg.Valid, w, k); l < bestLoss {
				bestLoss, bestStep = l, step
				copy(best, w)
			}
		}
	}
	if early {
		return best, bestStep
	}
	return w, cfg.Iterations
}
