package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrRunning is wrapped by the error of [Run] when another run of the same
// crawl and shard is writing to the same dataset folder (a [*RunningError]).
var ErrRunning = errors.New("ingest: another run of the crawl is in progress")

// A RunningError says which run holds a crawl's run lock.
type RunningError struct {
	Crawl, Dir string
	Host       string
	PID        int
	Since      time.Time
}

// Error implements error.
func (e *RunningError) Error() string {
	return fmt.Sprintf("another ingest of crawl %s into %s is running (pid %d on host %s since %s)",
		e.Crawl, e.Dir, e.PID, e.Host, e.Since.Format(time.RFC3339))
}

// Unwrap returns ErrRunning.
func (e *RunningError) Unwrap() error { return ErrRunning }

// LockRun takes the run lock of a crawl's shard in its work folder,
// run-<shard>.lock, holding "HOST PID TIME" as finalize.lock does, before
// the run cleans up or reads anything: two runs of the same shard would
// remove each other's segments being written and commit the same inputs
// twice. Runs of different shards take different locks and cooperate
// (see work.go). A lock is taken over when its process is gone (same host)
// or it is older than staleAfter (another host): a killed run does not block
// the rerun that resumes it. The returned function releases the lock.
func LockRun(root, crawl string, shard Shard, staleAfter time.Duration) (release func(), err error) {
	dir := workPath(root, crawl)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ingest: creating work folder: %w", err)
	}
	path := filepath.Join(dir, "run-"+shard.tag()+".lock")
	taken, err := takeLock(path, staleAfter)
	switch {
	case err != nil:
		return nil, fmt.Errorf("ingest: taking run lock: %w", err)
	case !taken:
		return nil, holderError(path, crawl, root)
	}
	return func() {
		// The work folder and .work go too when nothing else is in them
		// (a run that had nothing to do leaves no .work behind). Not the
		// segments folder, even empty: another shard may be about to
		// commit into it.
		os.Remove(path)
		os.Remove(dir)
		os.Remove(filepath.Dir(dir))
	}, nil
}

// holderError describes the run holding the lock at path.
func holderError(path, crawl, root string) error {
	e := &RunningError{Crawl: crawl, Dir: root}
	data, _ := os.ReadFile(path)
	if f := strings.Fields(string(data)); len(f) == 3 {
		e.Host = f[0]
		e.PID, _ = strconv.Atoi(f[1])
		e.Since, _ = time.Parse(time.RFC3339, f[2])
	}
	return e
}
