//go:build unix

package testutil

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time the process has used, user and system:
// on a shared machine it measures the work of a benchmark better than the
// wall clock, which counts the time other processes ran. Zero where it
// cannot be read.
func ProcessCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
