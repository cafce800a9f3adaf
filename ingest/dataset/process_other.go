//go:build !unix

package dataset

import "os"

// processGone reports whether no process with this ID runs on this machine.
// Where there is no signal 0 (Windows), FindProcess opens the process and
// fails when there is none.
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}
