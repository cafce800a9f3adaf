package dataset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Locks: a run's lock of its shard (LockRun) and the lock of a crawl's
// publication (LockFinalize).
//
// A lock is a folder at the lock's path holding one file, its record,
// "HOST PID TIME": the host and process that took it and when. The
// record's name, record-<token>, is unique to the run that took the lock.
//
// Taking: a run writes the folder aside (PATH.tmp-<token>) and renames it
// to PATH. Renaming a folder fails where PATH exists (a folder, even empty,
// since os.Rename checks; or the plain file an earlier version used as a
// lock; on Windows, anything), so the run whose rename succeeds is the only
// one that took the lock, and a lock appears with its record: no run ever
// reads one half written. (Where os.Rename's check races, POSIX rename
// replaces only an empty folder, which is no one's lock.)
//
// Removing: a lock leaves only by removing its record by name, then its
// folder, which the file system removes only when empty. A run that judged
// a lock stale removes the record it read, by its unique name: if that lock
// has gone meanwhile and another was taken, the other's record has another
// name and stays, and so does its folder. An empty folder is no one's lock
// (a removal cut short): any run removes it. Releasing is the same removal
// of the run's own record, so a run whose lock was taken over (it looked
// stale) does not remove its successor's.
//
// Hence two runs hold a lock at once only when the first's record was
// judged stale by the rules of lockIsStale, never by a race: each record at
// PATH was put there by the one rename that succeeded over a PATH with no
// record, and is removed only by a run that read that very record. (No
// scheme removing a file by its path, even renaming it aside and checking
// it is the one judged, can promise that: between the move and putting
// back a live lock moved by mistake, PATH is free for a third run.)
//
// Earlier versions' locks, plain files, are judged by the same rules. One
// judged stale is moved aside by renaming it over a plain file of the
// run's own: that moves a plain file and never a folder, so it never moves
// a lock taken since by this version; and the run checks the file it moved
// is the one it judged (sameLockFile) and otherwise puts it back. Only a
// run of an earlier version at the same time could be wronged, as it could
// by another of its own.

// halfWrittenGrace is how long a lock record that cannot be read (an
// earlier version writing it, or one interrupted while writing it) is
// taken for a live run's. The earlier versions wrote the record at once
// after creating the file.
const halfWrittenGrace = time.Minute

// lockAttempts bounds the renames a run tries while it removes stale locks
// or finds the path free and still fails to rename: the file system's
// error is then returned.
const lockAttempts = 8

// lockRecord is what a lock says of the run that took it.
type lockRecord struct {
	Host  string
	PID   int
	Since time.Time
}

// thisRun is the record of a lock taken now by this process.
func thisRun() lockRecord {
	host, _ := os.Hostname()
	return lockRecord{Host: host, PID: os.Getpid(), Since: time.Now().UTC().Truncate(time.Second)}
}

// String returns the record as written: "HOST PID TIME\n".
func (r lockRecord) String() string {
	return fmt.Sprintf("%s %d %s\n", r.Host, r.PID, r.Since.Format(time.RFC3339))
}

// parseLockRecord reads "HOST PID TIME", or "HOST PID TIME REFRESHED" of a
// lock in a bucket (bucket.go); false when data is not one.
func parseLockRecord(data []byte) (lockRecord, bool) {
	f := strings.Fields(string(data))
	if len(f) != 3 && len(f) != 4 {
		return lockRecord{}, false
	}
	pid, err1 := strconv.Atoi(f[1])
	since, err2 := time.Parse(time.RFC3339, f[2])
	return lockRecord{Host: f[0], PID: pid, Since: since}, err1 == nil && err2 == nil
}

// lockIsStale reports whether a lock record read from a file modified at
// modTime no longer keeps other runs out: it is older than staleAfter, or
// its process (on this host) is gone, or it cannot be read and was written
// more than halfWrittenGrace (or staleAfter, if shorter) ago.
func lockIsStale(data []byte, modTime time.Time, staleAfter time.Duration) bool {
	r, ok := parseLockRecord(data)
	if !ok {
		return time.Since(modTime) > min(staleAfter, halfWrittenGrace)
	}
	if time.Since(r.Since) > staleAfter {
		return true
	}
	host, _ := os.Hostname()
	return r.Host == host && processGone(r.PID)
}

// A heldLock is a lock this run took.
type heldLock struct {
	path, record string // the lock's folder, the name of its record
}

// release removes the lock if it is still this run's (see the top of the
// file).
func (l *heldLock) release() {
	os.Remove(filepath.Join(l.path, l.record))
	os.Remove(l.path) // only when empty
}

// takeLock takes the lock at path, removing it first when it is stale. It
// returns nil when a live run holds it; the error is the file system's.
func takeLock(path string, staleAfter time.Duration) (*heldLock, error) {
	token := randomHex(8)
	tmp, record := path+".tmp-"+token, "record-"+token
	defer os.RemoveAll(tmp) // gone once renamed
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return nil, err
	}
	// Not synced: a record a crash of the machine leaves empty is taken for
	// a half-written one, and no run outlives the crash to hold it.
	if err := os.WriteFile(filepath.Join(tmp, record), []byte(thisRun().String()), 0o644); err != nil {
		return nil, err
	}
	var err error
	for range lockAttempts {
		if err = os.Rename(tmp, path); err == nil {
			return &heldLock{path: path, record: record}, nil
		}
		live, jerr := removeStaleLock(path, staleAfter)
		if jerr != nil || live {
			return nil, jerr
		}
	}
	return nil, err
}

// removeStaleLock removes the lock at path if it is stale, and reports
// whether it is a live run's instead. With no lock at path it does
// nothing.
func removeStaleLock(path string, staleAfter time.Duration) (live bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return false, ignoreNotExist(err)
	}
	fi, err := f.Stat()
	var data []byte
	if err == nil && !fi.IsDir() {
		data, err = io.ReadAll(f)
	}
	f.Close()
	switch {
	case err != nil:
		return false, err
	case fi.IsDir():
		return removeStaleFolder(path, staleAfter)
	default:
		return removeStaleFile(path, fi, data, staleAfter)
	}
}

// removeStaleFolder removes the lock folder at path if its record is
// stale, by the record's name.
func removeStaleFolder(path string, staleAfter time.Duration) (live bool, err error) {
	entries, err := os.ReadDir(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	for _, e := range entries {
		stale, err := recordIsStale(filepath.Join(path, e.Name()), staleAfter)
		if err != nil || !stale {
			return !stale, err
		}
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(path, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
	}
	os.Remove(path) // only when empty: a lock taken meanwhile stays
	return false, nil
}

// recordIsStale judges the lock record file at path; one removed meanwhile
// is stale.
func recordIsStale(path string, staleAfter time.Duration) (bool, error) {
	fi, err := os.Lstat(path)
	if err == nil {
		var data []byte
		if data, err = os.ReadFile(path); err == nil {
			return lockIsStale(data, fi.ModTime(), staleAfter), nil
		}
	}
	return errors.Is(err, fs.ErrNotExist), ignoreNotExist(err)
}

// ignoreNotExist returns err, or nil when it says a file does not exist.
func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// removeStaleFile removes an earlier version's lock, the plain file at
// path found as judged holding data, if it is stale: it moves it aside over
// a plain file of its own, which moves a plain file and never a lock
// folder, and puts it back if it is not the file judged.
func removeStaleFile(path string, judged fs.FileInfo, data []byte, staleAfter time.Duration) (live bool, err error) {
	if !lockIsStale(data, judged.ModTime(), staleAfter) {
		return true, nil
	}
	aside := path + ".stale-" + randomHex(8)
	if err := os.WriteFile(aside, nil, 0o644); err != nil {
		return false, err
	}
	defer os.Remove(aside)
	if err := os.Rename(path, aside); err != nil {
		if now, serr := os.Lstat(path); serr == nil && sameLockFile(now, judged) {
			return false, err
		}
		return false, nil // gone, or a lock folder now: try again
	}
	if moved, err := os.Lstat(aside); err == nil && sameLockFile(moved, judged) {
		return false, nil
	}
	// Another plain file, an earlier version's lock taken since: back it
	// goes, unless a lock was taken in its place meanwhile.
	os.Link(aside, path)
	return true, nil
}

// sameLockFile reports whether a and b describe one file unchanged. The
// file's identity alone (os.SameFile) is not enough: a file system reuses
// the identity of a removed file for the next one created, such as a lock
// folder taken since.
func sameLockFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Mode() == b.Mode() && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// readLockRecord returns the record of the lock at path, a folder or an
// earlier version's plain file; false when there is none that can be read.
func readLockRecord(path string) (lockRecord, bool) {
	if entries, err := os.ReadDir(path); err == nil && len(entries) > 0 {
		path = filepath.Join(path, entries[0].Name())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return lockRecord{}, false
	}
	return parseLockRecord(data)
}
