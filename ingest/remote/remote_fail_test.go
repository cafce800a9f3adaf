package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
)

// Remote inputs that cannot be read to their end: each ends with a clear
// error, never with bytes of another version of the file spliced in, and
// what was read before the failure is kept.

// release is closed when a test ends, to free handlers that stall.
func release(t *testing.T) <-chan struct{} {
	ch := make(chan struct{})
	t.Cleanup(func() { close(ch) })
	return ch
}

// stall blocks until the client goes away or the test ends.
func stall(r *http.Request, done <-chan struct{}) {
	select {
	case <-r.Context().Done():
	case <-done:
	}
}

// TestRemoteOpenFails: failures before the first byte make Open fail, with
// the cause in the error and as many requests as the retries allow.
func TestRemoteOpenFails(t *testing.T) {
	done := release(t)
	opts := []Option{WithRetries(2), WithBackoff(time.Millisecond, 2*time.Millisecond),
		WithHeaderTimeout(100 * time.Millisecond), WithIdleTimeout(100 * time.Millisecond)}
	f := func(name string, h func(w http.ResponseWriter, r *http.Request), requests int, want ...error) {
		t.Helper()
		var log requestLog
		url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			log.add(r)
			h(w, r)
		}))
		start := time.Now()
		_, _, err := Open(context.Background(), url+"/x.warc.gz", opts)
		for _, target := range append(want, archive.ErrRead) {
			if !errors.Is(err, target) {
				t.Errorf("%s: error %v, want %v", name, err, target)
			}
		}
		var ie *archive.InputError
		if !errors.As(err, &ie) || ie.File != url+"/x.warc.gz" || ie.Offset != 0 {
			t.Errorf("%s: error %#v, want an *InputError at offset 0", name, err)
		}
		if log.len() != requests {
			t.Errorf("%s: %d requests, want %d", name, log.len(), requests)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: gave up after %v", name, d)
		}
	}
	status := func(code int) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", code) }
	}
	f("404", status(http.StatusNotFound), 1, ErrHTTPStatus)
	f("403", status(http.StatusForbidden), 1, ErrHTTPStatus)
	f("410", status(http.StatusGone), 1, ErrHTTPStatus)
	f("503 forever", status(http.StatusServiceUnavailable), 3, ErrRetriesExhausted, ErrHTTPStatus)
	f("connection closed forever", func(w http.ResponseWriter, r *http.Request) { hangUp(w) }, 3, ErrRetriesExhausted)
	f("no response header", func(w http.ResponseWriter, r *http.Request) { stall(r, done) }, 3, ErrRetriesExhausted, ErrHeaderTimeout)
	f("header, then no body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		stall(r, done)
	}, 3, ErrRetriesExhausted, ErrIdleTimeout)

	_, _, err := Open(context.Background(), startServer(t, http.HandlerFunc(status(http.StatusNotFound)))+"/x.warc.gz", opts)
	var se *HTTPStatusError
	if !errors.As(err, &se) || se.StatusCode != 404 || se.Status != "404 Not Found" || se.Retryable() {
		t.Errorf("404: %v", err)
	}
}

// TestRemoteEndsEarly: transfers that fail after their first bytes. The
// readers see the input end where the transfer stopped (recording the cut
// record as damage), the captures before are those of the local file, and
// Next then returns the transfer's error.
func TestRemoteEndsEarly(t *testing.T) {
	data := testWARC(t, 200)
	changed := testWARC(t, 201)
	const k = 30000
	local, _ := openDrain(t, writeTemp(t, "a/robotstxt/x.warc.gz", data))
	done := release(t)
	opts := []Option{WithRetries(2), WithBackoff(time.Millisecond, 2*time.Millisecond),
		WithHeaderTimeout(100 * time.Millisecond), WithIdleTimeout(100 * time.Millisecond)}
	// after answers the requests that follow a first response cut at k.
	f := func(name string, after func(w http.ResponseWriter, r *http.Request), want ...error) {
		t.Helper()
		var log requestLog
		url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if log.add(r) == 0 {
				serveBytes(&cutWriter{ResponseWriter: w, left: k}, r, data, `"v1"`)
				return
			}
			after(w, r)
		})) + "/a/robotstxt/x.warc.gz"
		remote, err := openDrain(t, url, opts...)
		if err != nil {
			t.Fatalf("%s: Open: %v", name, err)
		}
		for _, target := range append(want, archive.ErrTruncated) {
			if !errors.Is(remote.err, target) {
				t.Errorf("%s: error %v, want %v", name, remote.err, target)
			}
		}
		var ie *archive.InputError
		if !errors.As(remote.err, &ie) || ie.File != url || ie.Offset != k {
			t.Errorf("%s: error %#v, want an *InputError at offset %d", name, remote.err, k)
		}
		checkPrefix(t, local, remote)
		c := remote.counts
		if c.Bytes > k || len(remote.caps) == 0 || c.DamageCount == 0 || !slices.Contains(damageKinds(c), archive.DamageTruncated) {
			t.Errorf("%s: %d captures, counts %+v: want captures up to byte %d and truncation damage", name, len(remote.caps), c, k)
		}
	}
	f("changed: If-Range answered with the new file", func(w http.ResponseWriter, r *http.Request) {
		serveBytes(w, r, changed, `"v2"`)
	}, ErrRemoteChanged)
	f("changed: 206 with another ETag", func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("If-Range")
		serveBytes(w, r, data, `"v2"`)
	}, ErrRemoteChanged)
	f("changed: another total length in Content-Range", func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("If-Range")
		serveBytes(w, r, changed, "")
	}, ErrRemoteChanged)
	f("changed: another Content-Length in a 200", func(w http.ResponseWriter, r *http.Request) {
		serveBytes(w, r, changed, "")
	}, ErrRemoteChanged)
	f("changed: range ignored, a 200 with another ETag", func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Range")
		serveBytes(w, r, data, `"v2"`)
	}, ErrRemoteChanged)
	f("changed: range ignored, a 200 with another Last-Modified", func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Range")
		r.Header.Del("If-Range")
		serveFile(w, r, data, `"v1"`, modTime.Add(time.Hour))
	}, ErrRemoteChanged)
	f("changed: shorter than the bytes read (416)", func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("If-Range")
		serveBytes(w, r, data[:k-10], "")
	}, ErrRemoteChanged)
	f("206 from the wrong offset", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(data)-1, len(data)))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(data)
	}, ErrRangeIgnored)
	f("gone when resuming (404)", func(w http.ResponseWriter, r *http.Request) {
		http.NotFound(w, r)
	}, ErrHTTPStatus)
	f("truncated: nothing more on retry", func(w http.ResponseWriter, r *http.Request) {
		serveBytes(&cutWriter{ResponseWriter: w, left: 0}, r, data, `"v1"`)
	}, ErrRetriesExhausted)
	f("stalled when resuming", func(w http.ResponseWriter, r *http.Request) {
		stall(r, done)
	}, ErrRetriesExhausted, ErrHeaderTimeout)
	f("stalled mid-body", func(w http.ResponseWriter, r *http.Request) {
		serveBytes(&stallWriter{ResponseWriter: w, r: r, done: done}, r, data, `"v1"`)
	}, ErrRetriesExhausted, ErrIdleTimeout)
}

// stallWriter sends the header, then stalls.
type stallWriter struct {
	http.ResponseWriter
	r    *http.Request
	done <-chan struct{}
}

func (w *stallWriter) Write(p []byte) (int, error) {
	http.NewResponseController(w.ResponseWriter).Flush()
	stall(w.r, w.done)
	return 0, errCut
}

// TestRemoteTruncatedFile: a server whose Content-Length promises more
// than the file holds (it closes the connection after the real bytes, and
// has nothing more on a Range request): the input ends with truncation
// damage and an error, with every complete capture kept.
func TestRemoteTruncatedFile(t *testing.T) {
	data := testWARC(t, 100)
	have := len(data) * 3 / 5
	var log requestLog
	url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		from := 0
		if rng := r.Header.Get("Range"); rng != "" {
			from, _ = strconv.Atoi(rng[len("bytes=") : len(rng)-1])
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(data)-1, len(data)))
			w.Header().Set("Content-Length", strconv.Itoa(len(data)-from))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		}
		if from < have {
			w.Write(data[from:have])
		}
		dropConn(w)
	})) + "/x.warc.gz"
	local, _ := openDrain(t, writeTemp(t, "x.warc.gz", data))
	cut, _ := openDrain(t, writeTemp(t, "x.warc.gz", data[:have]))
	remote, err := openDrain(t, url, WithRetries(3), WithBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(remote.err, archive.ErrTruncated) || !errors.Is(remote.err, ErrRetriesExhausted) {
		t.Errorf("error %v, want ErrTruncated and ErrRetriesExhausted", remote.err)
	}
	checkPrefix(t, local, remote)
	// What the readers saw is exactly the local file cut at the same byte.
	remote.err = nil
	sameRead(t, cut, remote)
	if !slices.Contains(damageKinds(remote.counts), archive.DamageTruncated) || log.len() != 4 {
		t.Errorf("damage %v after %d requests, want truncation after 4 (1 + 3 retries)", damageKinds(remote.counts), log.len())
	}
}

// TestRemoteContext: cancelling the context of OpenContext ends a stalled
// transfer at once, whatever the timeouts.
func TestRemoteContext(t *testing.T) {
	data := testWARC(t, 50)
	done := release(t)
	url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.Write(data[:5000])
		http.NewResponseController(w).Flush()
		stall(r, done)
	}))
	ctx, cancel := context.WithCancel(context.Background())
	r, closer, err := Open(ctx, url+"/x.warc.gz", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	res := drain(t, r)
	if !errors.Is(res.err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Errorf("error %v after %v, want context.Canceled at once", res.err, time.Since(start))
	}
}

// TestRemoteOptions: invalid option values are refused before any request.
func TestRemoteOptions(t *testing.T) {
	f := func(o Option) {
		t.Helper()
		if _, _, err := Open(context.Background(), "http://127.0.0.1:1/x.warc.gz", []Option{o}); !errors.Is(err, archive.ErrInvalidOption) {
			t.Errorf("%v, want ErrInvalidOption", err)
		}
	}
	f(WithHTTPClient(nil))
	f(WithHeaderTimeout(0))
	f(WithIdleTimeout(-time.Second))
	f(WithRetries(-1))
	f(WithRetries(MaxRetries + 1))
	f(WithBackoff(0, time.Second))
	f(WithBackoff(time.Second, time.Millisecond))
	f(WithUserAgent(""))
	f(WithUserAgent("a\r\nX-Evil: 1"))
	f(WithBaseURL(""))
	f(WithBaseURL("ftp://mirror/"))
	f(WithBaseURL("s3://a/"))
	f(WithBaseURL("https:///no-host"))
	f(WithS3(S3Config{Endpoint: "ftp://store"}))
	f(WithS3(S3Config{Endpoint: "http://store/?x=1"}))
	f(WithS3(S3Config{Endpoint: "127.0.0.1:7070"}))
	f(WithS3(S3Config{URLStyle: "dns"}))
	f(WithHostRequests(0))
	f(WithHostRequests(MaxHostRequests + 1))
}

// TestRemoteNames: other URL schemes are refused clearly; a URL without
// host, and an s3:// URL without a bucket or key, are input errors that
// another run cannot mend (Permanent), found before any request.
func TestRemoteNames(t *testing.T) {
	if _, _, err := Open(context.Background(), "ftp://mirror/crawl-data/x.warc.gz", nil); !errors.Is(err, archive.ErrUnsupportedFormat) {
		t.Errorf("ftp: %v, want ErrUnsupportedFormat", err)
	}
	for name, why := range map[string]string{"s3:///x.warc.gz": "no bucket", "s3://ab/x.warc.gz": `bucket name "ab"`,
		"s3://a+b/x": `bucket name "a+b"`, "s3://bucket": "no key", "s3://bucket/": "no key"} {
		_, _, err := Open(context.Background(), name, nil)
		if !errors.Is(err, archive.ErrRead) || !Permanent(err) || !strings.Contains(fmt.Sprint(err), why) {
			t.Errorf("%s: %v, want a permanent ErrRead saying %q", name, err, why)
		}
	}
	if _, _, err := Open(context.Background(), "https:///x.warc.gz", nil); !errors.Is(err, archive.ErrRead) {
		t.Errorf("no host: %v, want ErrRead", err)
	}
	for name, want := range map[string]bool{"http://h/x": true, "HTTPS://h/x": true, "ftp://h/x": false, "s3://b/k": true, "S3://b/k": true, "/tmp/http://x": false, "x.warc": false} {
		if IsRemote(name) != want {
			t.Errorf("IsRemote(%q) = %v", name, !want)
		}
	}
}
