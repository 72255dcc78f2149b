package rating

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Glickman's worked example ("Example of the Glicko-2 system", tau 0.5).
func TestUpdateGlickmanExample(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Vol: 0.06}
	got := Update(p, []Result{
		{Opponent: Rating{R: 1400, RD: 30, Vol: 0.06}, Score: Win},
		{Opponent: Rating{R: 1550, RD: 100, Vol: 0.06}, Score: Loss},
		{Opponent: Rating{R: 1700, RD: 300, Vol: 0.06}, Score: Loss},
	})
	assert.InDelta(t, 1464.06, got.R, 0.01)
	assert.InDelta(t, 151.52, got.RD, 0.01)
	assert.InDelta(t, 0.05999, got.Vol, 0.00001)
}

func TestUpdateWithoutGamesGrowsRD(t *testing.T) {
	p := Rating{R: 1700, RD: 60, Vol: 0.06}
	got := Update(p, nil)
	assert.Equal(t, 1700.0, got.R)
	assert.Equal(t, 0.06, got.Vol)
	// phi' = sqrt(phi² + sigma²) on the Glicko-2 scale.
	want := scale * math.Sqrt(math.Pow(60/scale, 2)+0.06*0.06)
	assert.InDelta(t, want, got.RD, 1e-9)
}

func TestPair(t *testing.T) {
	tests := []struct {
		name   string
		a, b   Rating
		scoreA float64
		aUp    int // sign of a's change
	}{
		{"equal players, a wins", Initial(), Initial(), Win, 1},
		{"equal players, a loses", Initial(), Initial(), Loss, -1},
		{"equal players draw", Initial(), Initial(), Draw, 0},
		{"favourite draws", Rating{1800, 80, 0.06}, Rating{1500, 80, 0.06}, Draw, -1},
		{"underdog draws", Rating{1500, 80, 0.06}, Rating{1800, 80, 0.06}, Draw, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := Pair(tt.a, tt.b, tt.scoreA)
			da, db := a.R-tt.a.R, b.R-tt.b.R
			switch tt.aUp {
			case 1:
				assert.Greater(t, da, 0.0)
				assert.Less(t, db, 0.0)
			case -1:
				assert.Less(t, da, 0.0)
				assert.Greater(t, db, 0.0)
			default:
				assert.InDelta(t, 0, da, 1e-9)
				assert.InDelta(t, 0, db, 1e-9)
			}
			assert.Less(t, a.RD, tt.a.RD, "a game makes the rating more certain")
			assert.True(t, a.Valid() && b.Valid())
		})
	}
}

func TestFirstGameOfNewPlayers(t *testing.T) {
	a, b := Pair(Initial(), Initial(), Win)
	// Known value of lichess-style per-game periods at tau 0.5: 1500/350 beats 1500/350.
	assert.InDelta(t, 1662.3, a.R, 0.1)
	assert.InDelta(t, 1337.7, b.R, 0.1)
	assert.InDelta(t, 290.3, a.RD, 0.1)
	assert.True(t, a.Provisional())
	assert.Equal(t, "1662?", a.Display())
}

func TestAge(t *testing.T) {
	r := Rating{R: 1600, RD: 50, Vol: 0.06}
	tests := []struct {
		idle time.Duration
		rd   float64
	}{
		{0, 50},
		{-time.Hour, 50},
		{PeriodLength, scale * math.Sqrt(math.Pow(50/scale, 2)+0.06*0.06)},
		{100 * 365 * 24 * time.Hour, MaxRD},
	}
	for _, tt := range tests {
		got := Age(r, tt.idle)
		assert.InDelta(t, tt.rd, got.RD, 1e-9, "idle %v", tt.idle)
		assert.Equal(t, 1600.0, got.R)
	}
}

func TestRDStaysInRange(t *testing.T) {
	r := Initial()
	for i := 0; i < 500; i++ {
		r, _ = Pair(r, Rating{R: 1500, RD: 45, Vol: 0.06}, Draw)
	}
	assert.GreaterOrEqual(t, r.RD, MinRD)
	assert.Less(t, r.RD, ProvisionalRD, "a steady player's rating settles")
	require.True(t, r.Valid())
}

func TestDisplayAndValid(t *testing.T) {
	assert.Equal(t, "1500?", Initial().Display())
	assert.Equal(t, "1735", Rating{R: 1734.6, RD: 60, Vol: 0.06}.Display())
	assert.Equal(t, "1735?", Rating{R: 1734.6, RD: 110.01, Vol: 0.06}.Display())
	assert.False(t, Rating{R: 1500, RD: 110, Vol: 0.06}.Provisional())
	assert.False(t, Rating{R: math.NaN(), RD: 60, Vol: 0.06}.Valid())
	assert.False(t, Rating{R: 1500, RD: 0, Vol: 0.06}.Valid())
	assert.False(t, Rating{R: 1500, RD: 400, Vol: 0.06}.Valid())
	assert.False(t, Rating{R: 1500, RD: 60, Vol: 0}.Valid())
}

func BenchmarkPair(b *testing.B) {
	b.ReportAllocs()
	x, y := Rating{1620, 80, 0.06}, Rating{1550, 120, 0.06}
	for i := 0; i < b.N; i++ {
		Pair(x, y, Win)
	}
}
