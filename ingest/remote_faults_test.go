package ingest

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
)

// Remote faults of issue 16, each against a loopback server that injects
// it, compared with a local read of the same file.

// TestIssue16RangeIgnored: a server that answers Range requests with 200
// and the whole file is read again from its start, its first bytes
// dropped, as wget and curl do: every capture once, as in the local read.
// A 200 that is not the same file (shorter than what was read, when the
// length is unknown) ends the input with ErrRemoteChanged.
func TestIssue16RangeIgnored(t *testing.T) {
	data := testWARC(t, 200)
	local, _ := openDrain(t, writeTemp(t, "a/robotstxt/x.warc.gz", data))
	const k = 30000
	// f serves data ignoring Range, the n-th response (from 0) cut after
	// cut(n) bytes (all of them when cut(n) <= 0).
	f := func(name string, chunked bool, cut func(n int) int, requests int) {
		t.Helper()
		var log requestLog
		url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := log.add(r)
			w.Header().Set("ETag", `"v1"`)
			if !chunked {
				w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			}
			w.WriteHeader(http.StatusOK)
			if c := cut(n); c > 0 {
				(&cutWriter{ResponseWriter: w, left: c}).Write(data)
				return
			}
			w.Write(data)
		})) + "/a/robotstxt/x.warc.gz"
		remote, err := openDrain(t, url, fast...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameRead(t, local, remote)
		if remote.err != nil {
			t.Errorf("%s: %v", name, remote.err)
		}
		if log.len() != requests {
			t.Errorf("%s: %d requests (ranges %q), want %d", name, log.len(), log.ranges(), requests)
		}
	}
	f("cut once", false, func(n int) int { return k * (1 - n) }, 2)
	f("cut once, no Content-Length", true, func(n int) int { return k * (1 - n) }, 2)
	f("cut further each time", false, func(n int) int {
		if n == 4 {
			return 0
		}
		return k * (n + 1)
	}, 5)

	// The second answer is a shorter file of unknown length.
	short := data[:k/2]
	var log requestLog
	url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if log.add(r) == 0 {
			w.WriteHeader(http.StatusOK)
			(&cutWriter{ResponseWriter: w, left: k}).Write(data)
			return
		}
		w.WriteHeader(http.StatusOK)
		w.Write(short)
	})) + "/a/robotstxt/x.warc.gz"
	remote, err := openDrain(t, url, fast...)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(remote.err, ErrRemoteChanged) || !errors.Is(remote.err, ErrTruncated) {
		t.Errorf("shorter file: error %v, want ErrRemoteChanged", remote.err)
	}
	checkPrefix(t, local, remote)
}
