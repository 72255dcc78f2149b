package server

import (
	"time"

	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics are the Prometheus metrics of one Server (its own registry, so several servers
// can run in one process, as tests do).
type Metrics struct {
	Registry         *prometheus.Registry
	Connections      prometheus.Gauge
	ConnectionsTotal prometheus.Counter
	Rooms            prometheus.GaugeFunc // set by countRooms
	Moves            prometheus.Counter
	MoveLatency      prometheus.Histogram
	AISearchTime     prometheus.Histogram
	AISearchNodes    prometheus.Histogram
	RedisLatency     prometheus.Histogram
	SlowConsumers    prometheus.Counter
	PairingSeat      prometheus.Histogram
	PairingRecovered *prometheus.CounterVec
	PuzzleStarted    prometheus.Counter
	PuzzleEnded      *prometheus.CounterVec
	PuzzleBusy       *prometheus.CounterVec
	PuzzlesMined     prometheus.Counter
	PuzzleMineErrors prometheus.Counter
	Errors           *prometheus.CounterVec
	Messages         *prometheus.CounterVec
}

func newMetrics() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		Connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gomoku_ws_connections", Help: "Open WebSocket connections.",
		}),
		ConnectionsTotal: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gomoku_ws_connections_total", Help: "WebSocket connections accepted.",
		}),
		Moves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gomoku_moves_total", Help: "Moves acknowledged to WebSocket clients.",
		}),
		MoveLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gomoku_move_latency_seconds",
			Help:    "Time from reading a move frame to its ack (stored in Redis).",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5},
		}),
		AISearchTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gomoku_ai_search_seconds",
			Help:    "Wall time of AI searches.",
			Buckets: []float64{.01, .05, .1, .25, .5, 1, 2, 5, 10, 30},
		}),
		AISearchNodes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gomoku_ai_search_nodes",
			Help:    "Nodes searched per AI move.",
			Buckets: prometheus.ExponentialBuckets(1000, 4, 10),
		}),
		RedisLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gomoku_redis_latency_seconds",
			Help:    "Latency of Redis round trips (every command and pipeline of the server's client, and readiness probes).",
			Buckets: []float64{.0001, .0005, .001, .002, .005, .01, .05, .1, .5},
		}),
		SlowConsumers: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gomoku_slow_consumers_dropped_total", Help: "WebSocket connections dropped because their send queue was full.",
		}),
		PairingSeat: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gomoku_pairing_seat_seconds",
			Help:    "Time from a quick-pairing match reaching a node to its player seated in the room (per player).",
			Buckets: []float64{.001, .002, .005, .01, .02, .05, .1, .25, .5, 1},
		}),
		PairingRecovered: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gomoku_pairing_recovered_total",
			Help: "Quick-pairing matches this node settled because the node that made them did not (it died), by outcome.",
		}, []string{"outcome"}),
		PuzzleStarted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gomoku_puzzle_attempts_started_total", Help: "Puzzle trainer attempts started.",
		}),
		PuzzleEnded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gomoku_puzzle_attempts_ended_total", Help: "Puzzle trainer attempts ended, by outcome (solved, failed).",
		}, []string{"outcome"}),
		PuzzleBusy: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gomoku_puzzle_busy_total",
			Help: "Puzzle trainer requests refused puzzle_busy, by reason (player, address, slots: the node's solver slots stayed busy, budget: the solver's node budget ran out).",
		}, []string{"reason"}),
		PuzzlesMined: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gomoku_puzzles_mined_total", Help: "New puzzles this node mined from finished games and stored.",
		}),
		PuzzleMineErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gomoku_puzzle_mining_errors_total", Help: "Finished games whose mining for puzzles failed on this node.",
		}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gomoku_errors_total", Help: "Errors returned to clients, by stable code.",
		}, []string{"code"}),
		Messages: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gomoku_ws_messages_total", Help: "WebSocket client messages, by type.",
		}, []string{"type"}),
	}
	r.MustRegister(m.Connections, m.ConnectionsTotal, m.Moves, m.MoveLatency,
		m.AISearchTime, m.AISearchNodes, m.RedisLatency, m.SlowConsumers, m.PairingSeat, m.PairingRecovered,
		m.PuzzleStarted, m.PuzzleEnded, m.PuzzleBusy, m.PuzzlesMined, m.PuzzleMineErrors, m.Errors, m.Messages,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *Metrics) observePairing(d time.Duration) { m.PairingSeat.Observe(d.Seconds()) }

func (m *Metrics) pairingRecovered(outcome pairing.Status) {
	m.PairingRecovered.WithLabelValues(string(outcome)).Inc()
}

// countRooms registers gomoku_rooms_live, read from live at every scrape (no goroutine
// polls it, so the figure is never stale).
func (m *Metrics) countRooms(live func() int) {
	m.Rooms = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gomoku_rooms_live", Help: "Rooms live on this node.",
	}, func() float64 { return float64(live()) })
	m.Registry.MustRegister(m.Rooms)
}

// ObserveAISearch records one finished AI search (wired into the room layer's hook).
func (m *Metrics) ObserveAISearch(d time.Duration, nodes uint64) {
	m.AISearchTime.Observe(d.Seconds())
	m.AISearchNodes.Observe(float64(nodes))
}

// observeMining records one mined game (puzzles.Mining.Observe).
func (m *Metrics) observeMining(added int, err error) {
	m.PuzzlesMined.Add(float64(added))
	if err != nil {
		m.PuzzleMineErrors.Inc()
	}
}

// countError records an error sent to a client.
func (m *Metrics) countError(code string) {
	if !protocol.KnownCode(code) {
		code = "other" // bound the label cardinality
	}
	m.Errors.WithLabelValues(code).Inc()
}
