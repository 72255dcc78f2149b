// Command gomokud is the Gomoku Arena server: the web app, the HTTP API and the live
// WebSocket games, persisted in Redis.
//
//	gomokud [flags]                 serve (default :8080; embedded Redis without REDIS_URL)
//	gomokud migrate [flags]         apply pending Redis layout migrations and exit
//	gomokud migrate status [flags]  show the schema version and pending migrations
//
// Every flag also reads an environment variable (flags win); see -help.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/server"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "gomokud:", err)
		os.Exit(1)
	}
}

// options are the command-line settings beyond server.Config.
type options struct {
	cfg       server.Config
	logLevel  string
	logFormat string
}

func run(args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && args[0] == "migrate" {
		cmd, args = "migrate", args[1:]
		if len(args) > 0 && args[0] == "status" {
			cmd, args = "migrate-status", args[1:]
		}
	}
	o, err := parseFlags(cmd, args, stderr)
	if err != nil {
		return err
	}
	logger, err := newLogger(o.logLevel, o.logFormat, stderr)
	if err != nil {
		return err
	}
	o.cfg.Logger = logger
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "migrate":
		return server.Migrate(ctx, o.cfg, stdout)
	case "migrate-status":
		return server.MigrateStatus(ctx, o.cfg, stdout)
	}
	return serve(ctx, o.cfg, logger)
}

func serve(ctx context.Context, cfg server.Config, log *slog.Logger) error {
	srv, err := server.New(ctx, cfg)
	if err != nil {
		return err
	}
	// The engine's one-time tables, built now rather than on the first AI move of
	// each rule (tens of milliseconds each).
	go func() {
		for _, r := range engine.Rules() {
			engine.Prepare(r)
		}
	}()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	// A second signal during shutdown exits at once.
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt, syscall.SIGTERM)
		<-c
		log.Warn("second signal: exiting now")
		os.Exit(2)
	}()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("shutdown incomplete", "err", err)
		return err
	}
	return <-errc
}

func parseFlags(cmd string, args []string, stderr io.Writer) (options, error) {
	o := options{cfg: server.DefaultConfig()}
	c := &o.cfg
	fs := flag.NewFlagSet("gomokud "+strings.ReplaceAll(cmd, "-", " "), flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gomokud [flags]                 serve the web app, API and live games")
		fmt.Fprintln(stderr, "       gomokud migrate [flags]         apply pending Redis layout migrations")
		fmt.Fprintln(stderr, "       gomokud migrate status [flags]  show the schema version and pending migrations")
		fmt.Fprintln(stderr, "Without REDIS_URL an embedded in-memory Redis is used (nothing survives a restart).")
		fmt.Fprintln(stderr, "flags (each also read from the environment variable named; flags win):")
		fs.PrintDefaults()
	}
	var errs []error
	env := func(name, def string) string {
		if v, ok := os.LookupEnv(name); ok {
			return v
		}
		return def
	}
	envDur := func(name string, def time.Duration) time.Duration {
		v, ok := os.LookupEnv(name)
		if !ok {
			return def
		}
		d, err := parseDuration(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
		return d
	}
	envInt := func(name string, def int) int {
		v, ok := os.LookupEnv(name)
		if !ok {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
		return n
	}
	fs.StringVar(&c.Addr, "addr", env("GOMOKU_ADDR", c.Addr), "listen address (env GOMOKU_ADDR)")
	fs.StringVar(&c.RedisURL, "redis", env("REDIS_URL", ""), "Redis URL, e.g. redis://localhost:6379/0; empty: embedded in-memory Redis, NOT durable (env REDIS_URL)")
	origins := fs.String("origins", env("GOMOKU_ORIGINS", ""), "comma-separated WebSocket Origin allow-list, e.g. https://gomoku.example; the server's own host is always allowed; * allows any (env GOMOKU_ORIGINS)")
	fs.IntVar(&c.AIWorkers, "ai-workers", envInt("GOMOKU_AI_WORKERS", 0), "concurrent AI searches, 0 = number of CPUs (env GOMOKU_AI_WORKERS)")
	fs.IntVar(&c.MasterThreads, "master-threads", envInt("GOMOKU_MASTER_THREADS", 1), "search threads of each master-level AI search (Lazy SMP above 1; each search then keeps that many cores busy) (env GOMOKU_MASTER_THREADS)")
	var engines engineFlag
	if v := os.Getenv("GOMOKU_ENGINES"); v != "" {
		for _, e := range strings.Split(v, ";") {
			if strings.TrimSpace(e) != "" {
				if err := engines.Set(e); err != nil {
					errs = append(errs, fmt.Errorf("GOMOKU_ENGINES: %w", err))
				}
			}
		}
	}
	fs.Var(&engines, "engine", "external Gomocup engine as name=command (repeatable; env GOMOKU_ENGINES, ;-separated)")
	retention := fs.String("retention", env("GOMOKU_RETENTION", "30d"), "how long finished games are kept, e.g. 30d, 12h (env GOMOKU_RETENTION)")
	fs.DurationVar(&c.AbandonGrace, "grace", envDur("GOMOKU_GRACE", 0), "abandonment grace once both sides moved; 0 = room default 60s (env GOMOKU_GRACE)")
	fs.DurationVar(&c.StartGrace, "start-grace", envDur("GOMOKU_START_GRACE", 0), "grace before both sides moved, then abort; 0 = room default 20s (env GOMOKU_START_GRACE)")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", envDur("GOMOKU_SHUTDOWN_TIMEOUT", c.ShutdownTimeout), "bound on graceful shutdown (env GOMOKU_SHUTDOWN_TIMEOUT)")
	fs.IntVar(&c.MaxConnsPerIP, "max-conns-per-ip", envInt("GOMOKU_MAX_CONNS_PER_IP", c.MaxConnsPerIP), "WebSocket connections per client IP, 0 = unlimited (env GOMOKU_MAX_CONNS_PER_IP)")
	fs.StringVar(&c.NodeID, "node-id", env("GOMOKU_NODE_ID", ""), "stable unique id of this node for room leases; a node restarted with the same id resumes its rooms at once; empty: hostname + random (env GOMOKU_NODE_ID)")
	fs.DurationVar(&c.LeaseTTL, "lease-ttl", envDur("GOMOKU_LEASE_TTL", c.LeaseTTL), "room lease lifetime; a dead node's rooms move to another node within about 4/3 of it (env GOMOKU_LEASE_TTL)")
	fs.DurationVar(&c.PresenceTTL, "presence-ttl", envDur("GOMOKU_PRESENCE_TTL", c.PresenceTTL), "how long a node's connections count on the other nodes after its last report (every third of it); a dead node's players count as gone within it (env GOMOKU_PRESENCE_TTL)")
	proxies := fs.String("trusted-proxies", env("GOMOKU_TRUSTED_PROXIES", ""), "comma-separated addresses or CIDR ranges of the load balancers in front; requests from them take the client IP from X-Forwarded-For (the rightmost untrusted entry); empty: X-Forwarded-For is ignored (env GOMOKU_TRUSTED_PROXIES)")
	fs.StringVar(&o.logLevel, "log-level", env("GOMOKU_LOG_LEVEL", "info"), "debug, info, warn or error (env GOMOKU_LOG_LEVEL)")
	fs.StringVar(&o.logFormat, "log-format", env("GOMOKU_LOG_FORMAT", "text"), "text or json (env GOMOKU_LOG_FORMAT)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q (subcommands: migrate, migrate status)", fs.Args())
	}
	if err := errors.Join(errs...); err != nil {
		return o, err
	}
	for _, s := range strings.Split(*origins, ",") {
		if s = strings.TrimSpace(s); s != "" {
			c.AllowedOrigins = append(c.AllowedOrigins, s)
		}
	}
	c.Engines = engines.m
	trusted, err := server.ParseTrustedProxies(*proxies)
	if err != nil {
		return o, fmt.Errorf("-trusted-proxies: %w", err)
	}
	c.TrustedProxies = trusted
	d, err := parseDuration(*retention)
	if err != nil {
		return o, fmt.Errorf("-retention: %w", err)
	}
	c.Retention = d
	return o, c.Validate()
}

// parseDuration is time.ParseDuration plus a "d" (days) suffix: "30d", "1d12h".
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, rest, ok := strings.Cut(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("bad duration %q", s)
		}
		d := time.Duration(n) * 24 * time.Hour
		if rest != "" {
			r, err := time.ParseDuration(rest)
			if err != nil {
				return 0, fmt.Errorf("bad duration %q", s)
			}
			d += r
		}
		return d, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	return d, nil
}

// engineFlag collects repeated -engine name=command values.
type engineFlag struct{ m map[string]string }

func (e *engineFlag) String() string {
	if e == nil || len(e.m) == 0 {
		return ""
	}
	var parts []string
	for k, v := range e.m {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ";")
}

func (e *engineFlag) Set(s string) error {
	name, cmd, err := server.ParseEngine(s)
	if err != nil {
		return err
	}
	if e.m == nil {
		e.m = map[string]string{}
	}
	e.m[name] = cmd
	return nil
}

func newLogger(level, format string, w io.Writer) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level %q: want debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("-log-format %q: want text or json", format)
}
