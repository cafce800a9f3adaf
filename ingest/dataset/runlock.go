package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

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
		return nil, fmt.Errorf("dataset: creating work folder: %w", err)
	}
	path := filepath.Join(dir, "run-"+shard.tag()+".lock")
	lock, err := takeLock(path, staleAfter)
	switch {
	case err != nil:
		return nil, fmt.Errorf("dataset: taking run lock: %w", err)
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
