package dataset

import (
	"fmt"

	"github.com/robocensus/robocensus/ingest/objstore"
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
//
// For a dataset in object storage (see bucket.go) the lock is an object
// of the bucket, which the run refreshes and which goes stale when it has
// not for BucketLease (staleAfter does not apply), and the local lock one
// of the run's local folder, which release removes.
func LockRun(root, crawl string, shard Shard, staleAfter time.Duration) (release func(), err error) {
	if objstore.IsURL(root) {
		return lockBucketRun(root, crawl, shard, staleAfter)
	}
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

// lockBucketRun takes the run lock of a crawl's shard of the dataset in
// object storage at root, after checking that the store honours
// conditional writes, then the lock of the run's local folder.
func lockBucketRun(root, crawl string, shard Shard, staleAfter time.Duration) (release func(), err error) {
	b, err := startRun(root)
	if err != nil {
		return nil, err
	}
	local, err := b.localRoot()
	if err == nil {
		err = b.checkConditionalWrites()
	}
	var remote *bucketLock
	if err == nil {
		remote, err = b.lockRun(crawl, shard)
	}
	var releaseLocal func()
	if err == nil {
		releaseLocal, err = LockRun(local, crawl, shard, staleAfter)
	}
	if err != nil {
		if remote != nil {
			remote.release()
		}
		closeRoot(root)
		return nil, err
	}
	return func() {
		releaseLocal()
		remote.release()
		closeRoot(root)
	}, nil
}

// holderError describes the run holding the lock at path.
func holderError(path, crawl, root string) error {
	r, _ := readLockRecord(path)
	return &RunningError{Crawl: crawl, Dir: root, Host: r.Host, PID: r.PID, Since: r.Since}
}
