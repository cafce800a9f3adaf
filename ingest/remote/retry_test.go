package remote

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// retryLog records what WithRetryNotify is told.
type retryLog struct {
	mu      sync.Mutex
	retries []Retry
}

func (l *retryLog) add(r Retry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.retries = append(l.retries, r)
}

func (l *retryLog) all() []Retry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Retry(nil), l.retries...)
}

// refusedURL is a loopback address that refuses connections: port 1
// (tcpmux), which nothing serves on a loopback interface.
const refusedURL = "http://127.0.0.1:1"

// TestIssue27RetriesAreTold (issue 27 item 8): each retry of a transient
// failure is told, before its wait, with the attempts failed in a row, the
// attempts allowed, the wait and the cause; the last failure, which ends
// the transfer, is not a retry. Failures that reading again cannot mend (a
// host that does not exist, another scheme, a malformed URL) make no
// attempt again, are told of no retry, and are Permanent; a 404 makes one
// attempt too but is not Permanent.
func TestIssue27RetriesAreTold(t *testing.T) {
	var requests sync.Map
	url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := requests.LoadOrStore(r.URL.Path, new(int))
		*n.(*int)++
		if r.URL.Path == "/404" {
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	f := func(name string, retries int, cause string, permanent bool) {
		t.Helper()
		var log retryLog
		opts := []Option{WithRetries(2), WithBackoff(time.Millisecond, 2*time.Millisecond), WithRetryNotify(log.add)}
		_, _, err := Open(context.Background(), name, opts)
		if err == nil || !strings.Contains(err.Error(), cause) {
			t.Fatalf("%s: error %v, want one saying %q", name, err, cause)
		}
		if Permanent(err) != permanent {
			t.Errorf("%s: Permanent(%v) = %v, want %v", name, err, !permanent, permanent)
		}
		if exhausted := errors.Is(err, ErrRetriesExhausted); exhausted != (retries > 0) {
			t.Errorf("%s: error %v; retries exhausted: %v", name, err, exhausted)
		}
		got := log.all()
		if len(got) != retries {
			t.Fatalf("%s: told of %d retries (%+v), want %d", name, len(got), got, retries)
		}
		for i, r := range got {
			if r.URL != name || r.Failed != i+1 || r.Allowed != 3 || r.Wait <= 0 || r.Wait > 2*time.Millisecond || !strings.Contains(r.Cause(), cause) {
				t.Errorf("%s: retry %d told %+v (cause %q), want attempt %d of 3 failed, a wait up to 2ms, cause %q", name, i, r, r.Cause(), i+1, cause)
			}
			if strings.Contains(r.Cause(), `Get "`) {
				t.Errorf("%s: cause %q repeats the request", name, r.Cause())
			}
		}
	}
	f(refusedURL+"/x.warc.gz", 2, "connection refused", false)
	f(url+"/503", 2, "HTTP status 503 Service Unavailable", false)
	if n, _ := requests.Load("/503"); *n.(*int) != 3 {
		t.Errorf("/503: %d requests, want 3", *n.(*int))
	}
	f(url+"/404", 0, "HTTP status 404 Not Found", false)
	f("http://robots.invalid/x.warc.gz", 0, "no such host", true)
	f("https://Mirror.Invalid./x.warc.gz", 0, "no such host", true)
	f("ftp://example.com/x.warc.gz", 0, `URL scheme "ftp"`, true)
	f("http://[::1/x.warc.gz", 0, "bad URL", true)
	f("http:///x.warc.gz", 0, "URL without host", true)
	if n, _ := requests.Load("/404"); *n.(*int) != 1 {
		t.Errorf("/404: %d requests, want 1", *n.(*int))
	}
}
