package remote

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
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
	if !errors.Is(remote.err, ErrRemoteChanged) || !errors.Is(remote.err, archive.ErrTruncated) {
		t.Errorf("shorter file: error %v, want ErrRemoteChanged", remote.err)
	}
	checkPrefix(t, local, remote)
}

// TestIssue16PermanentFailures: failures that another attempt cannot mend
// fail at once, with one request: redirect loops, too many redirects, a
// Location without a scheme or of another scheme, 4xx other than 408 and
// 429. Transient ones (5xx, 429, 408) are retried.
func TestIssue16PermanentFailures(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	var srvURL string
	url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		p := r.URL.Path
		switch {
		case p == "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case p == "/ping":
			http.Redirect(w, r, "/pong", http.StatusMovedPermanently)
		case p == "/pong":
			http.Redirect(w, r, "/ping", http.StatusMovedPermanently)
		case strings.HasPrefix(p, "/chain/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(p, "/chain/"))
			http.Redirect(w, r, "/chain/"+strconv.Itoa(n+1), http.StatusFound)
		case p == "/noscheme":
			w.Header().Set("Location", strings.TrimPrefix(srvURL, "http://")+"/x.warc.gz")
			w.WriteHeader(http.StatusFound)
		case p == "/ftp":
			http.Redirect(w, r, "ftp://example.com/x.warc.gz", http.StatusFound)
		default:
			code, _ := strconv.Atoi(strings.TrimPrefix(p, "/"))
			http.Error(w, "no", code)
		}
	}))
	srvURL = url
	f := func(path string, requests int, want ...error) {
		t.Helper()
		start := time.Now()
		opts := []Option{WithRetries(3), WithBackoff(50*time.Millisecond, 50*time.Millisecond)}
		_, _, err := Open(context.Background(), url+path, opts)
		for _, target := range append(want, archive.ErrRead) {
			if !errors.Is(err, target) {
				t.Errorf("%s: error %v, want %v", path, err, target)
			}
		}
		if transient(err) != (requests > 1) {
			t.Errorf("%s: transient(%v) = %v", path, err, transient(err))
		}
		mu.Lock()
		n := hits[path]
		mu.Unlock()
		if n != requests {
			t.Errorf("%s: %d requests, want %d (%v)", path, n, requests, err)
		}
		if d := time.Since(start); requests == 1 && d > time.Second {
			t.Errorf("%s: failed after %v", path, d)
		}
	}
	f("/loop", 1, ErrRedirect)
	f("/ping", 1, ErrRedirect)
	f("/chain/0", 1, ErrRedirect)
	f("/noscheme", 1)
	f("/ftp", 1, ErrRedirect)
	f("/404", 1, ErrHTTPStatus)
	f("/400", 1, ErrHTTPStatus)
	f("/401", 1, ErrHTTPStatus)
	f("/410", 1, ErrHTTPStatus)
	f("/408", 4, ErrRetriesExhausted, ErrHTTPStatus)
	f("/429", 4, ErrRetriesExhausted, ErrHTTPStatus)
	f("/500", 4, ErrRetriesExhausted, ErrHTTPStatus)
	f("/503", 4, ErrRetriesExhausted, ErrHTTPStatus)

	// Names that are not URLs to fetch fail before any request.
	for _, bad := range []string{"http://", "http://[::1", "http://host:port/x.warc.gz", "ftp://example.com/x.warc.gz"} {
		start := time.Now()
		if _, _, err := Open(context.Background(), bad, nil); err == nil || time.Since(start) > time.Second {
			t.Errorf("Open(%q): %v after %v, want an error at once", bad, err, time.Since(start))
		}
	}
}
