package remote

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
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

// MaxRedirects is the most redirects followed for one request, as
// net/http's default.
const MaxRedirects = 10

// Retryable reports whether the status is worth another attempt: 5xx, 429
// (Too Many Requests) and 408 (Request Timeout), and the S3 errors that
// ask for one whatever their status (SlowDown, RequestTimeout).
func (e *HTTPStatusError) Retryable() bool {
	return e.StatusCode >= 500 || e.StatusCode == http.StatusTooManyRequests || e.StatusCode == http.StatusRequestTimeout ||
		e.Code == "SlowDown" || e.Code == "RequestTimeout"
}

// config holds the settings of remote inputs and manifests.
type config struct {
	client        *http.Client // nil: the shared default client
	headerTimeout time.Duration
	idleTimeout   time.Duration
	retries       int
	backoffBase   time.Duration
	backoffMax    time.Duration
	userAgent     string
	baseURL       string
	notify        func(Retry)  // nil: retries go unsaid
	s3            *s3Signer    // where and how s3:// inputs are requested
	hosts         *hostLimiter // the cap on requests in flight to one host
}

// A Retry is a failed attempt of a transfer that is tried again after a
// wait: what [WithRetryNotify] is told before each wait.
type Retry struct {
	URL string // the input
	// Failed is the failed attempts in a row, this one included, and
	// Allowed the most attempts in a row the retries allow ([WithRetries]
	// plus the first): the next attempt is the (Failed+1)-th of Allowed.
	// Bytes received reset the count.
	Failed, Allowed int
	Wait            time.Duration // before the next attempt
	Err             error         // why this attempt failed
}

// Cause is why the attempt failed, in a few words: the error without the
// request that net/http's errors repeat (`Get "URL": ...`).
func (r Retry) Cause() string {
	var ue *url.Error
	if errors.As(r.Err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return r.Err.Error()
}

// An Option changes the settings of remote inputs and manifests; each
// checks its argument.
type Option func(*config) error

func newConfig(opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

func defaultConfig() config {
	return config{
		headerTimeout: DefaultHeaderTimeout,
		idleTimeout:   DefaultIdleTimeout,
		retries:       DefaultRetries,
		backoffBase:   DefaultBackoffBase,
		backoffMax:    DefaultBackoffMax,
		userAgent:     DefaultUserAgent,
		baseURL:       DefaultBaseURL,
		s3:            defaultS3(),
		hosts:         defaultHosts(),
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
			return errorf("%w: nil HTTP client", archive.ErrInvalidOption)
		}
		cfg.client = c
		return nil
	}
}

// WithHeaderTimeout bounds the wait for each response header, connection
// included (default DefaultHeaderTimeout, more than 0). A request that
// times out is retried.
func WithHeaderTimeout(d time.Duration) Option {
	return func(cfg *config) error {
		if d <= 0 {
			return errorf("%w: header timeout %v is not positive", archive.ErrInvalidOption, d)
		}
		cfg.headerTimeout = d
		return nil
	}
}

// WithIdleTimeout bounds a stalled body read (default DefaultIdleTimeout,
// more than 0): a read that gets no byte for d fails with ErrIdleTimeout
// and the transfer is resumed from where it stopped.
func WithIdleTimeout(d time.Duration) Option {
	return func(cfg *config) error {
		if d <= 0 {
			return errorf("%w: idle timeout %v is not positive", archive.ErrInvalidOption, d)
		}
		cfg.idleTimeout = d
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
			return errorf("%w: retries %d not in [0, %d]", archive.ErrInvalidOption, n, MaxRetries)
		}
		cfg.retries = n
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
			return errorf("%w: backoff base %v, max %v (want 0 < base <= max)", archive.ErrInvalidOption, base, max)
		}
		cfg.backoffBase, cfg.backoffMax = base, max
		return nil
	}
}

// WithRetryNotify sets a function told of each retry before its wait
// (default none; nil is none), so that a caller can say that a transfer is
// being retried and when: it is called from the goroutine reading the
// input, and the wait starts when it returns. A failure that is not retried
// (a permanent one, or the last the retries allow) is not told: it is the
// transfer's error.
func WithRetryNotify(f func(Retry)) Option {
	return func(cfg *config) error {
		cfg.notify = f
		return nil
	}
}

// WithUserAgent sets the User-Agent header of the requests (default
// DefaultUserAgent; not empty, one line).
func WithUserAgent(ua string) Option {
	return func(cfg *config) error {
		if strings.TrimSpace(ua) == "" || strings.ContainsAny(ua, "\r\n") {
			return errorf("%w: User-Agent %q", archive.ErrInvalidOption, ua)
		}
		cfg.userAgent = ua
		return nil
	}
}

// httpClient returns the client of the requests: a copy of the one set
// (sharing its transport and so its connections) that refuses the
// redirects of ErrRedirect before the client's own policy, if any, is
// asked.
func (rc *config) httpClient() *http.Client {
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
			return errorf("%w: redirect loop back to %s after %d redirects", ErrRedirect, to, len(via))
		}
	}
	switch {
	case len(via) > MaxRedirects:
		return errorf("%w: more than %d redirects", ErrRedirect, MaxRedirects)
	case !strings.EqualFold(req.URL.Scheme, "http") && !strings.EqualFold(req.URL.Scheme, "https"):
		return errorf("%w: redirect to the unsupported scheme of %s", ErrRedirect, to)
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
//
// A host under the special-use name "invalid." (RFC 6761 §6.4: names that
// resolvers should answer "no such host" at once, without asking DNS)
// fails at once with that answer, a *net.DNSError whose IsNotFound is set,
// as a name that DNS does not know fails.
func NewHTTPClient(proxy func(*http.Request) (*url.URL, error)) *http.Client {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:               proxy,
		DialContext:         refuseInvalidNames(dialer.DialContext),
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        100,
		MaxIdleConnsPerHost: 32,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		DisableCompression:  true,
	}}
}

// refuseInvalidNames wraps dial so that a host under "invalid." fails at
// once with the "no such host" of a name DNS does not know (RFC 6761 §6.4).
func refuseInvalidNames(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		if name := strings.ToLower(strings.TrimSuffix(host, ".")); name == "invalid" || strings.HasSuffix(name, ".invalid") {
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
		}
		return dial(ctx, network, addr)
	}
}

// Permanent reports whether err, the failure of a remote input, is one
// that reading the input again cannot mend, because the name itself is
// wrong: it is not an http(s) URL (another scheme, a malformed URL, no
// host), or its host does not exist (DNS answers "no such host"). A
// status, a time-out, a changed file, ... may read otherwise another time.
func Permanent(err error) bool {
	var bad *badURLError
	var dns *net.DNSError
	return errors.As(err, &bad) || errors.As(err, &dns) && dns.IsNotFound
}

// IsRemote reports whether name is an http, https or s3 URL, which [Open]
// reads over the network.
func IsRemote(name string) bool { return isHTTP(name) || IsS3(name) }

// isHTTP reports whether name is an http or https URL.
func isHTTP(name string) bool {
	scheme, _, ok := strings.Cut(name, "://")
	return ok && (strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https"))
}

// otherScheme returns the scheme of a name that looks like a URL of a
// scheme other than http, https and s3 ("ftp://..."), or "".
func otherScheme(name string) string {
	if IsRemote(name) {
		return ""
	}
	return archive.URLScheme(name)
}

// target returns the URL to request for a remote input under cfg: an
// http(s) input's own, or that of an s3:// input's object.
func target(name string, cfg config) (*url.URL, error) {
	if IsS3(name) {
		return s3Target(name, cfg)
	}
	return parseRemote(name)
}

// parseRemote checks an http(s) input's URL.
func parseRemote(name string) (*url.URL, error) {
	if s := otherScheme(name); s != "" || !isHTTP(name) {
		err := errorf("%w: URL scheme %q (http, https and s3 URLs are read)", archive.ErrUnsupportedFormat, s)
		return nil, &archive.InputError{File: name, Err: &badURLError{err}}
	}
	u, err := url.Parse(name)
	if err != nil {
		return nil, &archive.InputError{File: name, Err: &badURLError{errorf("%w: bad URL: %w", archive.ErrRead, err)}}
	}
	if u.Host == "" {
		return nil, &archive.InputError{File: name, Err: &badURLError{errorf("%w: URL without host", archive.ErrRead)}}
	}
	return u, nil
}

// Open opens an http(s) input and returns its reader and a Closer to
// call when done. The first request is made here, so that the format is
// found from the first bytes (and the name of the URL's path) as for a
// local file; the reader of that format (configured by read) then gets
// the stream of the transfer, whose byte offsets are those of the remote
// file. Cancelling ctx ends the transfer and its waits between retries,
// and the reader then returns ctx's error. The first request's failure
// (after the retries allowed) is the error: an *archive.InputError
// wrapping archive.ErrRead and the cause, e.g. an [*HTTPStatusError] for
// a 404.
func Open(ctx context.Context, name string, opts []Option, read ...archive.Option) (archive.CaptureReader, io.Closer, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	u, err := target(name, cfg)
	if err != nil {
		return nil, nil, err
	}
	t := newTransfer(ctx, name, u, cfg)
	r, format, err := remoteFormatReader(t, u, read)
	if err != nil {
		t.Close()
		return nil, nil, err
	}
	rr := &remoteReader{r: r, t: t, body: format == archive.FormatBody}
	if tr, ok := r.(*archive.TarReader); ok {
		return rr, archive.Closers{tr, t}, nil
	}
	return rr, t, nil
}

// remoteFormatReader reads the first bytes of a transfer (the first
// request), finds the format and returns its reader over the stream.
func remoteFormatReader(t *transfer, u *url.URL, opts []archive.Option) (archive.CaptureReader, archive.Format, error) {
	head := make([]byte, archive.SniffLen)
	n, _ := io.ReadFull(t, head)
	if n == 0 && t.err != nil {
		return nil, 0, &archive.InputError{File: t.url, Err: errorf("%w: %w", archive.ErrRead, t.err)}
	}
	format, err := archive.Detect(head[:n])
	if err != nil {
		return nil, 0, &archive.InputError{File: t.url, Err: err}
	}
	stream := io.MultiReader(bytes.NewReader(head[:n]), t)
	r, err := archive.NewReader(format, stream, t.url, remoteInfo{t: t, name: path.Base(u.Path)}, opts...)
	return r, format, err
}

// remoteReader is the CaptureReader of a remote input: the reader of its
// format, which sees a transfer that ended early as the end of the input
// (and records the damage of a cut record as for a truncated file), and
// then the transfer's error, which ends the input.
type remoteReader struct {
	r    archive.CaptureReader
	t    *transfer
	body bool // a single robots.txt body
	err  error
}

// Next returns the next capture. After the last one it returns io.EOF, or
// the error of a transfer that ended early: an *InputError wrapping
// ErrTruncated and the cause (ErrRetriesExhausted, ErrRangeIgnored,
// ErrRemoteChanged, an *HTTPStatusError, ...), at the offset where the
// transfer stopped. Errors stick.
func (r *remoteReader) Next() (*archive.Capture, error) {
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
		c.AddProblem(archive.ProblemRecordIncomplete, r.t.err.Error())
		c.Truncated = archive.TruncatedInput
	}
	return c, err
}

// Counts returns a snapshot of the running totals of the format's reader.
func (r *remoteReader) Counts() archive.Counts { return r.r.Counts() }

// LengthUnknown reports whether r is the reader of a remote input whose
// length was never announced (no Content-Length), which its inputs row
// notes.
func LengthUnknown(r archive.CaptureReader) bool {
	rr, ok := r.(*remoteReader)
	return ok && rr.t.size < 0
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

// CheckOptions returns the error Open would return for opts: an
// archive.ErrInvalidOption for a value out of range.
func CheckOptions(opts ...Option) error {
	_, err := newConfig(opts)
	return err
}
