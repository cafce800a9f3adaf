package ingest_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// crawlerCut is a robots.txt response record the crawler cut, for reason.
func crawlerCut(host, body, reason string) string {
	return testutil.Response("https://"+host+"/robots.txt", "HTTP/1.1 200 OK",
		"Content-Type: text/plain\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n", body, "WARC-Truncated: "+reason)
}

// TestIssue27RealLength (issue 27 item 7): a body over the 1 MiB cap is
// stored cut, and the captures row keeps its real length beside the
// stored one; robocensus's cut is stored-truncated, not
// crawler-truncated, which stays for the crawler's cuts (WARC-Truncated).
func TestIssue27RealLength(t *testing.T) {
	const big = 2_600_000
	warc := filepath.Join(t.TempDir(), "sizes.warc.gz")
	data := testutil.PerRecord(t,
		testutil.Robots200("big.example", testutil.BigRobots(big)),
		testutil.Robots200("small.example", "User-agent: *\nDisallow: /x\n"),
		crawlerCut("cut.example", "User-agent: *\nDisallow: /a\n", "length"),
		crawlerCut("both.example", testutil.BigRobots(big), "time"),
	)
	if err := os.WriteFile(warc, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runIngest(t, dir, "CC-MAIN-2099-01", warc)
	db := testutil.DuckDB(t, dir)
	got := testutil.Query(t, db, `SELECT string_agg(concat_ws(' ', url_host_name, payload_length, payload_length_real,
		coalesce(content_truncated, '-'), oversize, (SELECT coalesce(string_agg(code, ',' ORDER BY code), '-') FROM diagnostics d
			WHERE d.capture_id = c.capture_id AND code IN ('crawler-truncated', 'stored-truncated', 'ingest-body-capped'))), '; ' ORDER BY url_host_name)
		FROM captures c`)
	want := "big.example 1048576 2600000 body-cap true ingest-body-capped,stored-truncated; " +
		"both.example 1048576 2600000 time true crawler-truncated,ingest-body-capped,stored-truncated; " +
		"cut.example 27 27 length false crawler-truncated; " +
		"small.example 27 27 - false -"
	if got != want {
		t.Errorf("captures:\n got %s\nwant %s", got, want)
	}
}
