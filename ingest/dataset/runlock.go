package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrRunning is wrapped by the error of [Run] when another run of the same
// crawl and shard is writing to the same dataset folder (a [*RunningError]).
var ErrRunning = errors.New("ingest: another run of the crawl is in progress")

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
		return fmt.Sprintf("another ingest of crawl %s into %s seems to be starting: its run lock names no run yet (one left so by an interrupted run is taken over %s after it was written)",
			e.Crawl, e.Dir, halfWrittenGrace)
	}
	return fmt.Sprintf("another ingest of crawl %s into %s is running (pid %d on host %s since %s)",
		e.Crawl, e.Dir, e.PID, e.Host, e.Since.Format(time.RFC3339))
}

// Unwrap returns ErrRunning.
func (e *RunningError) Unwrap() error { return ErrRunning }

// LockRun takes the run lock of a crawl's shard in its work folder,
// run-<shard>.lock (a lock as finalize.lock is: see lock.go), before the
// run cleans up or reads anything: two runs of the same shard would remove
// each other's segments being written and commit the same inputs twice.
// Runs of different shards take different locks and cooperate (see
// work.go). A lock is taken over when its process is gone (same host) or
// it is older than staleAfter: a killed run does not block the rerun that
// resumes it. The returned function releases the lock, unless another run
// has taken it over.
func LockRun(root, crawl string, shard Shard, staleAfter time.Duration) (release func(), err error) {
	dir := workPath(root, crawl)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ingest: creating work folder: %w", err)
	}
	path := filepath.Join(dir, "run-"+shard.tag()+".lock")
	lock, err := takeLock(path, staleAfter)
	switch {
	case err != nil:
		return nil, fmt.Errorf("ingest: taking run lock: %w", err)
	case lock == nil:
		return nil, holderError(path, crawl, root)
	}
	return func() {
		// The work folder and .work go too when nothing else is in them
		// (a run that had nothing to do leaves no .work behind). Not the
		// segments folder, even empty: another shard may be about to
		// commit into it.
		lock.release()
		os.Remove(dir)
		os.Remove(filepath.Dir(dir))
	}, nil
}

// holderError describes the run holding the lock at path.
func holderError(path, crawl, root string) error {
	r, _ := readLockRecord(path)
	return &RunningError{Crawl: crawl, Dir: root, Host: r.Host, PID: r.PID, Since: r.Since}
}
