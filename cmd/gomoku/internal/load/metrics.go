package load

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// MetricsSample is what the load tool reads from the server's /metrics (server/metrics.go
// names plus the standard Go and process collectors).
type MetricsSample struct {
	Connections    float64 `json:"ws_connections"`                // gomoku_ws_connections
	RSS            float64 `json:"process_resident_memory_bytes"` // process_resident_memory_bytes
	HeapInuse      float64 `json:"go_memstats_heap_inuse_bytes"`  // go_memstats_heap_inuse_bytes
	StackInuse     float64 `json:"go_memstats_stack_inuse_bytes"` // goroutine stacks
	Goroutines     float64 `json:"go_goroutines"`
	Moves          float64 `json:"moves_total"`            // gomoku_moves_total
	SlowConsumers  float64 `json:"slow_consumers_dropped"` // gomoku_slow_consumers_dropped_total
	MoveLatencyP99 float64 `json:"move_latency_p99_s,omitempty"`

	buckets map[float64]float64 // gomoku_move_latency_seconds_bucket le → cumulative count
}

// ServerMemory compares two samples: before the clients connected and at the end of the
// measurement window.
type ServerMemory struct {
	Before           MetricsSample `json:"before"`
	After            MetricsSample `json:"after"`
	RSSPerConn       float64       `json:"rss_per_conn_bytes"`
	HeapPerConn      float64       `json:"heap_inuse_per_conn_bytes"`
	RSSPerConnDelta  float64       `json:"rss_per_added_conn_bytes"`
	HeapPerConnDelta float64       `json:"heap_inuse_per_added_conn_bytes"`
	// LivePerConnDelta is (heap in use + goroutine stacks) per added connection; after a
	// forced GC (-force-gc) it is the live memory a connection costs.
	LivePerConnDelta float64 `json:"heap_and_stack_per_added_conn_bytes"`
	GCForced         bool    `json:"gc_forced,omitempty"`
}

// NewServerMemory derives the per-connection figures. The server's own move latency p99
// (read → ack, from its histogram buckets) is computed over the window between the samples.
func NewServerMemory(before, after MetricsSample) *ServerMemory {
	m := &ServerMemory{Before: before, After: after}
	if after.Connections > 0 {
		m.RSSPerConn = after.RSS / after.Connections
		m.HeapPerConn = after.HeapInuse / after.Connections
	}
	if d := after.Connections - before.Connections; d > 0 {
		m.RSSPerConnDelta = (after.RSS - before.RSS) / d
		m.HeapPerConnDelta = (after.HeapInuse - before.HeapInuse) / d
		m.LivePerConnDelta = (after.HeapInuse + after.StackInuse - before.HeapInuse - before.StackInuse) / d
	}
	m.After.MoveLatencyP99 = bucketQuantile(0.99, before.buckets, after.buckets)
	return m
}

// bucketQuantile returns the upper bound of the Prometheus bucket holding quantile q of
// the observations made between two cumulative bucket sets (0 if none).
func bucketQuantile(q float64, before, after map[float64]float64) float64 {
	les := make([]float64, 0, len(after))
	for le := range after {
		les = append(les, le)
	}
	sort.Float64s(les)
	if len(les) == 0 {
		return 0
	}
	total := after[math.Inf(1)] - before[math.Inf(1)]
	if total <= 0 {
		return 0
	}
	for _, le := range les {
		if after[le]-before[le] >= q*total {
			return le
		}
	}
	return les[len(les)-1]
}

// ForceGC asks a server that exposes net/http/pprof for a heap profile with gc=1, which
// runs a garbage collection first (gomokud has no pprof; the profiling server of
// TestServeForProfiling does).
func ForceGC(ctx context.Context, c *http.Client, base string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("load: force gc: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("load: force gc: status %d (the server needs /debug/pprof/)", resp.StatusCode)
	}
	return nil
}

// ScrapeMetrics reads base/metrics.
func ScrapeMetrics(ctx context.Context, c *http.Client, base string) (MetricsSample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return MetricsSample{}, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return MetricsSample{}, fmt.Errorf("load: metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return MetricsSample{}, fmt.Errorf("load: metrics: status %d", resp.StatusCode)
	}
	return ParseMetrics(resp.Body)
}

// ParseMetrics reads the few series the load report needs from Prometheus text format.
func ParseMetrics(r io.Reader) (MetricsSample, error) {
	s := MetricsSample{buckets: map[float64]float64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, rest, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err != nil {
			continue
		}
		switch name {
		case "gomoku_ws_connections":
			s.Connections = v
		case "process_resident_memory_bytes":
			s.RSS = v
		case "go_memstats_heap_inuse_bytes":
			s.HeapInuse = v
		case "go_memstats_stack_inuse_bytes":
			s.StackInuse = v
		case "go_goroutines":
			s.Goroutines = v
		case "gomoku_moves_total":
			s.Moves = v
		case "gomoku_slow_consumers_dropped_total":
			s.SlowConsumers = v
		}
		if strings.HasPrefix(name, `gomoku_move_latency_seconds_bucket{le="`) {
			le := strings.TrimSuffix(strings.TrimPrefix(name, `gomoku_move_latency_seconds_bucket{le="`), `"}`)
			b, err := strconv.ParseFloat(le, 64) // "+Inf" parses as +Inf
			if err == nil {
				s.buckets[b] = v
			}
		}
	}
	return s, sc.Err()
}
