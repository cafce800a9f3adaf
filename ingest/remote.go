package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"
)

// Defaults and bounds of the options of remote inputs (http and https
// URLs, and manifests read over HTTP). See the package documentation,
// "Remote inputs and manifests".
const (
	// DefaultHeaderTimeout bounds the wait for a response header, from the
	// start of a request (connecting included) to the end of the header.
	DefaultHeaderTimeout = 60 * time.Second
	// DefaultIdleTimeout bounds a stall in the middle of a body: a read that
	// receives no byte for this long fails, and the transfer is resumed.
	// Time spent by the caller between reads does not count.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultRetries is the number of failed attempts in a row tolerated
	// after the first one before a transfer is given up.
	DefaultRetries = 8
	// MaxRetries is the largest number of retries accepted.
	MaxRetries = 1000
	// DefaultBackoffBase is the wait before the first retry; each further
	// retry in a row doubles it.
	DefaultBackoffBase = time.Second
	// DefaultBackoffMax caps one wait between attempts, including the wait
	// a server asks for with Retry-After.
	DefaultBackoffMax = time.Minute
	// DefaultUserAgent is the User-Agent header of the requests.
	DefaultUserAgent = "robocensus (+https://github.com/robocensus/robocensus)"
)

// Errors of remote inputs. A transfer that fails ends with an error wrapping
// one of these (in an [*InputError]); the transient ones (5xx, 429 and 408
// statuses, time-outs, connection resets and other network errors) are
// retried first, the others end the transfer at once.
var (
	// ErrHTTPStatus is wrapped by an [*HTTPStatusError]: the server answered
	// with a status that gives no body to read (404, 403, 503, ...).
	ErrHTTPStatus = errors.New("ingest: HTTP error status")

	// ErrRetriesExhausted means a transfer failed more times in a row than
	// the retries allow ([WithRetries]); it wraps the last failure.
	ErrRetriesExhausted = errors.New("ingest: retries exhausted")

	// ErrRangeIgnored means an interrupted transfer cannot be resumed: the
	// server answered a Range request from byte N with a 206 whose
	// Content-Range does not start at N. Bytes are never spliced on a
	// guess. (A 200 with the whole, unchanged resource is read again from
	// its start, its first N bytes dropped.)
	ErrRangeIgnored = errors.New("ingest: Range request not honoured; transfer cannot resume")

	// ErrRemoteChanged means the resource changed while it was being read:
	// its ETag, Last-Modified or total length differ from those of the
	// first response, or the remaining range no longer exists (416).
	ErrRemoteChanged = errors.New("ingest: remote input changed during the transfer")

	// ErrHeaderTimeout means no response header arrived within the header
	// timeout ([WithHeaderTimeout]).
	ErrHeaderTimeout = errors.New("ingest: no response header within the timeout")

	// ErrIdleTimeout means a body read received nothing within the idle
	// timeout ([WithIdleTimeout]).
	ErrIdleTimeout = errors.New("ingest: no data within the idle timeout")

	// ErrRedirect means a redirect was not followed: a loop (a URL
	// already visited), more than [MaxRedirects] redirects, a Location
	// that is not a URL (one without a scheme, say "host:8080/x"), or a
	// scheme other than http and https. It is permanent: not retried.
	ErrRedirect = errors.New("ingest: redirect not followed")
)

// MaxRedirects is the most redirects followed for one request, as
// net/http's default.
const MaxRedirects = 10

// An HTTPStatusError is a response status that gives no body to read. It
// wraps [ErrHTTPStatus].
type HTTPStatusError struct {
	StatusCode int
	Status     string // as the server sent it, e.g. "404 Not Found"
}

// Error implements error.
func (e *HTTPStatusError) Error() string { return "ingest: HTTP status " + e.Status }

// Unwrap returns ErrHTTPStatus.
func (e *HTTPStatusError) Unwrap() error { return ErrHTTPStatus }

// Retryable reports whether the status is worth another attempt: 5xx, 429
// (Too Many Requests) and 408 (Request Timeout).
func (e *HTTPStatusError) Retryable() bool {
	return e.StatusCode >= 500 || e.StatusCode == http.StatusTooManyRequests || e.StatusCode == http.StatusRequestTimeout
}

// remoteConfig holds the settings of remote inputs and manifests.
type remoteConfig struct {
	client        *http.Client // nil: the shared default client
	headerTimeout time.Duration
	idleTimeout   time.Duration
	retries       int
	backoffBase   time.Duration
	backoffMax    time.Duration
	userAgent     string
	baseURL       string
}

func defaultRemoteConfig() remoteConfig {
	return remoteConfig{
		headerTimeout: DefaultHeaderTimeout,
		idleTimeout:   DefaultIdleTimeout,
		retries:       DefaultRetries,
		backoffBase:   DefaultBackoffBase,
		backoffMax:    DefaultBackoffMax,
		userAgent:     DefaultUserAgent,
		baseURL:       DefaultBaseURL,
	}
}

// WithHTTPClient sets the client of remote inputs and manifests (not nil).
// The default is a client shared by all readers, with a transport of its
// own: keep-alive and HTTP/2, 30 s to connect, no proxy (no environment
// variable is read), no automatic decompression. A client given here
// should have no Timeout (a transfer may last long); the header and idle
// timeouts of these options apply to any client, and the requests ask for
// "Accept-Encoding: identity" so that byte offsets are those of the file.
func WithHTTPClient(c *http.Client) Option {
	return func(cfg *config) error {
		if c == nil {
			return fmt.Errorf("%w: nil HTTP client", ErrInvalidOption)
		}
		cfg.remote.client = c
		return nil
	}
}

// WithHeaderTimeout bounds the wait for each response header, connection
// included (default DefaultHeaderTimeout, more than 0). A request that
// times out is retried.
func WithHeaderTimeout(d time.Duration) Option {
	return func(cfg *config) error {
		if d <= 0 {
			return fmt.Errorf("%w: header timeout %v is not positive", ErrInvalidOption, d)
		}
		cfg.remote.headerTimeout = d
		return nil
	}
}

// WithIdleTimeout bounds a stalled body read (default DefaultIdleTimeout,
// more than 0): a read that gets no byte for d fails with ErrIdleTimeout
// and the transfer is resumed from where it stopped.
func WithIdleTimeout(d time.Duration) Option {
	return func(cfg *config) error {
		if d <= 0 {
			return fmt.Errorf("%w: idle timeout %v is not positive", ErrInvalidOption, d)
		}
		cfg.remote.idleTimeout = d
		return nil
	}
}

// WithRetries sets how many failed attempts in a row a transfer survives
// after the first (default DefaultRetries, 0 to MaxRetries). An attempt
// that delivers body bytes resets the count, so a long transfer survives
// any number of interruptions as long as each resumed request makes
// progress.
func WithRetries(n int) Option {
	return func(cfg *config) error {
		if n < 0 || n > MaxRetries {
			return fmt.Errorf("%w: retries %d not in [0, %d]", ErrInvalidOption, n, MaxRetries)
		}
		cfg.remote.retries = n
		return nil
	}
}

// WithBackoff sets the waits between attempts (defaults DefaultBackoffBase
// and DefaultBackoffMax; 0 < base <= max): before the k-th retry in a row
// the wait is a random duration between d/2 and d, where d is base*2^(k-1)
// capped at max. A Retry-After that a 429 or 5xx response asks for is
// waited instead when it is longer, up to max.
func WithBackoff(base, max time.Duration) Option {
	return func(cfg *config) error {
		if base <= 0 || max < base {
			return fmt.Errorf("%w: backoff base %v, max %v (want 0 < base <= max)", ErrInvalidOption, base, max)
		}
		cfg.remote.backoffBase, cfg.remote.backoffMax = base, max
		return nil
	}
}

// WithUserAgent sets the User-Agent header of the requests (default
// DefaultUserAgent; not empty, one line).
func WithUserAgent(ua string) Option {
	return func(cfg *config) error {
		if strings.TrimSpace(ua) == "" || strings.ContainsAny(ua, "\r\n") {
			return fmt.Errorf("%w: User-Agent %q", ErrInvalidOption, ua)
		}
		cfg.remote.userAgent = ua
		return nil
	}
}

// httpClient returns the client of the requests: a copy of the one set
// (sharing its transport and so its connections) that refuses the
// redirects of ErrRedirect before the client's own policy, if any, is
// asked.
func (rc *remoteConfig) httpClient() *http.Client {
	base := rc.client
	if base == nil {
		base = defaultClient()
	}
	c := *base
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := checkRedirect(req, via); err != nil {
			return err
		}
		if base.CheckRedirect != nil {
			return base.CheckRedirect(req, via)
		}
		return nil
	}
	return &c
}

// checkRedirect refuses a redirect to a URL already visited, beyond
// MaxRedirects, or to a scheme other than http(s).
func checkRedirect(req *http.Request, via []*http.Request) error {
	to := req.URL.String()
	for _, v := range via {
		if v.URL.String() == to {
			return fmt.Errorf("%w: redirect loop back to %s after %d redirects", ErrRedirect, to, len(via))
		}
	}
	switch {
	case len(via) > MaxRedirects:
		return fmt.Errorf("%w: more than %d redirects", ErrRedirect, MaxRedirects)
	case !strings.EqualFold(req.URL.Scheme, "http") && !strings.EqualFold(req.URL.Scheme, "https"):
		return fmt.Errorf("%w: redirect to the unsupported scheme of %s", ErrRedirect, to)
	}
	return nil
}

// defaultClient is shared by all readers, so that connections to one host
// (data.commoncrawl.org) are reused across inputs.
var defaultClient = sync.OnceValue(func() *http.Client { return NewHTTPClient(nil) })

// NewHTTPClient returns a client as the readers want it: keep-alive
// connections reused across inputs, HTTP/2, a 30 s dial timeout, and no
// transparent decompression (offsets are those of the stored file). proxy,
// if not nil, chooses a proxy for each request (http.ProxyFromEnvironment,
// say); the package reads no environment of its own. Pass the client with
// [WithHTTPClient].
func NewHTTPClient(proxy func(*http.Request) (*url.URL, error)) *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:               proxy,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        100,
		MaxIdleConnsPerHost: 32,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		DisableCompression:  true,
	}}
}

// IsRemote reports whether name is an http or https URL, which [Open]
// reads over HTTP.
func IsRemote(name string) bool {
	scheme, _, ok := strings.Cut(name, "://")
	return ok && (strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https"))
}

// otherScheme returns the scheme of a name that looks like a URL of a
// scheme other than http(s) ("s3://..."), or "".
func otherScheme(name string) string {
	scheme, _, ok := strings.Cut(name, "://")
	if !ok || scheme == "" || IsRemote(name) {
		return ""
	}
	for i, r := range scheme {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return ""
		}
	}
	return scheme
}

// parseRemote checks a remote input's URL.
func parseRemote(name string) (*url.URL, error) {
	u, err := url.Parse(name)
	if err != nil {
		return nil, &InputError{File: name, Err: fmt.Errorf("%w: bad URL: %w", ErrRead, err)}
	}
	if u.Host == "" {
		return nil, &InputError{File: name, Err: fmt.Errorf("%w: URL without host", ErrRead)}
	}
	return u, nil
}

// openRemote opens an http(s) input: the first request is made here, so
// that the format is found from the first bytes (and the name of the URL's
// path) as for a local file; the readers then get the stream of the
// transfer, whose byte offsets are those of the remote file.
func openRemote(ctx context.Context, name string, cfg config, opts []Option) (CaptureReader, io.Closer, error) {
	u, err := parseRemote(name)
	if err != nil {
		return nil, nil, err
	}
	t := newTransfer(ctx, name, cfg.remote)
	r, err := remoteFormatReader(t, u, opts)
	if err != nil {
		t.Close()
		return nil, nil, err
	}
	rr := &remoteReader{r: r, t: t, body: !isArchive(r)}
	if tr, ok := r.(*TarReader); ok {
		return rr, closers{tr, t}, nil
	}
	return rr, t, nil
}

// remoteFormatReader reads the first bytes of a transfer (the first
// request), finds the format and returns its reader over the stream.
func remoteFormatReader(t *transfer, u *url.URL, opts []Option) (CaptureReader, error) {
	head := make([]byte, sniffLen)
	n, _ := io.ReadFull(t, head)
	if n == 0 && t.err != nil {
		return nil, &InputError{File: t.url, Err: fmt.Errorf("%w: %w", ErrRead, t.err)}
	}
	format, err := Detect(head[:n], u.Path)
	if err != nil {
		return nil, &InputError{File: t.url, Err: err}
	}
	stream := io.MultiReader(bytes.NewReader(head[:n]), t)
	return newFormatReader(format, stream, t.url, remoteInfo{t: t, name: path.Base(u.Path)}, opts)
}

// isArchive reports whether r reads records or entries (not one body).
func isArchive(r CaptureReader) bool {
	_, body := r.(*bodyReader)
	return !body
}

// remoteReader is the CaptureReader of a remote input: the reader of its
// format, which sees a transfer that ended early as the end of the input
// (and records the damage of a cut record as for a truncated file), and
// then the transfer's error, which ends the input.
type remoteReader struct {
	r    CaptureReader
	t    *transfer
	body bool // a single robots.txt body
	err  error
}

// Next returns the next capture. After the last one it returns io.EOF, or
// the error of a transfer that ended early: an *InputError wrapping
// ErrTruncated and the cause (ErrRetriesExhausted, ErrRangeIgnored,
// ErrRemoteChanged, an *HTTPStatusError, ...), at the offset where the
// transfer stopped. Errors stick.
func (r *remoteReader) Next() (*Capture, error) {
	if r.err != nil {
		return nil, r.err
	}
	c, err := r.r.Next()
	switch {
	case err == io.EOF && r.t.err != nil:
		r.err = r.t.inputError()
		return nil, r.err
	case err != nil:
		r.err = err
	case r.body && r.t.err != nil:
		c.addProblem(ProblemRecordIncomplete, r.t.err.Error())
		c.Truncated = TruncatedInput
	}
	return c, err
}

// Counts returns a snapshot of the running totals of the format's reader.
func (r *remoteReader) Counts() Counts { return r.r.Counts() }

// inputCounts returns the counts of an input's reader for its inputs row,
// noting a remote input whose length was never announced.
func inputCounts(r CaptureReader) Counts {
	c := r.Counts()
	if rr, ok := r.(*remoteReader); ok {
		c.lengthUnknown = rr.t.size < 0
	}
	return c
}

// remoteInfo is the fs.FileInfo of a remote body: its length (-1 while
// unknown) and Last-Modified time.
type remoteInfo struct {
	t    *transfer
	name string
}

func (i remoteInfo) Name() string       { return i.name }
func (i remoteInfo) Size() int64        { return i.t.size }
func (i remoteInfo) Mode() fs.FileMode  { return 0o444 }
func (i remoteInfo) ModTime() time.Time { return i.t.modTime }
func (i remoteInfo) IsDir() bool        { return false }
func (i remoteInfo) Sys() any           { return nil }
