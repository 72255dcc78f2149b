package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/gomoku-arena/gomoku/room/replica"
)

// Config is everything gomokud needs to run. The zero value is not valid; start from
// DefaultConfig and override fields (cmd/gomokud fills it from flags and the environment).
type Config struct {
	// Addr is the listen address, e.g. ":8080" (flag -addr, env GOMOKU_ADDR).
	Addr string
	// RedisURL selects the store (env REDIS_URL). Empty: an in-process miniredis that does
	// not survive a restart (a loud warning is logged).
	RedisURL string
	// AllowedOrigins is the WebSocket Origin allow-list. Empty: same host as the request only
	// (plus requests without an Origin header, which browsers always send). "*" allows all.
	AllowedOrigins []string
	// AIWorkers caps concurrent AI searches (0: number of CPUs).
	AIWorkers int
	// MasterThreads is the number of search threads of a master-level AI seat
	// (0 or 1: one; more runs a Lazy SMP search, each using that many cores).
	MasterThreads int
	// Engines maps a configured external engine name to its command line (Gomocup protocol).
	Engines map[string]string
	// Retention is how long finished games are kept.
	Retention time.Duration
	// AbandonGrace is how long a disconnected player keeps the seat before the opponent may
	// claim the win (room default when zero).
	AbandonGrace time.Duration
	// StartGrace is the grace before both sides have moved; then the game is aborted
	// (room default when zero).
	StartGrace time.Duration
	// ShutdownTimeout bounds graceful shutdown.
	ShutdownTimeout time.Duration
	// MaxConnsPerIP caps concurrent WebSocket connections from one client IP (0: unlimited).
	MaxConnsPerIP int
	// NodeID names this node in room leases (flag -node-id, env GOMOKU_NODE_ID). Give each
	// node a stable, unique id: a node restarted with the same id takes its rooms' leases
	// back at once instead of waiting for them to expire. Empty: hostname plus a random
	// suffix (unique, but new at every start).
	NodeID string
	// LeaseTTL is the lifetime of a room lease; it is renewed every third of it, so a dead
	// node's rooms are taken over within about 4/3 of it (default 3 s).
	LeaseTTL time.Duration
	// PresenceTTL is how long the connections a node reports to the other nodes count
	// after its last report; it reports every third of it, so a dead node's players are
	// counted as gone within about PresenceTTL (default 15 s; flag -presence-ttl).
	PresenceTTL time.Duration
	// TrustedProxies are the address ranges of the load balancers in front of the server
	// (flag -trusted-proxies, env GOMOKU_TRUSTED_PROXIES). A request from one of them has
	// its client IP (rate limits, per-IP cap, logs) taken from X-Forwarded-For: the
	// rightmost entry that is not itself a trusted proxy, so a client cannot forge it.
	// Empty (the default): X-Forwarded-For is ignored and the peer address is the client.
	TrustedProxies []netip.Prefix
	// Argon2 is the cost of new password hashes (DefaultArgon2; tests lower it).
	Argon2 Argon2Params
	// RateLimit is the sustained number of WebSocket commands per second per connection;
	// RateBurst the bucket size.
	RateLimit float64
	RateBurst int
	// SendQueue is the bound of each connection's outgoing queue; a connection whose queue is
	// full is dropped (a slow consumer) and recovers by rejoining with its last seq.
	SendQueue int
	// HelloTimeout is how long a new WebSocket may take to send its hello.
	HelloTimeout time.Duration
	// PongWait is how long a joined WebSocket may stay silent (no frame, not even a pong)
	// before it is dropped; PingPeriod is how often the server pings it, shorter than
	// PongWait (defaults 45 s and 30 s).
	PongWait   time.Duration
	PingPeriod time.Duration
	// Logger receives structured logs. New requires it; NewWith uses slog.Default() when
	// it is nil.
	Logger *slog.Logger
}

// DefaultConfig returns the defaults documented in cmd/gomokud -help.
func DefaultConfig() Config {
	return Config{
		Addr:            ":8080",
		Retention:       30 * 24 * time.Hour,
		ShutdownTimeout: 10 * time.Second,
		MaxConnsPerIP:   64,
		RateLimit:       10,
		RateBurst:       20,
		SendQueue:       32,
		HelloTimeout:    10 * time.Second,
		PongWait:        pongWait,
		PingPeriod:      pingPeriod,
		LeaseTTL:        3 * time.Second,
		PresenceTTL:     replica.DefaultPresenceTTL,
		Argon2:          DefaultArgon2,
	}
}

// Validate reports the first invalid field.
func (c *Config) Validate() error {
	var errs []error
	if c.RateLimit <= 0 || c.RateBurst <= 0 {
		errs = append(errs, errors.New("rate limit and burst must be positive"))
	}
	if c.Argon2.MemoryKiB < 8*uint32(c.Argon2.Threads) || c.Argon2.Time == 0 || c.Argon2.Threads == 0 {
		errs = append(errs, errors.New("argon2 parameters must be positive (memory at least 8 KiB per thread)"))
	}
	if c.SendQueue < 8 {
		errs = append(errs, errors.New("send queue must be at least 8"))
	}
	if c.LeaseTTL < 500*time.Millisecond {
		errs = append(errs, errors.New("lease TTL must be at least 500ms"))
	}
	if c.PresenceTTL < 300*time.Millisecond {
		errs = append(errs, errors.New("presence TTL must be at least 300ms"))
	}
	if c.ShutdownTimeout <= 0 {
		errs = append(errs, errors.New("shutdown timeout must be positive"))
	}
	if c.Retention < time.Minute {
		errs = append(errs, errors.New("retention must be at least a minute"))
	}
	if c.MasterThreads < 0 || c.MasterThreads > 64 {
		errs = append(errs, errors.New("master threads must be between 0 and 64"))
	}
	if c.AIWorkers < 0 || c.MaxConnsPerIP < 0 || c.AbandonGrace < 0 || c.StartGrace < 0 {
		errs = append(errs, errors.New("AI workers, per-IP cap and grace must not be negative"))
	}
	if c.HelloTimeout <= 0 {
		errs = append(errs, errors.New("hello timeout must be positive"))
	}
	if c.PingPeriod <= 0 || c.PingPeriod >= c.PongWait {
		errs = append(errs, errors.New("ping period must be positive and shorter than the pong wait"))
	}
	for name, cmd := range c.Engines {
		if !validEngineName(name) || strings.TrimSpace(cmd) == "" {
			errs = append(errs, fmt.Errorf("engine %q: want name=command with name [a-z0-9_-]{1,32}", name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("server: config: %w", err)
	}
	return nil
}

// ParseEngine parses one "name=command" engine definition (one -engine flag value; the
// command may contain spaces and commas).
func ParseEngine(s string) (name, command string, err error) {
	name, command, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	command = strings.TrimSpace(command)
	if !ok || !validEngineName(name) || command == "" {
		return "", "", fmt.Errorf("server: engine %q: want name=command", s)
	}
	return name, command, nil
}

// ParseTrustedProxies parses a comma-separated list of CIDR ranges or single addresses
// ("10.0.0.0/8, 192.168.1.7") into Config.TrustedProxies.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if a, err := netip.ParseAddr(f); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("server: trusted proxy %q: want an address or CIDR range", f)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func validEngineName(s string) bool {
	if len(s) == 0 || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
