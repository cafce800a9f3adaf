package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
// on end the run with an error that says which, before anything is put.
func TestS3DatasetErrors(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 1, 10)
	cases := []struct {
		name, url, endpoint, key, want string
	}{
		{"wrong credentials", "s3://" + s3Bucket + "/x", srv.URL, "nobody", "access denied"},
		{"missing bucket", "s3://no-such-bucket/x", srv.URL, s3test.AccessKey, `bucket "no-such-bucket" does not exist`},
		{"unreachable", "s3://" + s3Bucket + "/x", "http://127.0.0.1:1", s3test.AccessKey, "store unreachable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary(t), ingestArgs(c.url, []string{"--s3-endpoint", c.endpoint}, inputs)...)
			cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+c.key)
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), c.want) || !strings.Contains(string(out), c.url) {
				t.Errorf("robocensus ingest -o %s: %v; want an error saying %q and naming the URL:\n%s", c.url, err, c.want, out)
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
