//go:build unix

package dataset

import (
	"errors"
	"syscall"
)

// processGone reports whether no process with this ID runs on this machine
// (signal 0 checks for existence without sending anything).
func processGone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
