package remote

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
)

// transfer streams the body of an http(s) resource and survives
// interruptions: it is an io.Reader over the bytes of the remote file, in
// order, each delivered once, whatever happens to the connections below.
//
//   - The first request is a plain GET. Its answer must be 200; its length
//     (Content-Length), ETag and Last-Modified are kept.
//   - When a body read fails (connection reset, closed early, idle
//     timeout, ...) the transfer resumes with "Range: bytes=N-", N being
//     the bytes delivered so far, and "If-Range" with the strong ETag (or
//     Last-Modified). Only a 206 whose Content-Range starts at N, with the
//     same total length and validators, continues the stream. A 200 with
//     the same length and validators means the server ignored the range:
//     its first N bytes are read and dropped (as wget and curl do), and the
//     stream continues after them; a 200 whose length or validators differ
//     means the resource changed (ErrRemoteChanged) and ends the transfer.
//   - Transient failures (see transient) are retried after a backoff; the
//     count of failures in a row is reset when bytes arrive.
//
// A transfer that ends early, for whatever reason, reads as io.EOF at the
// byte where it stopped, with the reason in err: the readers above see a
// truncated input and record its damage, and remoteReader then reports
// err. A failure before the first byte is reported by openRemote.
type transfer struct {
	cfg    config
	client *http.Client
	url    string   // the input's name, in errors
	target *url.URL // what is requested: the URL, or an s3:// object's
	s3     bool     // an s3:// input: requests signed, errors read
	ctx    context.Context
	stop   context.CancelFunc // ends ctx: Close

	body    io.ReadCloser      // of the current response; nil between responses
	cancel  context.CancelFunc // ends the current request
	release func()             // gives back the host slot of the current response
	idle    *time.Timer        // cancels the current request when a read stalls

	off      int64 // bytes delivered
	skip     int64 // bytes of the current body to drop: a 200 to a Range request
	restarts int   // 200s to Range requests, read from the start
	size     int64 // total length; -1 while unknown
	etag     string
	lastMod  string
	modTime  time.Time

	attempts   int           // requests sent
	failures   int           // failed attempts since bytes last arrived
	lastErr    error         // the last failure
	retryAfter time.Duration // asked for by the last response
	done       bool
	err        error // why the transfer ended early; nil at the real end
}

func newTransfer(ctx context.Context, name string, target *url.URL, cfg config) *transfer {
	ctx, stop := context.WithCancel(ctx)
	return &transfer{cfg: cfg, client: cfg.httpClient(), url: name, target: target, s3: IsS3(name),
		ctx: ctx, stop: stop, size: -1}
}

// Read implements io.Reader. It returns io.EOF at the end of the resource,
// and also where the transfer ended early (t.err says why).
func (t *transfer) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for !t.done {
		if t.body == nil {
			if err := t.connect(); err != nil {
				t.end(err)
				break
			}
		}
		if t.skip > 0 && !t.discard() {
			continue
		}
		n, err := t.readBody(p)
		t.off += int64(n)
		if n > 0 {
			t.failures = 0
		}
		if err != nil {
			t.bodyEnded(err, n > 0)
		}
		if n > 0 {
			return n, nil
		}
	}
	return 0, io.EOF
}

// Close ends the transfer and any request in flight.
func (t *transfer) Close() error {
	t.stop()
	t.closeBody()
	if !t.done {
		t.end(errors.New("remote: transfer closed"))
	}
	return nil
}

// inputError is the error that ends the input after a transfer ended
// early: ErrTruncated at the byte where it stopped, wrapping the cause.
func (t *transfer) inputError() error {
	if t.ctx.Err() != nil && errors.Is(t.err, t.ctx.Err()) {
		return &archive.InputError{File: t.url, Offset: t.off, Err: t.err}
	}
	of := "of unknown length"
	if t.size >= 0 {
		of = "of " + strconv.FormatInt(t.size, 10)
	}
	return &archive.InputError{File: t.url, Offset: t.off,
		Err: errorf("%w: transfer stopped at byte %d %s: %w", archive.ErrTruncated, t.off, of, t.err)}
}

func (t *transfer) end(err error) {
	t.closeBody()
	t.done, t.err = true, err
}

func (t *transfer) closeBody() {
	if t.body == nil {
		return
	}
	t.idle.Stop()
	t.body.Close()
	t.cancel()
	t.release()
	t.body = nil
}

// readBody reads from the current response, failing with ErrIdleTimeout
// when nothing arrives for the idle timeout.
func (t *transfer) readBody(p []byte) (int, error) {
	t.idle.Reset(t.cfg.idleTimeout)
	n, err := t.body.Read(p)
	if !t.idle.Stop() {
		return n, errorf("%w (%v)", ErrIdleTimeout, t.cfg.idleTimeout)
	}
	return n, err
}

// discard reads and drops the first bytes of a 200 that answered a Range
// request with the whole resource: the t.off bytes already delivered. It
// reports whether the body can now be read from t.off; if not, the body
// ended or failed before (a retry, or the end of the transfer: a body of
// unknown length shorter than the bytes delivered is another file).
func (t *transfer) discard() bool {
	buf := make([]byte, min(t.skip, 32<<10))
	for t.skip > 0 {
		n, err := t.readBody(buf[:min(t.skip, int64(len(buf)))])
		t.skip -= int64(n)
		switch {
		case err == nil:
		case err == io.EOF && t.skip > 0 && t.size < 0:
			t.end(errorf("%w: a 200 of %d bytes to Range bytes=%d-", ErrRemoteChanged, t.off-t.skip, t.off))
			return false
		case err == io.EOF && t.skip > 0:
			t.closeBody()
			t.failed(errorf("body ended at byte %d of the %d already read: %w", t.off-t.skip, t.off, io.ErrUnexpectedEOF))
			return false
		default:
			t.bodyEnded(err, false)
			return false
		}
	}
	return true
}

// bodyEnded handles the end of a response body: the end of the resource,
// a range that ended before it (continued at once when it brought bytes),
// or a failure.
func (t *transfer) bodyEnded(err error, progress bool) {
	t.closeBody()
	switch {
	case err == io.EOF && (t.size < 0 || t.off >= t.size):
		t.done = true
	case err == io.EOF && progress:
		// A server that answers ranges in pieces: ask for the rest.
	case t.ctx.Err() != nil:
		t.end(t.ctx.Err())
	case err == io.EOF:
		t.failed(errorf("body ended at byte %d of %d: %w", t.off, t.size, io.ErrUnexpectedEOF))
	case !transient(err):
		t.end(err)
	default:
		t.failed(err)
	}
}

func (t *transfer) failed(err error) {
	t.failures++
	t.lastErr = err
}

// connect sends requests until one gives a body to read, waiting between
// attempts, or returns the error that ends the transfer.
func (t *transfer) connect() error {
	for {
		if t.failures > t.cfg.retries {
			return errorf("%w after %d attempts: %w", ErrRetriesExhausted, t.attempts, t.lastErr)
		}
		if t.failures > 0 {
			if err := t.wait(); err != nil {
				return err
			}
		}
		err := t.request()
		switch {
		case err == nil:
			return nil
		case t.ctx.Err() != nil:
			return t.ctx.Err()
		case !transient(err):
			return err
		}
		t.failed(err)
	}
}

// wait sleeps before a retry (see WithBackoff), once WithRetryNotify's
// function, if any, has been told.
func (t *transfer) wait() error {
	d := backoff(t.cfg.backoffBase, t.cfg.backoffMax, t.failures, t.retryAfter)
	t.retryAfter = 0
	if t.cfg.notify != nil {
		t.cfg.notify(Retry{URL: t.url, Failed: t.failures, Allowed: t.cfg.retries + 1, Wait: d, Err: t.lastErr})
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-t.ctx.Done():
		return t.ctx.Err()
	}
}

// backoff is the wait before the n-th retry in a row: d = base*2^(n-1)
// capped at max, jittered to a random duration in [d/2, d]; a longer
// Retry-After is honoured up to max.
func backoff(base, max time.Duration, n int, retryAfter time.Duration) time.Duration {
	d := max
	if shift := n - 1; shift < 32 && base<<shift > 0 && base<<shift < max {
		d = base << shift
	}
	d = d/2 + rand.N(d/2+1)
	if retryAfter > d {
		d = min(retryAfter, max)
	}
	return d
}

// request sends one GET (a Range request when resuming), once a slot of
// the target's host is free, and, when its answer continues the stream,
// makes its body the current one; the slot is held until that body is
// closed.
func (t *transfer) request() error {
	release, err := t.cfg.hosts.acquire(t.ctx, t.target.Host)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(t.ctx)
	resp, err := t.send(ctx, cancel)
	if err == nil {
		err = t.accept(resp)
		if err != nil {
			resp.Body.Close()
		}
	}
	if err != nil {
		cancel()
		release()
		return err
	}
	t.body, t.cancel, t.release = resp.Body, cancel, release
	t.idle = time.AfterFunc(time.Hour, cancel)
	t.idle.Stop()
	return nil
}

// send sends the request of the next attempt and waits for its header, at
// most the header timeout (then cancel ends it).
func (t *transfer) send(ctx context.Context, cancel context.CancelFunc) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.target.String(), nil)
	if err != nil {
		return nil, err
	}
	t.setHeaders(req)
	if t.s3 {
		if err := t.cfg.s3.sign(req); err != nil {
			return nil, err
		}
	}
	t.attempts++
	timer := time.AfterFunc(t.cfg.headerTimeout, cancel)
	resp, err := t.client.Do(req)
	if !timer.Stop() {
		if err == nil {
			resp.Body.Close()
		}
		return nil, errorf("%w (%v)", ErrHeaderTimeout, t.cfg.headerTimeout)
	}
	return resp, err
}

func (t *transfer) setHeaders(req *http.Request) {
	req.Header.Set("User-Agent", t.cfg.userAgent)
	req.Header.Set("Accept-Encoding", "identity")
	if t.off == 0 {
		return
	}
	req.Header.Set("Range", "bytes="+strconv.FormatInt(t.off, 10)+"-")
	switch {
	case t.etag != "" && !strings.HasPrefix(t.etag, "W/"):
		req.Header.Set("If-Range", t.etag)
	case t.lastMod != "":
		req.Header.Set("If-Range", t.lastMod)
	}
}

// accept checks that a response continues the stream.
func (t *transfer) accept(resp *http.Response) error {
	code := resp.StatusCode
	switch {
	case code == http.StatusOK && t.off == 0:
		t.size = resp.ContentLength
		t.etag, t.lastMod = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		t.modTime, _ = http.ParseTime(t.lastMod)
		return nil
	case code == http.StatusPartialContent && t.off > 0:
		return t.resumed(resp)
	case code == http.StatusOK:
		return t.restarted(resp)
	case code == http.StatusRequestedRangeNotSatisfiable && t.off > 0:
		return errorf("%w: %s to Range bytes=%d- (the resource is shorter now)", ErrRemoteChanged, resp.Status, t.off)
	}
	se := &HTTPStatusError{StatusCode: code, Status: resp.Status}
	var err error = se
	if t.s3 {
		err = t.cfg.s3.explain(se, resp)
	}
	if se.Retryable() {
		t.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return err
}

// restarted checks a 200 answer to a Range request from t.off: the server
// sends the whole resource again, as wget and curl accept, and the first
// t.off bytes are discarded (see discard). The resource must be the one
// being read: the same Content-Length, ETag and Last-Modified when both
// answers have them, else ErrRemoteChanged.
func (t *transfer) restarted(resp *http.Response) error {
	if err := t.sameResource(resp, resp.ContentLength); err != nil {
		return err
	}
	if n := resp.ContentLength; n >= 0 && n < t.off {
		return errorf("%w: a 200 of %d bytes to Range bytes=%d-", ErrRemoteChanged, n, t.off)
	}
	if t.size < 0 {
		t.size = resp.ContentLength
	}
	t.skip = t.off
	t.restarts++
	return nil
}

// resumed checks a 206 answer to a Range request from t.off.
func (t *transfer) resumed(resp *http.Response) error {
	cr := resp.Header.Get("Content-Range")
	start, total, ok := parseContentRange(cr)
	if !ok || start != t.off {
		return errorf("%w: %s with Content-Range %q to Range bytes=%d-", ErrRangeIgnored, resp.Status, cr, t.off)
	}
	if err := t.sameResource(resp, total); err != nil {
		return err
	}
	if t.size < 0 {
		t.size = total
	}
	return nil
}

// sameResource compares the total length (-1 when unknown) and validators
// of a response with those of the first one.
func (t *transfer) sameResource(resp *http.Response, total int64) error {
	differ := func(was, now string) bool { return was != "" && now != "" && was != now }
	etag, lastMod := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	switch {
	case t.size >= 0 && total >= 0 && total != t.size:
		return errorf("%w: length %d, was %d", ErrRemoteChanged, total, t.size)
	case differ(t.etag, etag):
		return errorf("%w: ETag %s, was %s", ErrRemoteChanged, etag, t.etag)
	case differ(t.lastMod, lastMod):
		return errorf("%w: Last-Modified %s, was %s", ErrRemoteChanged, lastMod, t.lastMod)
	}
	return nil
}

// parseContentRange parses "bytes START-END/TOTAL" (TOTAL may be "*",
// returned as -1).
func parseContentRange(s string) (start, total int64, ok bool) {
	spec, found := strings.CutPrefix(strings.TrimSpace(s), "bytes ")
	rng, size, found2 := strings.Cut(spec, "/")
	first, last, found3 := strings.Cut(rng, "-")
	if !found || !found2 || !found3 {
		return 0, 0, false
	}
	start, err1 := strconv.ParseInt(first, 10, 64)
	end, err2 := strconv.ParseInt(last, 10, 64)
	if err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, false
	}
	if size == "*" {
		return start, -1, true
	}
	total, err := strconv.ParseInt(size, 10, 64)
	if err != nil || total <= end {
		return 0, 0, false
	}
	return start, total, true
}

// parseRetryAfter parses a Retry-After value, seconds or an HTTP date; 0
// when absent or invalid.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		if secs <= 0 || secs > 1<<31 {
			return 0
		}
		return time.Duration(secs) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}

// badLocation reports the error of net/http's client for a Location it
// cannot parse (a URL without a scheme such as "host:8080/x"): it has no
// type of its own, only its text, which has been stable since Go 1.8.
func badLocation(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue) && strings.HasPrefix(ue.Err.Error(), "failed to parse Location header")
}

// transient reports whether a failed attempt is worth another: retryable
// statuses (5xx, 429, 408), time-outs, resets, connections closed early,
// HTTP/2 stream errors and other network trouble are; other 4xx statuses,
// a resource that cannot be resumed, redirects not followed (ErrRedirect,
// a Location that is not a URL), a host that does not exist and a
// certificate that does not verify are permanent.
func transient(err error) bool {
	var status *HTTPStatusError
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	switch {
	case errors.As(err, &status):
		return status.Retryable()
	case errors.Is(err, ErrRangeIgnored), errors.Is(err, ErrRemoteChanged), errors.Is(err, context.Canceled),
		errors.Is(err, ErrRedirect), badLocation(err):
		return false
	case errors.As(err, &dns):
		return !dns.IsNotFound
	case errors.As(err, &cert), errors.As(err, &record):
		return false
	}
	return true
}
