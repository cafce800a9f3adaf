package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
)

// Tests of datasets in object storage (-o s3://BUCKET/PREFIX) with the real
// binary against versitygw on loopback. Its posix backend keeps bucket B's
// key K as the file Dir/B/K, so DuckDB reads what a run put as a dataset
// folder, and fingerprint compares it with a local run's.

// s3Bucket is the bucket the tests write datasets to.
const s3Bucket = "datasets"

// s3Command is robocensus with args, run with the environment s3Env set.
func s3Command(t *testing.T, args ...string) *exec.Cmd {
	return exec.Command(binary(t), args...)
}

// runS3 runs robocensus against srv and fails the test if it fails.
func runS3(t *testing.T, srv *s3test.Server, args ...string) string {
	t.Helper()
	out, err := s3Command(t, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("robocensus %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// s3Ingest is the arguments of an ingest into s3://datasets/<prefix>.
func s3Ingest(srv *s3test.Server, prefix string, extra, inputs []string) []string {
	return ingestArgs("s3://"+s3Bucket+"/"+prefix, append([]string{"--s3-endpoint", srv.URL}, extra...), inputs)
}

// startS3 starts versitygw with the bucket the tests write to, and points
// the standard AWS settings at it (s3Env).
func startS3(t *testing.T) *s3test.Server {
	srv := s3test.Start(t)
	s3Env(t)
	binary(t)                       // built first: under TMPDIR, which the next line sets for the test alone
	t.Setenv("TMPDIR", t.TempDir()) // a killed run's local folder goes with the test
	srv.CreateBucket(t, s3Bucket)
	return srv
}

// visibleParts returns the part files of the test's crawl under the
// dataset folder dir: what a glob of the bucket sees.
func visibleParts(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*", "crawl=resume-test", "*.parquet"))
	return m
}

// An ingest into s3:// publishes, in the bucket, a dataset equal row for
// row to a local ingest of the same inputs, with its listing, and leaves
// no work behind.
func TestS3DatasetEqualsLocal(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 4, 200)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	out := runS3(t, srv, s3Ingest(srv, "census/v1", nil, inputs)...)
	if !strings.Contains(out, "published s3://datasets/census/v1/<table>/crawl=resume-test/") {
		t.Errorf("output:\n%s", out)
	}
	dir := filepath.Join(srv.Dir, s3Bucket, "census", "v1")
	if got, want := fingerprint(t, dir), fingerprint(t, local); got != want {
		t.Errorf("dataset in s3:// differs from the local one:\n got %s\nwant %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, ".published", "crawl=resume-test.json")); err != nil {
		t.Errorf("no listing: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".work", "resume-test", "*", "*")); len(left) > 0 {
		t.Errorf("work left in the bucket: %v", left)
	}
	// Run again: nothing to do, the dataset unchanged.
	before := fingerprint(t, dir)
	out = runS3(t, srv, s3Ingest(srv, "census/v1", nil, inputs)...)
	if !strings.Contains(out, "nothing to do") && !strings.Contains(out, "already published") {
		t.Errorf("a rerun of a published crawl did something:\n%s", out)
	}
	if got := fingerprint(t, dir); got != before {
		t.Errorf("a rerun changed the dataset:\n got %s\nwant %s", got, before)
	}
}

// A run killed with SIGKILL while it puts segments into the bucket leaves
// no partition visible; run again, it resumes from the segments in the
// bucket and publishes the dataset of an uninterrupted run.
func TestS3KilledUploadResumes(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 6, 800)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	dir := filepath.Join(srv.Dir, s3Bucket, "killed")
	cmd := s3Command(t, s3Ingest(srv, "killed", nil, inputs)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join(dir, ".work", "resume-test", "segments", "*.json")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		m, _ := filepath.Glob(committed)
		if len(m) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if m, _ := filepath.Glob(committed); len(m) < 2 || len(m) == len(inputs) {
		t.Fatalf("killed after %d of %d segments: not midway", len(m), len(inputs))
	}
	if v := visibleParts(dir); len(v) > 0 {
		t.Fatalf("a killed run left parts visible: %v", v)
	}
	if _, err := os.Stat(filepath.Join(dir, ".published")); !os.IsNotExist(err) {
		t.Fatalf("a killed run left a listing: %v", err)
	}
	out := runS3(t, srv, s3Ingest(srv, "killed", nil, inputs)...)
	if !strings.Contains(out, "resumed: ") {
		t.Errorf("the rerun did not resume:\n%s", out)
	}
	if got, want := fingerprint(t, dir), fingerprint(t, local); got != want {
		t.Errorf("resumed run differs from an uninterrupted one:\n got %s\nwant %s", got, want)
	}
}

// Two shards run at once as processes of their own, meeting only in the
// bucket, publish together the dataset of a single local run.
func TestS3ShardsConcurrently(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 7, 300)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for k := range 2 {
		wg.Go(func() {
			out, err := s3Command(t, s3Ingest(srv, "sharded", []string{"--shard", fmt.Sprintf("%d/2", k)}, inputs)...).CombinedOutput()
			outs[k] = string(out)
			if err != nil {
				t.Errorf("shard %d/2: %v\n%s", k, err, out)
			}
		})
	}
	wg.Wait()
	dir := filepath.Join(srv.Dir, s3Bucket, "sharded")
	if got, want := fingerprint(t, dir), fingerprint(t, local); got != want {
		t.Errorf("sharded dataset differs from a single run:\n got %s\nwant %s\noutputs:\n%s", got, want, strings.Join(outs, "\n"))
	}
	if n := strings.Count(strings.Join(outs, "\n"), "published s3://"); n != 1 {
		t.Errorf("%d shards published, want 1:\n%s", n, strings.Join(outs, "\n"))
	}
}

// Refused credentials, a missing bucket and an endpoint nothing listens
// on end the run with an error that says which, before anything is put;
// the first two with the exit status of a failure no rerun mends
// (exitPermanent), the last with that of one worth retrying.
func TestS3DatasetErrors(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 1, 10)
	cases := []struct {
		name, url, endpoint, key, want string
		code                           int
	}{
		{"wrong credentials", "s3://" + s3Bucket + "/x", srv.URL, "nobody", "access denied", exitPermanent},
		{"missing bucket", "s3://no-such-bucket/x", srv.URL, s3test.AccessKey, `bucket "no-such-bucket" does not exist`, exitPermanent},
		{"unreachable", "s3://" + s3Bucket + "/x", "http://127.0.0.1:1", s3test.AccessKey, "store unreachable", exitFailure},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary(t), ingestArgs(c.url, []string{"--s3-endpoint", c.endpoint}, inputs)...)
			cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+c.key)
			out, err := cmd.CombinedOutput()
			if cmd.ProcessState.ExitCode() != c.code || !strings.Contains(string(out), c.want) || !strings.Contains(string(out), c.url) {
				t.Errorf("robocensus ingest -o %s: %v; want exit %d and an error saying %q and naming the URL:\n%s", c.url, err, c.code, c.want, out)
			}
			if left, _ := filepath.Glob(filepath.Join(srv.Dir, s3Bucket, "*")); len(left) > 0 {
				t.Errorf("objects put: %v", left)
			}
		})
	}
}

// report s3://... gives the report of the same dataset read from disk,
// byte for byte but for the dataset's name; and it reads the partitions
// the listings name, not the parts a publication under way has put.
func TestS3ReportEqualsLocal(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 3, 200)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	url := "s3://" + s3Bucket + "/report"
	runS3(t, srv, s3Ingest(srv, "report", nil, inputs)...)
	want := strings.ReplaceAll(runBinary(t, "report", "--format", "json", local), local, "DATASET")
	got := strings.ReplaceAll(runS3(t, srv, "report", "--format", "json", "--s3-endpoint", srv.URL, url), url, "DATASET")
	if got != want {
		t.Fatalf("report of %s differs from that of the local dataset (%d and %d bytes)", url, len(got), len(want))
	}
	// A part put by a publication under way, not in the listing yet,
	// is not read.
	extra := filepath.Join(srv.Dir, s3Bucket, "report", "captures", "crawl=resume-test")
	parts, _ := filepath.Glob(filepath.Join(extra, "*.parquet"))
	if len(parts) != 1 {
		t.Fatalf("captures parts: %v", parts)
	}
	data, err := os.ReadFile(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	srv.Put(t, s3Bucket, "report/captures/crawl=resume-test/part-unlisted-00000.parquet", data)
	got = strings.ReplaceAll(runS3(t, srv, "report", "--format", "json", "--s3-endpoint", srv.URL, url), url, "DATASET")
	if got != want {
		t.Errorf("report read a part that no listing names")
	}
}

// The end: a crawl ingested as 4 shards into s3://, each its own
// process started with only an array job's index set (a Kubernetes
// Indexed Job's JOB_COMPLETION_INDEX; the count is the manifest's
// --shards), one of them killed with -9 mid-upload and started again,
// gives the dataset of a single local ingest, row for row, published once.
func TestS3ArrayJobShards(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 12, 400)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	dir := filepath.Join(srv.Dir, s3Bucket, "array")
	task := func(k int) *exec.Cmd {
		cmd := s3Command(t, s3Ingest(srv, "array", []string{"--shards", "4"}, inputs)...)
		cmd.Env = append(os.Environ(), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", k))
		return cmd
	}
	// Task 3 first, alone, killed once it has a segment in the bucket.
	killed := task(3)
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join(dir, ".work", "resume-test", "segments", "s3of4-*.json")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if m, _ := filepath.Glob(committed); len(m) >= 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	killed.Process.Kill()
	killed.Wait()
	if m, _ := filepath.Glob(committed); len(m) == 0 {
		t.Fatal("task 3 was killed before it committed a segment")
	}
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for k := range 4 {
		wg.Go(func() {
			out, err := task(k).CombinedOutput()
			outs[k] = string(out)
			if err != nil {
				t.Errorf("task %d: %v\n%s", k, err, out)
			}
		})
	}
	wg.Wait()
	all := strings.Join(outs, "\n")
	for k := range 4 {
		if !strings.Contains(outs[k], fmt.Sprintf("shard=%d/4", k)) {
			t.Errorf("task %d did not take shard %d/4 from JOB_COMPLETION_INDEX:\n%s", k, k, outs[k])
		}
	}
	if !strings.Contains(outs[3], "resumed: ") {
		t.Errorf("task 3 did not resume:\n%s", outs[3])
	}
	if n := strings.Count(all, "published s3://"); n != 1 {
		t.Errorf("%d tasks published, want 1:\n%s", n, all)
	}
	if got, want := fingerprint(t, dir), fingerprint(t, local); got != want {
		t.Errorf("the array job's dataset differs from a single local run:\n got %s\nwant %s\n%s", got, want, all)
	}
}

// A manifest whose lines are not paths is a failure no rerun mends: exit
// exitPermanent, before anything is read or written.
func TestIngestMalformedManifestIsPermanent(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "robotstxt.paths.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/a.warc.gz\n../../etc/passwd\n"))
	zw.Close()
	if err := os.WriteFile(manifest, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	code, _, errs := runCLI("ingest", "-o", ds, "--crawl", "bad", "--base-url", dir, manifest)
	if code != exitPermanent || !strings.Contains(errs, "invalid manifest") {
		t.Errorf("exit %d, want %d and the manifest's error:\n%s", code, exitPermanent, errs)
	}
	if _, err := os.Stat(ds); !os.IsNotExist(err) {
		t.Errorf("dataset folder made: %v", err)
	}
}

// A run killed with -9 as soon as the first published part appears in the
// bucket (while it publishes, or just after) leaves either no listing or a
// listing whose every part is there; the rerun publishes the dataset of an
// uninterrupted run, and leaves no part that its listing does not name.
func TestS3KilledPublication(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 3, 400)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	dir := filepath.Join(srv.Dir, s3Bucket, "publication")
	cmd := s3Command(t, s3Ingest(srv, "publication", nil, inputs)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for len(visibleParts(dir)) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	listing := filepath.Join(dir, ".published", "crawl=resume-test.json")
	listed := func() []string {
		data, err := os.ReadFile(listing)
		if os.IsNotExist(err) {
			return nil
		} else if err != nil {
			t.Fatal(err)
		}
		var l struct{ Files []struct{ Name string } }
		if err := json.Unmarshal(data, &l); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range l.Files {
			names = append(names, filepath.Join(dir, filepath.FromSlash(f.Name)))
		}
		return names
	}
	t.Logf("killed with %d parts visible and %d listed", len(visibleParts(dir)), len(listed()))
	for _, f := range listed() {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("listed part missing after the kill: %v", err)
		}
	}
	runS3(t, srv, s3Ingest(srv, "publication", nil, inputs)...)
	if got, want := fingerprint(t, dir), fingerprint(t, local); got != want {
		t.Errorf("the rerun's dataset differs from an uninterrupted run's:\n got %s\nwant %s", got, want)
	}
	names := listed()
	for _, p := range visibleParts(dir) {
		if !slices.Contains(names, p) {
			t.Errorf("part left that the listing does not name: %s", p)
		}
	}
}

// faultProxy is a loopback proxy to srv that answers every slowEvery-th
// request with 503 SlowDown and resets the connection of every
// resetEvery-th (0: never), before the server sees either; it counts what
// it injected, and records the requests it passed on.
type faultProxy struct {
	slowEvery, resetEvery int

	mu                     sync.Mutex
	requests, slow, resets int
	passed                 []string // "METHOD /bucket/key" of the requests the server got
}

// every reports whether the n-th request is one of every k-th.
func every(n, k int) bool { return k > 0 && n%k == 0 }

func (f *faultProxy) start(t *testing.T, srv *s3test.Server) string {
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target) // keeps the Host header the request was signed for
	ps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests++
		n := f.requests
		switch {
		case every(n, f.resetEvery):
			f.resets++
		case every(n, f.slowEvery):
			f.slow++
		default:
			f.passed = append(f.passed, r.Method+" "+r.URL.Path)
		}
		f.mu.Unlock()
		switch {
		case every(n, f.resetEvery):
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.(*net.TCPConn).SetLinger(0) // RST, not FIN
				conn.Close()
			}
		case every(n, f.slowEvery):
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`)
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(ps.Close)
	return ps.URL
}

// take returns the requests passed on since the last take, as
// "METHOD /bucket/key", and forgets them.
func (f *faultProxy) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.passed
	f.passed = nil
	return out
}

// Faults between the client and the store (503 SlowDown, connection
// resets) are retried: the dataset published through them, and the report
// read through them, are those of a local ingest.
func TestS3DatasetThroughFaults(t *testing.T) {
	srv := startS3(t)
	faults := faultProxy{slowEvery: 6, resetEvery: 10}
	endpoint := faults.start(t, srv)
	inputs := makeInputs(t, t.TempDir(), 4, 200)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	ds := "s3://" + s3Bucket + "/faults"
	runS3(t, srv, ingestArgs(ds, []string{"--s3-endpoint", endpoint}, inputs)...)
	if got, want := fingerprint(t, filepath.Join(srv.Dir, s3Bucket, "faults")), fingerprint(t, local); got != want {
		t.Errorf("dataset published through faults differs from the local one:\n got %s\nwant %s", got, want)
	}
	want := strings.ReplaceAll(runBinary(t, "report", "--format", "json", local), local, "DATASET")
	got := strings.ReplaceAll(runS3(t, srv, "report", "--format", "json", "--s3-endpoint", endpoint, ds), ds, "DATASET")
	if got != want {
		t.Errorf("report read through faults differs from the local one")
	}
	faults.mu.Lock()
	defer faults.mu.Unlock()
	t.Logf("%d requests, %d answered 503 SlowDown, %d reset", faults.requests, faults.slow, faults.resets)
	if faults.slow == 0 || faults.resets == 0 {
		t.Errorf("no fault injected: %d requests", faults.requests)
	}
}

// A rerun over a crawl published in the bucket with one input more keeps
// the published rows of the others (fetched from the bucket into a kept
// segment) and reads only the new one: the dataset equals a local ingest
// of all the inputs, and no part of the first publication is left.
func TestS3RerunAddsAnInput(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 4, 200)
	local := t.TempDir()
	runBinary(t, ingestArgs(local, nil, inputs)...)
	runS3(t, srv, s3Ingest(srv, "rerun", nil, inputs[:3])...)
	dir := filepath.Join(srv.Dir, s3Bucket, "rerun")
	first := visibleParts(dir)
	out := runS3(t, srv, s3Ingest(srv, "rerun", nil, inputs)...)
	if !strings.Contains(out, "rerun: 3 inputs kept from the published partition, 1 input read") {
		t.Errorf("the rerun did not keep the published inputs:\n%s", out)
	}
	if got, want := fingerprint(t, dir), fingerprint(t, local); got != want {
		t.Errorf("dataset after the rerun differs from a local ingest of every input:\n got %s\nwant %s", got, want)
	}
	for _, p := range first {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("part of the first publication left: %s", p)
		}
	}
}

// publishedParts returns, of the requests (as faultProxy.take gives
// them), the paths of those with method to the published parts of the
// dataset at prefix: /BUCKET/PREFIX/<table>/crawl=<label>/...
func publishedParts(requests []string, method, prefix string) []string {
	var out []string
	for _, r := range requests {
		m, p, _ := strings.Cut(r, " ")
		rest, ok := strings.CutPrefix(p, "/"+s3Bucket+"/"+prefix+"/")
		if table, part, _ := strings.Cut(rest, "/"); m == method && ok && !strings.HasPrefix(table, ".") && strings.HasPrefix(part, "crawl=") {
			out = append(out, p)
		}
	}
	return out
}

// A rerun puts only the parts whose content changed (issue 30). Over a
// crawl published with one input missing (failed), a rerun in which it
// fails again puts one part, the inputs table's (its row records the new
// attempt), and puts no published part into the work either: the kept
// segment names the published objects. Each time the dataset equals a
// local dataset run the same way (DuckDB), and the bucket holds no part
// that the listing does not name. (TestIssue30RerunKeepsUnchangedParts, in
// package ingest, changes one input.)
func TestS3RerunPutsOnlyChangedParts(t *testing.T) {
	srv := startS3(t)
	var proxy faultProxy
	endpoint := proxy.start(t, srv)
	dir := t.TempDir()
	inputs := makeInputs(t, dir, 4, 200)
	missing := filepath.Join(dir, "missing.warc.gz")
	local := t.TempDir()
	bucketDir := filepath.Join(srv.Dir, s3Bucket, "changed")
	ingest := func(extra []string, in ...string) {
		t.Helper()
		for _, out := range []string{local, "s3://" + s3Bucket + "/changed"} {
			cmd := exec.Command(binary(t), ingestArgs(out, append([]string{"--s3-endpoint", endpoint}, extra...), in)...)
			b, err := cmd.CombinedOutput()
			if cmd.ProcessState.ExitCode() != exitFailure {
				t.Fatalf("robocensus ingest -o %s: %v, want exit %d (the missing input)\n%s", out, err, exitFailure, b)
			}
		}
		if got, want := fingerprint(t, bucketDir), fingerprint(t, local); got != want {
			t.Fatalf("dataset in s3:// differs from the local one:\n got %s\nwant %s", got, want)
		}
		listed := testutil.ListedParts(t, bucketDir, "resume-test")
		for _, p := range visibleParts(bucketDir) {
			rel, _ := filepath.Rel(bucketDir, p)
			table, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
			if !slices.Contains(listed[table], filepath.ToSlash(rel)) {
				t.Errorf("part left that the listing does not name: %s", rel)
			}
		}
	}
	all := append(slices.Clone(inputs), missing)
	ingest(nil, all...)
	first := testutil.ListedParts(t, bucketDir, "resume-test")
	total := 0
	for _, parts := range first {
		total += len(parts)
	}
	if puts := publishedParts(proxy.take(), "PUT", "changed"); len(puts) != total {
		t.Fatalf("first run put %d parts, its listing names %d", len(puts), total)
	}

	// The missing input fails again: only the inputs table changes.
	ingest(nil, all...)
	requests := proxy.take()
	if got := publishedParts(requests, "PUT", "changed"); len(got) != 1 || !strings.Contains(got[0], "/inputs/") {
		t.Errorf("a rerun that changed only the inputs table put %d parts, want 1 (inputs): %v", len(got), got)
	}
	for _, r := range requests {
		if strings.HasPrefix(r, "PUT ") && strings.Contains(r, "/.work/") && strings.Contains(r, "-kept-") && strings.HasSuffix(r, ".parquet") {
			t.Errorf("a rerun put a published part into its kept segment: %s", r)
		}
	}
	// It fetches the parts whose rows it keeps, once each, and the inputs
	// table; never the hosts table, which it computes again.
	gets := publishedParts(requests, "GET", "changed")
	for i, g := range gets {
		if strings.Contains(g, "/hosts/") || slices.Contains(gets[:i], g) && !strings.Contains(g, "/inputs/") {
			t.Errorf("a rerun fetched %s (again, or needlessly): %v", g, gets)
		}
	}
	t.Logf("first publication: %d parts; the rerun put %d of them and fetched %d", total, len(publishedParts(requests, "PUT", "changed")), len(gets))
	second := testutil.ListedParts(t, bucketDir, "resume-test")
	for table, parts := range first {
		if table != "inputs" && !slices.Equal(second[table], parts) {
			t.Errorf("%s: listed %v, want the objects of the first publication %v", table, second[table], parts)
		}
	}
}
