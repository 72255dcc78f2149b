package load

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// Stats collects a run's measurements; every method is safe for concurrent use.
type Stats struct {
	MoveRTT   *Histogram // mover sent → opponent saw the move event
	AckRTT    *Histogram // mover sent → mover got the ack
	Spectator *Histogram // mover sent → a spectator saw the move event
	AIReply   *Histogram // human's move sent → the AI's answer seen (-ai games)
	Connect   *Histogram // dial + hello → welcome

	MovesSent       atomic.Uint64
	Acks            atomic.Uint64
	Duplicates      atomic.Uint64 // acks with "duplicate": true
	Events          atomic.Uint64 // event frames received (all clients)
	GamesFinished   atomic.Uint64
	Reconnects      atomic.Uint64
	ReconnectFailed atomic.Uint64
	Resyncs         atomic.Uint64
	Violations      atomic.Uint64 // events out of order, missing or different from the room's record
	Drops           atomic.Uint64 // connections closed by the server or the network
	Connected       atomic.Int64  // open WebSocket connections now

	mu       sync.Mutex
	errs     map[string]uint64
	samples  []string // first few violation descriptions
	closeMsg map[string]uint64
}

// NewStats returns empty stats.
func NewStats() *Stats {
	return &Stats{
		MoveRTT: NewHistogram(), AckRTT: NewHistogram(), Spectator: NewHistogram(), Connect: NewHistogram(), AIReply: NewHistogram(),
		errs: map[string]uint64{}, closeMsg: map[string]uint64{},
	}
}

// Error counts one error by its stable code (protocol codes, or load-side ones such as
// "dial" and "http_429").
func (s *Stats) Error(code string) {
	s.mu.Lock()
	s.errs[code]++
	s.mu.Unlock()
}

// Closed counts one connection closed under the client, by reason.
func (s *Stats) Closed(reason string) {
	s.Drops.Add(1)
	s.mu.Lock()
	s.closeMsg[reason]++
	s.mu.Unlock()
}

// Violation counts an ordering violation and keeps its description (the first 20).
func (s *Stats) Violation(format string, args ...any) {
	s.Violations.Add(1)
	s.mu.Lock()
	if len(s.samples) < 20 {
		s.samples = append(s.samples, fmt.Sprintf(format, args...))
	}
	s.mu.Unlock()
}

// Errors returns a copy of the error counts.
func (s *Stats) Errors() map[string]uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.errs)
}

// Report is one run's result (the -json output; fields are stable so runs compare).
type Report struct {
	Mode        string            `json:"mode"` // games, idle, raw-redis
	Target      string            `json:"target,omitempty"`
	Target2     string            `json:"target2,omitempty"` // -url2: the second node
	Started     time.Time         `json:"started"`
	DurationS   float64           `json:"duration_s"` // measurement window
	SetupS      float64           `json:"setup_s"`    // creating players, rooms, connections
	Games       int               `json:"games,omitempty"`
	Spectators  int               `json:"spectators_per_game,omitempty"`
	Rate        float64           `json:"rate_per_game,omitempty"`
	Churn       float64           `json:"churn_per_min,omitempty"`
	Conns       int64             `json:"connections"` // client-side open at the end of the window
	MovesSent   uint64            `json:"moves_sent"`
	Acks        uint64            `json:"acks"`
	Duplicates  uint64            `json:"duplicate_acks"`
	MovesPerSec float64           `json:"moves_per_s"` // acks per second in the window
	GamesDone   uint64            `json:"games_finished"`
	Events      uint64            `json:"events_received"`
	MoveRTT     Summary           `json:"move_rtt"`
	AckRTT      Summary           `json:"ack_rtt"`
	Spectator   Summary           `json:"spectator_delivery"`
	AI          string            `json:"ai_level,omitempty"`
	AIReply     Summary           `json:"ai_reply"`
	Connect     Summary           `json:"connect"`
	Errors      map[string]uint64 `json:"errors"`
	Closes      map[string]uint64 `json:"closes"`
	Reconnects  uint64            `json:"reconnects"`
	ReconnFail  uint64            `json:"reconnect_failures"`
	Resyncs     uint64            `json:"resyncs"`
	Violations  uint64            `json:"order_violations"`
	ViolSamples []string          `json:"violation_samples,omitempty"`
	Server      *ServerMemory     `json:"server,omitempty"`
	Raw         *RawResult        `json:"raw_redis,omitempty"`
	// RawUnbatched is the same with one round trip per append (-raw-unbatched).
	RawUnbatched *RawResult `json:"raw_redis_unbatched,omitempty"`
	CPU          []CPUUsage `json:"cpu,omitempty"` // CPU time over the window (games mode)
}

// Report snapshots the stats for a window of the given length.
func (s *Stats) Report(window time.Duration) Report {
	s.mu.Lock()
	samples := slices.Clone(s.samples)
	closes := maps.Clone(s.closeMsg)
	s.mu.Unlock()
	r := Report{
		DurationS: window.Seconds(), Conns: s.Connected.Load(),
		MovesSent: s.MovesSent.Load(), Acks: s.Acks.Load(), Duplicates: s.Duplicates.Load(),
		GamesDone: s.GamesFinished.Load(), Events: s.Events.Load(),
		MoveRTT: s.MoveRTT.Summary(), AckRTT: s.AckRTT.Summary(), Spectator: s.Spectator.Summary(), AIReply: s.AIReply.Summary(),
		Connect: s.Connect.Summary(), Errors: s.Errors(), Closes: closes,
		Reconnects: s.Reconnects.Load(), ReconnFail: s.ReconnectFailed.Load(), Resyncs: s.Resyncs.Load(),
		Violations: s.Violations.Load(), ViolSamples: samples,
	}
	if window > 0 {
		r.MovesPerSec = float64(r.Acks) / window.Seconds()
	}
	return r
}

// WriteTable prints the report for people.
func (r Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	p("mode\t%s\ttarget\t%s", r.Mode, r.Target)
	if r.Target2 != "" {
		p("\tsecond node\t%s", r.Target2)
	}
	p("window\t%.1f s\tconnections\t%d", r.DurationS, r.Conns)
	p("setup\t%.1f s\t", r.SetupS)
	if r.Mode == "games" {
		p("games\t%d\tspectators/game\t%d", r.Games, r.Spectators)
		p("rate/game\t%.2f moves/s\tchurn\t%.2f /min", r.Rate, r.Churn)
		p("moves sent\t%d\tacks\t%d (duplicates %d)", r.MovesSent, r.Acks, r.Duplicates)
		p("moves/s\t%.1f\tgames finished\t%d", r.MovesPerSec, r.GamesDone)
		p("events received\t%d\treconnects\t%d (failed %d, resyncs %d)", r.Events, r.Reconnects, r.ReconnFail, r.Resyncs)
		p("order violations\t%d\t", r.Violations)
		p("")
		p("latency (ms)\tn\tp50\tp95\tp99\tp99.9\tmax")
		row := func(name string, s Summary) {
			p("%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f", name, s.Count, s.P50, s.P95, s.P99, s.P999, s.Max)
		}
		row("move round trip", r.MoveRTT)
		row("ack", r.AckRTT)
		row("spectator delivery", r.Spectator)
		if r.AI != "" {
			row("AI reply ("+r.AI+")", r.AIReply)
		}
		row("connect", r.Connect)
	} else if r.Mode == "idle" {
		row := r.Connect
		p("connect (ms)\tp50 %.2f\tp99 %.2f max %.2f", row.P50, row.P99, row.Max)
		p("reconnects\t%d\tfailed %d", r.Reconnects, r.ReconnFail)
	}
	if len(r.Errors) > 0 || len(r.Closes) > 0 {
		p("")
		for _, k := range slices.Sorted(maps.Keys(r.Errors)) {
			p("error %s\t%d", k, r.Errors[k])
		}
		for _, k := range slices.Sorted(maps.Keys(r.Closes)) {
			p("closed %s\t%d", k, r.Closes[k])
		}
	}
	for _, v := range r.ViolSamples {
		p("violation\t%s", v)
	}
	if len(r.CPU) > 0 {
		p("")
		p("CPU over the window\tseconds\tms per move")
		for _, u := range r.CPU {
			p("%s\t%.2f\t%.3f", u.Name, u.CPUS, u.MSPerMove)
		}
	}
	if m := r.Server; m != nil {
		p("")
		p("server /metrics\tbefore\tafter")
		p("ws connections\t%.0f\t%.0f", m.Before.Connections, m.After.Connections)
		p("resident memory\t%.1f MiB\t%.1f MiB", m.Before.RSS/(1<<20), m.After.RSS/(1<<20))
		p("heap in use\t%.1f MiB\t%.1f MiB", m.Before.HeapInuse/(1<<20), m.After.HeapInuse/(1<<20))
		p("goroutines\t%.0f\t%.0f", m.Before.Goroutines, m.After.Goroutines)
		p("per connection (after / conns)\tRSS %.1f KiB\theap %.1f KiB", m.RSSPerConn/1024, m.HeapPerConn/1024)
		p("per added connection (delta)\tRSS %.1f KiB\theap %.1f KiB", m.RSSPerConnDelta/1024, m.HeapPerConnDelta/1024)
		p("heap + stacks per added connection\t%.1f KiB\t(GC forced: %v)", m.LivePerConnDelta/1024, m.GCForced)
		if m.After.MoveLatencyP99 > 0 {
			p("server move read→ack p99 (bucket bound)\t%.1f ms\t", m.After.MoveLatencyP99*1000)
		}
	}
	for _, raw := range []*RawResult{r.Raw, r.RawUnbatched} {
		if raw == nil {
			continue
		}
		how := "group commit"
		if raw.Unbatched {
			how = "one round trip per append"
		}
		p("")
		p("raw Redis append script (%s)\t%d appends in %.1f s\t%.0f appends/s (%d writers, p99 %.2f ms)",
			how, raw.Appends, raw.DurationS, raw.PerSec, raw.Writers, raw.Latency.P99)
		if r.MovesPerSec > 0 && raw.PerSec > 0 {
			p("server moves/s vs raw (%s)\t%.1f %%\t", how, 100*r.MovesPerSec/raw.PerSec)
		}
	}
	return tw.Flush()
}
