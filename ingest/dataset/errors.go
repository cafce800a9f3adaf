package dataset

import (
	"errors"
	"fmt"
	"time"
)

// The errors of this package start with "dataset: ", once; an error of
// another package that one wraps keeps its own prefix after the context
// ("dataset: reading PATH: schema: ...").

// ErrRunning is wrapped by the error of [LockRun] when another run of the same
// crawl and shard is writing to the same dataset folder (a [*RunningError]).
var ErrRunning = errors.New("dataset: another run of the crawl is in progress")

// A RunningError says which run holds a crawl's run lock. PID is 0 when
// the lock names no run: an earlier version is writing it, or was
// interrupted while writing it.
type RunningError struct {
	Crawl, Dir string
	Host       string
	PID        int
	Since      time.Time
}

// Error implements error.
func (e *RunningError) Error() string {
	if e.PID == 0 {
		return fmt.Sprintf("dataset: another ingest of crawl %s into %s seems to be starting: its run lock names no run yet (one left so by an interrupted run is taken over %s after it was written)",
			e.Crawl, e.Dir, halfWrittenGrace)
	}
	return fmt.Sprintf("dataset: another ingest of crawl %s into %s is running (pid %d on host %s since %s)",
		e.Crawl, e.Dir, e.PID, e.Host, e.Since.Format(time.RFC3339))
}

// Unwrap returns ErrRunning.
func (e *RunningError) Unwrap() error { return ErrRunning }
