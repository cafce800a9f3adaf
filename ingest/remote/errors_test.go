package remote

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
)

// TestErrorPrefix checks that every sentinel of the package and the
// errors it returns name the package once at the start of their text,
// archive's sentinels they wrap included: "remote: read error: retries
// exhausted after 2 attempts: HTTP status 503 ...", never "ingest: ..."
// nor "archive: read error: remote: ...". errors.Is still finds every
// sentinel in the chain.
func TestErrorPrefix(t *testing.T) {
	sentinels := map[string]error{
		"ErrHTTPStatus":       ErrHTTPStatus,
		"ErrRetriesExhausted": ErrRetriesExhausted,
		"ErrRangeIgnored":     ErrRangeIgnored,
		"ErrRemoteChanged":    ErrRemoteChanged,
		"ErrHeaderTimeout":    ErrHeaderTimeout,
		"ErrIdleTimeout":      ErrIdleTimeout,
		"ErrRedirect":         ErrRedirect,
		"ErrManifest":         ErrManifest,
	}
	testutil.CheckSentinels(t, ".", sentinels, func(name string, err error) { checkRemotePrefix(t, name, err) })
	checkRemotePrefix(t, "HTTPStatusError", &HTTPStatusError{StatusCode: 404, Status: "404 Not Found"})

	optErr := CheckOptions(WithRetries(-1))
	checkRemotePrefix(t, "an option error", optErr, archive.ErrInvalidOption)
	_, manifestErr := ReadManifest(strings.NewReader("crawl-data/../x.warc.gz\n"), DefaultBaseURL)
	checkRemotePrefix(t, "a manifest error", manifestErr, ErrManifest)

	url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	opts := []Option{WithRetries(1), WithBackoff(time.Millisecond, time.Millisecond)}
	_, _, openErr := Open(context.Background(), url+"/busy.warc.gz", opts)
	var inErr *archive.InputError
	if !errors.As(openErr, &inErr) {
		t.Fatalf("Open: %v, want an *archive.InputError", openErr)
	}
	checkRemotePrefix(t, "Open's error", inErr.Err, archive.ErrRead, ErrRetriesExhausted, ErrHTTPStatus)
	if got, want := inErr.Err.Error(), "remote: read error: retries exhausted after 2 attempts: HTTP status 503 Service Unavailable"; got != want {
		t.Errorf("Open's error: %q, want %q", got, want)
	}
}

// checkRemotePrefix fails the test unless err's text starts with
// "remote: ", names no package again, and err wraps each of wraps.
func checkRemotePrefix(t *testing.T, what string, err error, wraps ...error) {
	t.Helper()
	testutil.CheckErrorPrefix(t, what, err, "remote: ", "archive: ", "ingest: ")
	if err == nil {
		return
	}
	for _, w := range wraps {
		if !errors.Is(err, w) {
			t.Errorf("%s: %q does not wrap %q", what, err, w)
		}
	}
}
