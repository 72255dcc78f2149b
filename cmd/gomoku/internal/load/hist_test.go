package load

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBucketRoundTrip(t *testing.T) {
	prev := -1
	for _, v := range []uint64{0, 1, 63, 64, 65, 127, 128, 129, 1000, 1 << 20, 1<<20 + 12345, 1 << 37} {
		i := bucketOf(v)
		assert.GreaterOrEqual(t, bucketHigh(i), v, "value %d bucket %d", v, i)
		if i > 0 {
			assert.Less(t, bucketHigh(i-1), v, "value %d must not fit the previous bucket", v)
		}
		assert.GreaterOrEqual(t, i, prev)
		prev = i
	}
	// Relative width of a bucket is at most 1/64.
	for i := subBuckets; i < nBuckets-1; i++ {
		lo, hi := bucketHigh(i-1)+1, bucketHigh(i)
		assert.LessOrEqual(t, float64(hi-lo+1)/float64(lo), 1.0/64+1e-9, "bucket %d", i)
	}
}

func TestHistogramQuantiles(t *testing.T) {
	tests := []struct {
		name   string
		values func(i int) time.Duration
		n      int
		q      float64
		want   time.Duration
	}{
		{"uniform p50", func(i int) time.Duration { return time.Duration(i+1) * time.Microsecond }, 10000, 0.50, 5000 * time.Microsecond},
		{"uniform p99", func(i int) time.Duration { return time.Duration(i+1) * time.Microsecond }, 10000, 0.99, 9900 * time.Microsecond},
		{"exact small", func(i int) time.Duration { return time.Duration(i%50) * time.Microsecond }, 5000, 0.5, 24 * time.Microsecond},
		{"milliseconds p95", func(i int) time.Duration { return time.Duration(i+1) * time.Millisecond }, 1000, 0.95, 950 * time.Millisecond},
		{"single", func(int) time.Duration { return 7 * time.Millisecond }, 1, 0.99, 7 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHistogram()
			for i := range tt.n {
				h.Record(tt.values(i))
			}
			got := h.Quantile(tt.q)
			assert.InDelta(t, float64(tt.want), float64(got), float64(tt.want)/60+float64(time.Microsecond), "got %v want %v", got, tt.want)
			assert.Equal(t, uint64(tt.n), h.Count())
		})
	}
}

func TestHistogramEmptyMaxMeanNegative(t *testing.T) {
	h := NewHistogram()
	assert.Zero(t, h.Quantile(0.99))
	assert.Zero(t, h.Mean())
	h.Record(-time.Second)
	h.Record(3 * time.Millisecond)
	h.Record(time.Millisecond)
	assert.Equal(t, 3*time.Millisecond, h.Max())
	assert.Equal(t, 3*time.Millisecond, h.Quantile(1))
	assert.Equal(t, time.Duration(0), h.Quantile(0.1))
	assert.InDelta(t, float64(4*time.Millisecond/3), float64(h.Mean()), float64(time.Microsecond))
	h.Record(100 * 24 * time.Hour) // beyond the range: clamped into the last bucket, max exact
	assert.Equal(t, 100*24*time.Hour, h.Max())
}

func TestHistogramConcurrentAndMerge(t *testing.T) {
	a, b := NewHistogram(), NewHistogram()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for range 10000 {
				a.Record(time.Duration(r.IntN(20000)) * time.Microsecond)
			}
		}()
	}
	wg.Wait()
	require.Equal(t, uint64(80000), a.Count())
	for range 100 {
		b.Record(time.Second)
	}
	a.Merge(b)
	assert.Equal(t, uint64(80100), a.Count())
	assert.Equal(t, time.Second, a.Max())
	assert.InDelta(t, 10*time.Millisecond, a.Quantile(0.5), float64(400*time.Microsecond))
}

func TestStatsReportTable(t *testing.T) {
	s := NewStats()
	s.MoveRTT.Record(2 * time.Millisecond)
	s.Acks.Add(10)
	s.Error("stale_ply")
	s.Error("stale_ply")
	s.Violation("room %s: gap", "r1")
	s.Closed("1013 slow_consumer")
	r := s.Report(2 * time.Second)
	r.Mode = "games"
	assert.InDelta(t, 5.0, r.MovesPerSec, 1e-9)
	assert.Equal(t, uint64(2), r.Errors["stale_ply"])
	assert.Equal(t, uint64(1), r.Violations)
	assert.Equal(t, []string{"room r1: gap"}, r.ViolSamples)
	var sb strings.Builder
	require.NoError(t, r.WriteTable(&sb))
	for _, want := range []string{"move round trip", "error stale_ply", "closed 1013 slow_consumer", "violation"} {
		assert.Contains(t, sb.String(), want)
	}
}

func BenchmarkHistogramRecord(b *testing.B) {
	h := NewHistogram()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		d := time.Duration(1)
		for pb.Next() {
			d = (d*31 + 7) % (50 * time.Millisecond)
			h.Record(d)
		}
	})
}
