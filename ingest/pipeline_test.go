package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest"
	"github.com/robocensus/robocensus/ingest/remote"
	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/robots"
)

// The pipeline end to end: real inputs from the shared corpus, a real
// dataset on disk, read back by a real DuckDB.

func runIngest(t *testing.T, dir, crawl string, inputs ...string) ingest.Summary {
	t.Helper()
	sum, err := ingest.Run(context.Background(), ingest.Config{Dir: dir, Crawl: crawl, Workers: 2}, inputs)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// A WARC whose contents are known: aut-heritrix-2008/example.warc.gz holds
// 822 records, 38 of them robots.txt responses (see ingest's corpus table).
func TestRunAccountsForEveryRecord(t *testing.T) {
	warc := testutil.Corpus(t, "warc", "aut-heritrix-2008", "example.warc.gz")
	dir := t.TempDir()
	sum := runIngest(t, dir, "test-1", warc)
	if sum.Failed != 0 || len(sum.Inputs) != 1 || sum.Captures != 38 {
		t.Fatalf("summary %+v", sum)
	}
	db := testutil.DuckDB(t, dir)
	f := func(query, want string) {
		t.Helper()
		if got := testutil.Query(t, db, query); got != want {
			t.Errorf("%s\n got %s, want %s", query, got, want)
		}
	}
	f("SELECT records || ' ' || captures || ' ' || skipped FROM inputs", "822 38 784")
	f("SELECT records = captures + skipped FROM inputs", "true")
	f(`SELECT sum(v::BIGINT) FROM (SELECT unnest(map_values(json_transform(skipped_by_reason, '"MAP(VARCHAR, BIGINT)"'))) v FROM inputs)`, "784")
	f("SELECT skipped_by_reason FROM inputs", `{"metadata":261,"not-http":38,"not-robots-url":223,"request":261,"warcinfo":1}`)
	f("SELECT error IS NULL FROM inputs", "true")
	f("SELECT count(*) || ' ' || count(DISTINCT capture_id) FROM captures", "38 38")
	f("SELECT string_agg(DISTINCT fetch_status::VARCHAR, ',' ORDER BY fetch_status::VARCHAR) FROM captures", "200,404")
	f("SELECT count(*) FROM captures WHERE url NOT LIKE '%/robots.txt'", "0")
	f("SELECT count(*) FROM captures WHERE crawl <> 'test-1'", "0")
	f("SELECT count(*) FROM captures WHERE warc_record_id NOT LIKE '<urn:uuid:%>'", "0")
	// Every child row joins a capture.
	for _, table := range []string{"diagnostics", "rules", "sitemaps", "agents"} {
		f("SELECT count(*) FROM "+table+" LEFT JOIN captures USING (capture_id) WHERE captures.url IS NULL", "0")
	}
	f("SELECT count(*) FROM agents", strconv.Itoa(38*len(robots.TrackedCrawlers())))
	f("SELECT count(*) FROM captures c JOIN bodies b USING (content_digest) WHERE c.fetch_status = 200", testutil.Query(t, db, "SELECT count(*) FROM captures WHERE fetch_status = 200"))
	// Offsets point at the records: the first capture's record starts with
	// a gzip member.
	var offset, length int64
	if err := db.QueryRow("SELECT warc_record_offset, warc_record_length FROM captures ORDER BY warc_record_offset LIMIT 1").Scan(&offset, &length); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(warc)
	if err != nil {
		t.Fatal(err)
	}
	if length <= 0 || offset+length > int64(len(data)) || data[offset] != 0x1f || data[offset+1] != 0x8b {
		t.Errorf("record at %d+%d does not start a gzip member", offset, length)
	}
}

// The columns have the types DESIGN.md promises.
func TestRunColumnTypes(t *testing.T) {
	warc := testutil.Corpus(t, "warc", "aut-heritrix-2008", "example.warc.gz")
	dir := t.TempDir()
	runIngest(t, dir, "CC-MAIN-2099-01", warc)
	db := testutil.DuckDB(t, dir)
	want := map[string]string{
		"captures.fetch_time": "TIMESTAMP", "captures.fetch_status": "INTEGER", "captures.oversize": "BOOLEAN",
		"captures.user_agents": "VARCHAR[]", "captures.payload_length": "BIGINT", "captures.rule_count": "INTEGER",
		"captures.star_disallows_all": "BOOLEAN", "captures.outcome": "VARCHAR", "captures.crawl": "VARCHAR",
		"diagnostics.line": "INTEGER", "rules.user_agents": "VARCHAR[]", "rules.has_wildcard": "BOOLEAN",
		"sitemaps.valid": "BOOLEAN", "agents.named": "BOOLEAN", "inputs.started": "TIMESTAMP", "inputs.records": "BIGINT",
	}
	for col, typ := range want {
		table, column, _ := strings.Cut(col, ".")
		got := testutil.Query(t, db, "SELECT data_type FROM information_schema.columns WHERE table_name = ? AND column_name = ?", table, column)
		if got != typ {
			t.Errorf("%s: %s, want %s", col, got, typ)
		}
	}
}

// Every file of the shared WARC corpus goes through a single run: none
// aborts it, each is a row of inputs, and each accounts for its records.
func TestRunWholeWARCCorpus(t *testing.T) {
	root := testutil.Corpus(t, "warc")
	var inputs []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".md") {
			inputs = append(inputs, path)
		}
		return nil
	})
	dir := t.TempDir()
	sum := runIngest(t, dir, "corpus", inputs...)
	if len(sum.Inputs) != len(inputs) {
		t.Fatalf("%d inputs rows for %d inputs", len(sum.Inputs), len(inputs))
	}
	for _, in := range sum.Inputs {
		if in.Records != in.Captures+in.Skipped {
			t.Errorf("%s: records %d != captures %d + skipped %d", in.Input, in.Records, in.Captures, in.Skipped)
		}
	}
	db := testutil.DuckDB(t, dir)
	if got := testutil.Query(t, db, "SELECT count(*) FROM inputs WHERE records <> captures + skipped"); got != "0" {
		t.Errorf("%s inputs do not add up", got)
	}
	// LZ4 files, gzip files that hold no WARC and binary data (a zstd
	// dictionary) are the only inputs not read: recorded with an error,
	// not fatal.
	failed := testutil.Query(t, db, "SELECT string_agg(regexp_extract(input, '[^/]+$'), ' ' ORDER BY input) FROM inputs WHERE error IS NOT NULL")
	for _, name := range strings.Fields(failed) {
		if !strings.HasSuffix(name, ".lz4") && !strings.HasSuffix(name, ".gz") && name != "zstd-dictionary" {
			t.Errorf("%s failed: %s", name, testutil.Query(t, db, "SELECT error FROM inputs WHERE input LIKE ?", "%"+name))
		}
	}
	if sum.Failed != len(strings.Fields(failed)) {
		t.Errorf("summary says %d failed, inputs table %d", sum.Failed, len(strings.Fields(failed)))
	}
	if got := testutil.Query(t, db, "SELECT sum(captures) FROM inputs"); got != testutil.Query(t, db, "SELECT count(*) FROM captures") {
		t.Errorf("inputs count %s captures, captures table has %s", got, testutil.Query(t, db, "SELECT count(*) FROM captures"))
	}
	if got := testutil.Query(t, db, "SELECT count(*) - count(DISTINCT capture_id) FROM captures"); got != "0" {
		t.Errorf("%s duplicate capture IDs", got)
	}
	// Damaged inputs say where.
	if got := testutil.Query(t, db, "SELECT count(*) FROM inputs WHERE damage_events > 0 AND damage IS NULL"); got != "0" {
		t.Errorf("%s damaged inputs list no damage", got)
	}
}

// A rerun over the same inputs replaces the partition with the same rows,
// and leaves other partitions alone.
func TestRunRerunReplacesPartition(t *testing.T) {
	warc := testutil.Corpus(t, "warc", "webarchive-commons-testdata", "IAH-urls-wget.warc.gz")
	other := testutil.Corpus(t, "warc", "ukwa-discovery-testdata", "BL-20140325121225068-00000-32090~opera~8443.warc.gz")
	dir := t.TempDir()
	runIngest(t, dir, "a", warc)
	runIngest(t, dir, "b", other)
	snapshot := func() string {
		db := testutil.DuckDB(t, dir)
		return testutil.Query(t, db, `SELECT string_agg(crawl || ':' || capture_id || ':' || url || ':' || outcome, ' ' ORDER BY crawl, capture_id) FROM captures`) +
			"|" + testutil.Query(t, db, "SELECT count(*) FROM diagnostics") + "|" + testutil.Query(t, db, "SELECT count(*) FROM agents")
	}
	first := snapshot()
	runIngest(t, dir, "a", warc)
	if again := snapshot(); again != first {
		t.Errorf("rerun changed the dataset:\n%s\n%s", first, again)
	}
	db := testutil.DuckDB(t, dir)
	if got := testutil.Query(t, db, "SELECT string_agg(crawl || '=' || n, ' ' ORDER BY crawl) FROM (SELECT crawl, count(*) AS n FROM captures GROUP BY crawl)"); got != "a=2 b=3" {
		t.Errorf("captures per crawl: %s, want a=2 b=3", got)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// Tar archives of bodies: the host comes from the entry name; there is no
// HTTP status, so each body is judged by its content as a 2xx body is:
// unknown (a robots.txt), or not-robots for the two that are not (an HTML
// error page, binary bytes).
func TestRunTarArchive(t *testing.T) {
	tgz := testutil.Corpus(t, "robots", "nrjones8-gov-robots-archive", "raw-bodies.tar.gz")
	dir := t.TempDir()
	sum := runIngest(t, dir, "gov", tgz)
	if sum.Captures != 9438 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum.Progress)
	}
	db := testutil.DuckDB(t, dir)
	if got := testutil.Query(t, db, "SELECT count(*) FROM captures WHERE fetch_status IS NOT NULL"); got != "0" {
		t.Errorf("%s captures with a status", got)
	}
	if got := testutil.Query(t, db, "SELECT string_agg(url_host_name || ' ' || outcome, ', ' ORDER BY url_host_name) FROM captures WHERE outcome <> 'unknown'"); got != "ccthita-nsn.gov not-robots, city-sheridan-wy.com not-robots" {
		t.Errorf("captures not judged a robots.txt: %s", got)
	}
	if got := testutil.Query(t, db, "SELECT url FROM captures WHERE url_host_name = 'www.usda.gov'"); got != "https://www.usda.gov/robots.txt" {
		t.Errorf("url %s", got)
	}
	if got := testutil.Query(t, db, "SELECT count(*) > 1000 FROM rules"); got != "true" {
		t.Errorf("few rules")
	}
	// cstx.gov's robots.txt is 2,695,790 bytes (the tar header's size):
	// stored cut to 1 MiB by robocensus, not by a crawler (issue 27 item 7).
	if got := testutil.Query(t, db, `SELECT concat_ws(' ', payload_length, payload_length_real, content_truncated,
		(SELECT string_agg(code, ',' ORDER BY code) FROM diagnostics d WHERE d.capture_id = c.capture_id AND code IN ('crawler-truncated', 'stored-truncated')))
		FROM captures c WHERE url_host_name = 'cstx.gov'`); got != "1048576 2695790 body-cap stored-truncated" {
		t.Errorf("cstx.gov: %s, want 1048576 2695790 body-cap stored-truncated", got)
	}
}

func TestCrawlLabel(t *testing.T) {
	now := time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)
	f := func(want string, inputs ...string) {
		t.Helper()
		if got := remote.CrawlLabel(inputs, now); got != want {
			t.Errorf("CrawlLabel(%q) = %q, want %q", inputs, got, want)
		}
	}
	f("CC-MAIN-2025-05", "crawl-data/CC-MAIN-2025-05/segments/1/robotstxt/a.warc.gz", "x/CC-MAIN-2025-05/b.warc.gz")
	f("2026-11-22", "a.warc.gz")
	f("2026-11-22", "CC-MAIN-2025-05/a.warc.gz", "CC-MAIN-2025-08/b.warc.gz")
	f("2026-11-22")
}

// A run in which no input could be read publishes nothing, leaves no work
// behind, and leaves a partition published before as it was.
func TestRunNothingReadPublishesNothing(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(t.TempDir(), "nonexistent.warc.gz")
	sum := runIngest(t, dir, "typo", missing)
	if !sum.NothingRead || sum.Published || sum.Failed != 1 {
		t.Fatalf("summary %+v", sum)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("dataset folder not empty: %v", entries)
	}
	warc := testutil.Corpus(t, "warc", "webarchive-commons-testdata", "IAH-urls-wget.warc.gz")
	runIngest(t, dir, "typo", warc)
	sum = runIngest(t, dir, "typo", missing)
	if !sum.NothingRead || sum.Published {
		t.Fatalf("rerun summary %+v", sum)
	}
	db := testutil.DuckDB(t, dir)
	if got := testutil.Query(t, db, "SELECT count(*) FROM captures"); got != "2" {
		t.Errorf("the partition published before has %s captures, want 2", got)
	}
}
