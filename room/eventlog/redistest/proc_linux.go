//go:build linux

package redistest

import (
	"os/exec"
	"syscall"
)

// setProcAttr makes the kernel kill redis-server if the test binary dies.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
