package objstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// Errors of a store. Every error of this package starts with "objstore: "
// and names the s3:// URL it is about.
var (
	// ErrNoBucket means the bucket does not exist.
	ErrNoBucket = errors.New("objstore: no such bucket")
	// ErrAccessDenied means the store refused the credentials, or they
	// do not allow the request.
	ErrAccessDenied = errors.New("objstore: access denied")
	// ErrUnreachable means no connection to the store's endpoint could
	// be made.
	ErrUnreachable = errors.New("objstore: store unreachable")
	// ErrExists is the error of PutIfAbsent when the object exists, and of
	// DeleteIfMatch when the object is no longer the version read.
	ErrExists = errors.New("objstore: precondition failed")
	// ErrNoConditionalWrites means the store ignores If-None-Match on a
	// put: it cannot hold a dataset's locks safely.
	ErrNoConditionalWrites = errors.New("objstore: the store does not support conditional writes (If-None-Match: *), which the dataset's locks need")
	// ErrTooLarge means a file is larger than an object may be (5 TiB).
	ErrTooLarge = errors.New("objstore: file larger than an S3 object may be (5 TiB)")
)

// Limits of S3 on uploads.
const (
	// maxPut is the largest object one PUT may store, and the largest
	// piece of a multipart upload.
	maxPut = 5 << 30
	// maxObject is the largest object.
	maxObject = 5 << 40
	// maxPieces is the most pieces a multipart upload may have.
	maxPieces = 10000
	// MinPieceSize is the smallest piece of a multipart upload but the
	// last.
	MinPieceSize = 5 << 20
	// DefaultPieceSize is Config.PieceSize when none is given.
	DefaultPieceSize = 1 << 30
)

// Where requests go by default.
const (
	// DefaultRegion is the region requests are signed for when none is
	// configured.
	DefaultRegion = "us-east-1"
	// PathStyle and VirtualStyle are the URL styles of a Config.
	PathStyle    = "path"
	VirtualStyle = "virtual"
)

// A Config says where a store's requests go and how they are signed.
type Config struct {
	// Endpoint is the URL of an S3-compatible store; "" is AWS.
	Endpoint string
	// Region is the region requests are signed for; "" is DefaultRegion.
	Region string
	// URLStyle is PathStyle, VirtualStyle, or "": path-style with an
	// Endpoint, virtual-hosted on AWS.
	URLStyle string
	// Credentials sign the requests; nil sends them unsigned.
	Credentials aws.CredentialsProvider
	// PieceSize is the size of the pieces of a multipart upload: PutFile
	// puts a file larger than it in pieces of it (larger where a file
	// would take over 10,000), and a smaller one in one PUT. 0 is
	// DefaultPieceSize; at least MinPieceSize, at most 5 GiB (one PUT).
	PieceSize int64
}

// A Store is the objects under one prefix of a bucket. Keys given to its
// methods are relative to the prefix, with "/" between folders.
type Store struct {
	client         *s3.Client
	bucket, prefix string // prefix: "" or ending in "/"
	endpoint       string // for errors
	pieceSize      int64  // Config.PieceSize
	ranged         atomic.Int64
}

// RangedGets returns the number of ranged GETs the store's FS files have
// sent (see [Store.FS]).
func (s *Store) RangedGets() int64 { return s.ranged.Load() }

// IsURL reports whether name is an s3:// URL.
func IsURL(name string) bool {
	scheme, _, ok := strings.Cut(name, "://")
	return ok && strings.EqualFold(scheme, "s3")
}

// ParseURL splits "s3://BUCKET[/PREFIX]" into the bucket and the prefix,
// without its slashes at either end.
func ParseURL(name string) (bucket, prefix string, err error) {
	if !IsURL(name) {
		return "", "", fmt.Errorf("objstore: %q is not an s3:// URL", name)
	}
	bucket, prefix, _ = strings.Cut(name[len("s3://"):], "/")
	prefix = strings.Trim(prefix, "/")
	switch {
	case bucket == "":
		return "", "", fmt.Errorf("objstore: %q: no bucket (want s3://BUCKET/PREFIX)", name)
	case !ValidBucket(bucket):
		return "", "", fmt.Errorf("objstore: %q: bucket name %q is not 3 to 63 letters, digits, dots, hyphens or underscores", name, bucket)
	case strings.Contains("/"+prefix+"/", "//") && prefix != "",
		strings.Contains("/"+prefix+"/", "/./"), strings.Contains("/"+prefix+"/", "/../"):
		return "", "", fmt.Errorf("objstore: %q: the prefix has an empty, . or .. element", name)
	}
	return bucket, prefix, nil
}

// ValidBucket reports whether b can be a bucket name: 3 to 63 characters
// of the DNS-safe set, plus the upper case and underscores of older
// buckets and of some S3-compatible stores. The s3:// inputs of package
// remote and the datasets here accept the same names.
func ValidBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for _, c := range []byte(b) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Open returns the store of the s3:// URL name under cfg. It makes no
// request: [Store.Check] does.
func Open(cfg Config, name string) (*Store, error) {
	bucket, prefix, err := ParseURL(name)
	if err != nil {
		return nil, err
	}
	if cfg.Endpoint != "" {
		if u, err := url.Parse(cfg.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("objstore: S3 endpoint %q: want http(s)://HOST[:PORT]", cfg.Endpoint)
		}
	}
	switch cfg.URLStyle {
	case "", PathStyle, VirtualStyle:
	default:
		return nil, fmt.Errorf("objstore: S3 URL style %q (want %q or %q)", cfg.URLStyle, PathStyle, VirtualStyle)
	}
	if cfg.PieceSize == 0 {
		cfg.PieceSize = DefaultPieceSize
	} else if cfg.PieceSize < MinPieceSize || cfg.PieceSize > maxPut {
		return nil, fmt.Errorf("objstore: multipart piece size %d bytes: want 5 MiB to 5 GiB", cfg.PieceSize)
	}
	opts := s3.Options{
		Region:                     cfg.Region,
		Credentials:                cfg.Credentials,
		UsePathStyle:               cfg.URLStyle == PathStyle || cfg.URLStyle == "" && cfg.Endpoint != "",
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		RetryMaxAttempts:           4,
	}
	if opts.Region == "" {
		opts.Region = DefaultRegion
	}
	if cfg.Credentials == nil {
		opts.Credentials = aws.AnonymousCredentials{}
	}
	endpoint := "AWS (" + opts.Region + ")"
	if cfg.Endpoint != "" {
		opts.BaseEndpoint = aws.String(cfg.Endpoint)
		endpoint = cfg.Endpoint
	}
	if prefix != "" {
		prefix += "/"
	}
	return &Store{client: s3.New(opts), bucket: bucket, prefix: prefix, endpoint: endpoint, pieceSize: cfg.PieceSize}, nil
}

// URL returns "s3://BUCKET/PREFIX" of the store, or the URL of key under it.
func (s *Store) URL(key ...string) string {
	return "s3://" + s.bucket + "/" + s.prefix + path.Join(key...)
}

// key returns the full object key of a key relative to the prefix.
func (s *Store) key(rel string) string { return s.prefix + rel }

// Check makes sure the bucket exists and the credentials may list it, so
// that a run fails before it writes anything.
func (s *Store) Check(ctx context.Context) error {
	_, err := s.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: aws.String(s.prefix), MaxKeys: aws.Int32(1)})
	return s.explain("listing", "", err)
}

// Put stores data as key.
func (s *Store) Put(ctx context.Context, key string, data []byte) error {
	_, err := s.putObject(ctx, func() (*s3.PutObjectInput, error) {
		return &s3.PutObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key)), Body: bytes.NewReader(data)}, nil
	})
	return s.explain("putting", key, err)
}

// PutFile stores the local file at path as key: in one PUT, or, when it is
// larger than Config.PieceSize, with a multipart upload (putPieces).
func (s *Store) PutFile(ctx context.Context, key, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() > maxObject {
		return fmt.Errorf("%w: %s (%d bytes) for %s", ErrTooLarge, path, fi.Size(), s.URL(key))
	}
	if fi.Size() > s.pieceSize {
		return s.explain("putting", key, s.putPieces(ctx, key, f, fi.Size()))
	}
	_, err = s.putObject(ctx, func() (*s3.PutObjectInput, error) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return &s3.PutObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key)), Body: f, ContentLength: aws.Int64(fi.Size())}, nil
	})
	return s.explain("putting", key, err)
}

// PutIfAbsent stores data as key only if no object is there
// (If-None-Match: *), and returns the new object's ETag; an error wrapping
// ErrExists when one is.
func (s *Store) PutIfAbsent(ctx context.Context, key string, data []byte) (etag string, err error) {
	out, err := s.putObject(ctx, func() (*s3.PutObjectInput, error) {
		return &s3.PutObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key)), Body: bytes.NewReader(data), IfNoneMatch: aws.String("*")}, nil
	})
	if err != nil {
		return "", s.explain("putting", key, err)
	}
	return aws.ToString(out.ETag), nil
}

// Get returns the object key and what describes it (its ETag, size and
// modification time); an error wrapping fs.ErrNotExist when there is none.
func (s *Store) Get(ctx context.Context, key string) ([]byte, Object, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key))})
	if err != nil {
		return nil, Object{}, s.explain("getting", key, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, Object{}, s.explain("getting", key, err)
	}
	return data, Object{Key: key, Size: int64(len(data)), ETag: aws.ToString(out.ETag), Modified: aws.ToTime(out.LastModified)}, nil
}

// Stat describes the object key (its size, ETag and modification time)
// without reading it; an error wrapping fs.ErrNotExist when there is none.
func (s *Store) Stat(ctx context.Context, key string) (Object, error) {
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key))})
	if err != nil {
		return Object{}, s.explain("reading", key, err)
	}
	return Object{Key: key, Size: aws.ToInt64(out.ContentLength), ETag: aws.ToString(out.ETag), Modified: aws.ToTime(out.LastModified)}, nil
}

// PutIfMatch replaces the object key with data only if its ETag is etag
// (If-Match), and returns the new ETag; an error wrapping ErrExists when
// it is another version, fs.ErrNotExist when it is gone.
func (s *Store) PutIfMatch(ctx context.Context, key string, data []byte, etag string) (string, error) {
	out, err := s.putObject(ctx, func() (*s3.PutObjectInput, error) {
		return &s3.PutObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key)), Body: bytes.NewReader(data), IfMatch: aws.String(etag)}, nil
	})
	if err != nil {
		return "", s.explain("putting", key, err)
	}
	return aws.ToString(out.ETag), nil
}

// GetFile writes the object key to the local file at path, through a
// temporary file renamed into place.
func (s *Store) GetFile(ctx context.Context, key, path string) error {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key))})
	if err != nil {
		return s.explain("getting", key, err)
	}
	defer out.Body.Close()
	tmp := path + ".download"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, out.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return s.explain("getting", key, err)
	}
	return nil
}

// getRange reads the bytes [off, off+n) of the object key.
func (s *Store) getRange(ctx context.Context, key string, off, n int64) ([]byte, error) {
	s.ranged.Add(1)
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key)),
		Range: aws.String(fmt.Sprintf("bytes=%d-%d", off, off+n-1))})
	if err != nil {
		return nil, s.explain("reading", key, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(io.LimitReader(out.Body, n))
	if err == nil && int64(len(data)) != n {
		err = fmt.Errorf("got %d bytes of the %d asked for at offset %d", len(data), n, off)
	}
	return data, s.explain("reading", key, err)
}

// An Object is an object listed under the store's prefix.
type Object struct {
	Key      string // relative to the prefix
	Size     int64
	ETag     string
	Modified time.Time
}

// List returns the objects whose keys start with prefix (relative to the
// store's), in key order.
func (s *Store) List(ctx context.Context, prefix string) ([]Object, error) {
	var out []Object
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: aws.String(s.key(prefix))})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, s.explain("listing", prefix, err)
		}
		for _, o := range page.Contents {
			out = append(out, Object{Key: strings.TrimPrefix(aws.ToString(o.Key), s.prefix), Size: aws.ToInt64(o.Size),
				ETag: aws.ToString(o.ETag), Modified: aws.ToTime(o.LastModified)})
		}
	}
	return out, nil
}

// Delete removes the object key; one already gone is no error.
func (s *Store) Delete(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key))})
	return ignoreNotExist(s.explain("deleting", key, err))
}

// DeleteIfMatch removes the object key only if its ETag is etag
// (If-Match); an error wrapping ErrExists when it is another version, none
// when it is gone.
func (s *Store) DeleteIfMatch(ctx context.Context, key, etag string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: aws.String(s.key(key)), IfMatch: aws.String(etag)})
	return ignoreNotExist(s.explain("deleting", key, err))
}

// DeleteAll removes every object whose key starts with prefix.
func (s *Store) DeleteAll(ctx context.Context, prefix string) error {
	objs, err := s.List(ctx, prefix)
	if err != nil {
		return err
	}
	for _, o := range objs {
		if err := s.Delete(ctx, o.Key); err != nil {
			return err
		}
	}
	return nil
}

func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// CheckConditionalWrites puts a probe object twice with If-None-Match: *
// and removes it: the second put must be refused. An error wrapping
// ErrNoConditionalWrites says the store accepted it, and so cannot keep
// two runs from taking one lock.
func (s *Store) CheckConditionalWrites(ctx context.Context, probe string) error {
	if _, err := s.PutIfAbsent(ctx, probe, []byte("probe\n")); err != nil {
		return err
	}
	defer s.Delete(ctx, probe)
	_, err := s.PutIfAbsent(ctx, probe, []byte("probe\n"))
	switch {
	case err == nil:
		return fmt.Errorf("%w: %s accepted a second put of %s with If-None-Match: *", ErrNoConditionalWrites, s.endpoint, s.URL(probe))
	case errors.Is(err, ErrExists):
		return nil
	default:
		return err
	}
}

// explain turns an error of the S3 client into one that says what
// happened to which object, wrapping this package's errors where one
// applies; nil stays nil.
func (s *Store) explain(op, key string, err error) error {
	if err == nil {
		return nil
	}
	if strings.HasPrefix(err.Error(), "objstore: ") {
		return err
	}
	what := fmt.Sprintf("objstore: %s %s", op, s.URL(key))
	var api smithy.APIError
	code, status := "", 0
	if errors.As(err, &api) {
		code = api.ErrorCode()
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	switch {
	case code == "NoSuchBucket":
		return fmt.Errorf("%s: %w: bucket %q does not exist at %s", what, ErrNoBucket, s.bucket, s.endpoint)
	case accessCodes[code] || status == 401 || status == 403:
		return fmt.Errorf("%s: %w: the store refused the credentials or the request (%s): check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE", what, ErrAccessDenied, code)
	case code == "NoSuchKey" || code == "NotFound" || status == 404 && code == "":
		return fmt.Errorf("%s: %w", what, fs.ErrNotExist)
	case code == "PreconditionFailed" || code == "ConditionalRequestConflict" || status == 412:
		return fmt.Errorf("%s: %w (%s)", what, ErrExists, code)
	case isNetwork(err):
		return fmt.Errorf("%s: %w: cannot connect to %s: %v", what, ErrUnreachable, s.endpoint, rootCause(err))
	}
	return fmt.Errorf("%s: %w", what, err)
}

// accessCodes are the S3 error codes of refused credentials or requests;
// versitygw answers an unknown access key with XAdminUserNotFound (404).
var accessCodes = map[string]bool{
	"InvalidAccessKeyId": true, "SignatureDoesNotMatch": true, "AccessDenied": true, "InvalidToken": true,
	"ExpiredToken": true, "XAdminUserNotFound": true,
}

// isNetwork reports whether err is a failure to reach the endpoint.
func isNetwork(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	return errors.As(err, &op) || errors.As(err, &dns)
}

// rootCause returns the innermost error of a chain of single wraps.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// putObject puts the object that input makes, again a few times when a
// store that keeps objects as files and folders (versitygw's posix
// backend) answers ExistingObjectIsDirectory: another client made or
// removed the folder of a key beside this one at that moment (two shards
// starting together, one deleting its probe while the other puts its
// own). S3 itself has no folders and never answers so.
func (s *Store) putObject(ctx context.Context, input func() (*s3.PutObjectInput, error)) (*s3.PutObjectOutput, error) {
	for attempt := 0; ; attempt++ {
		in, err := input()
		if err != nil {
			return nil, err
		}
		out, err := s.client.PutObject(ctx, in)
		var api smithy.APIError
		if err == nil || attempt == folderRaceRetries || !errors.As(err, &api) || api.ErrorCode() != "ExistingObjectIsDirectory" {
			return out, err
		}
		select {
		case <-time.After(time.Duration(10<<attempt) * time.Millisecond):
		case <-ctx.Done():
			return out, err
		}
	}
}

// putPieces stores the size bytes of f as key with a multipart upload, in
// pieces of the store's piece size (more where there would be over
// 10,000), each retried as one request, and aborts the upload when a piece
// or the completion fails, so that the store keeps no orphan pieces.
// (Written on the store's S3 client rather than with feature/s3/manager's
// uploader: no module more for four calls, and the pieces go with this
// client's settings, checksums only where required included, read from the
// file where they lie.)
func (s *Store) putPieces(ctx context.Context, key string, f *os.File, size int64) error {
	up, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &s.bucket, Key: aws.String(s.key(key))})
	if err != nil {
		return err
	}
	piece := max(s.pieceSize, (size+maxPieces-1)/maxPieces)
	var done []types.CompletedPart
	for off := int64(0); off < size && err == nil; off += piece {
		var out *s3.UploadPartOutput
		n := aws.Int32(int32(len(done) + 1))
		out, err = s.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: &s.bucket, Key: aws.String(s.key(key)), UploadId: up.UploadId,
			PartNumber: n, Body: io.NewSectionReader(f, off, min(piece, size-off)), ContentLength: aws.Int64(min(piece, size-off))})
		if err == nil {
			done = append(done, types.CompletedPart{ETag: out.ETag, PartNumber: n})
		}
	}
	if err == nil {
		_, err = s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &s.bucket, Key: aws.String(s.key(key)),
			UploadId: up.UploadId, MultipartUpload: &types.CompletedMultipartUpload{Parts: done}})
	}
	if err != nil {
		_, aerr := s.client.AbortMultipartUpload(context.WithoutCancel(ctx), &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: aws.String(s.key(key)), UploadId: up.UploadId})
		if aerr != nil {
			return fmt.Errorf("%w (and aborting the upload %s failed: %v)", err, aws.ToString(up.UploadId), s.explain("aborting", key, aerr))
		}
	}
	return err
}

// folderRaceRetries is how many times putObject puts again after an
// ExistingObjectIsDirectory answer (waiting 10, 20, 40, ... ms).
const folderRaceRetries = 6
