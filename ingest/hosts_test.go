package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocensus/robocensus/ingest/archive"
	"github.com/robocensus/robocensus/internal/testutil"
)

// TestRunHostsTable: a published partition has a hosts table that DuckDB
// reads, with redirects followed across hosts and files (the target of a
// redirect in one input captured in another), in a robotstxt WARC whose
// redirect targets are captures.
func TestRunHostsTable(t *testing.T) {
	src := t.TempDir()
	write := func(name string, fetches ...archive.Fetch) string {
		var buf bytes.Buffer
		w, err := archive.NewWARCWriter(&buf, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fetches {
			if err := w.WriteCapture(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(src, "crawl-data", "CC-MAIN-2025-05", "robotstxt", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t0 := time.Date(2025, 1, 13, 4, 0, 0, 0, time.UTC)
	rules := []byte("User-agent: *\nDisallow: /private/\n")
	a := write("a.warc.gz",
		archive.Fetch{URL: "http://example.com/robots.txt", Time: t0, Status: 301, Location: "https://www.example.com/robots.txt"},
		archive.Fetch{URL: "http://loop.example/robots.txt", Time: t0, Status: 302, Location: "/robots.txt"},
		archive.Fetch{URL: "http://gone.example/robots.txt", Time: t0, Status: 301, Location: "https://gone.example/robots.txt"},
		archive.Fetch{URL: "https://shop.co.uk/robots.txt", Time: t0, Status: 403, ContentType: "text/html", Body: []byte("<html>no</html>")},
	)
	b := write("b.warc.gz",
		archive.Fetch{URL: "https://www.example.com/robots.txt", Time: t0.Add(time.Hour), ContentType: "text/plain", Body: rules},
		archive.Fetch{URL: "http://shop.co.uk/robots.txt", Time: t0.Add(-time.Hour), Status: 503},
	)
	dir := t.TempDir()
	runIngest(t, dir, "CC-MAIN-2025-05", a, b)
	db := testutil.DuckDB(t, dir)
	got := testutil.Query(t, db, `SELECT string_agg(h.url_host_name || ' ' || coalesce(h.url_host_registered_domain, 'NULL') || ' ' || captures || ' ' ||
		redirect_hops || ' ' || redirect_result || ' ' || coalesce(e.url, 'NULL') || ' ' || effective_outcome || ' ' || fetch_class, '; ' ORDER BY h.url_host_name)
		FROM hosts h LEFT JOIN captures e ON e.capture_id = h.effective_capture_id`)
	want := "example.com example.com 1 1 resolved https://www.example.com/robots.txt rules robots-with-rules; " +
		"gone.example gone.example 1 1 not-captured NULL redirect redirect-not-resolved; " +
		"loop.example loop.example 1 0 loop NULL redirect redirect-not-resolved; " +
		"shop.co.uk shop.co.uk 2 0 none https://shop.co.uk/robots.txt allow-all http-forbidden; " +
		"www.example.com example.com 1 0 none https://www.example.com/robots.txt rules robots-with-rules"
	if got != want {
		t.Errorf("hosts:\n got %s\nwant %s", got, want)
	}
	// Every host of the captures has one row, and the deciding capture is
	// one of its own.
	if n := testutil.Query(t, db, `SELECT count(*) FROM (SELECT DISTINCT url_host_name FROM captures) c FULL JOIN hosts h USING (url_host_name)
		WHERE h.capture_id IS NULL OR NOT EXISTS (SELECT 1 FROM captures x WHERE x.capture_id = h.capture_id AND x.url_host_name = h.url_host_name)`); n != "0" {
		t.Errorf("%s hosts without a row or with a deciding capture of another host", n)
	}
}
