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
	got := Fit(samples, init, k, FitConfig{Iterations: 3000, Rate: 2})
	for j := range want {
		require.InDelta(t, want[j], got[j], 1, "parameter %d: %v", j, got)
	}
	require.Less(t, Loss(samples, got, k), 1e-6)
	// Deterministic.
	require.Equal(t, got, Fit(samples, init, k, FitConfig{Iterations: 3000, Rate: 2}))
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
	got := Fit(samples, init, 400, FitConfig{Iterations: 2000, Rate: 2, Fixed: []bool{false, false, true}})
	require.Equal(t, 7.0, got[2], "a fixed parameter keeps its value")
	// A huge ridge keeps everything at the start.
	got = Fit(samples, init, 400, FitConfig{Iterations: 200, Rate: 2, Ridge: 1e6})
	for j := range init {
		require.InDelta(t, init[j], got[j], 0.5)
	}
	require.False(t, math.IsNaN(Loss(samples, got, 400)))
}
