package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
)

// s3Root starts versitygw with a bucket, points ConfigureS3 at it and
// returns the root s3://locks/ds and the server.
func s3Root(t *testing.T) (string, *s3test.Server) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "locks")
	t.Setenv("TMPDIR", t.TempDir()) // the runs' local folders go with the test, whatever happens
	ConfigureS3(objstore.Config{Endpoint: srv.URL, Region: s3test.Region, Credentials: srv.Credentials()})
	return "s3://locks/ds", srv
}

// Run locks in a bucket: a second run of one shard is refused with the
// first's record and the root's URL, another shard's run goes on, and the
// local folder of the root stays until the last run of the process ends.
// A lock whose process is gone (same host) is taken over; a finalize lock
// is taken once.
func TestBucketRunLocks(t *testing.T) {
	root, srv := s3Root(t)
	s0 := Shard{K: 0, N: 2}
	release0, err := LockRun(root, "c1", s0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(srv.Dir, "locks", "ds", ".work", "c1", "run-s0of2.lock")
	if data, err := os.ReadFile(lockFile); err != nil || !strings.Contains(string(data), " ") {
		t.Fatalf("lock object: %q, %v", data, err)
	}
	_, err = LockRun(root, "c1", s0, time.Hour)
	var running *RunningError
	if !errors.As(err, &running) || running.PID != os.Getpid() || running.Dir != root {
		t.Fatalf("second run of shard 0/2: %v; want a RunningError naming this process and %s", err, root)
	}
	release1, err := LockRun(root, "c1", Shard{K: 1, N: 2}, time.Hour)
	if err != nil {
		t.Fatalf("shard 1/2 beside 0/2: %v", err)
	}
	w, err := OpenWork(root, "c1", s0)
	if err != nil {
		t.Fatal(err)
	}
	local := w.root
	release1()
	if _, err := os.Stat(local); err != nil {
		t.Fatalf("the local folder went with another run's release: %v", err)
	}
	if ok, err := w.LockFinalize(time.Hour); !ok || err != nil {
		t.Fatalf("finalize lock: %v, %v", ok, err)
	}
	if ok, err := w.LockFinalize(time.Hour); ok || err != nil {
		t.Fatalf("finalize lock taken twice: %v, %v", ok, err)
	}
	release0()
	if _, err := os.Stat(local); !os.IsNotExist(err) {
		t.Errorf("the local folder outlived the last run: %v", err)
	}
	if _, err := os.Stat(lockFile); !os.IsNotExist(err) {
		t.Errorf("the run lock outlived its release: %v", err)
	}

	// A lock of a process that is gone on this host is stale.
	host, _ := os.Hostname()
	gone := lockRecord{Host: host, PID: 1 << 30, Since: time.Now().UTC().Truncate(time.Second)}
	srv.Put(t, "locks", "ds/.work/c1/run-s0of2.lock", []byte(gone.String()))
	release, err := LockRun(root, "c1", s0, time.Hour)
	if err != nil {
		t.Fatalf("a dead process's lock was not taken over: %v", err)
	}
	release()

	// A lock of another machine's run keeps this one out while it is
	// refreshed, and not once it has not been for BucketLease.
	other := lockRecord{Host: "elsewhere", PID: 7, Since: time.Now().UTC().Truncate(time.Second)}
	srv.Put(t, "locks", "ds/.work/c1/run-s0of2.lock", []byte(other.String()))
	if _, err := LockRun(root, "c1", s0, time.Hour); !errors.As(err, &running) || running.Host != "elsewhere" {
		t.Fatalf("a live lock of another machine: %v; want a RunningError naming it", err)
	}
	old := time.Now().Add(-BucketLease - time.Minute)
	if err := os.Chtimes(lockFile, old, old); err != nil {
		t.Fatal(err)
	}
	release, err = LockRun(root, "c1", s0, time.Hour)
	if err != nil {
		t.Fatalf("a lock not refreshed for BucketLease was not taken over: %v", err)
	}
	release()
}

// A run refreshes its lock in the bucket every quarter of BucketLease,
// each time a new version, until it releases it.
func TestBucketLockRefreshed(t *testing.T) {
	root, srv := s3Root(t)
	defer func(lease time.Duration) { BucketLease = lease }(BucketLease)
	BucketLease = 400 * time.Millisecond
	release, err := LockRun(root, "c2", Shard{}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(srv.Dir, "locks", "ds", ".work", "c2", "run-s0of1.lock")
	first, err := os.ReadFile(lockFile)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * BucketLease)
	now, err := os.ReadFile(lockFile)
	if err != nil || string(now) == string(first) {
		t.Fatalf("the lock was not refreshed in %v: %q, then %q (%v)", 3*BucketLease, first, now, err)
	}
	if r, ok := parseLockRecord(now); !ok || r.PID != os.Getpid() {
		t.Fatalf("refreshed record %q does not name this run", now)
	}
	if _, err := LockRun(root, "c2", Shard{}, time.Hour); !errors.Is(err, ErrRunning) {
		t.Fatalf("a refreshed lock older than BucketLease was taken: %v", err)
	}
	release()
	if _, err := os.Stat(lockFile); !os.IsNotExist(err) {
		t.Errorf("the lock outlived its release: %v", err)
	}
}
