// Package s3test runs a real S3-compatible server for tests: versitygw
// (github.com/versity/versitygw) with its posix backend, on a loopback
// port, over a temporary folder, with known credentials. Its objects are
// plain files (bucket B's key K is the file Dir/B/K), so a test can also
// read with DuckDB or os what a run wrote through S3. Only tests import it.
//
// A test that calls [Start] is skipped, saying how to install versitygw,
// when it is absent (scripts/ci-deps.sh installs it), or fails when
// ROBOCENSUS_REQUIRE_S3=1 (CI).
package s3test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/robocensus/robocensus/internal/testutil"
)

// The credentials and region of the server's one account.
const (
	AccessKey = "robocensus-test-access"
	SecretKey = "robocensus-test-secret-key"
	Region    = "us-east-1"
)

// startTimeout bounds the wait for a started server to answer.
const startTimeout = 30 * time.Second

// A Server is a running versitygw, stopped when the test ends.
type Server struct {
	URL    string // its endpoint, http://127.0.0.1:PORT
	Dir    string // the posix backend's root: bucket B is the folder Dir/B
	client *s3.Client
}

// Start starts a server for the test, or skips it (see the package
// documentation). The server is stopped, and its folder removed, when the
// test and its subtests end.
func Start(tb testing.TB) *Server {
	tb.Helper()
	bin := testutil.VersityGW(tb)
	dir := filepath.Join(tb.TempDir(), "s3")
	var errs []error
	for range 3 { // another process may take the free port first
		srv, err := start(tb, bin, dir)
		if err == nil {
			return srv
		}
		errs = append(errs, err)
	}
	tb.Fatalf("s3test: versitygw did not start: %v", errors.Join(errs...))
	return nil
}

// start runs versitygw on a free loopback port and waits until it answers.
func start(tb testing.TB, bin, dir string) (*Server, error) {
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := mkdirAll(dir); err != nil {
		return nil, err
	}
	var out lockedBuffer
	cmd := exec.Command(bin, "--access", AccessKey, "--secret", SecretKey, "--region", Region,
		"--port", addr, "--keep-alive", "--quiet", "posix", dir)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	srv := &Server{URL: "http://" + addr, Dir: dir}
	if err := waitReady(srv.URL, exited); err != nil {
		stop(cmd, exited)
		return nil, fmt.Errorf("%w; its output: %s", err, strings.TrimSpace(out.String()))
	}
	tb.Cleanup(func() { stop(cmd, exited) })
	srv.client = NewClient(srv.URL, credentials.NewStaticCredentialsProvider(AccessKey, SecretKey, ""))
	return srv, nil
}

// freePort returns a loopback address whose port was free a moment ago.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitReady polls url until the server answers anything over HTTP, it
// exits, or startTimeout passes.
func waitReady(url string, exited <-chan error) error {
	deadline := time.Now().Add(startTimeout)
	client := &http.Client{Timeout: time.Second}
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("versitygw exited at start: %v", err)
		default:
		}
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("versitygw did not answer at %s within %v", url, startTimeout)
}

// stop ends the server: SIGTERM, then SIGKILL if it has not exited within
// 10 s.
func stop(cmd *exec.Cmd, exited <-chan error) {
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
}

// NewClient returns an S3 client of endpoint (path-style addressing, the
// server's region, checksums only where an operation requires them, as
// many S3-compatible stores want) with the given credentials.
func NewClient(endpoint string, creds aws.CredentialsProvider) *s3.Client {
	return s3.New(s3.Options{
		BaseEndpoint:               aws.String(endpoint),
		Region:                     Region,
		UsePathStyle:               true,
		Credentials:                creds,
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
}

// Client returns a client of the server with its account's credentials.
func (s *Server) Client() *s3.Client { return s.client }

// Credentials returns the account's credentials.
func (s *Server) Credentials() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(AccessKey, SecretKey, "")
}

// CreateBucket creates the bucket name, failing the test if it cannot.
func (s *Server) CreateBucket(tb testing.TB, name string) {
	tb.Helper()
	if _, err := s.client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		tb.Fatalf("s3test: creating bucket %s: %v", name, err)
	}
}

// Put stores data as the object bucket/key, failing the test if it cannot.
func (s *Server) Put(tb testing.TB, bucket, key string, data []byte) {
	tb.Helper()
	_, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(data)})
	if err != nil {
		tb.Fatalf("s3test: putting s3://%s/%s: %v", bucket, key, err)
	}
}

// lockedBuffer collects a process's output from two pipes at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func mkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }
