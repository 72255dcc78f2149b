package extengine

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/engine/gomocup"
)

// process is one running brain: its stdin, a channel of its stdout lines (closed at
// EOF) and the done channel closed once the process has been reaped.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	done   chan struct{}
	stderr *tailBuffer
	werr   error // Wait's error, valid after done
}

func startProcess(path string, args []string, dir string) (*process, error) {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, lines: make(chan string, 256), done: make(chan struct{}), stderr: &tailBuffer{max: 2048}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		r := bufio.NewReaderSize(stdout, 4096)
		for {
			line, err := r.ReadString('\n')
			if len(line) > gomocup.MaxLineBytes {
				line = line[:gomocup.MaxLineBytes]
			}
			if line != "" {
				select {
				case p.lines <- line:
				default: // a flooding brain loses lines; its reply will be judged garbage or late
				}
			}
			if err != nil {
				break
			}
		}
		close(p.lines)
		p.werr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// send writes one command line.
func (p *process) send(line string) error {
	_, err := io.WriteString(p.stdin, line+"\n")
	return err
}

// kill ends the whole process group and waits until the process is reaped.
func (p *process) kill() {
	killProcessGroup(p.cmd)
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

// stop asks the brain to END, gives it grace to exit, then kills it.
func (p *process) stop(grace time.Duration) {
	_ = p.send("END")
	_ = p.stdin.Close()
	select {
	case <-p.done:
		killProcessGroup(p.cmd) // children it may have left behind
	case <-time.After(grace):
		p.kill()
	}
}

// tailBuffer keeps the last max bytes written to it (the brain's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
