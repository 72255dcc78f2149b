// Package redistest starts real redis-server processes for integration tests.
//
// Every server runs on a free loopback port in its own t.TempDir(), with the
// append-only file on and fsync'ed on every write (appendfsync always) unless
// told otherwise, and is killed when the test ends. Nothing ever touches
// 127.0.0.1:6379 or FLUSHes a shared server.
//
// Tests are gated: Start skips the test with a clear message unless
// GOMOKU_INTEGRATION=1, and fails it (rather than skipping) when
// GOMOKU_INTEGRATION=1 but no redis-server binary can be found. The binary is
// taken from $REDIS_SERVER, else from $PATH.
//
//	func TestSomething(t *testing.T) {
//		srv := redistest.Start(t)            // skips without GOMOKU_INTEGRATION=1
//		c := srv.Client()                    // *redis.Client, closed at test end
//		...
//		srv.Kill()                           // SIGKILL, like a crash
//		srv.Restart()                        // same port, same dir, AOF replayed
//	}
package redistest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// EnvIntegration is the environment variable that enables integration tests.
const EnvIntegration = "GOMOKU_INTEGRATION"

// EnvBinary names an explicit redis-server binary (optional).
const EnvBinary = "REDIS_SERVER"

// Enabled reports whether integration tests are enabled (GOMOKU_INTEGRATION=1).
func Enabled() bool { return os.Getenv(EnvIntegration) == "1" }

// Option changes how Start runs redis-server.
type Option func(*config)

type config struct {
	aof       bool
	fsync     string
	args      []string
	startWait time.Duration
}

// WithFsync sets appendfsync ("always", the default, "everysec" or "no").
func WithFsync(policy string) Option { return func(c *config) { c.fsync = policy } }

// WithoutAOF turns the append-only file off (data is lost on Kill/Restart).
func WithoutAOF() Option { return func(c *config) { c.aof = false } }

// WithArgs appends raw redis-server command-line arguments, e.g. "--maxmemory", "10mb".
func WithArgs(args ...string) Option {
	return func(c *config) { c.args = append(c.args, args...) }
}

// WithStartTimeout sets how long Start and Restart wait for the server to answer PING (default 10s).
func WithStartTimeout(d time.Duration) Option { return func(c *config) { c.startWait = d } }

// Server is one redis-server process owned by a test.
type Server struct {
	t    testing.TB
	cfg  config
	bin  string
	dir  string
	port int
	proc Proc
}

// Binary returns the redis-server binary to use, or "" if none is found.
func Binary() string {
	if b := os.Getenv(EnvBinary); b != "" {
		return b
	}
	if b, err := exec.LookPath("redis-server"); err == nil {
		return b
	}
	return ""
}

// Require skips t unless GOMOKU_INTEGRATION=1 and fails it if redis-server is
// then missing. It returns the binary path.
func Require(t testing.TB) string {
	t.Helper()
	if !Enabled() {
		t.Skipf("redistest: skipping real-Redis test; set %s=1 to run it (needs redis-server)", EnvIntegration)
	}
	bin := Binary()
	if bin == "" {
		t.Fatalf("redistest: %s=1 but no redis-server found (set $%s or install redis-server)", EnvIntegration, EnvBinary)
	}
	return bin
}

// Start starts a redis-server on a free loopback port in a temp dir and
// registers its cleanup. See the package doc for gating.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	bin := Require(t)
	cfg := config{aof: true, fsync: "always", startWait: 10 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	s := &Server{t: t, cfg: cfg, bin: bin, dir: t.TempDir()}
	t.Cleanup(s.Kill)
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		s.port, err = freePort()
		if err != nil {
			continue
		}
		if err = s.start(); err == nil {
			return s
		}
	}
	t.Fatalf("redistest: cannot start redis-server: %v", err)
	return nil
}

// Addr returns "127.0.0.1:port".
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL returns "redis://127.0.0.1:port/0".
func (s *Server) URL() string { return "redis://" + s.Addr() + "/0" }

// Dir returns the server's working directory (AOF and log live there).
func (s *Server) Dir() string { return s.dir }

// Client returns a new go-redis client for the server, closed when the test ends.
func (s *Server) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	s.t.Cleanup(func() { _ = c.Close() })
	return c
}

// Running reports whether the process is up.
func (s *Server) Running() bool { return s.proc.Running() }

// Kill sends SIGKILL (a crash: no shutdown save) and waits for the process to
// exit. It does nothing if the server is not running.
func (s *Server) Kill() { s.proc.Kill() }

// Stop shuts the server down gracefully (SIGINT) and waits for it (at most 10 s,
// then SIGKILL).
func (s *Server) Stop() { s.proc.Signal(os.Interrupt, 10*time.Second) }

// Restart kills the server if it is running (SIGKILL) and starts it again on
// the same port and directory; with AOF on, every fsync'ed write is back.
// It fails the test if the server does not come back.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	if err := Retry(50, 100*time.Millisecond, s.start); err != nil { // the port may linger briefly
		s.t.Fatalf("redistest: restart failed: %v", err)
	}
}

func (s *Server) start() error {
	args := []string{
		"--port", strconv.Itoa(s.port),
		"--bind", "127.0.0.1",
		"--dir", s.dir,
		"--save", "",
		"--daemonize", "no",
		"--protected-mode", "no",
		"--logfile", "redis.log",
	}
	if s.cfg.aof {
		args = append(args, "--appendonly", "yes", "--appendfsync", s.cfg.fsync)
	} else {
		args = append(args, "--appendonly", "no")
	}
	args = append(args, s.cfg.args...)
	cmd := exec.Command(s.bin, args...)
	cmd.Dir = s.dir
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := s.proc.Start(cmd, func(exited <-chan struct{}) error {
		return waitReady(s.Addr(), s.cfg.startWait, exited)
	}, nil)
	if err != nil {
		return fmt.Errorf("%w; output: %s; log tail: %s", err, strings.TrimSpace(out.String()), s.logTail())
	}
	return nil
}

// syncBuffer is a bytes.Buffer safe for the process's output goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (s *Server) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// waitReady polls PING until PONG (LOADING while the AOF replays is retried).
func waitReady(addr string, timeout time.Duration, exited <-chan struct{}) error {
	deadline := time.Now().Add(timeout)
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
	defer c.Close()
	var err error
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("redis-server: %w", ErrExited)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("redis-server not ready after %v: %v", timeout, err)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
