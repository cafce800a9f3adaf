package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
)

// nightlyMirror lays out a Common Crawl mirror served on loopback: the
// crawl list (collinfo.json, newest first), a crawl's robotstxt.paths.gz
// and its WARC files (at least three, and as many as it takes for both
// shards of two to have some), and a manifest naming a file that is not
// there.
func nightlyMirror(t *testing.T) (url string) {
	t.Helper()
	url, _ = nightlyMirrorDir(t)
	return url
}

// nightlyMirrorDir is nightlyMirror that also returns the mirror's folder.
func nightlyMirrorDir(t *testing.T) (url, mirror string) {
	t.Helper()
	mirror = t.TempDir()
	srv := httptest.NewServer(http.FileServer(http.Dir(mirror)))
	t.Cleanup(srv.Close)
	const crawl = "crawl-data/CC-MAIN-2025-05/"
	var paths []string
	var shards [2]int
	for i, src := range makeInputs(t, t.TempDir(), 12, 40) {
		if i >= 3 && shards[0] > 0 && shards[1] > 0 {
			break
		}
		name := fmt.Sprintf("%ssegments/%d/robotstxt/CC-MAIN-20250113-%05d.warc.gz", crawl, i, i)
		dst := filepath.Join(mirror, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(src, dst); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, name)
		for k := range shards {
			if (dataset.Shard{K: k, N: 2}).Has(srv.URL + "/" + name) {
				shards[k]++
			}
		}
	}
	if shards[0] == 0 || shards[1] == 0 {
		t.Fatalf("no input of shard 0/2 or 1/2 among %q", paths)
	}
	manifest := strings.Join(paths, "\n") + "\n"
	for name, data := range map[string][]byte{
		crawl + "robotstxt.paths.gz": gzipString(manifest),
		crawl + "broken.paths.gz":    gzipString(manifest + crawl + "segments/99/robotstxt/missing.warc.gz\n"),
		"collinfo.json": []byte(`[{"id": "CC-MAIN-2025-05", "name": "January 2025 Index"},
 {"id": "CC-MAIN-2024-51", "name": "December 2024 Index"}]`),
	} {
		if err := os.WriteFile(filepath.Join(mirror, filepath.FromSlash(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return srv.URL, mirror
}

// runNightly runs scripts/nightly.sh with the environment given (on top of
// PATH and HOME) and returns its exit status and standard error.
func runNightly(t *testing.T, env ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", "../../scripts/nightly.sh")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "ROBOCENSUS=" + binary(t)}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		exitErr, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("nightly.sh: %v", err)
		}
		code = exitErr.ExitCode()
	}
	return code, stdout.String() + stderr.String()
}

// The nightly job, run as cron or systemd would run it, against a Common
// Crawl mirror on loopback: it finds the latest crawl, ingests it, writes
// the report and copies the partition to the destination; run again, it
// has nothing to do; it never runs twice at once; split in shards, the
// run that completes the last share publishes, reports and uploads the
// same dataset; an input that cannot be read is exit status 1.
func TestNightlyScript(t *testing.T) {
	needNightlyTools(t)
	url := nightlyMirror(t)
	manifest := url + "/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz"
	want := t.TempDir()
	runBinary(t, "ingest", "-o", want, "--base-url", url, manifest)
	wantPrint := fingerprint(t, want)

	data, dest := t.TempDir(), filepath.Join(t.TempDir(), "bucket")
	env := []string{"CRAWL=latest", "COLLINFO=" + url + "/collinfo.json", "BASE_URL=" + url, "DATA=" + data, "DEST=" + dest}

	code, log := runNightly(t, env...)
	if code != 0 || !strings.Contains(log, "latest crawl: CC-MAIN-2025-05") || !strings.Contains(log, "uploading") {
		t.Fatalf("first run: exit %d\n%s", code, log)
	}
	for _, dir := range []string{data, dest} {
		if got := fingerprint(t, dir); got != wantPrint {
			t.Errorf("%s holds\n %s\nwant the dataset of robocensus ingest:\n %s", dir, got, wantPrint)
		}
		report, err := os.ReadFile(filepath.Join(dir, "report-CC-MAIN-2025-05.html"))
		if err != nil || !bytes.Contains(report, []byte("CC-MAIN-2025-05")) || !bytes.Contains(report, []byte("<svg")) {
			t.Errorf("%s: report missing, or without the crawl and its charts (%v)", dir, err)
		}
	}

	partition := filepath.Join(data, "captures", "crawl=CC-MAIN-2025-05")
	before, err := os.Stat(partition)
	if err != nil {
		t.Fatal(err)
	}
	code, log = runNightly(t, env...)
	if code != 0 || !strings.Contains(log, "already published") || strings.Contains(log, "ingesting") {
		t.Errorf("second run: exit %d\n%s", code, log)
	}
	if after, err := os.Stat(partition); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("second run replaced the published partition (%v)", err)
	}

	lock, err := os.OpenFile(filepath.Join(data, ".nightly-CC-MAIN-2025-05-all.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	code, log = runNightly(t, append(env, "FORCE=1")...)
	if code != 0 || !strings.Contains(log, "another run holds") || strings.Contains(log, "ingesting") {
		t.Errorf("run while another holds the lock: exit %d\n%s", code, log)
	}
	lock.Close()

	t.Run("shards", func(t *testing.T) {
		data, dest := t.TempDir(), filepath.Join(t.TempDir(), "bucket")
		env := []string{"CRAWL=CC-MAIN-2025-05", "BASE_URL=" + url, "DATA=" + data, "DEST=" + dest, "REPORT_MEMLIMIT=300MiB"}
		code, log := runNightly(t, append(env, "SHARD=0/2")...)
		if code != 0 || !strings.Contains(log, "completes its last share") || strings.Contains(log, "uploading") {
			t.Errorf("shard 0/2: exit %d\n%s", code, log)
		}
		if _, err := os.Stat(dest); !os.IsNotExist(err) {
			t.Errorf("shard 0/2 uploaded an unpublished crawl (%v)", err)
		}
		code, log = runNightly(t, append(env, "SHARD=1/2")...)
		if code != 0 || !strings.Contains(log, "uploading") || !strings.Contains(log, "captures in 1 host batch") {
			t.Errorf("shard 1/2: exit %d\n%s", code, log)
		}
		if got := fingerprint(t, dest); got != wantPrint {
			t.Errorf("sharded upload holds\n %s\nwant\n %s", got, wantPrint)
		}
		if _, err := os.Stat(filepath.Join(dest, "report-CC-MAIN-2025-05.html")); err != nil {
			t.Error(err)
		}
	})

	t.Run("missing input", func(t *testing.T) {
		data := t.TempDir()
		code, log := runNightly(t, "CRAWL=CC-MAIN-2025-05", "BASE_URL="+url, "DATA="+data,
			"MANIFEST="+url+"/crawl-data/CC-MAIN-2025-05/broken.paths.gz")
		if code != 1 || !strings.Contains(log, "missing.warc.gz") || !strings.Contains(log, "listed with their error in the inputs table") {
			t.Errorf("exit %d, want 1\n%s", code, log)
		}
		if _, err := os.Stat(filepath.Join(data, "report-CC-MAIN-2025-05.html")); err != nil {
			t.Errorf("no report after a missing input: %v", err)
		}
	})

	t.Run("no crawl listed", func(t *testing.T) {
		code, log := runNightly(t, "CRAWL=latest", "COLLINFO="+url+"/nothing.json", "DATA="+t.TempDir())
		if code != 2 || !strings.Contains(log, "no crawl found") {
			t.Errorf("exit %d, want 2\n%s", code, log)
		}
	})
}

// TestIssue16NightlyRepairs: a night on which an input fails publishes the
// crawl and exits 1; the next night ingest runs again (it used to exit 0,
// "already published", without ingesting), reads only the failed input,
// and exits 1 while it is still missing, saying so; the night it is back
// the crawl is republished complete, equal to a clean ingest, and the job
// exits 0; the night after there is nothing to do.
func TestIssue16NightlyRepairs(t *testing.T) {
	needNightlyTools(t)
	url, mirror := nightlyMirrorDir(t)
	manifest := url + "/crawl-data/CC-MAIN-2025-05/broken.paths.gz"
	data := t.TempDir()
	env := []string{"CRAWL=CC-MAIN-2025-05", "BASE_URL=" + url, "DATA=" + data, "MANIFEST=" + manifest, "REPORT_MEMLIMIT=300MiB"}

	code, log := runNightly(t, env...)
	if code != 1 || !strings.Contains(log, "missing.warc.gz") {
		t.Fatalf("night 1: exit %d, want 1\n%s", code, log)
	}
	code, log = runNightly(t, env...)
	if code != 1 || !strings.Contains(log, "reads again the inputs that failed") ||
		!strings.Contains(log, "kept from the published partition, 1 input read") ||
		!strings.Contains(log, "still failed: 1 input") || !strings.Contains(log, "missing.warc.gz") {
		t.Errorf("night 2, input still missing: exit %d, want 1\n%s", code, log)
	}

	// The missing file appears on the mirror.
	missing := filepath.Join(mirror, "crawl-data", "CC-MAIN-2025-05", "segments", "99", "robotstxt", "missing.warc.gz")
	src := makeInputs(t, t.TempDir(), 1, 30)[0]
	if err := os.MkdirAll(filepath.Dir(missing), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(src, missing); err != nil {
		t.Fatal(err)
	}
	code, log = runNightly(t, env...)
	if code != 0 || !strings.Contains(log, "1 input read") || !strings.Contains(log, "  published ") || strings.Contains(log, "still failed") {
		t.Errorf("night 3, input back: exit %d, want 0\n%s", code, log)
	}
	want := t.TempDir()
	runBinary(t, "ingest", "-o", want, "--base-url", url, manifest)
	if got, wantPrint := fingerprint(t, data), fingerprint(t, want); got != wantPrint {
		t.Errorf("repaired crawl holds\n %s\nwant the dataset of a clean ingest:\n %s", got, wantPrint)
	}
	code, log = runNightly(t, env...)
	if code != 0 || !strings.Contains(log, "nothing ingested") {
		t.Errorf("night 4: exit %d, want 0 and nothing to do\n%s", code, log)
	}
}

// The nightly job over DATA=s3://... (issue 30), as the Kubernetes Indexed
// Job runs it: two tasks told apart only by JOB_COMPLETION_INDEX, the count
// from ROBOCENSUS_SHARDS, against versitygw. The dataset is written into
// the bucket, equal to a local ingest; the last task publishes and writes
// the report into REPORTS and copies only the report to DEST; run again,
// the first task finds the crawl published and does nothing more.
func TestNightlyScriptS3(t *testing.T) {
	needNightlyTools(t)
	srv := startS3(t)
	url := nightlyMirror(t)
	want := t.TempDir()
	runBinary(t, "ingest", "-o", want, "--base-url", url, url+"/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz")

	reports, dest := t.TempDir(), filepath.Join(t.TempDir(), "site")
	env := nightlyS3Env(srv, url, "nightly", reports, dest)
	report := filepath.Join(reports, "report-CC-MAIN-2025-05.html")

	code, log := runNightly(t, append(env, "JOB_COMPLETION_INDEX=0")...)
	if code != 0 || !strings.Contains(log, "completes its last share") || !strings.Contains(log, "shard=0/2") {
		t.Fatalf("task 0: exit %d\n%s", code, log)
	}
	if _, err := os.Stat(report); !os.IsNotExist(err) {
		t.Errorf("task 0 reported an unpublished crawl (%v)", err)
	}
	code, log = runNightly(t, append(env, "JOB_COMPLETION_INDEX=1")...)
	if code != 0 || !strings.Contains(log, "published s3://"+s3Bucket+"/nightly/") || !strings.Contains(log, "only the report goes to") {
		t.Fatalf("task 1: exit %d\n%s", code, log)
	}
	if got, wantPrint := fingerprint(t, filepath.Join(srv.Dir, s3Bucket, "nightly")), fingerprint(t, want); got != wantPrint {
		t.Errorf("the bucket holds\n %s\nwant the dataset of robocensus ingest:\n %s", got, wantPrint)
	}
	for _, path := range []string{report, filepath.Join(dest, "report-CC-MAIN-2025-05.html")} {
		if page, err := os.ReadFile(path); err != nil || !bytes.Contains(page, []byte("CC-MAIN-2025-05")) || !bytes.Contains(page, []byte("<svg")) {
			t.Errorf("%s: report missing, or without the crawl and its charts (%v)", path, err)
		}
	}
	if tables, _ := filepath.Glob(filepath.Join(dest, "*", "crawl=*")); len(tables) > 0 {
		t.Errorf("partitions copied to DEST from a dataset already in a bucket: %v", tables)
	}

	before, err := os.Stat(report)
	if err != nil {
		t.Fatal(err)
	}
	code, log = runNightly(t, append(env, "JOB_COMPLETION_INDEX=0")...)
	if code != 0 || !strings.Contains(log, "already published") || strings.Contains(log, "writing "+report) {
		t.Errorf("task 0 again: exit %d, want 0, nothing to do\n%s", code, log)
	}
	if after, err := os.Stat(report); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the report of a crawl published before was written again (%v)", err)
	}
}

// TestNightlyScriptS3ReportRetried: the task that publishes the crawl
// into the bucket, its report failing (exit 4), is run again, as a
// scheduler retries a failed index: ingest finds the crawl published, and
// the task, though not the first, writes the report of that publication,
// uploads it to DEST, and records it (.report-<crawl>.publication, last);
// the first task run again then finds the report current and writes
// nothing.
func TestNightlyScriptS3ReportRetried(t *testing.T) {
	needNightlyTools(t)
	srv := startS3(t)
	url := nightlyMirror(t)
	// A robocensus whose report fails while the file FAIL_REPORT exists.
	failReport := filepath.Join(t.TempDir(), "fail-report")
	wrapper := filepath.Join(t.TempDir(), "robocensus")
	script := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = report ] && [ -e %q ]; then echo 'report: failed by the test' >&2; exit 1; fi\nexec %q \"$@\"\n", failReport, binary(t))
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(failReport, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	reports, dest := t.TempDir(), filepath.Join(t.TempDir(), "site")
	env := append(nightlyS3Env(srv, url, "retried", reports, dest), "ROBOCENSUS="+wrapper)
	report, marker := filepath.Join(dest, "report-CC-MAIN-2025-05.html"), filepath.Join(dest, ".report-CC-MAIN-2025-05.publication")
	if code, log := runNightly(t, append(env, "JOB_COMPLETION_INDEX=0")...); code != 0 {
		t.Fatalf("task 0: exit %d\n%s", code, log)
	}
	code, log := runNightly(t, append(env, "JOB_COMPLETION_INDEX=1")...)
	if code != 4 || !strings.Contains(log, "published s3://") || !strings.Contains(log, "report failed") {
		t.Fatalf("task 1, its report failing: exit %d, want 4 (published, report failed)\n%s", code, log)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatalf("a failed report was recorded as done: %v", err)
	}
	if err := os.Remove(failReport); err != nil {
		t.Fatal(err)
	}
	code, log = runNightly(t, append(env, "JOB_COMPLETION_INDEX=1")...)
	if code != 0 || !strings.Contains(log, "already published") || !strings.Contains(log, "writing ") {
		t.Fatalf("task 1 retried: exit %d, want 0 and the report written\n%s", code, log)
	}
	if page, err := os.ReadFile(report); err != nil || !bytes.Contains(page, []byte("CC-MAIN-2025-05")) || !bytes.Contains(page, []byte("<svg")) {
		t.Errorf("%s: report missing, or without the crawl and its charts (%v)", report, err)
	}
	listing, err := os.ReadFile(filepath.Join(srv.Dir, s3Bucket, "retried", ".published", "crawl=CC-MAIN-2025-05.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct{ Publication string }
	if err := json.Unmarshal(listing, &l); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(marker); err != nil || strings.TrimSpace(string(got)) != l.Publication || l.Publication == "" {
		t.Errorf("marker %q (%v), want the publication of the listing, %q", got, err, l.Publication)
	}
	before, err := os.Stat(report)
	if err != nil {
		t.Fatal(err)
	}
	code, log = runNightly(t, append(env, "JOB_COMPLETION_INDEX=0")...)
	if code != 0 || !strings.Contains(log, "already published") || strings.Contains(log, "writing ") {
		t.Errorf("task 0 again: exit %d, want 0 and nothing written\n%s", code, log)
	}
	if after, err := os.Stat(report); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the report of the publication reported was written again (%v)", err)
	}
}

// needNightlyTools skips the test where a tool scripts/nightly.sh needs is
// missing.
func needNightlyTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bash", "flock", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("scripts/nightly.sh needs %s: %v", tool, err)
		}
	}
}

// nightlyS3Env is the environment of nightly.sh as a Kubernetes Indexed
// Job of two tasks runs it (the index is the caller's), over the mirror at
// url, with DATA=s3://datasets/<prefix> on srv, and the standard AWS
// settings that startS3 set.
func nightlyS3Env(srv *s3test.Server, url, prefix, reports, dest string) []string {
	env := []string{"CRAWL=CC-MAIN-2025-05", "BASE_URL=" + url, "DATA=s3://" + s3Bucket + "/" + prefix,
		"S3_ENDPOINT=" + srv.URL, "REPORTS=" + reports, "DEST=" + dest, "REPORT_MEMLIMIT=300MiB", "ROBOCENSUS_SHARDS=2"}
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_EC2_METADATA_DISABLED"} {
		env = append(env, k+"="+os.Getenv(k))
	}
	return env
}
