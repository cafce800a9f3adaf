package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/internal/testutil/s3test"
)

// Ingests of s3:// inputs (issue 30) against a real S3-compatible server
// on loopback (versitygw), compared with DuckDB to the ingest of the same
// files from disk.

// s3Env points the standard AWS settings at srv for the test: its
// credentials and region in the environment, no config or credentials file
// of the machine, no instance metadata, no endpoint.
func s3Env(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": s3test.AccessKey, "AWS_SECRET_ACCESS_KEY": s3test.SecretKey, "AWS_SESSION_TOKEN": "",
		"AWS_REGION": s3test.Region, "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "", "AWS_DEFAULT_PROFILE": "",
		"AWS_CONFIG_FILE": filepath.Join(dir, "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials"),
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_S3": "",
		"AWS_WEB_IDENTITY_TOKEN_FILE": "", "AWS_CONTAINER_CREDENTIALS_FULL_URI": "", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "",
	} {
		t.Setenv(k, v)
	}
}

// s3Crawl is where the test crawl's files are, in the bucket and on disk.
const s3Crawl = "crawl-data/CC-MAIN-2025-05/"

// putCrawl writes n WARC files of the repository's WARC writer on disk
// under dir and in the bucket "data" under the same keys, and returns the
// keys.
func putCrawl(t *testing.T, srv *s3test.Server, dir string, n int) []string {
	var keys []string
	for i := range n {
		key := fmt.Sprintf("%ssegments/%d/robotstxt/CC-MAIN-20250113203450-20250113233450-%05d.warc.gz", s3Crawl, i, i)
		data := crawlWARC(t, i, 40+i)
		p := filepath.Join(dir, filepath.FromSlash(key))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		srv.Put(t, "data", key, data)
		keys = append(keys, key)
	}
	return keys
}

// TestIngestS3 (issue 30): an ingest of s3:// inputs, the endpoint and
// credentials taken from the standard AWS environment, gives the dataset
// the ingest of the same files from disk gives, table by table as DuckDB
// reads them (the inputs table but for the input's name and the run's
// clock).
func TestIngestS3(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "data")
	s3Env(t)
	t.Setenv("AWS_ENDPOINT_URL_S3", srv.URL)
	mirror := t.TempDir()
	keys := putCrawl(t, srv, mirror, 3)
	var s3Inputs, localInputs []string
	for _, k := range keys {
		s3Inputs = append(s3Inputs, "s3://data/"+k)
		localInputs = append(localInputs, filepath.Join(mirror, filepath.FromSlash(k)))
	}
	fromS3, fromDisk := filepath.Join(t.TempDir(), "s3"), filepath.Join(t.TempDir(), "disk")
	if code, out, errs := runCmd(t, "", append([]string{"ingest", "-o", fromS3}, s3Inputs...)...); code != 0 || !strings.Contains(out, "crawl=CC-MAIN-2025-05): 3/3 inputs") {
		t.Fatalf("s3 ingest: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd(t, "", append([]string{"ingest", "-o", fromDisk}, localInputs...)...); code != 0 {
		t.Fatalf("local ingest: exit %d\n%s%s", code, out, errs)
	}
	db := testutil.DuckDB(t, fromDisk)
	tables := sameDatasets(t, db, fromDisk, fromS3, map[string]string{"inputs": "input, started, finished"})
	if n := testutil.Query(t, db, fmt.Sprintf("SELECT count(*) FROM read_parquet('%s/captures/**/*.parquet') WHERE input LIKE 's3://data/crawl-data/%%'", fromS3)); n == "0" {
		t.Error("the captures of the s3 ingest do not name their s3:// input")
	}
	if tables < 8 {
		t.Errorf("%d tables compared, want the dataset's all", tables)
	}
	if got := testutil.Query(t, db, fmt.Sprintf("SELECT count(*) FROM read_parquet('%s/captures/**/*.parquet')", fromS3)); got == "0" {
		t.Error("no captures read from s3://")
	}
	want := strings.Join(s3Inputs, ",")
	if got := testutil.Query(t, db, fmt.Sprintf("SELECT string_agg(input, ',' ORDER BY input) FROM read_parquet('%s/inputs/**/*.parquet')", fromS3)); got != want {
		t.Errorf("inputs of the s3 ingest: %s, want %s", got, want)
	}
}

// sameDatasets compares each table of dataset a with that of b as
// multisets of rows (EXCEPT ALL both ways), leaving out the columns
// except names for a table, and of the input column of the others only
// what comes before "crawl-data/" (a folder, or s3://BUCKET/); it returns
// the number of tables compared.
func sameDatasets(t *testing.T, db *sql.DB, a, b string, except map[string]string) int {
	t.Helper()
	entries, err := os.ReadDir(a)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		from := func(dir string) string {
			return fmt.Sprintf("read_parquet('%s', hive_partitioning = true, hive_types = {'crawl': VARCHAR})",
				filepath.Join(dir, e.Name(), "**", "*.parquet"))
		}
		hasInput := testutil.Query(t, db, "SELECT count(*) FROM (DESCRIBE SELECT * FROM "+from(a)+") WHERE column_name = 'input'") == "1"
		sel := func(dir string) string {
			cols := "*"
			if x := except[e.Name()]; x != "" {
				cols += " EXCLUDE (" + x + ")"
			} else if hasInput {
				cols += " REPLACE (regexp_extract(input, 'crawl-data/.*') AS input)"
			}
			return "SELECT " + cols + " FROM " + from(dir)
		}
		for _, q := range []string{sel(a) + " EXCEPT ALL " + sel(b), sel(b) + " EXCEPT ALL " + sel(a)} {
			if got := testutil.Query(t, db, "SELECT count(*) FROM ("+q+")"); got != "0" {
				t.Errorf("table %s: %s rows of one dataset are not in the other (%s)", e.Name(), got, q)
			}
		}
		n++
	}
	return n
}

// TestIngestS3Manifest (issue 30): an s3:// manifest's paths are keys of
// its bucket; a key missing from the bucket is recorded as that input's
// failure (NoSuchKey) while the others are read whole, and the run exits
// 1. Wrong credentials, a missing bucket and an unreachable endpoint fail
// with errors that name the input and the cause.
func TestIngestS3Manifest(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "data")
	s3Env(t)
	keys := putCrawl(t, srv, t.TempDir(), 2)
	missing := s3Crawl + "segments/9/robotstxt/missing.warc.gz"
	srv.Put(t, "data", s3Crawl+"robotstxt.paths.gz", gzipString(strings.Join(append(keys, missing), "\n")+"\n"))
	out := filepath.Join(t.TempDir(), "data")
	code, stdout, stderr := runCmd(t, "", "ingest", "-o", out, "--s3-endpoint", srv.URL, "--retries", "1", "--retry-wait", "1ms",
		"s3://data/"+s3Crawl+"robotstxt.paths.gz")
	if code != 1 || !regexp.MustCompile(`crawl=CC-MAIN-2025-05\): 3/3 inputs`).MatchString(stdout) ||
		!strings.Contains(stderr, "manifest s3://data/"+s3Crawl+"robotstxt.paths.gz: 3 inputs under") {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	db := testutil.DuckDB(t, out)
	got := testutil.Query(t, db, "SELECT string_agg(input || ' ' || captures || ' ' || coalesce(error, '-'), '\n' ORDER BY input) FROM inputs")
	for _, k := range keys {
		if !regexp.MustCompile(`(?m)^s3://data/` + regexp.QuoteMeta(k) + ` [1-9][0-9]* -$`).MatchString(got) {
			t.Errorf("inputs table:\n%s\nwant s3://data/%s read whole", got, k)
		}
	}
	if !regexp.MustCompile(`(?m)^s3://data/` + regexp.QuoteMeta(missing) + ` 0 .*404 Not Found: S3 NoSuchKey`).MatchString(got) {
		t.Errorf("inputs table:\n%s\nwant the missing key's NoSuchKey", got)
	}

	for _, c := range []struct {
		name, input, endpoint, want string
		env                         map[string]string
	}{
		{"wrong secret", "s3://data/" + keys[0], srv.URL, "SignatureDoesNotMatch", map[string]string{"AWS_SECRET_ACCESS_KEY": "wrong"}},
		{"missing bucket", "s3://nobucket/" + keys[0], srv.URL, "NoSuchBucket", nil},
		{"unreachable endpoint", "s3://data/" + keys[0], "http://127.0.0.1:1", "connection refused", nil},
		{"bad endpoint", "s3://data/" + keys[0], "127.0.0.1:7070", "S3 endpoint", nil},
	} {
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		code, stdout, stderr := runCmd(t, "", "ingest", "-o", filepath.Join(t.TempDir(), "data"), "--s3-endpoint", c.endpoint,
			"--retries", "1", "--retry-wait", "1ms", c.input)
		if code == 0 || !strings.Contains(stdout+stderr, c.want) || c.name != "bad endpoint" && !strings.Contains(stdout+stderr, c.input) {
			t.Errorf("%s: exit %d, want a failure naming %s and saying %q\nstdout: %s\nstderr: %s", c.name, code, c.input, c.want, stdout, stderr)
		}
		s3Env(t)
	}
}

// crawlWARC is file k of a made-up crawl, written with the repository's
// WARC writer: n captures of hosts of its own, with groups, rules,
// sitemaps, typos and a 404, so that every table has rows.
func crawlWARC(t *testing.T, k, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := archive.NewWARCWriter(&buf, fmt.Sprintf("CC-MAIN-20250113203450-20250113233450-%05d.warc.gz", k))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf("User-agent: *\nDisallow: /private-%d/\nAllow: /private-%d/public\n\nUser-agent: GPTBot\nDisalow: /\n\nSitemap: https://h%d-%d.example/sitemap.xml\n", i, i, k, i)
		f := archive.Fetch{URL: fmt.Sprintf("https://h%d-%d.example/robots.txt", k, i),
			Time: time.Date(2025, 1, 13, 20, 0, i, 0, time.UTC), ContentType: "text/plain", Body: []byte(body)}
		if i%7 == 3 {
			f.Status, f.Body = 404, []byte("not found")
		}
		if err := w.WriteCapture(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
