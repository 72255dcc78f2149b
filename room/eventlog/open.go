package eventlog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Open connects to the Redis named by url and returns a client for it,
// a function that closes it, and whether the Redis is the embedded one.
//
// url forms:
//
//	""                                      embedded in-process Redis (miniredis); NOT durable
//	redis://[user:pass@]host:port[/db][?opts]   one Redis (rediss:// for TLS, unix:///path.sock)
//	redis+cluster://[user:pass@]h1:p1,h2:p2[?opts]  Redis Cluster (rediss+cluster:// for TLS)
//	redis://h1:p1,h2:p2                     several addresses: Redis Cluster too
//	redis+sentinel://[user:pass@]s1:p1,s2:p2?master_name=NAME  Sentinel-managed Redis
//
// Options in the query are those of go-redis (dial_timeout=3s, pool_size=20, ...).
// Open does not wait for Redis to answer; use Store.Ping.
func Open(ctx context.Context, url string, logger *slog.Logger) (redis.UniversalClient, func() error, bool, error) {
	if logger == nil {
		logger = slog.Default()
	}
	if strings.TrimSpace(url) == "" {
		m := miniredis.NewMiniRedis()
		m.ClockTTL(true) // expire leases and retention with the wall clock
		if err := m.Start(); err != nil {
			return nil, nil, false, fmt.Errorf("eventlog: start embedded redis: %w", err)
		}
		c := redis.NewClient(&redis.Options{Addr: m.Addr()})
		logger.Warn("NO REDIS_URL: using an embedded in-memory Redis (miniredis). "+
			"Games WILL NOT survive a restart and several nodes cannot share it. "+
			"Set REDIS_URL=redis://host:6379 (with appendonly yes) for production.",
			"addr", m.Addr())
		return c, func() error { err := c.Close(); m.Close(); return err }, true, nil
	}
	c, err := newClient(url)
	if err != nil {
		return nil, nil, false, scrub(url, err)
	}
	logger.Info("redis configured", "url", redact(url), "type", fmt.Sprintf("%T", c))
	return c, c.Close, false, nil
}

func newClient(raw string) (redis.UniversalClient, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, fmt.Errorf("eventlog: bad redis url %q: no scheme", redact(raw))
	}
	base, mode, _ := strings.Cut(scheme, "+")
	if base != "redis" && base != "rediss" && base != "unix" {
		return nil, fmt.Errorf("eventlog: bad redis url %q: unknown scheme %q", redact(raw), scheme)
	}
	// Split "userinfo@h1,h2,h3/path?query" into one host and extra addrs.
	user, hostpart := "", rest
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		user, hostpart = rest[:i+1], rest[i+1:]
	}
	hosts, tail := hostpart, ""
	if i := strings.IndexAny(hostpart, "/?"); i >= 0 {
		hosts, tail = hostpart[:i], hostpart[i:]
	}
	addrs := strings.Split(hosts, ",")
	if base != "unix" && len(addrs) > 1 && mode == "" {
		mode = "cluster"
	}
	single := base + "://" + user + addrs[0] + tail
	if len(addrs) > 1 {
		sep := "?"
		if strings.Contains(tail, "?") {
			sep = "&"
		}
		for _, a := range addrs[1:] {
			single += sep + "addr=" + a
			sep = "&"
		}
	}
	switch mode {
	case "":
		o, err := redis.ParseURL(single)
		if err != nil {
			return nil, fmt.Errorf("eventlog: bad redis url %q: %w", redact(raw), err)
		}
		failFast(&o.DialTimeout, &o.DialerRetries, &o.MaxRetries, &o.MaxRetryBackoff)
		o.ContextTimeoutEnabled = true
		return redis.NewClient(o), nil
	case "cluster":
		o, err := redis.ParseClusterURL(single)
		if err != nil {
			return nil, fmt.Errorf("eventlog: bad redis cluster url %q: %w", redact(raw), err)
		}
		// go-redis reloads the slot map every 60 s by default and a refused connection
		// to a dead master does not trigger a reload, so after a failover the promoted
		// replica's slots stayed unreachable for most of a minute
		// (server/crashtest TestClusterMasterFailover: 52.8 s; with 1 s: 5.4 s).
		o.ClusterStateReloadInterval = time.Second
		failFast(&o.DialTimeout, &o.DialerRetries, &o.MaxRetries, &o.MaxRetryBackoff)
		o.ContextTimeoutEnabled = true
		return redis.NewClusterClient(o), nil
	case "sentinel":
		o, err := redis.ParseFailoverURL(single)
		if err != nil {
			return nil, fmt.Errorf("eventlog: bad redis sentinel url %q: %w", redact(raw), err)
		}
		if o.MasterName == "" {
			return nil, errors.New("eventlog: redis+sentinel url needs ?master_name=NAME")
		}
		failFast(&o.DialTimeout, &o.DialerRetries, &o.MaxRetries, &o.MaxRetryBackoff)
		o.ContextTimeoutEnabled = true
		return redis.NewFailoverClient(o), nil
	}
	return nil, fmt.Errorf("eventlog: bad redis url %q: unknown mode %q", redact(raw), mode)
}

// Client settings for failing fast when Redis is down (a dead process refuses the
// connection; an unreachable host does not answer). go-redis's defaults (5 s dial
// timeout, 5 dials per attempt 100 ms apart, 3 retries with up to 1 s of backoff) made
// a call on a dead Redis take 1.3-1.8 s; with these it fails within about a second, as
// docs/persistence.md promises: at most (1+failRetries) attempts of one dial each, at
// most failDialTimeout long, with at most failRetryBackoff between them. One retry
// stays, so that the first call after a Redis restart, on a pooled connection the
// restart broke, succeeds on a new one. A redis URL may set each of them
// (dial_timeout, max_retries, max_retry_backoff); ContextTimeoutEnabled makes the
// caller's deadline bound every call as well.
const (
	failDialTimeout  = 400 * time.Millisecond
	failDialerTries  = 1
	failRetries      = 1
	failRetryBackoff = 100 * time.Millisecond
)

// failFast sets the fail-fast settings the URL left at their defaults.
func failFast(dialTimeout *time.Duration, dialerRetries, maxRetries *int, maxRetryBackoff *time.Duration) {
	if *dialTimeout == 0 {
		*dialTimeout = failDialTimeout
	}
	if *dialerRetries == 0 {
		*dialerRetries = failDialerTries
	}
	if *maxRetries == 0 {
		*maxRetries = failRetries
	}
	if *maxRetryBackoff == 0 {
		*maxRetryBackoff = failRetryBackoff
	}
}

// redact hides a password in a URL for logs and errors.
func redact(u string) string {
	prefix, rest := "", u
	if i := strings.Index(u, "://"); i >= 0 {
		prefix, rest = u[:i+3], u[i+3:]
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return u
	}
	userinfo := rest[:at]
	if name, _, hasPw := strings.Cut(userinfo, ":"); hasPw {
		userinfo = name + ":xxx"
	}
	return prefix + userinfo + rest[at:]
}

// scrub returns err with the URL's password (if any) masked, for parse
// errors of go-redis and net/url that quote the URL.
func scrub(raw string, err error) error {
	rest := raw
	if i := strings.Index(raw, "://"); i >= 0 {
		rest = raw[i+3:]
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return err
	}
	_, pw, ok := strings.Cut(rest[:at], ":")
	if !ok || pw == "" {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), pw, "xxx"))
}
