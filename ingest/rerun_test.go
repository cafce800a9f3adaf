package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/ingest/objstore"
	"github.com/robocensus/robocensus/ingest/remote"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
	"github.com/robocensus/robocensus/schema"
)

// TestIssue16Rerun: a run whose inputs partly fail publishes the crawl; the
// same command again reads only the inputs that failed or are new (no
// request for the others), and publishes the partition a single clean run
// publishes: the same rows in every table, the same capture IDs. An input
// that still fails is still recorded as failed. With one segment per
// input, and with two shards.
func TestIssue16Rerun(t *testing.T) {
	for _, shards := range []int{1, 2} {
		inFolderAndBucket(t, fmt.Sprintf("shards=%d", shards), func(t *testing.T, dir, folder string) { testRerun(t, shards, dir, folder) })
	}
}

// testRerun is TestIssue16Rerun over the dataset dir, whose files are in
// folder.
func testRerun(t *testing.T, shards int, dir, folder string) {
	files := map[string][]byte{}
	var names []string
	for i := range 6 {
		name := fmt.Sprintf("crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/CC-MAIN-2025-%05d.warc.gz", i)
		files[name] = sampleWARC(t, 20+i)
		names = append(names, name)
	}
	const cut, gone, added = 2, 4, 5 // cut mid-way in the first run; always 404; new in the rerun
	delete(files, names[gone])
	var broken atomic.Bool
	broken.Store(true)
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		mu.Lock()
		hits[name]++
		mu.Unlock()
		data, ok := files[name]
		switch {
		case !ok:
			http.NotFound(w, r)
		case name == names[cut] && broken.Load():
			serveTruncated(w, r, data, len(data)/2)
		default:
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
		}
	}))
	defer srv.Close()
	urls := make([]string, len(names))
	for i, n := range names {
		urls[i] = srv.URL + "/" + n
	}
	opts := []remote.Option{remote.WithRetries(1), remote.WithBackoff(time.Millisecond, time.Millisecond)}
	run := func(dir string, inputs []string, fresh bool) ingest.Summary {
		t.Helper()
		var last ingest.Summary
		for k := range shards {
			cfg := ingest.Config{Dir: dir, Crawl: "CC-MAIN-2025-05", Workers: 2, SegmentInputs: 1, FetchOptions: opts, Fresh: fresh}
			if shards > 1 {
				cfg.Shard = dataset.Shard{K: k, N: shards}
			}
			sum, err := ingest.Run(context.Background(), cfg, inputs)
			if err != nil {
				t.Fatal(err)
			}
			last = sum
		}
		return last
	}
	first := run(dir, urls[:added], false)
	if !first.Published || first.Failed != 2 {
		t.Fatalf("first run: %+v", first)
	}
	broken.Store(false)
	clear(hits)
	second := run(dir, urls, false)
	if !second.Published || second.Failed != 1 || second.Kept != 3 {
		t.Errorf("rerun: published %v, failed %d, kept %d; want true, 1 (the 404), 3", second.Published, second.Failed, second.Kept)
	}
	for i, n := range names {
		want := 0
		if i == cut || i == gone || i == added {
			want = 1
		}
		if hits[n] != want {
			t.Errorf("rerun: %d requests for input %d, want %d", hits[n], i, want)
		}
	}
	clean := t.TempDir()
	run(clean, urls, true)
	samePartitions(t, folder, clean)

	// Once more: only the input that is still missing is asked for, and
	// the partition stays the same.
	clear(hits)
	third := run(dir, urls, false)
	if third.Failed != 1 || hits[names[gone]] != 1 || len(hits) != 1 {
		t.Errorf("third run: failed %d, requests %v", third.Failed, hits)
	}
	samePartitions(t, folder, clean)

	// --fresh reads everything.
	clear(hits)
	run(dir, urls, true)
	if len(hits) != len(names) {
		t.Errorf("fresh run: requests %v, want one per input", hits)
	}
	samePartitions(t, folder, clean)
}

// samePartitions checks that two datasets have the same rows in every
// table (inputs without their reading times).
func samePartitions(t *testing.T, a, b string) {
	t.Helper()
	db := testutil.OpenDuckDB(t)
	for _, table := range schema.Tables() {
		cols := "*"
		if table.Name == "inputs" {
			cols = "* EXCLUDE (started, finished)"
		}
		read := func(dir string) string {
			return fmt.Sprintf("SELECT %s FROM read_parquet('%s')", cols, filepath.Join(dir, table.Name, "**", "*.parquet"))
		}
		q := fmt.Sprintf("SELECT (SELECT count(*) FROM (%[1]s EXCEPT ALL %[2]s)) || ' ' || (SELECT count(*) FROM (%[2]s EXCEPT ALL %[1]s)) || ' ' || (SELECT count(*) FROM (%[1]s))",
			read(a), read(b))
		got := testutil.Query(t, db, q)
		if !strings.HasPrefix(got, "0 0 ") {
			t.Errorf("%s: rows only in the rerun, only in the clean run, all: %s", table.Name, got)
		}
	}
}

// TestIssue16RerunInterrupted: a rerun interrupted after it kept the
// published rows, while it reads a failed input again, resumes from its
// kept segment when run again: no request for the inputs kept, and the
// partition of a clean run. In a folder, and in a bucket (issue 30),
// where the kept segment names the published parts it keeps whole
// instead of holding copies; when those objects are gone before the
// resumed run (a publication replaced them meanwhile), it discards the
// kept segment and copies the rows anew from the partition's listing.
func TestIssue16RerunInterrupted(t *testing.T) {
	inFolderAndBucket(t, "shards=1", testRerunInterrupted)
}

// inFolderAndBucket runs test as the subtest name over a dataset folder,
// and as name/bucket over the dataset s3://reruns/ds on versitygw (its
// objects, as files, in folder), with dataset.ConfigureS3 pointed at it.
func inFolderAndBucket(t *testing.T, name string, test func(t *testing.T, dir, folder string)) {
	t.Run(name, func(t *testing.T) {
		dir := t.TempDir()
		test(t, dir, dir)
	})
	t.Run(name+"/bucket", func(t *testing.T) {
		srv := s3test.Start(t)
		srv.CreateBucket(t, "reruns")
		t.Setenv("TMPDIR", t.TempDir()) // the runs' local folders go with the test
		dataset.ConfigureS3(objstore.Config{Endpoint: srv.URL, Region: s3test.Region, Credentials: srv.Credentials()})
		test(t, "s3://reruns/ds", filepath.Join(srv.Dir, "reruns", "ds"))
	})
}

// testRerunInterrupted is TestIssue16RerunInterrupted over the dataset
// dir, whose files are in folder.
func testRerunInterrupted(t *testing.T, dir, folder string) {
	files := sampleFiles(t, 4, 30)
	var urls []string
	var phase atomic.Int32 // 0: input 2 fails; 1: input 2 cancels the run; 2: healed
	var cancel atomic.Pointer[context.CancelFunc]
	hits := map[string]int{}
	srv := httptest.NewServer(counted(hits, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/CC-MAIN-2025-00002.warc.gz" {
			switch phase.Load() {
			case 0:
				http.NotFound(w, r)
				return
			case 1:
				(*cancel.Load())()
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(files[r.URL.Path]))
	}))
	defer srv.Close()
	for i := range 4 {
		urls = append(urls, fmt.Sprintf("%s/CC-MAIN-2025-%05d.warc.gz", srv.URL, i))
	}
	opts := []remote.Option{remote.WithRetries(1), remote.WithBackoff(time.Millisecond, time.Millisecond)}
	run := func(dir string, fresh bool) (ingest.Summary, error) {
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		cancel.Store(&stop)
		return ingest.Run(ctx, ingest.Config{Dir: dir, Crawl: "CC-MAIN-2025-05", Workers: 2, SegmentInputs: 1, FetchOptions: opts, Fresh: fresh}, urls)
	}
	if sum, err := run(dir, false); err != nil || sum.Failed != 1 {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	phase.Store(1)
	if _, err := run(dir, false); err == nil {
		t.Fatal("interrupted rerun: no error")
	}
	if folder != dir {
		movePublished(t, folder, checkKeptNamesPublished(t, folder))
	}
	phase.Store(2)
	clear(hits)
	sum, err := run(dir, false)
	if err != nil || !sum.Published || sum.Failed != 0 || sum.Kept != 3 {
		t.Errorf("resumed rerun: %+v, %v; want published, none failed, 3 kept", sum, err)
	}
	if len(hits) != 1 || hits["/CC-MAIN-2025-00002.warc.gz"] != 1 {
		t.Errorf("resumed rerun: requests %v, want one, for input 2", hits)
	}
	clean := t.TempDir()
	if _, err := run(clean, true); err != nil {
		t.Fatal(err)
	}
	samePartitions(t, folder, clean)
	if left, _ := filepath.Glob(filepath.Join(folder, ".work", "*", "*")); len(left) > 0 {
		t.Errorf("work left: %v", left)
	}
}

// checkKeptNamesPublished checks that the kept segment of the crawl
// CC-MAIN-2025-05 in the dataset folder dir (a bucket's, as versitygw keeps
// it) names published parts, whose objects are there, and holds no copy
// of them; it returns their keys.
func checkKeptNamesPublished(t *testing.T, dir string) (keys []string) {
	t.Helper()
	manifests, _ := filepath.Glob(filepath.Join(dir, ".work", "CC-MAIN-2025-05", "segments", "*-kept-*.json"))
	if len(manifests) != 1 {
		t.Fatalf("kept segment manifests: %v, want one", manifests)
	}
	data, err := os.ReadFile(manifests[0])
	if err != nil {
		t.Fatal(err)
	}
	var m dataset.SegmentManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Whole) == 0 {
		t.Fatalf("the kept segment names no published part: %s", data)
	}
	for _, p := range m.Whole {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p.Key))); err != nil {
			t.Errorf("published part named by the kept segment: %v", err)
		}
		if _, err := os.Stat(filepath.Join(strings.TrimSuffix(manifests[0], ".json"), filepath.FromSlash(p.Part))); !os.IsNotExist(err) {
			t.Errorf("the kept segment holds a copy of %s: %v", p.Key, err)
		}
		keys = append(keys, p.Key)
	}
	return keys
}

// movePublished does to the objects keys of the partition of crawl
// CC-MAIN-2025-05 in the dataset folder dir (a bucket's, as versitygw
// keeps it) what a publication that ran meanwhile does: the same content
// under new keys, which the listing names, the old keys gone.
func movePublished(t *testing.T, dir string, keys []string) {
	t.Helper()
	listing := filepath.Join(dir, ".published", "crawl=CC-MAIN-2025-05.json")
	data, err := os.ReadFile(listing)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		moved := strings.Replace(k, "/part-", "/part-moved-", 1)
		if err := os.Rename(filepath.Join(dir, filepath.FromSlash(k)), filepath.Join(dir, filepath.FromSlash(moved))); err != nil {
			t.Fatal(err)
		}
		data = bytes.ReplaceAll(data, []byte(`"`+k+`"`), []byte(`"`+moved+`"`))
	}
	if err := os.WriteFile(listing, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIssue27RerunSubset: a crawl published from four inputs, one of them
// cut short (failed, with the captures read before the cut), is ingested
// again with some of them and a new one. The inputs not given are kept as
// published, failed one included, and never asked for: the partition is
// the one a run of all five publishes, in every table (hosts included).
// --fresh with some inputs reads those again and keeps the others. A
// rerun interrupted after it kept the published rows, run again with
// --drop-missing, drops the inputs not given: the partition is the one a
// run of the inputs given publishes. With one shard and with two.
func TestIssue27RerunSubset(t *testing.T) {
	for _, shards := range []int{1, 2} {
		inFolderAndBucket(t, fmt.Sprintf("shards=%d", shards), func(t *testing.T, dir, folder string) { testRerunSubset(t, shards, dir, folder) })
	}
}

// testRerunSubset is TestIssue27RerunSubset over the dataset dir, whose
// files are in folder.
func testRerunSubset(t *testing.T, shards int, dir, folder string) {
	files := sampleFiles(t, 6, 40)
	const cut, cancels = "/CC-MAIN-2025-00001.warc.gz", "/CC-MAIN-2025-00005.warc.gz"
	var cancel atomic.Pointer[context.CancelFunc]
	hits := map[string]int{}
	srv := httptest.NewServer(counted(hits, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case cut:
			serveTruncated(w, r, files[cut], len(files[cut])/2)
		case cancels:
			(*cancel.Load())()
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default:
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(files[r.URL.Path]))
		}
	}))
	defer srv.Close()
	var urls []string
	for i := range 6 {
		urls = append(urls, fmt.Sprintf("%s/CC-MAIN-2025-%05d.warc.gz", srv.URL, i))
	}
	opts := []remote.Option{remote.WithRetries(1), remote.WithBackoff(time.Millisecond, time.Millisecond)}
	// run runs every shard and sums up what they kept and dropped.
	run := func(dir string, inputs []string, fresh, drop bool) (sum ingest.Summary, err error) {
		t.Helper()
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		cancel.Store(&stop)
		for k := range shards {
			cfg := ingest.Config{Dir: dir, Crawl: "CC-MAIN-2025-05", Workers: 2, SegmentInputs: 1, FetchOptions: opts, Fresh: fresh, DropMissing: drop}
			if shards > 1 {
				cfg.Shard = dataset.Shard{K: k, N: shards}
			}
			s, err := ingest.Run(ctx, cfg, inputs)
			if err != nil {
				return sum, err
			}
			s.Unnamed, s.UnnamedCaptures, s.Dropped, s.DroppedCaptures = s.Unnamed+sum.Unnamed, s.UnnamedCaptures+sum.UnnamedCaptures, s.Dropped+sum.Dropped, s.DroppedCaptures+sum.DroppedCaptures
			sum = s
		}
		return sum, nil
	}
	mustRun := func(dir string, inputs []string, fresh, drop bool) ingest.Summary {
		t.Helper()
		sum, err := run(dir, inputs, fresh, drop)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	if sum := mustRun(dir, urls[:4], false, false); !sum.Published || sum.Failed != 1 {
		t.Fatalf("first run: %+v", sum)
	}
	var notGiven int64 // captures of inputs 1 to 3
	for _, in := range urls[1:4] {
		notGiven += capturesOf(t, folder, in)
	}

	clear(hits)
	sum := mustRun(dir, []string{urls[0], urls[4]}, false, false)
	if !sum.Published || sum.Failed != 1 || sum.Unnamed != 3 || sum.UnnamedCaptures != notGiven || sum.Dropped != 0 {
		t.Errorf("rerun with some inputs: %+v; want published, 1 failed (kept), 3 inputs not given kept with %d captures", sum, notGiven)
	}
	if len(hits) != 1 || hits["/CC-MAIN-2025-00004.warc.gz"] != 1 {
		t.Errorf("rerun with some inputs: requests %v, want one, for the new input", hits)
	}
	all := t.TempDir()
	mustRun(all, urls[:5], true, false)
	samePartitions(t, folder, all)
	if n := testutil.Query(t, testutil.DuckDB(t, all), "SELECT count(*) FROM templates"); n == "0" {
		t.Error("no templates rows: the rerun's copy of the table is not tested")
	}

	clear(hits)
	mustRun(dir, urls[2:3], true, false)
	if len(hits) != 1 || hits["/CC-MAIN-2025-00002.warc.gz"] != 1 {
		t.Errorf("--fresh with one input: requests %v, want one, for it", hits)
	}
	samePartitions(t, folder, all)

	if _, err := run(dir, []string{urls[0], urls[5]}, false, false); err == nil {
		t.Fatal("interrupted rerun: no error")
	}
	clear(hits)
	sum = mustRun(dir, urls[:1], false, true)
	if !sum.Published || sum.Failed != 0 || sum.Dropped != 4 || sum.DroppedCaptures != notGiven+capturesOf(t, all, urls[4]) {
		t.Errorf("--drop-missing: %+v; want published, 4 inputs dropped", sum)
	}
	if len(hits) != 0 {
		t.Errorf("--drop-missing: requests %v, want none", hits)
	}
	given := t.TempDir()
	mustRun(given, urls[:1], true, false)
	samePartitions(t, folder, given)
}

// capturesOf is the number of captures the published partition of dir
// has of input.
func capturesOf(t *testing.T, dir, input string) int64 {
	t.Helper()
	rows, err := dataset.PublishedInputs(dir, "CC-MAIN-2025-05")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Input == input {
			return r.Captures
		}
	}
	return 0
}

// sampleFiles returns n WARC files of sampleWARC(first), sampleWARC(first+1),
// ..., by the path a test server serves them at.
func sampleFiles(t *testing.T, n, first int) map[string][]byte {
	files := map[string][]byte{}
	for i := range n {
		files[fmt.Sprintf("/CC-MAIN-2025-%05d.warc.gz", i)] = sampleWARC(t, first+i)
	}
	return files
}

// counted wraps a test server's handler to count its requests by path in
// hits, which the test reads and clears between runs, when no request is
// under way.
func counted(hits map[string]int, h http.HandlerFunc) http.HandlerFunc {
	var mu sync.Mutex
	return func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		h(w, r)
	}
}
