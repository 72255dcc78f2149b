package engine

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultReductionTable: the default settings give the reduction table
// 0.43 + ln d · ln i / 1.35 rounded down.
func TestDefaultReductionTable(t *testing.T) {
	for _, c := range []struct{ d, i, r int }{
		{1, 1, 0}, {3, 3, 1}, {4, 8, 2}, {6, 10, 3}, {10, 20, 5}, {20, 40, 8}, {63, 63, 13},
	} {
		assert.Equal(t, c.r, int(defaultParams.lmr[c.d][c.i]), "d %d i %d", c.d, c.i)
	}
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			want := int8(0.43 + math.Log(float64(d))*math.Log(float64(i))/1.35)
			require.Equal(t, want, defaultParams.lmr[d][i], "d %d i %d", d, i)
		}
	}
}

func TestSearchParamsGetSet(t *testing.T) {
	p := DefaultSearchParams()
	ranges := SearchParamRanges()
	require.Len(t, ranges, len(p.fields()))
	for _, r := range ranges {
		v, err := p.Get(r.Name)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, v, r.Min, r.Name)
		assert.LessOrEqual(t, v, r.Max, r.Name)
		require.NoError(t, p.Set(r.Name, r.Max))
		got, err := p.Get(r.Name)
		require.NoError(t, err)
		assert.Equal(t, r.Max, got, r.Name)
		assert.ErrorIs(t, p.Set(r.Name, r.Max+1), ErrSearchParam, r.Name)
		assert.ErrorIs(t, p.Set(r.Name, r.Min-1), ErrSearchParam, r.Name)
	}
	_, err := p.Get("NoSuchParam")
	assert.ErrorIs(t, err, ErrSearchParam)
	assert.ErrorIs(t, p.Set("NoSuchParam", 1), ErrSearchParam)

	// The ranges returned are a copy.
	ranges[0].Max = -1
	assert.NotEqual(t, -1, SearchParamRanges()[0].Max)
}

func TestSearchParamsClamped(t *testing.T) {
	p := DefaultSearchParams()
	p.LMRDivisor = 0    // would divide by zero
	p.RFPMargin = -5    // below 0
	p.IIRDepth = 10_000 // above 30
	sp := newSearchParams(p)
	assert.Equal(t, 25, sp.LMRDivisor)
	assert.Equal(t, 0, sp.RFPMargin)
	assert.Equal(t, 30, sp.IIRDepth)
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			require.GreaterOrEqual(t, sp.lmr[d][i], int8(0))
		}
	}
}

// TestSearchParamsUsed: the default settings passed explicitly search node for node
// as the engine without them; other settings change the search.
func TestSearchParamsUsed(t *testing.T) {
	b := middleGame(t, Freestyle)
	search := func(p *SearchParams) Result {
		return New(Options{HashMiB: 2, Search: p}).Search(context.Background(), b, Limits{Depth: 9}, nil)
	}
	ref := search(nil)
	def := DefaultSearchParams()
	same := search(&def)
	assert.Equal(t, ref.Nodes, same.Nodes)
	assert.Equal(t, ref.Move, same.Move)

	// Every setting is read: a changed value changes the search.
	for _, r := range SearchParamRanges() {
		p := DefaultSearchParams()
		v, err := p.Get(r.Name)
		require.NoError(t, err)
		switch r.Name {
		case "LMRStart":
			v = 4 // the second move is never reduced by the table anyway
		case "NullMoveDeepDepth":
			v /= 2
		default:
			v *= 2
		}
		require.NoError(t, p.Set(r.Name, v))
		assert.NotEqual(t, ref.Nodes, search(&p).Nodes, r.Name)
	}
}

// TestPlainLevelsKeepTheirSettings: a level with the plain search plays with the
// settings it was calibrated with, whatever Options.Search says.
func TestPlainLevelsKeepTheirSettings(t *testing.T) {
	p := DefaultSearchParams()
	p.LMPMoves, p.LMRStart = 1, 1
	for _, l := range Levels() {
		e := New(Options{HashMiB: 1, Search: &p})
		e.setLevel(l)
		if l.PlainSearch {
			assert.Same(t, plainParams, e.s.par, l.Name)
		} else {
			assert.Equal(t, 1, e.s.par.LMPMoves, l.Name)
		}
	}
}
