package load

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStatCPU(t *testing.T) {
	tests := []struct {
		name string
		line string
		want time.Duration
		ok   bool
	}{
		{"plain", "1234 (gomokud) S 1 1234 1234 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 12 0 100 0 0", 3 * time.Second, true},
		{"spaces and parens in the name", "77 (redis (x) srv) R 1 1 1 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 1 0 0", 100 * time.Millisecond, true},
		{"short", "1 (a) S 1 2 3", 0, false},
		{"no name", "garbage", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStatCPU(tc.line)
			if !tc.ok {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseCPUProcs(t *testing.T) {
	got, err := ParseCPUProcs("gomokud=12,redis=34")
	require.NoError(t, err)
	assert.Equal(t, []CPUProc{{"gomokud", 12}, {"redis", 34}}, got)
	for _, bad := range []string{"x", "=1", "a=0", "a=b", "a=1,"} {
		_, err := ParseCPUProcs(bad)
		assert.ErrorIs(t, err, ErrBadCPUSpec, bad)
	}
	got, err = ParseCPUProcs("")
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestCPUMeterSelf(t *testing.T) {
	m := newCPUMeter(nil)
	end := time.Now().Add(30 * time.Millisecond)
	for time.Now().Before(end) {
	}
	u := m.usage(10)
	require.Len(t, u, 1)
	assert.Equal(t, "load", u[0].Name)
	assert.GreaterOrEqual(t, u[0].CPUS, 0.0)
	assert.InDelta(t, 1000*u[0].CPUS/10, u[0].MSPerMove, 1e-9)
}
