package dataset

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Issue 27 item 2: runs that start together over one lock, whatever they
// find there, end with exactly one holder (or none, when a live run holds
// it), in goroutines of one process and in processes of their own.

// lockState is a state a lock can be found in, and how many of the runs
// that start together over it take it.
type lockState struct {
	name    string
	setUp   func(t *testing.T, path string)
	holders int
}

// The records a lock found may hold.
var (
	oldRecord = func() string { // another host's, older than an hour
		return fmt.Sprintf("other-host 1 %s\n", time.Now().Add(-2*time.Hour).UTC().Format(time.RFC3339))
	}
	goneRecord = func() string { // this host's, its process gone
		host, _ := os.Hostname()
		return fmt.Sprintf("%s %d %s\n", host, 1<<30, time.Now().UTC().Format(time.RFC3339))
	}
	liveRecord = func() string { // this process's
		host, _ := os.Hostname()
		return fmt.Sprintf("%s %d %s\n", host, os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	}
	halfRecord = func() string { return "" } // half written
)

// lockStates are the states the concurrency tests start from: no lock, and
// locks of the two forms, plain files (earlier versions) and folders, with
// each kind of record.
var lockStates = []lockState{
	{"none", func(*testing.T, string) {}, 1},
	{"empty folder", func(t *testing.T, path string) { os.Mkdir(path, 0o755) }, 1},
}

func init() {
	forms := []struct {
		name  string
		write func(t *testing.T, path, content string, mtime time.Time)
	}{{"file", writeLockFile}, {"folder", writeLockFolder}}
	records := []struct {
		name    string
		content func() string
		age     time.Duration
		holders int
	}{
		{"old", oldRecord, 0, 1},
		{"gone process", goneRecord, 0, 1},
		{"old half-written", halfRecord, time.Hour, 1},
		{"fresh half-written", halfRecord, 0, 0},
		{"live", liveRecord, 0, 0},
	}
	for _, f := range forms {
		for _, r := range records {
			lockStates = append(lockStates, lockState{r.name + " " + f.name, func(t *testing.T, path string) {
				f.write(t, path, r.content(), time.Now().Add(-r.age))
			}, r.holders})
		}
	}
}

// writeLockFile writes a lock of an earlier version: content at path,
// modified at mtime.
func writeLockFile(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// writeLockFolder writes a lock: a folder at path whose record holds
// content, modified at mtime.
func writeLockFolder(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	writeLockFile(t, filepath.Join(path, "record-"+randomHex(8)), content, mtime)
}

// trialWork returns the work folder of a trial's crawl, created, and the
// path of its finalize lock.
func trialWork(t *testing.T, root string, trial int) (*Work, string) {
	t.Helper()
	w := NewWork(root, strconv.Itoa(trial), Shard{})
	if err := os.MkdirAll(w.path, 0o755); err != nil {
		t.Fatal(err)
	}
	return w, filepath.Join(w.path, "finalize.lock")
}

// takeTogether has n goroutines take w's finalize lock at once and returns
// how many took it.
func takeTogether(t *testing.T, w *Work, n int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	start, took := make(chan struct{}), 0
	for range n {
		wg.Go(func() {
			<-start
			ok, err := w.LockFinalize(time.Hour)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				took++
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	return took
}

func TestLockOneHolderGoroutines(t *testing.T) {
	trials := 100
	if testing.Short() {
		trials = 20
	}
	for _, s := range lockStates {
		t.Run(s.name, func(t *testing.T) {
			root, failed := t.TempDir(), 0
			for trial := range trials {
				w, path := trialWork(t, root, trial)
				s.setUp(t, path)
				if took := takeTogether(t, w, 4); took != s.holders {
					failed++
					if failed <= 3 {
						t.Errorf("trial %d: %d of 4 took the lock, want %d", trial, took, s.holders)
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d trials ended with the wrong number of holders", failed, trials)
			}
		})
	}
}

// lockTakerEnv, when set, makes the test binary a lock taker
// (TestLockTakerProcess): "ROOT TRIALS INDEX TAKERS".
const lockTakerEnv = "ROBOCENSUS_TEST_LOCK_TAKER"

// The same with processes: the test binary run as takers, each trial's
// takers waiting for one another before they take the lock, and staying
// alive (so holding what they took) until all are done.
func TestLockOneHolderProcesses(t *testing.T) {
	const takers = 4
	trials := 80
	if testing.Short() {
		trials = 16
	}
	var states []lockState // those that end with a holder
	for _, s := range lockStates {
		if s.holders == 1 {
			states = append(states, s)
		}
	}
	root := t.TempDir()
	for trial := range trials {
		_, path := trialWork(t, root, trial)
		states[trial%len(states)].setUp(t, path)
	}
	var cmds []*exec.Cmd
	for k := range takers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLockTakerProcess$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d %d", lockTakerEnv, root, trials, k, takers))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("taker: %v", err)
		}
	}
	for trial := range trials {
		took, _ := filepath.Glob(filepath.Join(root, strconv.Itoa(trial)+".took-*"))
		if len(took) != 1 {
			t.Errorf("trial %d (%s): %d of %d processes took the lock", trial, states[trial%len(states)].name, len(took), takers)
		}
	}
}

// TestLockTakerProcess is one taker of TestLockOneHolderProcesses; it does
// nothing unless that test runs it.
func TestLockTakerProcess(t *testing.T) {
	var root string
	var trials, k, takers int
	if _, err := fmt.Sscan(os.Getenv(lockTakerEnv), &root, &trials, &k, &takers); err != nil {
		t.Skip("run by TestLockOneHolderProcesses")
	}
	for trial := range trials {
		meet(t, filepath.Join(root, fmt.Sprintf("%d.ready", trial)), k, takers)
		ok, err := NewWork(root, strconv.Itoa(trial), Shard{}).LockFinalize(time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			os.WriteFile(filepath.Join(root, fmt.Sprintf("%d.took-%d", trial, k)), nil, 0o644)
		}
	}
	meet(t, filepath.Join(root, "done"), k, takers)
}

// meet marks taker k arrived at the meeting point prefix and waits until
// all takers have.
func meet(t *testing.T, prefix string, k, takers int) {
	if err := os.WriteFile(fmt.Sprintf("%s-%d", prefix, k), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		if arrived, _ := filepath.Glob(prefix + "-*"); len(arrived) == takers {
			return
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// A run whose lock was taken over (it looked stale) and that then releases
// it leaves the new holder's lock alone.
func TestLockReleaseKeepsTakeover(t *testing.T) {
	root := t.TempDir()
	releaseFirst, err := LockRun(root, "c", Shard{}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// The second judges any lock stale: it takes the first's over.
	releaseSecond, err := LockRun(root, "c", Shard{}, time.Nanosecond)
	if err != nil {
		t.Fatalf("takeover: %v", err)
	}
	defer releaseSecond()
	releaseFirst()
	if _, err := LockRun(root, "c", Shard{}, time.Hour); err == nil {
		t.Fatal("a third run took the lock the second holds")
	} else if !strings.Contains(err.Error(), fmt.Sprintf("(pid %d on host", os.Getpid())) {
		t.Errorf("third run: %v", err)
	}
}
