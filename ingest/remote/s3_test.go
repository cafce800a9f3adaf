package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
)

// s3:// inputs against a real S3-compatible server on loopback
// (versitygw, see internal/testutil/s3test): what an object yields must be
// exactly what the same file yields when read locally, whatever happens to
// the connections in between.

// TestS3RequestURL: the URL styles, AWS's endpoints, and keys encoded as
// S3 signs them ("=" of a Hive partition as %3D).
func TestS3RequestURL(t *testing.T) {
	for _, c := range []struct {
		cfg       S3Config
		name, url string
	}{
		{S3Config{Endpoint: "http://127.0.0.1:7070"}, "s3://data/captures/crawl=CC-MAIN-2025-05/part 0.parquet",
			"http://127.0.0.1:7070/data/captures/crawl%3DCC-MAIN-2025-05/part%200.parquet"},
		{S3Config{Endpoint: "https://store.example/base/", URLStyle: S3VirtualStyle}, "s3://data/a/b~c.warc.gz",
			"https://data.store.example/base/a/b~c.warc.gz"},
		{S3Config{}, "s3://commoncrawl/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz",
			"https://commoncrawl.s3.us-east-1.amazonaws.com/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz"},
		{S3Config{Region: "eu-west-1"}, "s3://my.bucket/k+1", "https://s3.eu-west-1.amazonaws.com/my.bucket/k%2B1"},
		{S3Config{Region: "eu-west-1", URLStyle: S3PathStyle}, "s3://bucket/k", "https://s3.eu-west-1.amazonaws.com/bucket/k"},
	} {
		obj, err := parseS3(c.name)
		if err != nil {
			t.Fatal(err)
		}
		u, err := obj.requestURL(c.cfg)
		if err != nil || u.String() != c.url {
			t.Errorf("%s under %+v: %v, %v, want %s", c.name, c.cfg, u, err, c.url)
		}
	}
}

// s3Store starts versitygw with the bucket "data" and returns it, with
// the options that read from it quickly (millisecond retries).
func s3Store(t *testing.T) (*s3test.Server, []Option) {
	t.Helper()
	srv := s3test.Start(t)
	srv.CreateBucket(t, "data")
	return srv, s3Options(srv.URL, srv.Credentials())
}

// s3Options reads from endpoint with creds, retrying quickly.
func s3Options(endpoint string, creds aws.CredentialsProvider) []Option {
	return append([]Option{WithS3(S3Config{Endpoint: endpoint, Region: s3test.Region, Credentials: creds})}, fast...)
}

// TestS3Read: WARC, gzip'd WARC and tar inputs read from s3:// (keys with
// "=" and spaces included) give exactly what the same files give read
// locally, each with a single GET.
func TestS3Read(t *testing.T) {
	srv, _ := s3Store(t)
	files := map[string][]byte{
		"crawl-data/CC-MAIN-2025-05/robotstxt/x.warc.gz": testWARC(t, 200),
		"bodies/part=1/robots bodies.tar.gz":             testTar(t),
	}
	for key, data := range files {
		srv.Put(t, "data", key, data)
		local, err := openDrain(t, writeTemp(t, key, data))
		if err != nil {
			t.Fatal(err)
		}
		proxy, log := startS3Proxy(t, srv.URL, nil)
		remote, err := openDrain(t, "s3://data/"+key, s3Options(proxy, srv.Credentials())...)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		sameRead(t, local, remote)
		if remote.err != nil || len(local.caps) == 0 {
			t.Errorf("%s: %v after %d captures", key, remote.err, len(remote.caps))
		}
		if log.len() != 1 {
			t.Errorf("%s: %d requests, want 1", key, log.len())
		}
	}
}

// startS3Proxy starts a loopback proxy to the S3 server at target that
// logs each request and hands it to fault (nil: none) with its index
// (from 0): fault answers it itself and returns nil, or returns the writer
// the server's answer is passed through (w, or one that cuts or stalls
// it). The Host header is passed on, as the signature covers it.
func startS3Proxy(t *testing.T, target string, fault func(n int, w http.ResponseWriter, r *http.Request) http.ResponseWriter) (string, *requestLog) {
	t.Helper()
	to, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(to)
			r.Out.Host = r.In.Host
		},
		ErrorLog: log.New(io.Discard, "", 0),
	}
	var reqs requestLog
	return startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := reqs.add(r)
		if fault != nil {
			if w = fault(n, w, r); w == nil {
				return
			}
		}
		proxy.ServeHTTP(w, r)
	})), &reqs
}

// slowDown answers as S3 does when asked to slow down: 503 SlowDown.
func slowDown(w http.ResponseWriter, retryAfter string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`)
}

// TestS3Faults: between client and server, a connection reset in the
// middle of the object, a stall, and 503 SlowDown answers (with a
// Retry-After that is waited) are survived: the read is the local one,
// resumed with Range requests from where each stopped, signed like the
// first.
func TestS3Faults(t *testing.T) {
	srv, _ := s3Store(t)
	data := testWARC(t, 300)
	key := "crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/x.warc.gz"
	srv.Put(t, "data", key, data)
	local, err := openDrain(t, writeTemp(t, key, data))
	if err != nil {
		t.Fatal(err)
	}
	done := release(t)
	const k = 20000
	for _, c := range []struct {
		name     string
		fault    func(n int, w http.ResponseWriter, r *http.Request) http.ResponseWriter
		opts     []Option
		requests int
		ranges   []string
		wait     time.Duration // the least wait told before the second request
	}{
		{"reset mid-object twice", func(n int, w http.ResponseWriter, r *http.Request) http.ResponseWriter {
			if n < 2 {
				return &cutWriter{ResponseWriter: w, left: k}
			}
			return w
		}, nil, 3, []string{"", fmt.Sprintf("bytes=%d-", k), fmt.Sprintf("bytes=%d-", 2*k)}, 0},
		{"stall mid-object", func(n int, w http.ResponseWriter, r *http.Request) http.ResponseWriter {
			if n == 0 {
				return &stallAfter{cutWriter: cutWriter{ResponseWriter: w, left: k}, r: r, done: done}
			}
			return w
		}, []Option{WithIdleTimeout(200 * time.Millisecond)}, 2, []string{"", fmt.Sprintf("bytes=%d-", k)}, 0},
		{"503 SlowDown, then Retry-After 1", func(n int, w http.ResponseWriter, r *http.Request) http.ResponseWriter {
			switch n {
			case 0:
				slowDown(w, "")
			case 1:
				slowDown(w, "1")
			default:
				return w
			}
			return nil
		}, []Option{WithBackoff(time.Millisecond, 5*time.Second)}, 3, []string{"", "", ""}, time.Second},
	} {
		proxy, reqs := startS3Proxy(t, srv.URL, c.fault)
		var retries retryLog
		opts := append(append(s3Options(proxy, srv.Credentials()), c.opts...), WithRetryNotify(retries.add))
		remote, err := openDrain(t, "s3://data/"+key, opts...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sameRead(t, local, remote)
		if remote.err != nil {
			t.Errorf("%s: %v", c.name, remote.err)
		}
		if got := reqs.ranges(); !slices.Equal(got, c.ranges) {
			t.Errorf("%s: ranges %q, want %q", c.name, got, c.ranges)
		}
		told := retries.all()
		if len(told) != c.requests-1 {
			t.Fatalf("%s: %d retries told, want %d", c.name, len(told), c.requests-1)
		}
		if last := told[len(told)-1]; last.Wait < c.wait {
			t.Errorf("%s: waited %v before the last retry, want at least %v (%v)", c.name, last.Wait, c.wait, last.Err)
		}
		if strings.Contains(c.name, "SlowDown") && !strings.Contains(told[0].Cause(), "S3 SlowDown") {
			t.Errorf("%s: retry told %q, want the S3 code", c.name, told[0].Cause())
		}
	}
}

// stallAfter passes on its cutWriter's bytes, then stalls instead of
// cutting.
type stallAfter struct {
	cutWriter
	r    *http.Request
	done <-chan struct{}
}

func (w *stallAfter) Write(p []byte) (int, error) {
	if len(p) < w.left {
		w.left -= len(p)
		return w.ResponseWriter.Write(p)
	}
	n, _ := w.ResponseWriter.Write(p[:w.left])
	w.left = 0
	http.NewResponseController(w.ResponseWriter).Flush()
	stall(w.r, w.done)
	return n, errCut
}

// TestS3Errors: a missing key, a missing bucket, wrong credentials, an
// anonymous request to a private bucket and an unreachable endpoint fail
// at Open with an error that names the input and says the cause, in S3's
// words where the store gave them; none but the unreachable endpoint is
// retried.
func TestS3Errors(t *testing.T) {
	srv, opts := s3Store(t)
	srv.Put(t, "data", "x.warc.gz", testWARC(t, 5))
	wrong := credentials.NewStaticCredentialsProvider(s3test.AccessKey, "not-the-secret", "")
	for _, c := range []struct {
		name  string
		opts  []Option
		wants []string
		tries int
	}{
		{"s3://data/missing.warc.gz", opts, []string{"404", "S3 NoSuchKey"}, 1},
		{"s3://nobucket/x.warc.gz", opts, []string{"404", "S3 NoSuchBucket"}, 1},
		{"s3://data/x.warc.gz", s3Options(srv.URL, wrong), []string{"403", "S3 SignatureDoesNotMatch"}, 1},
		{"s3://data/x.warc.gz", s3Options(srv.URL, nil), []string{"403", "S3 AccessDenied", "anonymous: no AWS credentials found"}, 1},
		{"s3://data/x.warc.gz", s3Options("http://127.0.0.1:1", srv.Credentials()), []string{"retries exhausted after 4 attempts", "connection refused"}, 4},
	} {
		var retries retryLog
		_, _, err := Open(context.Background(), c.name, append(c.opts, WithRetryNotify(retries.add)))
		var ie *archive.InputError
		if !errors.As(err, &ie) || ie.File != c.name || !errors.Is(err, archive.ErrRead) {
			t.Errorf("%s: %v, want an input error of %s", c.name, err, c.name)
			continue
		}
		for _, w := range c.wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
		if n := len(retries.all()) + 1; n != c.tries {
			t.Errorf("%s: %d attempts, want %d", c.name, n, c.tries)
		}
	}
}

// TestS3Manifest: an s3:// manifest's relative paths are keys of its
// bucket; a line that is an s3:// URL is taken as is. Each input then
// reads from the store, and a missing one fails alone.
func TestS3Manifest(t *testing.T) {
	srv, opts := s3Store(t)
	paths := []string{"crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/a.warc.gz", "crawl-data/CC-MAIN-2025-05/segments/2/robotstxt/b.warc.gz"}
	srv.Put(t, "data", paths[0], testWARC(t, 3))
	srv.Put(t, "data", "crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz", manifestOf(t, paths[0], paths[1], "s3://other/c.warc.gz"))
	got, err := ExpandInputs([]string{"s3://data/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz"}, opts...)
	want := []string{"s3://data/" + paths[0], "s3://data/" + paths[1], "s3://other/c.warc.gz"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("ExpandInputs: %q, %v, want %q", got, err, want)
	}
	if r, err := openDrain(t, got[0], opts...); err != nil || len(r.caps) != 3 || r.err != nil {
		t.Errorf("%s: %d captures, %v, %v", got[0], len(r.caps), err, r.err)
	}
	if _, err := openDrain(t, got[1], opts...); err == nil || !strings.Contains(err.Error(), "NoSuchKey") {
		t.Errorf("%s: %v, want NoSuchKey", got[1], err)
	}
	_, err = ExpandInputs([]string{"s3://data/crawl-data/missing/robotstxt.paths.gz"}, opts...)
	if err == nil || !strings.Contains(err.Error(), "reading manifest s3://data/crawl-data/missing/robotstxt.paths.gz") || !strings.Contains(err.Error(), "NoSuchKey") {
		t.Errorf("missing manifest: %v", err)
	}
}

// TestHostRequests: with WithHostRequests(n), no more than n requests are
// in flight to one host at once, however many inputs are read together,
// and every input is read whole.
func TestHostRequests(t *testing.T) {
	data := testWARC(t, 100)
	var inFlight, most atomic.Int32
	url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond)
		serveBytes(w, r, data, `"v1"`)
	}))
	opts := append([]Option{WithHostRequests(2)}, fast...)
	results := make(chan error, 8)
	for i := range 8 {
		go func() {
			r, err := openDrain(t, fmt.Sprintf("%s/%d/x.warc.gz", url, i), opts...)
			if err == nil && (r.err != nil || len(r.caps) != 100) {
				err = fmt.Errorf("%d captures, %v", len(r.caps), r.err)
			}
			results <- err
		}()
	}
	for range 8 {
		if err := <-results; err != nil {
			t.Error(err)
		}
	}
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d requests in flight, want 2", m)
	}
}
