package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sampleMetrics = `# HELP gomoku_ws_connections Open WebSocket connections.
# TYPE gomoku_ws_connections gauge
gomoku_ws_connections 1000
gomoku_moves_total 42
gomoku_move_latency_seconds_bucket{le="0.001"} 10
gomoku_move_latency_seconds_bucket{le="0.002"} 80
gomoku_move_latency_seconds_bucket{le="0.005"} 99
gomoku_move_latency_seconds_bucket{le="0.01"} 100
gomoku_move_latency_seconds_bucket{le="+Inf"} 100
gomoku_errors_total{code="stale_ply"} 3
go_goroutines 2010
go_memstats_heap_inuse_bytes 2.048e+07
process_resident_memory_bytes 4.096e+07
`

func TestParseMetrics(t *testing.T) {
	s, err := ParseMetrics(strings.NewReader(sampleMetrics))
	require.NoError(t, err)
	assert.Equal(t, 1000.0, s.Connections)
	assert.Equal(t, 42.0, s.Moves)
	assert.Equal(t, 2010.0, s.Goroutines)
	assert.Equal(t, 2.048e7, s.HeapInuse)
	assert.Equal(t, 4.096e7, s.RSS)
	assert.Len(t, s.buckets, 5)

	before := MetricsSample{Connections: 0, RSS: 2.048e7, HeapInuse: 1.024e7, buckets: map[float64]float64{}}
	m := NewServerMemory(before, s)
	assert.InDelta(t, 40960.0, m.RSSPerConn, 1e-6)
	assert.InDelta(t, 20480.0, m.RSSPerConnDelta, 1e-6)
	assert.InDelta(t, 10240.0, m.HeapPerConnDelta, 1e-6)
	assert.Equal(t, 0.005, m.After.MoveLatencyP99)
}

func TestCheckLoopback(t *testing.T) {
	tests := []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080", true},
		{"http://127.9.8.7:1", true},
		{"http://localhost:8080", true},
		{"http://[::1]:8080", true},
		{"redis://127.0.0.1:7000/0", true},
		{"http://10.0.0.1:8080", false},
		{"http://example.com", false},
		{"http://0.0.0.0:8080", false},
		{"https://127.0.0.1", false},
		{"http://", false},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			_, err := CheckLoopback(tt.url)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.Error(t, err)
			}
		})
	}
	_, err := CheckLoopback("http://192.168.1.2:8080")
	assert.ErrorIs(t, err, ErrNotLoopback)
}

func TestValidate(t *testing.T) {
	ok := Config{URL: "http://127.0.0.1:8080", Games: 10, Rate: 1, Duration: defaultWindow, Setup: defaultWindow,
		IdlePerRoom: 50, RawWriters: 1, RawDuration: defaultWindow}
	require.NoError(t, ok.Validate())
	tests := []struct {
		name string
		mod  func(c *Config)
	}{
		{"remote target", func(c *Config) { c.URL = "http://203.0.113.5:8080" }},
		{"too long", func(c *Config) { c.Duration = MaxDuration + 1 }},
		{"too many games", func(c *Config) { c.Games = MaxGames + 1 }},
		{"too many spectators", func(c *Config) { c.Spectators = MaxConns }},
		{"idle with games", func(c *Config) { c.Idle = 10 }},
		{"nothing", func(c *Config) { c.Games = 0 }},
		{"default redis port", func(c *Config) { c.RawRedis = "redis://127.0.0.1:6379" }},
		{"remote redis", func(c *Config) { c.RawRedis = "redis://10.1.1.1:7000" }},
		{"negative rate", func(c *Config) { c.Rate = -1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.mod(&c)
			assert.Error(t, c.Validate())
		})
	}
}
