package ingest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest"
)

// The progress counts the bytes of an input as they are read, not when the
// input is done: a run of one large input shows its pace. The server sends
// half of a WARC and waits until a progress report has counted some of it.
func TestProgressCountsBytesAsRead(t *testing.T) {
	data := sampleWARC(t, 3000)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Write(data[len(data)/2:])
	}))
	defer srv.Close()

	reports := make(chan ingest.Progress, 1000)
	cfg := ingest.Config{Dir: t.TempDir(), Crawl: "progress", Workers: 2, Progress: func(p ingest.Progress) {
		select {
		case reports <- p:
		default:
		}
	}}
	type result struct {
		sum ingest.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := ingest.Run(context.Background(), cfg, []string{srv.URL + "/a.warc.gz"})
		done <- result{sum, err}
	}()
	deadline := time.After(2 * time.Minute)
	for waiting := true; waiting; {
		select {
		case p := <-reports:
			if p.InputsDone == 0 && p.Bytes > 0 {
				if p.Bytes > int64(len(data)/2) {
					t.Errorf("progress counts %d bytes of the %d sent", p.Bytes, len(data)/2)
				}
				waiting = false
			}
		case r := <-done:
			t.Fatalf("run ended before the server sent the second half: %+v %v", r.sum.Progress, r.err)
		case <-deadline:
			t.Fatal("no progress report counted the bytes of the input being read")
		}
	}
	close(release)
	r := <-done
	if r.err != nil || r.sum.Bytes != int64(len(data)) || r.sum.BytesTotal != 0 || r.sum.Captures != 3000 {
		t.Errorf("summary %+v, %v; want %d bytes of an unknown total, 3000 captures", r.sum.Progress, r.err, len(data))
	}

	// The same file, local: its size is known before it is read.
	local := filepath.Join(t.TempDir(), "a.warc.gz")
	if err := os.WriteFile(local, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := runIngest(t, t.TempDir(), "progress", local)
	if sum.Bytes != int64(len(data)) || sum.BytesTotal != int64(len(data)) {
		t.Errorf("summary %+v, want %d bytes of %d", sum.Progress, len(data), len(data))
	}
}

func TestProgressETA(t *testing.T) {
	for _, tc := range []struct {
		p    ingest.Progress
		want time.Duration
		ok   bool
	}{
		{ingest.Progress{Inputs: 1, Bytes: 25, BytesTotal: 100, Elapsed: 10 * time.Second}, 30 * time.Second, true},
		{ingest.Progress{Inputs: 4, InputsDone: 1, Bytes: 25, Elapsed: 10 * time.Second}, 30 * time.Second, true},
		{ingest.Progress{Inputs: 4, Bytes: 25, Elapsed: 10 * time.Second}, 0, false},
		{ingest.Progress{Inputs: 1, BytesTotal: 100, Elapsed: 10 * time.Second}, 0, false},
	} {
		if got, ok := tc.p.ETA(); got != tc.want || ok != tc.ok {
			t.Errorf("%+v: ETA %v %v, want %v %v", tc.p, got, ok, tc.want, tc.ok)
		}
	}
}
