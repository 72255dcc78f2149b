package main

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseFlagsAndEnv(t *testing.T) {
	t.Setenv("GOMOKU_ADDR", ":9999")
	t.Setenv("REDIS_URL", "redis://r:6379/0")
	t.Setenv("GOMOKU_ENGINES", "pela=/opt/pela;rapfi=/opt/rapfi --x")
	t.Setenv("GOMOKU_RETENTION", "7d")
	t.Setenv("GOMOKU_NODE_ID", "node-a")
	t.Setenv("GOMOKU_TRUSTED_PROXIES", "10.0.0.0/8,192.168.1.7")
	t.Setenv("GOMOKU_MASTER_THREADS", "2")
	var errb bytes.Buffer
	o, err := parseFlags("serve", []string{"-addr", "127.0.0.1:1", "-origins", "https://a.example, https://b.example",
		"-engine", "x=/bin/x 1,2", "-grace", "30s", "-ai-workers", "3"}, &errb)
	require.NoError(t, err)
	c := o.cfg
	require.Equal(t, "127.0.0.1:1", c.Addr, "the flag wins over the environment")
	require.Equal(t, "redis://r:6379/0", c.RedisURL)
	require.Equal(t, []string{"https://a.example", "https://b.example"}, c.AllowedOrigins)
	require.Equal(t, map[string]string{"pela": "/opt/pela", "rapfi": "/opt/rapfi --x", "x": "/bin/x 1,2"}, c.Engines)
	require.Equal(t, 7*24*time.Hour, c.Retention)
	require.Equal(t, 30*time.Second, c.AbandonGrace)
	require.Equal(t, 3, c.AIWorkers)
	require.Equal(t, 2, c.MasterThreads)
	require.Equal(t, "node-a", c.NodeID)
	require.Equal(t, 3*time.Second, c.LeaseTTL, "default lease TTL")
	require.Equal(t, []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.7/32")}, c.TrustedProxies)

	o, err = parseFlags("serve", nil, &errb)
	require.NoError(t, err)
	require.Equal(t, ":9999", o.cfg.Addr, "the environment wins over the default")

	for _, bad := range [][]string{{"-retention", "soon"}, {"-engine", "noequals"}, {"extra"}, {"-log-level", "loud"}, {"-trusted-proxies", "lb.internal"}, {"-master-threads", "65"}} {
		o, err := parseFlags("serve", bad, &errb)
		if err == nil {
			_, err = newLogger(o.logLevel, o.logFormat, &errb)
		}
		require.Error(t, err, "%v", bad)
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 720 * time.Hour, "1d12h": 36 * time.Hour, "90m": 90 * time.Minute} {
		d, err := parseDuration(in)
		require.NoError(t, err)
		require.Equal(t, want, d)
	}
	_, err := parseDuration("x1d")
	require.Error(t, err)
}
