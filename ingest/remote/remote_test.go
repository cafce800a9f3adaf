package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
)

// Remote inputs against real HTTP servers on loopback (httptest): what a
// URL yields must be exactly what the same file yields when read locally,
// whatever the server does to the connections in between.

// fast makes retries quick: a few attempts, millisecond waits.
var fast = []Option{WithRetries(3), WithBackoff(time.Millisecond, 5*time.Millisecond)}

// modTime is the Last-Modified time of the bytes served by serveBytes.
var modTime = time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC)

// startServer starts a loopback HTTP server and returns its URL.
func startServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// serveBytes serves data as net/http serves files: Range, If-Range,
// Content-Length, Last-Modified, and the ETag when given.
func serveBytes(w http.ResponseWriter, r *http.Request, data []byte, etag string) {
	serveFile(w, r, data, etag, modTime)
}

// serveFile is serveBytes with a given Last-Modified time.
func serveFile(w http.ResponseWriter, r *http.Request, data []byte, etag string, mod time.Time) {
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	http.ServeContent(w, r, "", mod, bytes.NewReader(data))
}

// errCut is what a cutWriter returns once it has dropped the connection.
var errCut = errors.New("connection dropped by the test server")

// cutWriter passes on at most left body bytes, then flushes them, hijacks
// the connection and closes it: the client sees a body cut mid-way.
type cutWriter struct {
	http.ResponseWriter
	left int
}

func (w *cutWriter) Write(p []byte) (int, error) {
	if len(p) < w.left {
		w.left -= len(p)
		return w.ResponseWriter.Write(p)
	}
	n, _ := w.ResponseWriter.Write(p[:w.left])
	w.left = 0
	dropConn(w.ResponseWriter)
	return n, errCut
}

func (w *cutWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// dropConn flushes what was written and closes the connection.
func dropConn(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	rc.Flush()
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
}

// hangUp closes the connection without answering.
func hangUp(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
	}
}

// requestLog records the requests a server received.
type requestLog struct {
	mu   sync.Mutex
	reqs []http.Header
	at   []time.Time
}

// add records r and returns its index (0 for the first request).
func (l *requestLog) add(r *http.Request) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r.Header.Clone())
	l.at = append(l.at, time.Now())
	return len(l.reqs) - 1
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// ranges lists the Range header of each request ("" when none).
func (l *requestLog) ranges() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, h := range l.reqs {
		out = append(out, h.Get("Range"))
	}
	return out
}

// dropping serves data, cutting every response after k body bytes.
func dropping(data []byte, etag string, k int, log *requestLog) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		serveBytes(&cutWriter{ResponseWriter: w, left: k}, r, data, etag)
	}
}

// openDrain opens name, a URL or a local file to compare with, and reads
// it to its end.
func openDrain(tb testing.TB, name string, opts ...Option) (readResult, error) {
	tb.Helper()
	return openDrainRead(tb, name, nil, opts...)
}

// openDrainRead is openDrain with options of the archive readers.
func openDrainRead(tb testing.TB, name string, read []archive.Option, opts ...Option) (readResult, error) {
	tb.Helper()
	var r archive.CaptureReader
	var closer io.Closer
	var err error
	if IsRemote(name) {
		r, closer, err = Open(context.Background(), name, opts, read...)
	} else {
		r, closer, err = archive.Open(name, read...)
	}
	if err != nil {
		return readResult{}, err
	}
	defer closer.Close()
	return drain(tb, r), nil
}

// readResult is everything a reader yielded.
type readResult struct {
	caps   []*archive.Capture
	counts archive.Counts
	err    error // the error that ended reading, nil for io.EOF
}

// drain reads r to its end, cloning the captures, and checks that an
// error sticks.
func drain(tb testing.TB, r archive.CaptureReader) readResult {
	tb.Helper()
	var res readResult
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			res.err = err
			if _, again := r.Next(); again != err {
				tb.Errorf("error does not stick: %v then %v", err, again)
			}
			break
		}
		res.caps = append(res.caps, c.Clone())
	}
	res.counts = r.Counts()
	return res
}

// damageKinds lists the kinds of the damage recorded.
func damageKinds(c archive.Counts) []string {
	var out []string
	for _, d := range c.Damage {
		out = append(out, d.Kind)
	}
	return out
}

// writeTemp writes data to a file under a temporary folder.
func writeTemp(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Chtimes(p, modTime, modTime); err != nil {
		tb.Fatal(err)
	}
	return p
}

// normal is a capture with what depends on the input's name cleared: the
// file of its provenance and a body's synthesized record ID; a body's
// file time is kept to the second (Last-Modified's precision).
func normal(c *archive.Capture) archive.Capture {
	n := *c.Clone()
	n.Source.File = ""
	if strings.HasPrefix(n.RecordID, "file:") {
		n.RecordID = "file:"
		n.FetchTime = n.FetchTime.Truncate(time.Second)
	}
	return n
}

// sameRead checks that a remote read yielded exactly the local one: the
// same captures at the same offsets, the same counts, damage and error.
func sameRead(t *testing.T, local, remote readResult) {
	t.Helper()
	if len(local.caps) != len(remote.caps) {
		t.Fatalf("%d captures, want %d", len(remote.caps), len(local.caps))
	}
	for i := range local.caps {
		if d := captureDiff(normal(local.caps[i]), normal(remote.caps[i])); d != "" {
			t.Fatalf("capture %d differs: %s", i, d)
		}
	}
	if !reflect.DeepEqual(local.counts, remote.counts) {
		t.Errorf("counts %+v, want %+v", remote.counts, local.counts)
	}
	if (local.err == nil) != (remote.err == nil) {
		t.Errorf("error %v, want %v", remote.err, local.err)
	}
}

// captureDiff names the fields in which two captures differ, "" when none.
func captureDiff(want, got archive.Capture) string {
	var out []string
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	for i := range w.NumField() {
		if !reflect.DeepEqual(w.Field(i).Interface(), g.Field(i).Interface()) {
			wf, gf := fmt.Sprint(w.Field(i).Interface()), fmt.Sprint(g.Field(i).Interface())
			out = append(out, fmt.Sprintf("%s: got %.200s, want %.200s", w.Type().Field(i).Name, gf, wf))
		}
	}
	return strings.Join(out, "; ")
}

// checkPrefix checks a read that stopped early: its captures are the first
// ones of the local read, the last one possibly cut (and marked so).
func checkPrefix(t *testing.T, local, remote readResult) {
	t.Helper()
	if len(remote.caps) > len(local.caps) {
		t.Fatalf("%d captures, more than the %d of the file", len(remote.caps), len(local.caps))
	}
	for i, c := range remote.caps {
		l, r := normal(local.caps[i]), normal(c)
		last := i == len(remote.caps)-1
		if d := captureDiff(l, r); d != "" && !(last && c.Truncated == archive.TruncatedInput && bytes.HasPrefix(l.Body, r.Body)) {
			t.Fatalf("capture %d differs: %s", i, d)
		}
	}
}

// testWARC is a Common Crawl style robotstxt WARC of n captures with
// bodies that do not compress much, so that the file is large enough to
// be cut many times.
func testWARC(tb testing.TB, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, "CC-MAIN-20250113000000-20250113010000-00001.warc.gz")
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	for i := range n {
		var body strings.Builder
		fmt.Fprintf(&body, "User-agent: *\nDisallow: /private-%d/\n", i)
		for range rng.IntN(40) {
			fmt.Fprintf(&body, "Disallow: /%x/\n", rng.Uint64())
		}
		f := archive.Fetch{URL: fmt.Sprintf("https://host%d.example/robots.txt", i), Time: modTime.Add(time.Duration(i) * time.Second),
			ContentType: "text/plain", Body: []byte(body.String())}
		if err := w.WriteCapture(f); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestRemoteCorpus reads every file of the shared corpus's warc/ folder
// over HTTP, from a server that answers normally and from one that drops
// every response after a fifth of the file, and compares with the local
// read: same captures, offsets, counts and damage (or the same refusal).
func TestRemoteCorpus(t *testing.T) {
	dir := testutil.Corpus(t, "warc")
	var log requestLog
	plain := startServer(t, http.FileServer(http.Dir(dir)))
	drops := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := filepath.Join(dir, filepath.FromSlash(r.URL.Path))
		data, err := os.ReadFile(p)
		fi, err2 := os.Stat(p)
		if err != nil || err2 != nil {
			http.NotFound(w, r)
			return
		}
		log.add(r)
		serveFile(&cutWriter{ResponseWriter: w, left: max(len(data)/5, 100)}, r, data, "", fi.ModTime())
	}))
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	read, refused := 0, 0
	for _, file := range files {
		for _, mode := range []archive.Mode{archive.ModeAuto, archive.ModeRobotstxt} {
			t.Run(file+"/"+mode.String(), func(t *testing.T) {
				modeOpt := []archive.Option{archive.WithMode(mode)}
				local, lerr := openDrainRead(t, filepath.Join(dir, filepath.FromSlash(file)), modeOpt)
				for _, base := range []string{plain, drops} {
					remote, err := openDrainRead(t, base+"/"+file, modeOpt, fast...)
					if lerr != nil {
						if !errors.Is(lerr, archive.ErrUnsupportedFormat) || !errors.Is(err, archive.ErrUnsupportedFormat) {
							t.Fatalf("%s: remote %v, local %v: want both ErrUnsupportedFormat", base, err, lerr)
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s: %v", base, err)
					}
					sameRead(t, local, remote)
				}
				if lerr != nil {
					refused++
				} else {
					read++
				}
			})
		}
	}
	if read < 2*80 || refused < 2*3 {
		t.Errorf("%d reads and %d refusals compared: the corpus's warc/ folder has 81 files read and 3 refused", read/2, refused/2)
	}
	t.Logf("%d files read and %d refused alike; %d requests to the dropping server", read/2, refused/2, log.len())
	if log.len() < 3*read/2 {
		t.Errorf("the dropping server saw %d requests: too few drops", log.len())
	}
}

// TestRemoteFormats reads inputs of each kind over HTTP, whole and with
// drops every 1,000 bytes: a robotstxt WARC, a tar.gz of bodies, a body,
// an empty body, and a WARC sent without Content-Length (chunked).
func TestRemoteFormats(t *testing.T) {
	files := map[string][]byte{
		"/crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/x.warc.gz": testWARC(t, 60),
		"/bodies.tar.gz":            testTar(t),
		"/example.com/robots.txt":   []byte("User-agent: *\nDisallow: /private/\n" + strings.Repeat("Allow: /public/\n", 300)),
		"/empty.example/robots.txt": {},
	}
	chunked := "/chunked/y.warc.gz"
	files[chunked] = testWARC(t, 20)
	var log requestLog
	h := func(cut int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			data := files[r.URL.Path]
			if r.URL.Path == chunked && r.Header.Get("Range") == "" {
				w.WriteHeader(http.StatusOK) // no Content-Length: chunked
				(&cutWriter{ResponseWriter: w, left: cut}).Write(data)
				return
			}
			dropping(data, `"v1"`, cut, &log)(w, r)
		}
	}
	whole, drops := startServer(t, h(1<<30)), startServer(t, h(1000))
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			local, err := openDrain(t, writeTemp(t, name, data))
			if err != nil {
				t.Fatal(err)
			}
			for _, base := range []string{whole, drops} {
				remote, err := openDrain(t, base+name, fast...)
				if err != nil {
					t.Fatal(err)
				}
				sameRead(t, local, remote)
			}
		})
	}
}

// TestRemoteResumesWithRange checks the requests of a transfer cut every
// 20,000 bytes: each resumes exactly where the last stopped, with If-Range
// carrying the ETag, and the result is the local one.
func TestRemoteResumesWithRange(t *testing.T) {
	data := testWARC(t, 300)
	const k = 20000
	var log requestLog
	url := startServer(t, dropping(data, `"etag-1"`, k, &log)) + "/a/robotstxt/x.warc.gz"
	local, _ := openDrain(t, writeTemp(t, "a/robotstxt/x.warc.gz", data))
	remote, err := openDrain(t, url, WithRetries(1), WithBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	sameRead(t, local, remote)
	var want []string
	for off := 0; off < len(data); off += k {
		want = append(want, map[bool]string{true: "", false: fmt.Sprintf("bytes=%d-", off)}[off == 0])
	}
	if got := log.ranges(); !slices.Equal(got, want) {
		t.Errorf("Range headers %q, want %q", got, want)
	}
	for i, h := range log.reqs {
		if i > 0 && h.Get("If-Range") != `"etag-1"` || h.Get("Accept-Encoding") != "identity" || h.Get("User-Agent") != DefaultUserAgent {
			t.Errorf("request %d headers %v", i, h)
		}
	}
	if remote.counts.Bytes != int64(len(data)) || len(remote.caps) != 300 {
		t.Errorf("bytes %d captures %d", remote.counts.Bytes, len(remote.caps))
	}
}

// TestRemoteRetries: servers that fail a few times (5xx, 429, 408, a
// connection closed before any answer, a 503 when resuming) and then
// succeed give the local result.
func TestRemoteRetries(t *testing.T) {
	data := testWARC(t, 50)
	local, _ := openDrain(t, writeTemp(t, "x.warc.gz", data))
	f := func(name string, fail func(i int, w http.ResponseWriter, r *http.Request) bool, wantRequests int) {
		t.Helper()
		var log requestLog
		url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !fail(log.add(r), w, r) {
				serveBytes(w, r, data, `"e"`)
			}
		}))
		remote, err := openDrain(t, url+"/x.warc.gz", fast...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameRead(t, local, remote)
		if log.len() != wantRequests {
			t.Errorf("%s: %d requests, want %d", name, log.len(), wantRequests)
		}
	}
	status := func(code int, times int) func(int, http.ResponseWriter, *http.Request) bool {
		return func(i int, w http.ResponseWriter, r *http.Request) bool {
			if i < times {
				http.Error(w, "try again", code)
				return true
			}
			return false
		}
	}
	f("503 twice", status(http.StatusServiceUnavailable, 2), 3)
	f("500 three times", status(http.StatusInternalServerError, 3), 4)
	f("502", status(http.StatusBadGateway, 1), 2)
	f("504", status(http.StatusGatewayTimeout, 1), 2)
	f("429", status(http.StatusTooManyRequests, 2), 3)
	f("408", status(http.StatusRequestTimeout, 1), 2)
	f("connection closed before the answer", func(i int, w http.ResponseWriter, r *http.Request) bool {
		if i < 2 {
			hangUp(w)
			return true
		}
		return false
	}, 3)
	f("cut, then 503 when resuming", func(i int, w http.ResponseWriter, r *http.Request) bool {
		switch i {
		case 0:
			serveBytes(&cutWriter{ResponseWriter: w, left: len(data) / 2}, r, data, `"e"`)
		case 1, 2:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default:
			return false
		}
		return true
	}, 4)
}

// TestRemoteRetryAfter: a 429 with Retry-After is waited for, up to the
// backoff cap.
func TestRemoteRetryAfter(t *testing.T) {
	data := testWARC(t, 5)
	f := func(retryAfter string, max, minGap, maxGap time.Duration) {
		t.Helper()
		var log requestLog
		url := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if log.add(r) == 0 {
				w.Header().Set("Retry-After", retryAfter)
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
			serveBytes(w, r, data, "")
		}))
		if _, err := openDrain(t, url+"/x.warc.gz", WithBackoff(time.Millisecond, max)); err != nil {
			t.Fatal(err)
		}
		if gap := log.at[1].Sub(log.at[0]); gap < minGap || gap > maxGap {
			t.Errorf("Retry-After %s, cap %v: retried after %v, want %v to %v", retryAfter, max, gap, minGap, maxGap)
		}
	}
	f("1", 3*time.Second, 950*time.Millisecond, 2900*time.Millisecond)
	f("3600", 50*time.Millisecond, 25*time.Millisecond, 900*time.Millisecond)
	f(modTime.Format(http.TimeFormat), 50*time.Millisecond, 0, 900*time.Millisecond) // a date in the past: no wait asked
}

func TestBackoff(t *testing.T) {
	base, max := 100*time.Millisecond, 2*time.Second
	for n := 1; n <= 40; n++ {
		d := min(base<<min(n-1, 20), max)
		for range 20 {
			if got := backoff(base, max, n, 0); got < d/2 || got > d {
				t.Fatalf("retry %d: %v, want %v to %v", n, got, d/2, d)
			}
		}
	}
	if got := backoff(base, max, 1, time.Second); got != time.Second {
		t.Errorf("Retry-After 1s: %v", got)
	}
	if got := backoff(base, max, 1, time.Hour); got != max {
		t.Errorf("Retry-After 1h: %v, want the cap %v", got, max)
	}
}

func TestParseContentRange(t *testing.T) {
	f := func(s string, start, total int64, ok bool) {
		t.Helper()
		if a, b, c := parseContentRange(s); a != start || b != total || c != ok {
			t.Errorf("%q: %d %d %v, want %d %d %v", s, a, b, c, start, total, ok)
		}
	}
	f("bytes 100-199/200", 100, 200, true)
	f("bytes 0-0/1", 0, 1, true)
	f("bytes 5-9/*", 5, -1, true)
	f("bytes 100-199/150", 0, 0, false)
	f("bytes 9-5/20", 0, 0, false)
	f("bytes */200", 0, 0, false)
	f("items 0-1/2", 0, 0, false)
	f("", 0, 0, false)
}

func TestParseRetryAfter(t *testing.T) {
	now := modTime
	f := func(v string, want time.Duration) {
		t.Helper()
		if got := parseRetryAfter(v, now); got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
	f("", 0)
	f("7", 7*time.Second)
	f(" 2 ", 2*time.Second)
	f("-1", 0)
	f("soon", 0)
	f(now.Add(90*time.Second).Format(http.TimeFormat), 90*time.Second)
	f(now.Add(-time.Hour).Format(http.TimeFormat), 0)
}
