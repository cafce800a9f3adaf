package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/internal/sample"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

// Tests of the real binary in processes of its own: killed midway and run
// again, and split into shards run at the same time. Both must publish the
// dataset an uninterrupted single run publishes.

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// binary builds robocensus once per test process.
func binary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "robocensus-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "robocensus")
		out, err := exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput()
		if err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// makeInputs writes n WARC files of the sample's robots.txt files spread
// over many hosts, about a second of work for the whole set.
func makeInputs(t *testing.T, dir string, n, captures int) []string {
	t.Helper()
	all, err := sample.Fetches()
	if err != nil {
		t.Fatal(err)
	}
	var fetches []archive.Fetch
	for _, f := range all {
		if len(f.Body) < 64<<10 { // not the 600 KiB one: keep the test quick
			fetches = append(fetches, f)
		}
	}
	var paths []string
	for f := range n {
		var buf bytes.Buffer
		w, err := archive.NewWARCWriter(&buf, fmt.Sprintf("in-%02d.warc.gz", f))
		if err != nil {
			t.Fatal(err)
		}
		for i := range captures {
			fe := fetches[i%len(fetches)]
			fe.URL = strings.Replace(fe.URL, "://", fmt.Sprintf("://f%d-c%d-", f, i), 1)
			if fe.Location != "" {
				fe.Location = strings.Replace(fe.Location, "://", fmt.Sprintf("://f%d-c%d-", f, i), 1)
			}
			if err := w.WriteCapture(fe); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("in-%02d.warc.gz", f))
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// fingerprint sums up a published crawl: per table, the number of rows and
// a digest of all rows (inputs without their timestamps).
func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	db := testutil.DuckDB(t, dir)
	var out []string
	for _, table := range schema.Tables() {
		rows := "SELECT * FROM " + table.Name
		if table.Name == "inputs" {
			rows = "SELECT * EXCLUDE (started, finished) FROM inputs"
		}
		q := fmt.Sprintf("SELECT count(*) || ':' || coalesce(md5(string_agg(h, ',' ORDER BY h)), '') FROM (SELECT md5(CAST(r AS VARCHAR)) h FROM (%s) r)", rows)
		out = append(out, table.Name+"="+testutil.Query(t, db, q))
	}
	return strings.Join(out, " ")
}

func ingestArgs(dir string, extra []string, inputs []string) []string {
	args := append([]string{"ingest", "-o", dir, "--crawl", "resume-test", "--segment-inputs", "1", "--part-mb", "1"}, extra...)
	return append(args, inputs...)
}

func runBinary(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(binary(t), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("robocensus %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// A run killed with SIGKILL midway leaves nothing visible; run again, it
// skips what was committed and publishes the same dataset as a run that was
// never interrupted.
func TestKilledRunResumes(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 6, 800)
	want := t.TempDir()
	runBinary(t, ingestArgs(want, nil, inputs)...)
	wantPrint := fingerprint(t, want)

	dir := t.TempDir()
	cmd := exec.Command(binary(t), ingestArgs(dir, nil, inputs)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join(dir, ".work", "resume-test", "segments", "*.json")
	deadline := time.Now().Add(time.Minute)
	for {
		m, _ := filepath.Glob(committed)
		if len(m) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if m, _ := filepath.Glob(committed); len(m) < 2 || len(m) == len(inputs) {
		t.Fatalf("killed after %d of %d segments: not midway", len(m), len(inputs))
	}
	if visible, _ := filepath.Glob(filepath.Join(dir, "*", "crawl=resume-test", "*")); len(visible) > 0 {
		t.Fatalf("a killed run left files visible: %v", visible)
	}
	out := runBinary(t, ingestArgs(dir, nil, inputs)...)
	if !strings.Contains(out, "resumed: ") {
		t.Errorf("the rerun did not resume:\n%s", out)
	}
	if got := fingerprint(t, dir); got != wantPrint {
		t.Errorf("resumed run differs from an uninterrupted one:\n got %s\nwant %s", got, wantPrint)
	}
	if _, err := os.Stat(filepath.Join(dir, ".work")); !os.IsNotExist(err) {
		t.Errorf("work folder left behind: %v", err)
	}
}

// Three shards run at once on one dataset folder publish, together, the
// dataset of a single run.
func TestShardsMakeTheSameDataset(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 7, 300)
	want := t.TempDir()
	runBinary(t, ingestArgs(want, nil, inputs)...)
	dir := t.TempDir()
	var wg sync.WaitGroup
	outs := make([]string, 3)
	for k := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[k] = runBinary(t, ingestArgs(dir, []string{"--shard", fmt.Sprintf("%d/3", k)}, inputs)...)
		}()
	}
	wg.Wait()
	if got, want := fingerprint(t, dir), fingerprint(t, want); got != want {
		t.Errorf("sharded dataset differs from a single run:\n got %s\nwant %s\noutputs:\n%s", got, want, strings.Join(outs, "\n"))
	}
	if _, err := os.Stat(filepath.Join(dir, ".work")); !os.IsNotExist(err) {
		t.Errorf("work folder left behind: %v", err)
	}
}

// A shard run alone does not publish: the crawl is incomplete.
func TestShardAloneDoesNotPublish(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 4, 20)
	// Shards hash base names, so the split of these inputs is the same
	// wherever the test runs; it must give each shard some.
	first := 0
	for _, in := range inputs {
		if (dataset.Shard{K: 0, N: 2}).Has(in) {
			first++
		}
	}
	if first == 0 || first == len(inputs) {
		t.Fatalf("shard 0/2 has %d of the %d test inputs: the test needs inputs in both shards", first, len(inputs))
	}
	dir := t.TempDir()
	out := runBinary(t, ingestArgs(dir, []string{"--shard", "0/2"}, inputs)...)
	if !strings.Contains(out, "of other shards to go") {
		t.Errorf("output:\n%s", out)
	}
	if visible, _ := filepath.Glob(filepath.Join(dir, "*", "crawl=resume-test")); len(visible) > 0 {
		t.Errorf("published before every shard ran: %v", visible)
	}
	out = runBinary(t, ingestArgs(dir, []string{"--shard", "1/2"}, inputs)...)
	if visible, _ := filepath.Glob(filepath.Join(dir, "captures", "crawl=resume-test", "*.parquet")); len(visible) == 0 {
		t.Errorf("the last shard did not publish:\n%s", out)
	}
}
