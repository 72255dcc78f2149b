package server

import (
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"
)

// TestRoomsGaugeReadAtScrape: gomoku_rooms_live is the room count at the moment of the
// scrape, not a copy refreshed in the background.
func TestRoomsGaugeReadAtScrape(t *testing.T) {
	m := newMetrics()
	live := 3
	m.countRooms(func() int { return live })
	scrape := func() float64 {
		families, err := m.Registry.Gather()
		require.NoError(t, err)
		for _, f := range families {
			if f.GetName() == "gomoku_rooms_live" {
				require.Equal(t, dto.MetricType_GAUGE, f.GetType())
				require.Len(t, f.GetMetric(), 1)
				return f.GetMetric()[0].GetGauge().GetValue()
			}
		}
		require.FailNow(t, "gomoku_rooms_live not registered")
		return 0
	}
	require.Equal(t, 3.0, scrape())
	live = 7
	require.Equal(t, 7.0, scrape())
}
