package redistest

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"time"
)

// ErrExited is returned by Proc.Start when the process exits before it is ready.
var ErrExited = errors.New("redistest: process exited during start-up")

// Proc is the process control shared by Server and by other tests' child processes
// (server/crashtest runs gomokud and a load balancer with it): one run of a command at
// a time, killed with the test binary (Linux), waited for exactly once. The zero value
// is ready to use.
type Proc struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts cmd (after any earlier run ended) and then calls ready, which polls
// until the process serves (exited is closed if it dies meanwhile; ready should then
// return ErrExited). If ready fails, the process is killed and the error returned.
// onExit, if not nil, runs after the process exited (e.g. to close its log file).
func (p *Proc) Start(cmd *exec.Cmd, ready func(exited <-chan struct{}) error, onExit func()) error {
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		if onExit != nil {
			onExit()
		}
		return err
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		if onExit != nil {
			onExit()
		}
		close(done)
	}()
	if ready != nil {
		if err := ready(done); err != nil {
			_ = cmd.Process.Kill()
			<-done
			return err
		}
	}
	p.mu.Lock()
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
	return nil
}

func (p *Proc) take() (*exec.Cmd, chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cmd, done := p.cmd, p.done
	p.cmd = nil
	return cmd, done
}

// Kill sends SIGKILL (a crash) and waits for the exit. It does nothing when not running.
func (p *Proc) Kill() {
	cmd, done := p.take()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-done
}

// Signal sends sig (e.g. SIGTERM for a graceful stop) and waits up to timeout for the
// exit, then kills the process. It reports whether the process exited in time (true
// when it was not running).
func (p *Proc) Signal(sig os.Signal, timeout time.Duration) bool {
	cmd, done := p.take()
	if cmd == nil {
		return true
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-done:
		return true
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		<-done
		return false
	}
}

// Running reports whether the process is up.
func (p *Proc) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

// Retry calls start up to attempts times, pausing between tries (a restarted server's
// port may linger briefly), and returns the last error.
func Retry(attempts int, pause time.Duration, start func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = start(); err == nil {
			return nil
		}
		if i+1 < attempts {
			time.Sleep(pause)
		}
	}
	return err
}
