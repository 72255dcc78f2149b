package rating

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpeedOf(t *testing.T) {
	s, m := time.Second, time.Minute
	tests := []struct {
		name               string
		base, inc, perMove time.Duration
		speed              Speed
		ok                 bool
	}{
		{"untimed", 0, 0, 0, "", false},
		{"1+0", 1 * m, 0, 0, Bullet, true},
		{"2+1 (2m40)", 2 * m, 1 * s, 0, Bullet, true},
		{"3+2 (4m20)", 3 * m, 2 * s, 0, Blitz, true},
		{"1+2 (2m20)", 1 * m, 2 * s, 0, Bullet, true},
		{"3+0", 3 * m, 0, 0, Blitz, true},
		{"5+3 (7m)", 5 * m, 3 * s, 0, Blitz, true},
		{"8+0", 8 * m, 0, 0, Rapid, true},
		{"10+5 (13m20)", 10 * m, 5 * s, 0, Rapid, true},
		{"20+10 (26m40)", 20 * m, 10 * s, 0, Classical, true},
		{"per move 30 s (20m)", 0, 0, 30 * s, Rapid, true},
		{"per move 4 s (2m40)", 0, 0, 4 * s, Bullet, true},
		{"per move 60 s (40m)", 0, 0, 60 * s, Classical, true},
		{"30+0 capped by 10 s per move (6m40)", 30 * m, 0, 10 * s, Blitz, true},
		{"1+0 with a slack per-move limit", 1 * m, 0, 30 * s, Bullet, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := SpeedOf(tt.base, tt.inc, tt.perMove)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.speed, got)
		})
	}
}

func TestPoolOf(t *testing.T) {
	p, ok := PoolOf("renju", 5*time.Minute, 0, 0)
	require.True(t, ok)
	assert.Equal(t, "renju-blitz", p.ID())
	_, ok = PoolOf("renju", 0, 0, 0)
	assert.False(t, ok, "untimed games have no pool")
	_, ok = PoolOf("caro", 5*time.Minute, 0, 0)
	assert.False(t, ok)
}

func TestParsePool(t *testing.T) {
	for _, p := range Pools() {
		got, err := ParsePool(p.ID())
		require.NoError(t, err)
		assert.Equal(t, p, got)
	}
	assert.Len(t, Pools(), 12)
	for _, bad := range []string{"", "freestyle", "freestyle-", "-blitz", "freestyle-daily", "go-blitz", "freestyle-blitz-x"} {
		_, err := ParsePool(bad)
		assert.ErrorIs(t, err, ErrBadPool, bad)
	}
}

func FuzzParsePool(f *testing.F) {
	for _, s := range []string{"freestyle-blitz", "renju-classical", "x-y", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePool(s)
		if err == nil {
			assert.Equal(t, s, p.ID(), "a parsed pool prints as its id")
		}
	})
}
