package remote

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/objstore"
)

// S3 inputs: "s3://BUCKET/KEY" names the object KEY of BUCKET, read with
// signed GET requests through the transfer of http(s) inputs (one GET per
// file, resumed with Range, retried with backoff). See the package
// documentation, "S3 inputs".

// Where and how s3:// objects are requested, by default.
const (
	// DefaultS3Region is the region of requests when none is configured.
	DefaultS3Region = "us-east-1"
	// S3PathStyle and S3VirtualStyle are the URL styles of [S3Config]:
	// ENDPOINT/BUCKET/KEY and BUCKET.ENDPOINT/KEY.
	S3PathStyle    = "path"
	S3VirtualStyle = "virtual"
)

// emptySHA256 is the SHA-256 of an empty payload, that of a GET, which an
// S3 request carries in X-Amz-Content-Sha256 and signs.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// An S3Config says where s3:// inputs are requested and how they are
// signed. The zero value is AWS, in us-east-1, anonymous.
type S3Config struct {
	// Endpoint is the URL of an S3-compatible store
	// ("http://127.0.0.1:7070", "https://storage.example:9000/prefix");
	// "" is AWS's endpoint of Region, https://s3.REGION.amazonaws.com.
	Endpoint string
	// Region is the region requests are signed for (and, on AWS, sent
	// to); "" is DefaultS3Region.
	Region string
	// URLStyle is S3PathStyle (ENDPOINT/BUCKET/KEY), S3VirtualStyle
	// (BUCKET.HOST/KEY), or "" to choose: path-style with an Endpoint
	// (what S3-compatible stores serve), virtual-hosted on AWS except for
	// a bucket name with dots, which AWS's certificate does not cover.
	URLStyle string
	// Credentials sign the requests (AWS Signature Version 4). Nil, or a
	// provider that finds none at the first request, sends them unsigned:
	// anonymous access, which a public bucket allows.
	Credentials aws.CredentialsProvider
}

// WithS3 sets where and how s3:// inputs (and manifests) are requested
// (default: the zero S3Config, AWS anonymously). The Endpoint must be an
// http(s) URL with a host and no query; the URLStyle "", "path" or
// "virtual". [S3ConfigFromEnvironment] makes one from the standard AWS
// settings.
func WithS3(c S3Config) Option {
	err := checkS3Config(c)
	s := newS3Signer(c)
	return func(cfg *config) error {
		if err != nil {
			return err
		}
		cfg.s3 = s
		return nil
	}
}

func checkS3Config(c S3Config) error {
	bad := func(why string) error {
		return errorf("%w: S3 endpoint %q: %s", archive.ErrInvalidOption, c.Endpoint, why)
	}
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		switch {
		case err != nil || !isHTTP(c.Endpoint) || u.Host == "":
			return bad("want http(s)://HOST[:PORT][/PATH]")
		case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
			return bad("no query, fragment or user allowed")
		}
	}
	switch c.URLStyle {
	case "", S3PathStyle, S3VirtualStyle:
	default:
		return errorf("%w: S3 URL style %q (want %q or %q)", archive.ErrInvalidOption, c.URLStyle, S3PathStyle, S3VirtualStyle)
	}
	return nil
}

// IsS3 reports whether name is an s3:// URL.
func IsS3(name string) bool {
	scheme, _, ok := strings.Cut(name, "://")
	return ok && strings.EqualFold(scheme, "s3")
}

// An s3Object is what an s3:// URL names.
type s3Object struct{ bucket, key string }

// parseS3 splits "s3://BUCKET/KEY". The key is taken as written, not
// percent-decoded, as the AWS command line takes it.
func parseS3(name string) (s3Object, error) {
	bad := func(why string) error {
		return &archive.InputError{File: name, Err: &badURLError{errorf("%w: bad S3 URL: %s (want s3://BUCKET/KEY)", archive.ErrRead, why)}}
	}
	bucket, key, _ := strings.Cut(name[len("s3://"):], "/")
	switch {
	case bucket == "":
		return s3Object{}, bad("no bucket")
	case !objstore.ValidBucket(bucket):
		return s3Object{}, bad("bucket name " + quote(bucket) + " is not 3 to 63 letters, digits, dots, hyphens or underscores")
	case key == "":
		return s3Object{}, bad("no key")
	case len(key) > 1024:
		return s3Object{}, bad("key longer than 1024 bytes")
	}
	return s3Object{bucket: bucket, key: key}, nil
}

func quote(s string) string { return `"` + s + `"` }

// s3EscapePath percent-encodes a key as S3 signs it: every byte but the
// unreserved characters (A-Z a-z 0-9 - _ . ~) and "/", so that "=" of a
// Hive partition is %3D in the request and in the signature alike.
func s3EscapePath(key string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for _, c := range []byte(key) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// requestURL returns the URL of o's GET under c.
func (o s3Object) requestURL(c S3Config) (*url.URL, error) {
	endpoint := c.Endpoint
	if endpoint == "" {
		endpoint = "https://s3." + c.region() + ".amazonaws.com"
	}
	u, err := url.Parse(strings.TrimSuffix(endpoint, "/"))
	if err != nil {
		return nil, err
	}
	virtual := c.URLStyle == S3VirtualStyle || c.URLStyle == "" && c.Endpoint == "" && !strings.Contains(o.bucket, ".")
	prefix := u.EscapedPath()
	if virtual {
		u.Host = o.bucket + "." + u.Host
	} else {
		prefix += "/" + s3EscapePath(o.bucket)
	}
	raw := prefix + "/" + s3EscapePath(o.key)
	if u.Path, err = url.PathUnescape(raw); err != nil {
		return nil, err
	}
	u.RawPath = raw
	return u, nil
}

func (c S3Config) region() string {
	if c.Region == "" {
		return DefaultS3Region
	}
	return c.Region
}

// s3Signer signs the requests of one S3Config, shared by every transfer
// that uses it: the first request finds out whether there are credentials
// at all (else the requests go unsigned), and the provider refreshes them
// after that.
type s3Signer struct {
	cfg    S3Config
	signer *v4.Signer

	once      sync.Once
	anonymous error // why requests go unsigned; nil when they are signed
}

func newS3Signer(c S3Config) *s3Signer {
	return &s3Signer{cfg: c, signer: v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })}
}

// errNoCredentials is why requests go unsigned when no provider is set.
var errNoCredentials = errorf("no credentials configured")

// sign signs req, or leaves it unsigned when there are no credentials.
func (s *s3Signer) sign(req *http.Request) error {
	req.Header.Set("X-Amz-Content-Sha256", emptySHA256)
	s.once.Do(func() {
		if s.cfg.Credentials == nil {
			s.anonymous = errNoCredentials
			return
		}
		if _, err := s.cfg.Credentials.Retrieve(req.Context()); err != nil {
			s.anonymous = err
		}
	})
	if s.anonymous != nil {
		return nil
	}
	creds, err := s.cfg.Credentials.Retrieve(req.Context())
	if err != nil {
		return errorf("AWS credentials: %w", err)
	}
	return s.signer.SignHTTP(req.Context(), creds, req, emptySHA256, "s3", s.cfg.region(), time.Now().UTC())
}

// s3ErrorBody is the XML document of an S3 error answer.
type s3ErrorBody struct {
	Code    string `xml:"Code"`
	Message string `xml:"Message"`
}

// maxS3ErrorBody bounds what is read of an error answer's body.
const maxS3ErrorBody = 64 << 10

// explain adds to se the S3 error code and message of resp's body, if it
// has them, and says when the request went unsigned and was refused.
func (s *s3Signer) explain(se *HTTPStatusError, resp *http.Response) error {
	var doc s3ErrorBody
	if body, err := io.ReadAll(io.LimitReader(resp.Body, maxS3ErrorBody)); err == nil && xml.Unmarshal(body, &doc) == nil {
		se.Code, se.Message = doc.Code, doc.Message
	}
	if s.anonymous != nil && (se.StatusCode == http.StatusForbidden || se.StatusCode == http.StatusUnauthorized) {
		return errorf("%w (the request was anonymous: no AWS credentials found: %w)", se, s.anonymous)
	}
	return se
}

// s3Target returns the request URL of an s3:// input under cfg.
func s3Target(name string, cfg config) (*url.URL, error) {
	obj, err := parseS3(name)
	if err != nil {
		return nil, err
	}
	u, err := obj.requestURL(cfg.s3.cfg)
	if err != nil {
		return nil, &archive.InputError{File: name, Err: &badURLError{errorf("%w: bad S3 endpoint: %w", archive.ErrRead, err)}}
	}
	return u, nil
}

// defaultS3 is the S3 setting when no WithS3 is given: AWS, anonymous.
var defaultS3 = sync.OnceValue(func() *s3Signer { return newS3Signer(S3Config{}) })
