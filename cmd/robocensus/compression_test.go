package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// codecsOf returns the codecs of the column chunks of the Parquet files of
// the dataset in dir, as DuckDB's parquet_metadata names them. It fails
// the test when a file with rows has no chunks, or fewer than 10 of the
// 11 tables have rows (a file without rows has no chunks to name a codec).
func codecsOf(t *testing.T, dir string) string {
	t.Helper()
	db := testutil.OpenDuckDB(t)
	glob := filepath.Join(dir, "*", "*", "*.parquet")
	withRows := testutil.Query(t, db, "SELECT count(*) FROM parquet_file_metadata(?) WHERE num_rows > 0", glob)
	named := testutil.Query(t, db, "SELECT count(DISTINCT file_name) FROM parquet_metadata(?)", glob)
	if n, _ := strconv.Atoi(withRows); named != withRows || n < 10 {
		t.Errorf("%s files with rows, %s with column chunks: want the same, at least 10", withRows, named)
	}
	return testutil.Query(t, db, "SELECT string_agg(DISTINCT compression, ',' ORDER BY compression) FROM parquet_metadata(?)", glob)
}

// TestIngestCompression: ingest --compression writes every file of every
// table in the codec given (zstd by default), and the datasets of the
// three codecs hold the same rows; a codec that is none of them is a
// usage error that writes nothing.
func TestIngestCompression(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 2, 40)
	var zstdPrint string
	for _, c := range []struct{ flag, duckdb string }{{"", "ZSTD"}, {"zstd", "ZSTD"}, {"snappy", "SNAPPY"}, {"none", "UNCOMPRESSED"}, {"Uncompressed", "UNCOMPRESSED"}} {
		dir := t.TempDir()
		var extra []string
		if c.flag != "" {
			extra = []string{"--compression", c.flag}
		}
		if code, out, errs := runCLI(ingestArgs(dir, extra, inputs)...); code != 0 {
			t.Fatalf("--compression %q: exit %d\n%s%s", c.flag, code, out, errs)
		}
		if got, want := codecsOf(t, dir), c.duckdb; got != want {
			t.Errorf("--compression %q: %s, want %s (every table)", c.flag, got, want)
		}
		print := fingerprint(t, dir)
		if zstdPrint == "" {
			zstdPrint = print
		} else if print != zstdPrint {
			t.Errorf("--compression %q: rows differ from the default's:\n got %s\nwant %s", c.flag, print, zstdPrint)
		}
	}
	for _, bad := range []string{"lz4", "gzip", ""} {
		dir := filepath.Join(t.TempDir(), "ds")
		code, out, errs := runCLI(ingestArgs(dir, []string{"--compression", bad}, inputs)...)
		if want := `ingest: --compression "` + bad + `": want zstd, snappy, none`; code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("--compression %q: exit %d, want %d and %q\n%s%s", bad, code, exitUsage, want, out, errs)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("--compression %q: the dataset folder was made (%v)", bad, err)
		}
	}
}

// TestIngestCompressionChanged: the partition is published in the codec of
// the run that publishes it. A crawl split in two shards, the first run
// with snappy and the second, which publishes, with none, has only
// uncompressed files, with the rows of a single default run; a rerun with
// zstd that reads a failed input again writes the rows it keeps in zstd
// too.
func TestIngestCompressionChanged(t *testing.T) {
	inputs := makeInputs(t, t.TempDir(), 4, 30)
	want := t.TempDir()
	runCLI(ingestArgs(want, nil, inputs)...)
	wantPrint := fingerprint(t, want)

	dir := t.TempDir()
	code, out, errs := runCLI(ingestArgs(dir, []string{"--shard", "0/2", "--compression", "snappy"}, inputs)...)
	if code != 0 || !strings.Contains(out, "before the crawl is published") {
		t.Fatalf("shard 0/2: exit %d, want 0 and the crawl not published\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(ingestArgs(dir, []string{"--shard", "1/2", "--compression", "none"}, inputs)...)
	if code != 0 || !strings.Contains(out, "published") {
		t.Fatalf("shard 1/2: exit %d\n%s%s", code, out, errs)
	}
	if got := codecsOf(t, dir); got != "UNCOMPRESSED" {
		t.Errorf("shards of snappy and none, published by none: %s", got)
	}
	if got := fingerprint(t, dir); got != wantPrint {
		t.Errorf("shards of two codecs: rows differ from a single run's:\n got %s\nwant %s", got, wantPrint)
	}

	// The last input fails (it is missing), then is there for the rerun.
	rerun := t.TempDir()
	missing := filepath.Join(t.TempDir(), "in-03.warc.gz")
	given := append(inputs[:3:3], missing)
	if code, out, errs := runCLI(ingestArgs(rerun, []string{"--compression", "snappy"}, given)...); code != 1 {
		t.Fatalf("first run: exit %d, want 1 (an input missing)\n%s%s", code, out, errs)
	}
	data, err := os.ReadFile(inputs[3])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(missing, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(ingestArgs(rerun, []string{"--compression", "zstd"}, given)...)
	if code != 0 || !strings.Contains(out, "3 inputs kept") {
		t.Fatalf("rerun: exit %d, want 0 and three inputs kept\n%s%s", code, out, errs)
	}
	if got := codecsOf(t, rerun); got != "ZSTD" {
		t.Errorf("a snappy partition rerun with zstd: %s", got)
	}
	if got := publishedCounts(t, rerun); got != "4 inputs, 120 captures, 4 files" {
		t.Errorf("after the rerun: %s", got)
	}
}

// TestNightlyCompression: scripts/nightly.sh passes COMPRESSION to ingest:
// snappy gives a dataset of snappy files with the rows of the default
// run; a codec ingest does not know is ingest's usage error, exit 2.
func TestNightlyCompression(t *testing.T) {
	for _, tool := range []string{"bash", "flock", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("scripts/nightly.sh needs %s: %v", tool, err)
		}
	}
	url := nightlyMirror(t)
	want := t.TempDir()
	runBinary(t, "ingest", "-o", want, "--base-url", url, url+"/crawl-data/CC-MAIN-2025-05/robotstxt.paths.gz")
	env := []string{"CRAWL=CC-MAIN-2025-05", "BASE_URL=" + url}

	data := t.TempDir()
	code, log := runNightly(t, append(env, "DATA="+data, "COMPRESSION=snappy")...)
	if code != 0 {
		t.Fatalf("COMPRESSION=snappy: exit %d\n%s", code, log)
	}
	if got := codecsOf(t, data); got != "SNAPPY" {
		t.Errorf("COMPRESSION=snappy: the dataset's chunks are %s", got)
	}
	if got, wantPrint := fingerprint(t, data), fingerprint(t, want); got != wantPrint {
		t.Errorf("COMPRESSION=snappy: rows differ from the default run's:\n got %s\nwant %s", got, wantPrint)
	}
	code, log = runNightly(t, append(env, "DATA="+t.TempDir(), "COMPRESSION=lz4")...)
	if code != exitUsage || !strings.Contains(log, `--compression "lz4": want zstd, snappy, none`) {
		t.Errorf("COMPRESSION=lz4: exit %d, want %d and ingest's message\n%s", code, exitUsage, log)
	}
}
