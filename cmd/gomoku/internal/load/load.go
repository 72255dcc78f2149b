// Package load is `gomoku load`: a bounded load generator of WebSocket clients against a
// Gomoku Arena server on this machine (loopback addresses only). It plays N concurrent
// human-vs-human games with random legal moves at a given rate, adds M spectators per
// game and reconnect churn, checks that every client sees every room's events exactly
// once and in order, and reports latencies, throughput, errors and the server's memory
// per connection (table or -json). -idle N opens N idle spectator connections instead;
// -raw-redis measures the raw throughput of the store's append script on the same Redis;
// -url2 spreads each game over two nodes on one Redis (cross-node delivery).
package load

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits of one run.
const (
	MaxDuration   = 10 * time.Minute
	MaxGames      = 10_000
	MaxConns      = 60_000 // players + spectators, or idle connections
	defaultWindow = 30 * time.Second
)

// Config is one run's settings (the flags of `gomoku load`).
type Config struct {
	URL         string        // server base URL, loopback only
	URL2        string        // a second node on the same Redis (-url2), loopback only
	Games       int           // concurrent games
	Spectators  int           // spectators per game
	Rate        float64       // moves per second per game (0: as fast as turns allow)
	Jitter      float64       // relative jitter of the move interval, 0..1
	Churn       float64       // fraction of clients that drop and rejoin per minute
	Duration    time.Duration // measurement window
	Setup       time.Duration // bound on creating players, rooms and connections
	Private     bool          // private rooms instead of public ones
	AI          string        // AI level: games against an AI seat instead of two humans
	Idle        int           // idle mode: this many idle spectator connections
	IdlePerRoom int           // idle spectators per room
	RawRedis    string        // redis:// URL: also measure the raw append script
	RawWriters  int
	RawDuration time.Duration
	// RawUnbatched also measures the raw script with one round trip per append.
	RawUnbatched bool
	SpreadIPs    bool // use many 127.x.y.z source addresses
	ForceGC      bool // GC the server (via /debug/pprof/heap?gc=1) before the final scrape
	JSON         bool
	Seed         uint64
	// CPU names processes (gomokud, redis-server) whose CPU time is read over the
	// window, next to the load generator's own (Report.CPU).
	CPU []CPUProc
}

// Validate checks bounds; it refuses non-loopback targets.
func (c *Config) Validate() error {
	var errs []error
	if c.Games == 0 && c.Idle == 0 && c.RawRedis == "" {
		errs = append(errs, errors.New("nothing to do: set -games, -idle or -raw-redis"))
	}
	if c.Games > 0 || c.Idle > 0 {
		if _, err := CheckLoopback(c.URL); err != nil {
			errs = append(errs, err)
		}
	}
	if c.URL2 != "" {
		if _, err := CheckLoopback(c.URL2); err != nil {
			errs = append(errs, err)
		}
		if c.Games == 0 {
			errs = append(errs, errors.New("load: -url2 needs -games"))
		}
	}
	if c.RawRedis != "" {
		u, err := CheckLoopback(c.RawRedis)
		if err != nil {
			errs = append(errs, err)
		} else if u.Port() == "" || u.Port() == "6379" {
			errs = append(errs, errors.New("load: -raw-redis must name your own redis-server's port, not the default 6379"))
		}
	}
	if c.Duration <= 0 || c.Duration > MaxDuration {
		errs = append(errs, fmt.Errorf("load: -duration must be in (0, %v]", MaxDuration))
	}
	if c.RawDuration <= 0 || c.RawDuration > 2*time.Minute {
		errs = append(errs, errors.New("load: -raw-duration must be in (0, 2m]"))
	}
	if c.Games < 0 || c.Games > MaxGames {
		errs = append(errs, fmt.Errorf("load: -games must be in [0, %d]", MaxGames))
	}
	if c.Spectators < 0 || c.Games*(2+c.Spectators) > MaxConns {
		errs = append(errs, fmt.Errorf("load: games x (2 + spectators) must be at most %d connections", MaxConns))
	}
	if c.Idle < 0 || c.Idle > MaxConns || c.IdlePerRoom < 1 {
		errs = append(errs, fmt.Errorf("load: -idle must be in [0, %d], -idle-per-room at least 1", MaxConns))
	}
	if c.Games > 0 && c.Idle > 0 {
		errs = append(errs, errors.New("load: -idle is a separate mode: do not combine it with -games"))
	}
	if c.Rate < 0 || c.Rate > 100 || c.Jitter < 0 || c.Jitter > 1 || c.Churn < 0 || c.Churn > 60 {
		errs = append(errs, errors.New("load: -rate in [0, 100], -jitter in [0, 1], -churn in [0, 60]"))
	}
	if c.Setup <= 0 || c.Setup > MaxDuration {
		errs = append(errs, fmt.Errorf("load: -setup must be in (0, %v]", MaxDuration))
	}
	return errors.Join(errs...)
}

// Main is the `gomoku load` command.
func Main(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gomoku load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := Config{}
	fs.StringVar(&c.URL, "url", "http://127.0.0.1:8080", "server base URL (loopback addresses only)")
	fs.StringVar(&c.URL2, "url2", "", "a second node on the same Redis: each game's second player and every second spectator connect there, so the move round trip is cross-node delivery")
	fs.IntVar(&c.Games, "games", 0, "concurrent human-vs-human games (max 10000)")
	fs.IntVar(&c.Spectators, "spectators", 0, "spectators per game")
	fs.Float64Var(&c.Rate, "rate", 1, "moves per second per game (0: as fast as turns allow; the server allows ~10 frames/s per connection)")
	fs.Float64Var(&c.Jitter, "jitter", 0.5, "relative jitter of the interval between moves (0..1)")
	fs.Float64Var(&c.Churn, "churn", 0, "fraction of clients that drop their connection and rejoin with last_seq, per minute")
	fs.DurationVar(&c.Duration, "duration", defaultWindow, "measurement window (max 10m)")
	fs.DurationVar(&c.Setup, "setup", 2*time.Minute, "bound on creating players, rooms and connections")
	fs.BoolVar(&c.Private, "private", false, "create private rooms (default public)")
	fs.StringVar(&c.AI, "ai", "", "AI level (beginner … master): each game is the load client vs an AI seat; reports AI reply latency")
	fs.IntVar(&c.Idle, "idle", 0, "idle mode: open this many idle spectator connections and report memory per connection")
	fs.IntVar(&c.IdlePerRoom, "idle-per-room", 50, "idle spectators per room in -idle mode")
	fs.StringVar(&c.RawRedis, "raw-redis", "", "redis://127.0.0.1:PORT: after the run, measure the store's append script directly on this Redis")
	fs.IntVar(&c.RawWriters, "raw-writers", 64, "concurrent writers (one room each) for -raw-redis")
	fs.DurationVar(&c.RawDuration, "raw-duration", 10*time.Second, "length of the -raw-redis measurement (max 2m)")
	fs.BoolVar(&c.RawUnbatched, "raw-unbatched", false, "with -raw-redis: measure the script a second time with one round trip per append (group commit off)")
	fs.BoolVar(&c.SpreadIPs, "spread-ips", true, "connect from many 127.x.y.z addresses (per-IP limits see many clients)")
	fs.BoolVar(&c.JSON, "json", false, "print the report as JSON")
	fs.BoolVar(&c.ForceGC, "force-gc", false, "GC the server before and after (needs /debug/pprof/, e.g. TestServeForProfiling) so heap figures are live memory")
	fs.Uint64Var(&c.Seed, "seed", 0, "random seed (0: from the clock)")
	cpuProfile := fs.String("cpuprofile", "", "write the load generator's own CPU profile over the run to this file")
	cpu := fs.String("cpu", "", "name=PID,...: report these processes' CPU time over the window (and per move), next to the load generator's own")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var err error
	if c.CPU, err = ParseCPUProcs(*cpu); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("load: unexpected argument %q", fs.Arg(0))
	}
	if err := c.Validate(); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := Run(ctx, c, stderr)
	if err != nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteTable(stdout)
}

// runner is one run's shared state.
type runner struct {
	cfg   Config
	base  string
	base2 string // second node (-url2), or base
	ips   sourceIPs
	stats *Stats
	api   *api
	log   io.Writer

	phase    atomic.Int32 // 0 setup, 1 measuring, 2 stopping
	clientsM sync.Mutex
	clients  []*client
}

const (
	phaseSetup = iota
	phaseMeasure
	phaseStop
)

func (r *runner) moving() bool    { return r.phase.Load() == phaseMeasure }
func (r *runner) measuring() bool { return r.phase.Load() == phaseMeasure }
func (r *runner) stopping() bool  { return r.phase.Load() == phaseStop }

func (r *runner) logf(format string, a ...any) {
	if r.log != nil {
		fmt.Fprintf(r.log, "load: "+format+"\n", a...)
	}
}

// Run executes one validated configuration; progress goes to log (may be nil).
func Run(ctx context.Context, cfg Config, log io.Writer) (Report, error) {
	if cfg.Seed == 0 {
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	base := baseURL(cfg.URL)
	u, _ := CheckLoopback(base)
	spread := cfg.SpreadIPs && u != nil && strings.HasPrefix(u.Hostname(), "127.")
	base2 := base
	if cfg.URL2 != "" {
		base2 = baseURL(cfg.URL2)
	}
	st := NewStats()
	r := &runner{cfg: cfg, base: base, base2: base2, ips: sourceIPs{on: spread}, stats: st, api: newAPI(base, sourceIPs{on: spread}, st), log: log}
	var rep Report
	var err error
	switch {
	case cfg.Idle > 0:
		rep, err = r.runIdle(ctx)
	case cfg.Games > 0:
		rep, err = r.runGames(ctx)
	default:
		rep = Report{Mode: "raw-redis", Started: time.Now().UTC()}
	}
	if err != nil {
		return rep, err
	}
	if cfg.RawRedis != "" && ctx.Err() == nil {
		r.logf("raw Redis append script on %s: %d writers for %v", cfg.RawRedis, cfg.RawWriters, cfg.RawDuration)
		raw, err := RawAppend(ctx, cfg.RawRedis, cfg.RawWriters, cfg.RawDuration, false)
		if err != nil {
			return rep, err
		}
		rep.Raw = &raw
		if cfg.RawUnbatched {
			r.logf("raw Redis append script, one round trip per append, for %v", cfg.RawDuration)
			raw, err := RawAppend(ctx, cfg.RawRedis, cfg.RawWriters, cfg.RawDuration, true)
			if err != nil {
				return rep, err
			}
			rep.RawUnbatched = &raw
		}
	}
	return rep, nil
}

// baseURL is a target URL as the clients use it: http://, no trailing slash, localhost
// as 127.0.0.1 (so that source addresses can be spread over 127.0.0.0/8).
func baseURL(url string) string {
	base := strings.TrimRight(url, "/")
	base = strings.Replace(base, "ws://", "http://", 1)
	if u, _ := CheckLoopback(base); u != nil && u.Hostname() == "localhost" {
		base = strings.Replace(base, "localhost", "127.0.0.1", 1)
	}
	return base
}

// scrape reads /metrics, tolerating failure (the report then has no server section).
func (r *runner) scrape(ctx context.Context) (MetricsSample, bool) {
	c := &http.Client{Timeout: 60 * time.Second}
	if r.cfg.ForceGC {
		if err := ForceGC(ctx, c, r.base); err != nil {
			r.logf("%v", err)
			return MetricsSample{}, false
		}
	}
	s, err := ScrapeMetrics(ctx, c, r.base)
	if err != nil {
		r.logf("no server memory figures: %v", err)
		return s, false
	}
	return s, true
}

// seedFor returns a per-client seed.
func (r *runner) seedFor(i int) uint64 { return r.cfg.Seed ^ uint64(i)*0x9e3779b97f4a7c15 }

// parallel runs f(0..n-1) on at most k goroutines and returns the first error.
func parallel(ctx context.Context, n, k int, f func(ctx context.Context, i int) error) error {
	var (
		wg    sync.WaitGroup
		next  atomic.Int64
		first error
		once  sync.Once
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range min(n, k) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := f(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// churn drops random connected clients (they rejoin with their last seq) at rate
// fraction-of-clients per minute, until ctx ends.
func (r *runner) churn(ctx context.Context, rng *rand.Rand) {
	if r.cfg.Churn <= 0 {
		return
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	acc := 0.0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		r.clientsM.Lock()
		n := len(r.clients)
		acc += r.cfg.Churn * float64(n) / 600 // per 100 ms
		for acc >= 1 && n > 0 {
			acc--
			r.clients[rng.IntN(n)].drop()
		}
		r.clientsM.Unlock()
	}
}
