package crashtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

// gomokudBin is the gomokud binary built once by TestMain, or $CRASHTEST_GOMOKUD (empty
// when integration tests are off or the build failed; buildErr says why).
var (
	gomokudBin string
	buildErr   error
)

func TestMain(m *testing.M) {
	var dir string
	if bin := os.Getenv("CRASHTEST_GOMOKUD"); bin != "" && redistest.Enabled() {
		gomokudBin = bin // a prebuilt gomokud (e.g. a release build, or one with a local patch)
		fmt.Fprintf(os.Stderr, "crashtest: using CRASHTEST_GOMOKUD=%s\n", bin)
	} else if redistest.Enabled() {
		var err error
		dir, err = os.MkdirTemp("", "gomokud-crashtest-")
		if err == nil {
			bin := filepath.Join(dir, "gomokud")
			start := time.Now()
			cmd := exec.Command("go", "build", "-o", bin, "github.com/gomoku-arena/gomoku/cmd/gomokud")
			out, berr := cmd.CombinedOutput()
			if berr != nil {
				buildErr = fmt.Errorf("go build gomokud: %v: %s", berr, out)
			} else {
				gomokudBin = bin
				fmt.Fprintf(os.Stderr, "crashtest: built gomokud in %v\n", time.Since(start).Round(time.Millisecond))
			}
		} else {
			buildErr = err
		}
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// requireBin skips without GOMOKU_INTEGRATION=1 and fails when the binary did not build.
func requireBin(t *testing.T) string {
	t.Helper()
	if !redistest.Enabled() {
		t.Skipf("crashtest: skipping: runs real gomokud and redis-server processes; set %s=1 to run it", redistest.EnvIntegration)
	}
	if gomokudBin == "" {
		t.Fatalf("crashtest: no gomokud binary: %v", buildErr)
	}
	return gomokudBin
}

// Node is one gomokud child process on a fixed loopback port (kept across restarts).
type Node struct {
	t    *testing.T
	Name string
	bin  string
	port int
	args []string
	env  []string
	logp string

	proc redistest.Proc
	mu   sync.Mutex // guards runs
	runs int
}

// StartNode starts gomokud with REDIS_URL=redisURL on a free port and waits until
// /healthz answers.
func StartNode(t *testing.T, name, redisURL string, extraArgs ...string) *Node {
	t.Helper()
	bin := requireBin(t)
	n := &Node{t: t, Name: name, bin: bin, logp: filepath.Join(t.TempDir(), name+".log")}
	n.env = append(os.Environ(), "REDIS_URL="+redisURL)
	n.args = append([]string{"-max-conns-per-ip", "0", "-log-level", "info"}, extraArgs...)
	t.Cleanup(func() {
		n.Kill()
		if t.Failed() {
			b, _ := os.ReadFile(n.logp)
			if len(b) > 6000 {
				b = b[len(b)-6000:]
			}
			t.Logf("%s log tail (%s):\n%s", n.Name, n.logp, b)
		}
	})
	err := redistest.Retry(5, 0, func() error {
		var err error
		if n.port, err = freePort(); err != nil {
			return err
		}
		return n.start()
	})
	if err != nil {
		t.Fatalf("crashtest: cannot start %s: %v", name, err)
	}
	return n
}

// Base is the node's HTTP base URL.
func (n *Node) Base() string { return "http://127.0.0.1:" + strconv.Itoa(n.port) }

func (n *Node) start() error {
	args := append([]string{"-addr", "127.0.0.1:" + strconv.Itoa(n.port)}, n.args...)
	cmd := exec.Command(n.bin, args...)
	cmd.Env = n.env
	f, err := os.OpenFile(n.logp, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	n.mu.Lock()
	n.runs++
	fmt.Fprintf(f, "==== crashtest: %s run %d at %s\n", n.Name, n.runs, time.Now().Format(time.RFC3339Nano))
	n.mu.Unlock()
	cmd.Stdout, cmd.Stderr = f, f
	return n.proc.Start(cmd, func(exited <-chan struct{}) error {
		return waitHTTP(n.Base()+"/healthz", 20*time.Second, exited)
	}, func() { f.Close() })
}

// waitHTTP polls url until it answers 2xx, the process exits or timeout passes.
func waitHTTP(url string, timeout time.Duration, exited <-chan struct{}) error {
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-exited:
			return fmt.Errorf("%w (GET %s)", redistest.ErrExited, url)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := call(ctx, "GET", url, "", nil, nil)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("GET %s failing after %v: %v", url, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill sends SIGKILL (a crash) and waits for the process to exit.
func (n *Node) Kill() { n.proc.Kill() }

// Stop sends SIGTERM (graceful shutdown) and waits up to 15 s for the exit.
func (n *Node) Stop() {
	if !n.proc.Signal(syscall.SIGTERM, 15*time.Second) {
		n.t.Errorf("%s did not exit within 15 s of SIGTERM", n.Name)
	}
}

// Running reports whether the process is up.
func (n *Node) Running() bool { return n.proc.Running() }

// Restart starts the process again on the same port (after Kill).
func (n *Node) Restart() {
	n.t.Helper()
	n.Kill()
	if err := redistest.Retry(50, 100*time.Millisecond, n.start); err != nil {
		n.t.Fatalf("crashtest: restart %s: %v", n.Name, err)
	}
}

// Log returns the node's log so far.
func (n *Node) Log() []byte {
	b, _ := os.ReadFile(n.logp)
	return b
}

var nodeStartedRE = regexp.MustCompile(`msg="node started".* node=(\S+)`)

// ID returns the node id the current run logged ("node started" … node=ID), or "".
func (n *Node) ID() string {
	n.mu.Lock()
	runs := n.runs
	n.mu.Unlock()
	log := n.Log()
	// Only the current run's lines count.
	if i := bytes.LastIndex(log, []byte(fmt.Sprintf("==== crashtest: %s run %d ", n.Name, runs))); i >= 0 {
		log = log[i:]
	}
	m := nodeStartedRE.FindAllSubmatch(log, -1)
	if len(m) == 0 {
		return ""
	}
	return string(m[len(m)-1][1])
}

// Help returns `gomokud -h` output.
func helpText(t *testing.T) string {
	out, _ := exec.Command(requireBin(t), "-h").CombinedOutput()
	return string(bytes.TrimSpace(out))
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
