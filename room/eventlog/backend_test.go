package eventlog

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

// backend is one Redis implementation the suite runs against.
type backend struct {
	name    string
	client  redis.UniversalClient
	advance func(time.Duration) // let TTLs run down by d
	kill    func()              // crash the server (data kept only if durable)
	restart func()              // bring it back on the same address
	real    bool
}

// backends are the backends to run: miniredis always, a real redis-server
// (AOF, appendfsync always) when GOMOKU_INTEGRATION=1 (skipped otherwise).
var backends = []struct {
	name string
	mk   func(t *testing.T) *backend
}{{"miniredis", miniBackend}, {"redis-server", realBackend}}

func miniBackend(t *testing.T) *backend {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: 1})
	t.Cleanup(func() { _ = c.Close() })
	return &backend{
		name: "miniredis", client: c, advance: m.FastForward,
		kill:    m.Close,
		restart: func() { require.NoError(t, m.Restart()) },
	}
}

func realBackend(t *testing.T) *backend {
	s := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: 1})
	t.Cleanup(func() { _ = c.Close() })
	return &backend{
		name: "redis-server", client: c, real: true,
		advance: func(d time.Duration) { time.Sleep(d) },
		kill:    s.Kill, restart: s.Restart,
	}
}

// eachBackend runs f as a subtest per backend, each with a fresh server.
func eachBackend(t *testing.T, f func(t *testing.T, b *backend)) {
	t.Helper()
	for _, bk := range backends {
		t.Run(bk.name, func(t *testing.T) { f(t, bk.mk(t)) })
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...interface{}) {}

func TestMain(m *testing.M) {
	// go-redis logs every failed dial; the failure tests cause many on purpose.
	redis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}
