package tune

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// syntheticSamples returns n samples of nParams sparse features whose results are the
// exact expected scores of the weights want at scale k: the loss is zero at want, and
// nowhere else when the features vary enough.
func syntheticSamples(rng *rand.Rand, n int, want []float64, k float64) []Sample {
	out := make([]Sample, n)
	for i := range out {
		s := &out[i]
		for j := range want {
			if rng.IntN(3) == 0 {
				s.Feats = append(s.Feats, Feature{Param: uint16(j), Coef: float32(rng.IntN(9) - 4)})
			}
		}
		s.Result = sigmoid(s.eval(want), k)
	}
	return out
}

func TestFitRecoversKnownWeights(t *testing.T) {
	want := []float64{120, -80, 40, 0, 200, -150, 60, 10}
	const k = 400
	rng := rand.New(rand.NewPCG(1, 2))
	samples := syntheticSamples(rng, 4000, want, k)
	init := make([]float64, len(want))
	require.Greater(t, Loss(samples, init, k), 0.01)
	got, step := Fit(samples, init, k, FitConfig{Iterations: 3000, Rate: 2})
	require.Equal(t, 3000, step, "without validation samples: the last step")
	for j := range want {
		require.InDelta(t, want[j], got[j], 1, "parameter %d: %v", j, got)
	}
	require.Less(t, Loss(samples, got, k), 1e-6)
	// Deterministic.
	again, _ := Fit(samples, init, k, FitConfig{Iterations: 3000, Rate: 2})
	require.Equal(t, got, again)
}

func TestFitScaleRecoversK(t *testing.T) {
	want := []float64{120, -80, 40, 0, 200, -150, 60, 10}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []float64{50, 400, 3000} {
		samples := syntheticSamples(rng, 2000, want, k)
		require.InEpsilon(t, k, FitScale(samples, want), 1e-3)
	}
}

func TestFitFixedAndRidge(t *testing.T) {
	want := []float64{120, -80, 40}
	rng := rand.New(rand.NewPCG(5, 6))
	samples := syntheticSamples(rng, 2000, want, 400)
	init := []float64{0, 0, 7}
	got, _ := Fit(samples, init, 400, FitConfig{Iterations: 2000, Rate: 2, Fixed: []bool{false, false, true}})
	require.Equal(t, 7.0, got[2], "a fixed parameter keeps its value")
	// A huge ridge keeps everything at the start.
	got, _ = Fit(samples, init, 400, FitConfig{Iterations: 200, Rate: 2, Ridge: 1e6})
	for j := range init {
		require.InDelta(t, init[j], got[j], 0.5)
	}
	require.False(t, math.IsNaN(Loss(samples, got, 400)))
}

func TestFitStopsEarlyOnValidation(t *testing.T) {
	// Parameter 3 is rare and its few training samples lie (their results say the
	// opposite of the truth): fitting them drives it the wrong way, which the
	// validation samples, labelled by the truth, see.
	want := []float64{120, -80, 40, 300}
	const k = 400
	rng := rand.New(rand.NewPCG(7, 8))
	common := want[:3]
	train := syntheticSamples(rng, 2000, common, k)
	valid := syntheticSamples(rng, 500, common, k)
	for i := 0; i < 20; i++ {
		f := []Feature{{Param: 0, Coef: 1}, {Param: 3, Coef: 1}}
		e := want[0] + want[3]
		train = append(train, Sample{Feats: f, Result: 1 - sigmoid(e, k)})
		valid = append(valid, Sample{Feats: f, Result: sigmoid(e, k)})
	}
	init := []float64{100, -60, 30, 300}
	last, step := Fit(train, init, k, FitConfig{Iterations: 2000, Rate: 2})
	require.Equal(t, 2000, step)
	best, bestStep := Fit(train, init, k, FitConfig{Iterations: 2000, Rate: 2, Valid: valid})
	require.Greater(t, bestStep, 0, "some steps improve the common parameters")
	require.Less(t, bestStep, 2000, "later steps only follow the lying samples")
	require.Less(t, Loss(valid, best, k), Loss(valid, last, k))
	require.LessOrEqual(t, Loss(valid, best, k), Loss(valid, init, k))
	again, againStep := Fit(train, init, k, FitConfig{Iterations: 2000, Rate: 2, Valid: valid})
	require.Equal(t, best, again, "deterministic")
	require.Equal(t, bestStep, againStep)
}

// TestBlendTargets: with the whole weight on the scores, samples whose results lie but
// whose scores are the known weights' evaluations fit to those weights; the blend is
// linear in the weight, samples without a score keep their result, and the input is
// not modified.
func TestBlendTargets(t *testing.T) {
	want := []float64{120, -80, 40, 0, 200, -150, 60, 10}
	const k = 400
	rng := rand.New(rand.NewPCG(9, 10))
	samples := syntheticSamples(rng, 4000, want, k)
	for i := range samples {
		s := &samples[i]
		s.Score, s.Scored = float32(s.eval(want)), true
		s.Result = float64(rng.IntN(2)) // the game's result: noise
	}
	samples[0].Scored = false
	orig := samples[0].Result

	same, scored := blendTargets(samples, k, 0)
	require.Equal(t, 3999, scored)
	require.Equal(t, samples, same, "weight 0: the results alone")

	half, _ := blendTargets(samples, k, 0.5)
	require.Equal(t, orig, half[0].Result, "no score: the result")
	require.InDelta(t, 0.5*samples[1].Result+0.5*sigmoid(samples[1].eval(want), k), half[1].Result, 1e-6)

	full, _ := blendTargets(samples, k, 1)
	require.Equal(t, orig, samples[0].Result, "the input keeps its targets")
	got, _ := Fit(full[1:], make([]float64, len(want)), k, FitConfig{Iterations: 3000, Rate: 2})
	for j := range want {
		require.InDelta(t, want[j], got[j], 1, "parameter %d: %v", j, got)
	}
	noisy, _ := Fit(samples[1:], make([]float64, len(want)), k, FitConfig{Iterations: 3000, Rate: 2})
	require.Greater(t, math.Abs(noisy[0]-want[0]), 20.0, "the results alone do not recover the weights")
}
