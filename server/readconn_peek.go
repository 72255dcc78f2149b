//go:build linux || darwin || freebsd || netbsd || openbsd

package server

import "syscall"

// peekReady reports whether a read on fd would not block, without consuming data.
func peekReady(fd uintptr, buf []byte) bool {
	_, _, err := syscall.Recvfrom(int(fd), buf, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	return err != syscall.EAGAIN && err != syscall.EWOULDBLOCK
}
