package spsa

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pairResult plays a simulated pair of games: each game is won by the plus side
// with probability ½ + (f(plus) − f(minus)), f the strength of a point, otherwise
// lost; it returns the wins minus the losses.
func pairResult(rng *uint64, f func([]int) float64, st Step) float64 {
	p := 0.5 + f(st.Plus) - f(st.Minus)
	p = min(max(p, 0), 1)
	r := 0.0
	for range 2 {
		u := float64(splitmix(rng)>>11) / (1 << 53)
		if u < p {
			r++
		} else {
			r--
		}
	}
	return r
}

// TestTunerFindsOptimum: on a simulated match whose win rate follows a known
// quadratic strength, SPSA moves every parameter from its start to near the optimum.
func TestTunerFindsOptimum(t *testing.T) {
	params := []Param{
		{Name: "margin", Start: 70, Min: 0, Max: 300, CEnd: 8, REnd: 0.02},
		{Name: "depth", Start: 3, Min: 1, Max: 12, CEnd: 1, REnd: 0.02},
		{Name: "divisor", Start: 150, Min: 50, Max: 400, CEnd: 15, REnd: 0.02},
	}
	opt := []float64{110, 6, 150}
	scale := []float64{80, 6, 150}
	strength := func(v []int) float64 {
		s := 0.0
		for i := range v {
			d := (float64(v[i]) - opt[i]) / scale[i]
			s -= 0.25 * d * d
		}
		return s
	}
	const n = 4000
	tu, err := New(params, n)
	require.NoError(t, err)
	rng := uint64(7)
	for k := range n {
		st := tu.Perturb(k, 1)
		tu.Update(st, pairResult(&rng, strength, st))
	}
	assert.Equal(t, n, tu.Done())
	theta := tu.Theta()
	for i, p := range params {
		assert.InDelta(t, opt[i], theta[i], math.Abs(p.Start-opt[i])/2+2*p.CEnd, "%s: %v", p.Name, theta)
	}
	assert.InDelta(t, 110, theta[0], 20, "the margin moved most of the way")
	assert.InDelta(t, 6, theta[1], 1.5, "the depth moved most of the way")
}

func TestPerturb(t *testing.T) {
	params := []Param{
		{Name: "a", Start: 10, Min: 0, Max: 20, CEnd: 2, REnd: 0.01},
		{Name: "b", Start: 0, Min: 0, Max: 5, CEnd: 1, REnd: 0.01},
	}
	tu, err := New(params, 100)
	require.NoError(t, err)
	st := tu.Perturb(5, 9)
	assert.Equal(t, st, tu.Perturb(5, 9), "the same (seed, k), the same step")
	ck := []float64{2 * math.Pow(100, Gamma) / math.Pow(6, Gamma), math.Pow(100, Gamma) / math.Pow(6, Gamma)}
	for i, d := range st.Delta {
		require.Contains(t, []float64{-1, 1}, d)
		want := func(v float64) int {
			return int(math.Round(min(max(v, params[i].Min), params[i].Max)))
		}
		assert.Equal(t, want(params[i].Start+ck[i]*d), st.Plus[i])
		assert.Equal(t, want(params[i].Start-ck[i]*d), st.Minus[i])
	}
	// Over many iterations the signs are balanced.
	plus := 0
	for k := range 1000 {
		if tu.Perturb(k, 9).Delta[0] > 0 {
			plus++
		}
	}
	assert.InDelta(t, 500, plus, 60)

	// An update moves θ by aₖ · result · Δ / cₖ, clamped.
	tu.Update(st, 2)
	ak := 0.01 * 4 * math.Pow(10+100, Alpha) / math.Pow(10+6, Alpha)
	assert.InDelta(t, 10+ak*2*st.Delta[0]/ck[0], tu.Theta()[0], 1e-9)
	assert.GreaterOrEqual(t, tu.Theta()[1], 0.0)
}

func TestNewRejects(t *testing.T) {
	ok := Param{Name: "a", Start: 1, Min: 0, Max: 2, CEnd: 1, REnd: 0.01}
	for name, c := range map[string]struct {
		ps []Param
		n  int
	}{
		"none":           {nil, 10},
		"no iterations":  {[]Param{ok}, 0},
		"repeated name":  {[]Param{ok, ok}, 10},
		"empty name":     {[]Param{{Start: 1, Max: 2, CEnd: 1, REnd: 1}}, 10},
		"start out":      {[]Param{{Name: "a", Start: 3, Min: 0, Max: 2, CEnd: 1, REnd: 1}}, 10},
		"zero c_end":     {[]Param{{Name: "a", Start: 1, Min: 0, Max: 2, REnd: 1}}, 10},
		"negative r_end": {[]Param{{Name: "a", Start: 1, Min: 0, Max: 2, CEnd: 1, REnd: -1}}, 10},
	} {
		_, err := New(c.ps, c.n)
		assert.ErrorIs(t, err, ErrParams, name)
	}
}

const paramsText = `# name start min max c_end r_end
RFPMargin 70 20 200 8 0.02

LMRDivisor 150 80 300 15 0.02
`

func TestParseParams(t *testing.T) {
	ps, err := ParseParams(strings.NewReader(paramsText))
	require.NoError(t, err)
	assert.Equal(t, []Param{
		{Name: "RFPMargin", Start: 70, Min: 20, Max: 200, CEnd: 8, REnd: 0.02},
		{Name: "LMRDivisor", Start: 150, Min: 80, Max: 300, CEnd: 15, REnd: 0.02},
	}, ps)
	for _, bad := range []string{"", "# only a comment\n", "a 1 2 3 4\n", "a 1 2 3 4 x\n", "a 1 2 3 4 NaN\n", "a 1 2 3 4 5 6\n"} {
		_, err := ParseParams(strings.NewReader(bad))
		assert.ErrorIs(t, err, ErrParams, "%q", bad)
	}
	_, err = ParseParams(strings.NewReader("ok 1 0 2 1 1\nbad\n"))
	assert.ErrorContains(t, err, "line 2")
}

// TestLogRoundTrip: a log written by a run reads back as the run's state, a line
// cut short at the end is ignored, and the run it names is checked.
func TestLogRoundTrip(t *testing.T) {
	ps, err := ParseParams(strings.NewReader(paramsText))
	require.NoError(t, err)
	tu, err := New(ps, 50)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteHeader(&buf, tu, 3))
	l, err := ReadLog(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, 0, l.Done)
	assert.Nil(t, l.Theta)
	assert.True(t, l.SameRun(ps, 50, 3))
	assert.False(t, l.SameRun(ps, 51, 3))
	assert.False(t, l.SameRun(ps, 50, 4))
	assert.False(t, l.SameRun(ps[:1], 50, 3))

	results := []float64{2, -1, 0, 1}
	var thetas [][]float64
	for k, r := range results {
		st := tu.Perturb(k, 3)
		tu.Update(st, r)
		thetas = append(thetas, tu.Theta())
		require.NoError(t, WriteStep(&buf, st, r, tu.Theta()))
	}
	full := buf.String()
	for _, text := range []string{full, full + "k 4 result 1 plus 7"} {
		l, err = ReadLog(strings.NewReader(text))
		require.NoError(t, err)
		assert.Equal(t, 4, l.Done)
		assert.Equal(t, 4, l.NextK)
		assert.InDelta(t, 2.0, l.Results, 1e-9)
		require.Len(t, l.Theta, 2)
		for i, v := range tu.Theta() {
			assert.InDelta(t, v, l.Theta[i], 1e-4)
		}
	}

	// The mean over the second half: steps 2 and 3.
	mean := l.MeanTheta()
	require.Len(t, mean, 2)
	for i := range mean {
		assert.InDelta(t, (thetas[2][i]+thetas[3][i])/2, mean[i], 1e-9)
	}
	assert.Nil(t, Log{}.MeanTheta())

	// A resumed tuner goes on from the log's θ.
	tu2, err := New(ps, 50)
	require.NoError(t, err)
	require.NoError(t, tu2.Restore(l.Theta, l.Done))
	assert.Equal(t, 4, tu2.Done())
	assert.ErrorIs(t, tu2.Restore([]float64{1}, 0), ErrParams)

	for name, text := range map[string]string{
		"no header":      "k 0 result 1\n",
		"bad iterations": "gomoku-spsa 1\niterations x\nseed 1\nparam a 1 0 2 1 1\n",
		"bad seed":       "gomoku-spsa 1\niterations 5\nseed -\nparam a 1 0 2 1 1\n",
		"no params":      "gomoku-spsa 1\niterations 5\nseed 1\n",
		"bad param":      "gomoku-spsa 1\niterations 5\nseed 1\nparam a 1 0\n",
		"short step":     "gomoku-spsa 1\niterations 5\nseed 1\nparam a 1 0 2 1 1\nk 0 result 1 plus 1 minus 1\n",
		"bad result":     "gomoku-spsa 1\niterations 5\nseed 1\nparam a 1 0 2 1 1\nk 0 result 3 plus 1 minus 1 theta 1\n",
		"bad theta":      "gomoku-spsa 1\niterations 5\nseed 1\nparam a 1 0 2 1 1\nk 0 result 1 plus 1 minus 1 theta NaN\n",
		"theta count":    "gomoku-spsa 1\niterations 5\nseed 1\nparam a 1 0 2 1 1\nk 0 result 1 plus 1 minus 1 theta 1\nk 1 result 1 plus 1 minus 1 theta 1 2\n",
		"unknown line":   "gomoku-spsa 1\niterations 5\nseed 1\nparam a 1 0 2 1 1\nfoo\n",
	} {
		_, err := ReadLog(strings.NewReader(text))
		assert.ErrorIs(t, err, ErrLog, name)
	}
}

func FuzzParseParams(f *testing.F) {
	f.Add(paramsText)
	f.Add("a 1 0 2 1e-3 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := ParseParams(strings.NewReader(text))
		if err != nil {
			require.ErrorIs(t, err, ErrParams)
			return
		}
		// What parses writes back to the same parameters.
		var b strings.Builder
		for _, p := range ps {
			b.WriteString(paramLine(p) + "\n")
		}
		again, err := ParseParams(strings.NewReader(b.String()))
		require.NoError(t, err)
		require.Equal(t, ps, again)
	})
}

func FuzzReadLog(f *testing.F) {
	ps, _ := ParseParams(strings.NewReader(paramsText))
	tu, _ := New(ps, 10)
	var buf bytes.Buffer
	_ = WriteHeader(&buf, tu, 1)
	st := tu.Perturb(0, 1)
	tu.Update(st, 1)
	_ = WriteStep(&buf, st, 1, tu.Theta())
	f.Add(buf.String())
	f.Add("gomoku-spsa 1\niterations 5\nseed 1\nparam a 1 0 2 1 1\nk 0 result 1 plus 1 minus 1 theta 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		l, err := ReadLog(strings.NewReader(text))
		if err != nil {
			return
		}
		require.NotEmpty(t, l.Params)
		require.Positive(t, l.Iterations)
		if l.Done > 0 {
			require.Len(t, l.Theta, len(l.Params))
			require.Positive(t, l.NextK)
		}
	})
}
