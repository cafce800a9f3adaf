package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/remote"
)

// syncBuffer is a bytes.Buffer safe for the goroutines of a run.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestIssue27RetryShown (issue 27 item 8): a remote input that cannot be
// reached is retried with word of it: each retry is logged at info level
// with its attempt, wait and cause, and the progress lists the input while
// it waits. The server refuses connections (loopback port 1); the wait is
// an hour, so the run is cancelled once a progress report shows it.
func TestIssue27RetryShown(t *testing.T) {
	const input = "http://127.0.0.1:1/x.warc.gz"
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shown := make(chan ingest.Progress, 1)
	cfg := ingest.Config{Dir: t.TempDir(), Crawl: "retry", Workers: 1,
		Logger:       slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})),
		FetchOptions: []remote.Option{remote.WithBackoff(time.Hour, time.Hour)},
		Progress: func(p ingest.Progress) {
			if len(p.Retrying) > 0 {
				select {
				case shown <- p:
					cancel()
				default:
				}
			}
		}}
	_, err := ingest.Run(ctx, cfg, []string{input})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v, want it cancelled while waiting to retry", err)
	}
	p := <-shown
	r := p.Retrying[0]
	if len(p.Retrying) != 1 || r.Input != input || r.Attempt != 2 || r.Of != remote.DefaultRetries+1 ||
		r.In < 29*time.Minute || r.In > time.Hour || !strings.Contains(r.Cause, "connection refused") {
		t.Errorf("progress lists %+v, want %s waiting up to an hour for attempt 2 of %d after a refused connection", p.Retrying, input, remote.DefaultRetries+1)
	}
	line := p.String()
	if want := "; retrying " + input + " in "; !strings.Contains(line, want) || !strings.Contains(line, "(attempt 2 of 9; ") {
		t.Errorf("progress line %q, want one saying %q and the attempt", line, want)
	}
	log := logs.String()
	if !strings.Contains(log, `level=INFO msg="retrying remote input" input=`+input+` attempt="2 of 9" wait=`) ||
		!strings.Contains(log, `error="dial tcp 127.0.0.1:1: connect: connection refused"`) {
		t.Errorf("log:\n%s\nwant an info line of the retry with its attempt, wait and cause", log)
	}
}

// TestIssue27ProgressLineRetries: the progress line names the first input
// waiting to retry, rounds the wait, and counts the others.
func TestIssue27ProgressLineRetries(t *testing.T) {
	base := ingest.Progress{Inputs: 3, Elapsed: 12 * time.Second}
	f := func(waits []ingest.RetryWait, want string) {
		t.Helper()
		p := base
		p.Retrying = waits
		if got := p.String(); got != want {
			t.Errorf("got  %q\nwant %q", got, want)
		}
	}
	a := ingest.RetryWait{Input: "https://a.example/x.warc.gz", Attempt: 4, Of: 9, In: 7400 * time.Millisecond, Cause: "connect: connection refused"}
	b := ingest.RetryWait{Input: "https://b.example/y.warc.gz", Attempt: 2, Of: 9, In: 420 * time.Millisecond, Cause: "HTTP status 503"}
	const head = "0/3 inputs, 0 captures (0/s), 0.0 MB read (0.0 MB/s), 12s"
	f(nil, head)
	f([]ingest.RetryWait{a}, head+"; retrying https://a.example/x.warc.gz in 7s (attempt 4 of 9; connect: connection refused)")
	f([]ingest.RetryWait{b, a}, head+"; retrying https://b.example/y.warc.gz in 400ms (attempt 2 of 9; HTTP status 503) and 1 more")
}
